import { useRef, useState, type FormEvent } from 'react';
import { Button, Checkbox, ErrorLine, FileInput } from '../../components';
import { ApiError } from '../../lib/api';
import { failureText, useSaveAction } from '../../lib/use-save-action';
import { importSubscribers, type EmailSettings, type SubscriberImport as Outcome } from './api';
import { counted } from '../../lib/counted';
import { outcomeText } from './texts';

/** The owner's word the server asks for (its 422 `consented` without it). */
export const CONSENT_LABEL = 'These readers agreed to receive my posts by email where they subscribed';

/** The messages of a failed import for `field`, or null. */
const messagesFor = (failure: unknown, field: string) =>
  failure instanceof ApiError && failure.messagesFor(field).length > 0 ? failure.messagesFor(field).join(' ') : null;

/**
 * 'Import from Substack, Ghost or Buttondown': a CSV file, the owner's word that these readers
 * consented, and the outcome (what was added and left out, the bad rows by line). The server's
 * refusals show where they belong: `csv` under the file, `consented` under the box, the rest below.
 * A blog that may not import yet (not approved) is told so instead.
 */
export function SubscriberImport({
  blogId,
  email,
  onChange,
}: {
  blogId: number;
  email: EmailSettings;
  onChange: (next: EmailSettings) => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [consented, setConsented] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const save = useSaveAction();
  const csvError = messagesFor(save.failure, 'csv');
  const consentError = messagesFor(save.failure, 'consented');
  const otherError = csvError || consentError ? null : failureText(save.failure);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!file) return;
    setOutcome(null);
    void save.run(async () => {
      const answer = await importSubscribers(blogId, await file.text(), consented);
      setOutcome(answer.import);
      onChange(answer.email);
      setFile(null);
      setConsented(false);
      if (fileInput.current) fileInput.current.value = '';
    });
  };

  return (
    <section aria-labelledby="q-subscribers-import-title" className="q-settings__stack">
      <div>
        <h3 className="q-settings__subtitle" id="q-subscribers-import-title">
          Import from Substack, Ghost or Buttondown
        </h3>
        <p className="q-settings__muted">
          Their export of your email subscribers (or any CSV with an email column) comes in as confirmed subscribers:
          they get your next post without confirming again. Readers the file says are unsubscribed, bounced or
          unconfirmed there are left out. An import adds everyone or no one.
        </p>
      </div>
      {!email.canImport ? (
        <p className="q-settings__muted">Importing subscribers opens once your blog is approved.</p>
      ) : (
        <form className="q-settings__stack" onSubmit={submit} noValidate>
          <FileInput
            ref={fileInput}
            label="CSV file"
            accept=".csv,text/csv"
            hint={`You may import ${counted(email.importsLeftToday, 'more subscriber', 'more subscribers')} today.`}
            error={csvError}
            disabled={save.loading}
            onChange={(chosen) => {
              setFile(chosen);
              save.reset();
            }}
          />
          <Checkbox
            label={CONSENT_LABEL}
            checked={consented}
            error={consentError}
            disabled={save.loading}
            onChange={(checked) => {
              setConsented(checked);
              save.reset();
            }}
          />
          <div>
            <Button type="submit" loading={save.loading} disabled={!file}>
              Import
            </Button>
          </div>
          <ErrorLine message={otherError} />
        </form>
      )}
      {outcome && <ImportOutcome outcome={outcome} />}
    </section>
  );
}

/** What the last import did, and its bad rows by line. */
function ImportOutcome({ outcome }: { outcome: Outcome }) {
  const more = outcome.invalidCount - outcome.invalid.length;
  return (
    <div className="q-settings__stack q-subscribers__outcome" role="status">
      <p>{outcomeText(outcome)}</p>
      {outcome.invalid.length > 0 && (
        <ul className="q-subscribers__invalid" aria-label="Rows not taken">
          {outcome.invalid.map((row) => (
            <li key={row.line}>
              Line {row.line}: {row.reason}
            </li>
          ))}
          {more > 0 && <li>and {counted(more, 'more row', 'more rows')}</li>}
        </ul>
      )}
    </div>
  );
}
