import { Button, Panel } from '../../components';
import { failureText } from '../../lib/use-save-action';
// The provider popup of the landing page's sign-in, reused as is for connecting an account.
import { useProviderPopup } from '../auth';
import { refreshBlog, type Blog } from '../blogs';
import { connectSocialAccount } from './api';

export interface SocialAccountsPanelProps {
  /** The owner area's blog: once an account is connected it is refreshed, and lists the account. */
  blog: Blog;
  /** The sign-in provider this server uses (config.providerName), e.g. `Google`. */
  providerName: string;
}

/**
 * The 'Social Accounts' panel: the sign-in provider's entry says 'Connected' when one of
 * the owner's accounts is with it, else offers 'Connect': the provider popup, then
 * `POST /api/my/social_accounts` with its ID token. A failure shows in the panel.
 */
export function SocialAccountsPanel({ blog, providerName }: SocialAccountsPanelProps) {
  const accounts = blog.socialAccounts.filter((account) => account.provider === providerName);
  const popup = useProviderPopup<'connect'>({
    onToken: async (idToken) => {
      await connectSocialAccount(idToken);
      await refreshBlog();
    },
  });

  const message = failureText(popup.failure, 'idToken');

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
            <Button onClick={() => popup.start('connect')} loading={popup.pending !== null}>
              Connect
            </Button>
          )}
        </li>
      </ul>
      {popup.blocked && (
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
