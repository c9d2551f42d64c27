import { useState, type FormEvent } from 'react';
import { Button, ErrorLine, Pager, Select, TextInput } from '../../components';
import { localDate } from '../../lib/local-time';
import { useLoad } from '../../lib/use-load';
import { usePageBack } from '../../lib/use-page-back';
import { failureText, useSaveAction } from '../../lib/use-save-action';
import { fetchSubscribers, removeSubscriber, type EmailSettings, type StateFilter, type Subscriber } from './api';

/** What the owner confirms before a subscriber goes. */
export const removeSubscriberQuestion = (email: string) =>
  `Remove ${email} from your subscribers? They get no more of your posts by email.`;

/** The state filter's choices. */
const STATE_OPTIONS: { value: StateFilter; label: string }[] = [
  { value: '', label: 'All' },
  { value: 'confirmed', label: 'Confirmed' },
  { value: 'pending', label: 'Waiting' },
  { value: 'bounced', label: 'Bounced' },
];

/** A state's badge. */
const STATE_NAMES: Record<Subscriber['state'], string> = {
  confirmed: 'Confirmed',
  pending: 'Waiting',
  bounced: 'Bounced',
};

/** A date of a subscriber's, or a dash when there is none yet. */
const dateOrDash = (iso: string | null) => (iso ? <time dateTime={iso}>{localDate(iso)}</time> : '—');

/**
 * One page of the subscribers (newest first, with a pager past one page), searched by address
 * (on 'Search') and filtered by state, each with a Remove button. The page is loaded again after
 * every change (`changes`); a page left empty by one goes back a page.
 */
export function SubscriberList({
  blogId,
  changes,
  onChange,
}: {
  blogId: number;
  changes: number;
  onChange: (next: EmailSettings) => void;
}) {
  const action = useSaveAction();
  const [busy, setBusy] = useState<number | null>(null);
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const [state, setState] = useState<StateFilter>('');
  const [page, setPage] = useState(1);
  const list = useLoad(
    (signal) => fetchSubscribers(blogId, { q, state, page }, signal),
    [blogId, q, state, page, changes],
  );
  const shown = list.lastData;
  const pastTheEnd = usePageBack(page, list, (data) => data.subscribers.length === 0, setPage);
  const filtered = q !== '' || state !== '';

  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setQ(typed.trim());
    setPage(1);
  };
  const remove = (subscriber: Subscriber) => {
    if (!window.confirm(removeSubscriberQuestion(subscriber.email))) return;
    setBusy(subscriber.id);
    void action.run(async () => onChange(await removeSubscriber(blogId, subscriber.id))).finally(() => setBusy(null));
  };

  return (
    <div className="q-settings__stack">
      <form className="q-settings__row" role="search" onSubmit={search} noValidate>
        <TextInput
          label="Address contains"
          type="search"
          className="q-settings__grow"
          value={typed}
          onChange={setTyped}
          maxLength={254}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
        />
        <Button type="submit" variant="secondary">
          Search
        </Button>
        <Select
          label="Show"
          options={STATE_OPTIONS}
          value={state}
          onChange={(value) => {
            setState(value as StateFilter);
            setPage(1);
          }}
        />
      </form>
      {list.status === 'failed' && !pastTheEnd && <ErrorLine message={failureText(list.error)} />}
      {shown && shown.subscribers.length === 0 && filtered && (
        <p className="q-settings__muted">No subscriber matches.</p>
      )}
      {shown && shown.subscribers.length > 0 && (
        <div className="q-subscribers__table-wrap">
          <table className="q-subscribers__table" aria-label="Subscribers">
            <thead>
              <tr>
                <th scope="col">Address</th>
                <th scope="col">State</th>
                <th scope="col">Subscribed</th>
                <th scope="col">Confirmed</th>
                <th scope="col">Last sent</th>
                <th scope="col">
                  <span className="q-visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.subscribers.map((subscriber) => (
                <tr key={subscriber.id}>
                  <td className="q-subscribers__address">{subscriber.email}</td>
                  <td>
                    <span className={`q-subscribers__badge q-subscribers__badge--${subscriber.state}`}>
                      {STATE_NAMES[subscriber.state]}
                    </span>
                  </td>
                  <td>{dateOrDash(subscriber.subscribedAt)}</td>
                  <td>{dateOrDash(subscriber.confirmedAt)}</td>
                  <td>{dateOrDash(subscriber.lastSentAt)}</td>
                  <td>
                    <Button
                      variant="danger"
                      onClick={() => remove(subscriber)}
                      loading={busy === subscriber.id}
                      disabled={busy !== null}
                      aria-label={`Remove ${subscriber.email}`}
                    >
                      Remove
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {shown && <Pager page={shown.paging.pageNumber || page} totalPages={shown.paging.totalPages} onGo={setPage} />}
      <ErrorLine message={failureText(action.failure)} />
    </div>
  );
}
