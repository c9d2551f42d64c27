import { useEffect, useState } from 'react';
import { Button, Checkbox, ErrorLine, Panel, Spinner } from '../../components';
import { useLoad } from '../../lib/use-load';
import { failureText, useSaveAction } from '../../lib/use-save-action';
import { SCOPE_LABELS, type Scope } from '../api-tokens';
import { approveRequest, checkRequest, refuseRequest } from './api';

/** Sends the browser to the app (its redirect URI, with a code or an error). */
export type Leave = (url: string) => void;

const leaveForApp: Leave = (url) => window.location.assign(url);

/**
 * IndieAuth's consent screen (`/d/indieauth?...`, issue 37): which app asks to sign in to the blog,
 * from where it will get the answer, what it may do (each scope a box, all it asked for ticked), and
 * Approve or Refuse. Approving gives the app a code it redeems for a token, listed in Settings → API
 * tokens under the app's name. A request that cannot go back to the app is shown as an error here.
 */
export function ConsentScreen({ query, leave = leaveForApp }: { query: string; leave?: Leave }) {
  const load = useLoad((signal) => checkRequest(query, signal), [query]);
  const answer = load.lastData;
  const [ticked, setTicked] = useState<string[] | null>(null);
  const approve = useSaveAction();
  const refuse = useSaveAction();

  // A request the server refused for the app goes back to it at once.
  useEffect(() => {
    if (answer?.redirectTo) leave(answer.redirectTo);
  }, [answer, leave]);
  if (answer === undefined) {
    return load.lastError ? (
      <ErrorLine message={failureText(load.lastError)} />
    ) : (
      <Spinner label="Reading the request" />
    );
  }
  const app = answer.app;
  if (!app) return <Spinner label="Back to the app" />;
  const redirectHost = new URL(app.redirectUri).host;
  // Until the owner changes a box, every scope asked for is ticked.
  const chosen = ticked ?? app.scopes;
  const busy = approve.loading || refuse.loading;
  return (
    <Panel title={`Sign in to ${app.clientName}`}>
      <div className="q-settings__stack">
        <p>
          <strong>{app.clientName}</strong> (<code>{app.clientId}</code>) asks to sign in as your blog{' '}
          <code>{app.profileUrl}</code>. The answer goes to <code>{redirectHost}</code>.
        </p>
        {app.scopes.length > 0 ? (
          <fieldset className="q-settings__stack">
            <legend>It may</legend>
            {app.scopes.map((scope) => (
              <Checkbox
                key={scope}
                label={SCOPE_LABELS[scope as Scope] ?? scope}
                checked={chosen.includes(scope)}
                onChange={(on) => setTicked(on ? [...chosen, scope] : chosen.filter((s) => s !== scope))}
              />
            ))}
          </fieldset>
        ) : (
          <p>It only asks who you are: it gets no token to write with.</p>
        )}
        <div className="q-settings__row">
          <Button
            onClick={() => approve.run(async () => leave(await approveRequest(query, chosen)))}
            loading={approve.loading}
            disabled={busy}
          >
            Approve
          </Button>
          <Button
            variant="secondary"
            onClick={() => refuse.run(async () => leave(await refuseRequest(query)))}
            loading={refuse.loading}
            disabled={busy}
          >
            Refuse
          </Button>
        </div>
        <ErrorLine message={failureText(approve.failure ?? refuse.failure)} />
      </div>
    </Panel>
  );
}
