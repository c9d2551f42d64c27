import { useEffect, useRef, useState } from 'react';
import { Button, Panel } from '../../components';
// The popup plumbing of the landing page's sign-in, reused as is for connecting an account.
import { openSignInPopup, startSignIn, waitForPopup } from '../auth';
import type { Blog } from '../blogs';
import { connectSocialAccount } from './api';
import { failureText } from './use-save-action';

export interface SocialAccountsPanelProps {
  blog: Blog;
  /** The sign-in provider this server uses (config.providerName), e.g. `Google`. */
  providerName: string;
  /** Fetches the blog again; its socialAccounts then list the new account. */
  reloadBlog: () => Promise<Blog>;
}

/**
 * The 'Social Accounts' panel: the sign-in provider's entry says 'Connected' when one of
 * the owner's accounts is with it, else offers 'Connect': the provider popup, then
 * `POST /api/my/social_accounts` with its ID token.
 */
export function SocialAccountsPanel({ blog, providerName, reloadBlog }: SocialAccountsPanelProps) {
  const accounts = blog.socialAccounts.filter((account) => account.provider === providerName);
  const [connecting, setConnecting] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const [blocked, setBlocked] = useState(false);
  const abort = useRef<AbortController | null>(null);

  useEffect(() => () => abort.current?.abort(), []);

  const connect = () => {
    if (abort.current) return;
    // Opened straight from the click: popup blockers allow only that.
    const popup = openSignInPopup();
    if (!popup) {
      setBlocked(true);
      return;
    }
    const controller = new AbortController();
    abort.current = controller;
    setBlocked(false);
    setFailure(null);
    setConnecting(true);
    const run = async () => {
      try {
        const { authorizationUrl } = await startSignIn();
        if (controller.signal.aborted) return;
        popup.location.href = authorizationUrl;
        const result = await waitForPopup(popup, controller.signal);
        if (controller.signal.aborted || result.kind === 'closed') return;
        if (result.kind === 'error') throw new Error(`The sign-in provider refused: ${result.error}`);
        await connectSocialAccount(result.idToken);
        await reloadBlog();
      } catch (error) {
        if (!controller.signal.aborted) setFailure(error);
      } finally {
        if (!popup.closed) popup.close();
        if (!controller.signal.aborted) {
          abort.current = null;
          setConnecting(false);
        }
      }
    };
    void run();
  };

  const message = failureText(failure, 'idToken');

  return (
    <Panel title="Social Accounts">
      <ul className="q-settings__list">
        <li className="q-settings__item">
          <div className="q-settings__item-text">
            <strong>{providerName}</strong>
            {accounts.map((account) => (
              <span key={account.id} className="q-settings__muted">
                {account.email}
              </span>
            ))}
          </div>
          {accounts.length > 0 ? (
            <span className="q-settings__connected">Connected</span>
          ) : (
            <Button onClick={connect} loading={connecting}>
              Connect
            </Button>
          )}
        </li>
      </ul>
      {blocked && (
        <p className="q-settings__error" role="alert">
          Your browser blocked the sign-in window. Allow pop-ups for this site, then try again.
        </p>
      )}
      {message && (
        <p className="q-settings__error" role="alert">
          {message}
        </p>
      )}
    </Panel>
  );
}
