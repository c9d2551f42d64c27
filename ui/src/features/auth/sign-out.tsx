import { Button, ButtonLink } from '../../components';
import { paths } from '../../config/paths';
import { useSignOut } from './use-sign-out';
import './auth.css';

/**
 * The `/signout` screen: it asks, and only the 'Signout' click ends the session. Opening the page
 * does nothing by itself, because any site can send a signed-in browser here (the session cookie
 * is SameSite=Lax, so it travels with a top-level navigation). The owner menu's Signout entry
 * signs out on its own click; this screen is where that link leads when it is opened any other
 * way (a new tab, a bookmark, another site).
 */
export function SignOut() {
  const { signOut, signingOut } = useSignOut();
  return (
    <main className="q-center-column q-center-page">
      <h1>Sign out of Quire?</h1>
      <div className="q-sign-out__actions">
        <Button onClick={() => signOut({ replace: true })} loading={signingOut}>
          Signout
        </Button>
        <ButtonLink to={paths.posts}>Cancel</ButtonLink>
      </div>
    </main>
  );
}
