import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { Spinner } from '../../components';
import { paths } from '../../config/paths';
import { signOut } from './api';

/** Signs out, then goes to the landing page; a failure is only logged (SPEC §8). */
export function SignOut() {
  const navigate = useNavigate();
  useEffect(() => {
    let active = true;
    signOut()
      .catch((error: unknown) => console.error('quire: sign-out failed', error))
      .finally(() => {
        if (active) navigate(paths.landing, { replace: true });
      });
    return () => {
      active = false;
    };
  }, [navigate]);
  return (
    <main className="q-center-page">
      <Spinner label="Signing out" />
    </main>
  );
}
