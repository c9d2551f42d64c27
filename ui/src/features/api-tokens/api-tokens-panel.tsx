import { useEffect, useRef, useState, type FormEvent, type ReactNode, type RefObject } from 'react';
import { Button, Checkbox, ErrorLine, Panel, Spinner, TextInput } from '../../components';
import { Field, useField, type LabelledProps } from '../../components/field';
import { appConfig } from '../../config/app-config';
import { ApiError } from '../../lib/api';
import { localDate } from '../../lib/local-time';
import { copyFailedText, useCopy } from '../../lib/use-copy';
import { useLoad } from '../../lib/use-load';
import { failureText, useSaveAction } from '../../lib/use-save-action';
import { createToken, fetchTokens, revokeToken, SCOPES, type ApiToken, type CreatedToken, type Scope } from './api';
import './api-tokens.css';

/** What each scope lets an app do, as the owner reads it. */
export const SCOPE_LABELS: Record<Scope, string> = {
  create: 'Create posts',
  update: 'Edit posts',
  delete: 'Delete posts',
  undelete: 'Restore deleted posts',
  media: 'Upload images',
  draft: 'Create drafts only',
};

/** The scopes a new token starts with. */
export const DEFAULT_SCOPES: readonly Scope[] = ['create', 'media'];

/** What the owner reads beside the token, the one time it is shown. */
export const SHOWN_ONCE = 'Copy this token now: it will not be shown again.';

/** What the owner confirms before a token goes. */
export const revokeTokenQuestion = (name: string) =>
  `Revoke the token “${name}”? Apps using it can no longer publish to your blog.`;

/** The fields of the new-token form; the server's messages for any other go under the button. */
const FORM_FIELDS = ['name', 'scopes', 'expiresAt'];

/** The server's messages about `field` of a refused token, or null. */
const fieldError = (failure: unknown, field: string) =>
  failure instanceof ApiError && failure.messagesFor(field).length > 0 ? failure.messagesFor(field).join(' ') : null;

/** A refused token's messages that no field shows (`blog`: too many tokens; a lost connection). */
function otherError(failure: unknown): string | null {
  if (!(failure instanceof ApiError)) return failureText(failure);
  const shown = FORM_FIELDS.flatMap((field) => failure.messagesFor(field));
  const rest = failure.messages.filter((message) => !shown.includes(message));
  return rest.length > 0 ? rest.join(' ') : null;
}

/**
 * The day a token expires. The form sends the end of the chosen day in UTC, so the day is read in
 * UTC too: the owner sees the day they chose, whatever their time zone.
 */
export const expiryDate = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

/**
 * The 'API tokens' panel (issue 37): what the tokens are for and the Micropub endpoint apps publish
 * to, the form that makes one (its token shown once, to copy), and the blog's tokens, newest first,
 * each with its scopes, last 4 characters, dates, the app it was issued to through IndieAuth sign-in,
 * and 'Revoke' (after a confirmation).
 */
export function ApiTokensPanel({ blogId }: { blogId: number }) {
  const load = useLoad((signal) => fetchTokens(blogId, signal), [blogId]);
  const tokens = load.lastData;
  const { setData } = load;

  return (
    <Panel title="API tokens">
      <div className="q-settings__stack q-api-tokens">
        <p className="q-settings__muted">
          Apps and plugins that publish through Micropub, and your own scripts, write to your blog with a token made
          here. Give them the Micropub endpoint{' '}
          <code className="q-api-tokens__code">{appConfig().appUrl}/micropub</code>.
        </p>
        {tokens === undefined && !load.lastError && <Spinner label="Loading the API tokens" />}
        {tokens === undefined && <ErrorLine message={failureText(load.lastError)} />}
        {tokens && (
          <>
            <NewToken blogId={blogId} onCreated={(token) => setData((list) => [token, ...list])} />
            <TokenList
              blogId={blogId}
              tokens={tokens}
              onRevoked={(id) => setData((list) => list.filter((token) => token.id !== id))}
            />
          </>
        )}
      </div>
    </Panel>
  );
}

/**
 * 'New token': the form, then, once the server made the token, the token itself in its place, with
 * Copy and Done (which brings the form back, empty).
 */
function NewToken({ blogId, onCreated }: { blogId: number; onCreated: (token: ApiToken) => void }) {
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  const focusName = useRef(false);

  useEffect(() => {
    if (created || !focusName.current) return;
    focusName.current = false;
    nameInput.current?.focus();
  }, [created]);

  return (
    <div className="q-settings__stack">
      <h3 className="q-settings__subtitle" id="q-api-tokens-new-title">
        New token
      </h3>
      {created ? (
        <CreatedTokenNotice
          created={created}
          onDone={() => {
            focusName.current = true;
            setCreated(null);
          }}
        />
      ) : (
        <NewTokenForm
          blogId={blogId}
          nameInput={nameInput}
          onCreated={(answer) => {
            setCreated(answer);
            onCreated(answer.apiToken);
          }}
        />
      )}
    </div>
  );
}

/** The name, the scopes (create and media to begin with) and an optional last day; the server's messages under each. */
function NewTokenForm({
  blogId,
  nameInput,
  onCreated,
}: {
  blogId: number;
  nameInput: RefObject<HTMLInputElement | null>;
  onCreated: (answer: CreatedToken) => void;
}) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<readonly Scope[]>(DEFAULT_SCOPES);
  const [expiry, setExpiry] = useState('');
  const save = useSaveAction();
  const scopesError = fieldError(save.failure, 'scopes');

  /** Runs an edit, and forgets the last refusal: its messages were about what was there before. */
  const edit = (change: () => void) => {
    change();
    if (save.failure) save.reset();
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void save.run(async () => {
      const answer = await createToken(blogId, {
        name: name.trim(),
        scopes: SCOPES.filter((scope) => scopes.includes(scope)),
        // The end of the chosen day, in UTC; no date, no expiry.
        ...(expiry ? { expiresAt: `${expiry}T23:59:59Z` } : {}),
      });
      onCreated(answer);
    });
  };

  return (
    <form className="q-settings__stack" aria-labelledby="q-api-tokens-new-title" onSubmit={submit} noValidate>
      <TextInput
        ref={nameInput}
        label="Name"
        hint="The app or script it is for, to know it again in the list."
        className="q-api-tokens__field"
        value={name}
        onChange={(value) => edit(() => setName(value))}
        error={fieldError(save.failure, 'name')}
        required
        autoComplete="off"
      />
      <fieldset
        className="q-api-tokens__scopes"
        aria-describedby={scopesError ? 'q-api-tokens-scopes-error' : undefined}
      >
        <legend className="q-field__label">What it may do</legend>
        <div className="q-api-tokens__scope-grid">
          {SCOPES.map((scope) => (
            <Checkbox
              key={scope}
              label={SCOPE_LABELS[scope]}
              hint={scope === 'draft' ? 'Without Create posts, the app can only make drafts.' : undefined}
              checked={scopes.includes(scope)}
              onChange={(checked) =>
                edit(() => setScopes((now) => (checked ? [...now, scope] : now.filter((s) => s !== scope))))
              }
            />
          ))}
        </div>
        {scopesError && (
          <p id="q-api-tokens-scopes-error" className="q-field__error" role="alert">
            {scopesError}
          </p>
        )}
      </fieldset>
      <DateInput
        label="Expires on"
        hint="Optional. The token stops working at the end of that day (UTC); leave it empty for one that never expires."
        className="q-api-tokens__field"
        value={expiry}
        onChange={(value) => edit(() => setExpiry(value))}
        error={fieldError(save.failure, 'expiresAt')}
      />
      <div>
        <Button type="submit" loading={save.loading}>
          Create token
        </Button>
      </div>
      <ErrorLine message={otherError(save.failure)} />
    </form>
  );
}

/** A labelled date input (`YYYY-MM-DD`, '' when empty), marked up as TextInput is. */
function DateInput({
  value,
  onChange,
  ...props
}: LabelledProps & { value: string; onChange: (value: string) => void; className?: string }) {
  const { field, control } = useField(props);
  return (
    <Field {...field}>
      <input {...control} type="date" className="q-input" value={value} onChange={(e) => onChange(e.target.value)} />
    </Field>
  );
}

/** The token the server just made, to copy: no other answer holds it. The focus goes to it. */
function CreatedTokenNotice({ created, onDone }: { created: CreatedToken; onDone: () => void }) {
  const { copied, failed, copy } = useCopy<'token'>();
  const field = useRef<HTMLInputElement>(null);

  useEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, []);

  return (
    <div className="q-settings__stack q-api-tokens__created">
      <div className="q-settings__row">
        <TextInput
          ref={field}
          label={`Token “${created.apiToken.name}”`}
          hint={SHOWN_ONCE}
          className="q-settings__grow q-api-tokens__secret"
          value={created.token}
          onChange={() => undefined}
          onFocus={(event) => event.currentTarget.select()}
          readOnly
          spellCheck={false}
        />
        <Button
          variant="secondary"
          onClick={() => void copy(created.token, 'token')}
          aria-label={copied ? 'Copied the token' : 'Copy the token'}
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <ErrorLine message={failed ? copyFailedText('token') : null} />
      <div>
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}

/** A date of a token's, as a <time>. */
const dateOf = (iso: string) => <time dateTime={iso}>{localDate(iso)}</time>;

/** What a token's scopes let an app do, in the form's words (a scope the form does not know, as named). */
const scopesText = (scopes: string[]) => scopes.map((scope) => SCOPE_LABELS[scope as Scope] ?? scope).join(', ');

/** The blog's tokens, each with its details and 'Revoke'; 'No tokens yet.' without any. */
function TokenList({
  blogId,
  tokens,
  onRevoked,
}: {
  blogId: number;
  tokens: ApiToken[];
  onRevoked: (id: number) => void;
}) {
  const action = useSaveAction();
  const [busy, setBusy] = useState<number | null>(null);

  const revoke = (token: ApiToken) => {
    if (!window.confirm(revokeTokenQuestion(token.name))) return;
    setBusy(token.id);
    void action
      .run(async () => {
        try {
          await revokeToken(blogId, token.id);
        } catch (error) {
          // Gone already (revoked elsewhere): it leaves the list all the same.
          if (!(error instanceof ApiError && error.status === 404)) throw error;
        }
        onRevoked(token.id);
      })
      .finally(() => setBusy(null));
  };

  return (
    <section aria-labelledby="q-api-tokens-list-title">
      <h3 className="q-settings__subtitle" id="q-api-tokens-list-title">
        Your tokens
      </h3>
      {tokens.length === 0 ? (
        <p className="q-settings__muted">No tokens yet.</p>
      ) : (
        <ul className="q-settings__list" aria-labelledby="q-api-tokens-list-title">
          {tokens.map((token) => (
            <li key={token.id} className="q-settings__item">
              <div className="q-settings__item-text">
                <strong>{token.name}</strong>
                {token.scopes.length > 0 && <span>{scopesText(token.scopes)}</span>}
                <span className="q-settings__muted">{detailsOf(token)}</span>
                {token.clientId && <span className="q-settings__muted">Signed in from {token.clientId}</span>}
              </div>
              <Button
                variant="danger"
                onClick={() => revoke(token)}
                loading={busy === token.id}
                disabled={busy !== null}
                aria-label={`Revoke ${token.name}`}
              >
                Revoke
              </Button>
            </li>
          ))}
        </ul>
      )}
      <ErrorLine message={failureText(action.failure)} />
    </section>
  );
}

/** A token's last 4 characters, when it was made and last used, and when it expires, joined by ' · '. */
function detailsOf(token: ApiToken): ReactNode[] {
  const parts: ReactNode[] = [
    <span key="last4" className="q-api-tokens__code">
      …{token.last4}
    </span>,
    <span key="created">Created {dateOf(token.createdAt)}</span>,
    <span key="used">{token.lastUsedAt ? <>Last used {dateOf(token.lastUsedAt)}</> : 'Never used'}</span>,
  ];
  if (token.expiresAt) {
    parts.push(
      <span key="expires">
        {Date.parse(token.expiresAt) <= Date.now() ? (
          'Expired'
        ) : (
          <>
            Expires <time dateTime={token.expiresAt}>{expiryDate(token.expiresAt)}</time>
          </>
        )}
      </span>,
    );
  }
  return parts.flatMap((part, index) => (index === 0 ? [part] : [' · ', part]));
}
