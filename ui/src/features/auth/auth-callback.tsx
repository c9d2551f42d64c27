import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Spinner } from '../../components';
import { paths } from '../../config/paths';
import { readCallbackFragment } from './popup-message';

/**
 * Where the provider sends the sign-in popup back to (`/auth/callback#id_token=...`): hands the
 * token (or the provider's error) to the page that opened the popup, to this origin only, and
 * closes. Opened any other way, it says the window can be closed.
 */
export function AuthCallback() {
  const { hash } = useLocation();
  const navigate = useNavigate();
  const [orphan, setOrphan] = useState(false);

  useEffect(() => {
    const message = readCallbackFragment(hash);
    const opener = window.opener as Window | null;
    if (opener && !opener.closed) {
      opener.postMessage(message, window.location.origin);
      window.close();
      return;
    }
    setOrphan(true);
    // Keep the token out of the history.
    if (hash) navigate(paths.authCallback, { replace: true });
    // Runs for the fragment the provider returned; the cleanup of the hash must not re-run it.
  }, []);

  if (!orphan) {
    return (
      <main className="q-center-column q-center-page">
        <Spinner label="Finishing sign-in" />
      </main>
    );
  }
  return (
    <main className="q-center-column q-center-page">
      <h1>You can close this window</h1>
      <p>This window was meant for signing in, but the Quire page that opened it is gone.</p>
      <Link to={paths.landing}>Go to the home page</Link>
    </main>
  );
}
