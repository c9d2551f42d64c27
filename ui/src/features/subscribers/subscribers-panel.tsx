import { useState } from 'react';
import { Button, ButtonLink, Checkbox, ErrorLine, Panel, Spinner } from '../../components';
import { localTime } from '../../lib/local-time';
import { useLoad } from '../../lib/use-load';
import { failureText, useSaveAction } from '../../lib/use-save-action';
import {
  fetchEmail,
  resumeEmail,
  setEmailSwitch,
  subscribersExportUrl,
  type EmailSettings,
  type EmailSwitch,
} from './api';
import { SubscriberImport } from './subscriber-import';
import { countsText } from './texts';
import { SubscriberList } from './subscriber-list';
import './subscribers.css';

/**
 * The 'Subscribers' panel, on an instance that sends email: how many readers subscribe by email,
 * the notice of a pause for bounces with 'Resume sending', the blog's three email switches, the
 * subscribers a page at a time (searched, filtered by state, removed one by one), the CSV export,
 * and the import of another service's list.
 */
export function SubscribersPanel({ blogId }: { blogId: number }) {
  const load = useLoad((signal) => fetchEmail(blogId, signal), [blogId]);
  const email = load.lastData;
  // Each change the server answered counts: the list's page is loaded again after it.
  const [changes, setChanges] = useState(0);
  const show = (next: EmailSettings) => {
    load.setData(() => next);
    setChanges((n) => n + 1);
  };

  return (
    <Panel title="Subscribers">
      <div className="q-settings__stack q-subscribers">
        {email === undefined && !load.lastError && <Spinner label="Loading the subscribers" />}
        {email === undefined && <ErrorLine message={failureText(load.lastError)} />}
        {email && (
          <>
            <p className="q-subscribers__counts">{countsText(email)}</p>
            {email.pausedAt && <PauseNotice blogId={blogId} pausedAt={email.pausedAt} onChange={show} />}
            <Switches blogId={blogId} email={email} onChange={show} />
            <SubscriberList blogId={blogId} changes={changes} onChange={show} />
            <div>
              <ButtonLink href={subscribersExportUrl(blogId)} download variant="secondary">
                Export CSV
              </ButtonLink>
            </div>
            <SubscriberImport blogId={blogId} email={email} onChange={show} />
          </>
        )}
      </div>
    </Panel>
  );
}

/** Sending paused for bounces since `pausedAt`, and the button that resumes it. */
function PauseNotice({
  blogId,
  pausedAt,
  onChange,
}: {
  blogId: number;
  pausedAt: string;
  onChange: (next: EmailSettings) => void;
}) {
  const resume = useSaveAction();
  return (
    <div className="q-subscribers__notice" role="status">
      <p>
        Sending is paused since {localTime(pausedAt)}: too many addresses bounced (the mail servers refused them for
        good). Bounced subscribers get no more mail; check your list, then resume. The mail waiting goes out then.
      </p>
      <div>
        <Button
          variant="secondary"
          loading={resume.loading}
          onClick={() => void resume.run(async () => onChange(await resumeEmail(blogId)))}
        >
          Resume sending
        </Button>
      </div>
      <ErrorLine message={failureText(resume.failure)} />
    </div>
  );
}

/** The blog's email switches, their labels and what each does. */
const SWITCHES: { name: EmailSwitch; label: string; hint: string }[] = [
  {
    name: 'enabled',
    label: 'Send new posts by email',
    hint: 'Each new post goes to your confirmed subscribers. Switching this off hides the subscribe form on your blog and drops the mail not yet sent.',
  },
  {
    name: 'replyToOwner',
    label: 'Replies go to my address',
    hint: "A reader who answers a post's email writes to your sign-in address.",
  },
  {
    name: 'notifyOwner',
    label: 'Email me when something waits for approval',
    hint: 'At most one email an hour, when replies wait for your approval or deliveries were given up.',
  },
];

/** The three switches, each saved as soon as it is switched. */
function Switches({
  blogId,
  email,
  onChange,
}: {
  blogId: number;
  email: EmailSettings;
  onChange: (next: EmailSettings) => void;
}) {
  const save = useSaveAction();
  return (
    <div className="q-settings__stack">
      {SWITCHES.map(({ name, label, hint }) => (
        <Checkbox
          key={name}
          label={label}
          hint={hint}
          checked={email[name]}
          disabled={save.loading}
          onChange={(checked) => void save.run(async () => onChange(await setEmailSwitch(blogId, name, checked)))}
        />
      ))}
      <ErrorLine message={failureText(save.failure)} />
    </div>
  );
}
