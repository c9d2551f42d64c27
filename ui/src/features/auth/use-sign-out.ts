import { useCallback, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { signOut as endSession } from './api';

export interface SignOutAction {
  /**
   * Ends the session, then shows the landing page (`replace` swaps the current history entry for
   * it). Call it from a click only: a screen that signs out by merely opening could be opened by
   * any site. A second call while one runs does nothing.
   */
  signOut: (options?: { replace?: boolean }) => void;
  /** The call is under way. */
  signingOut: boolean;
}

/** Signing out: `POST /d/signout`, then the landing page. A failure is only logged; the landing page shows all the same. */
export function useSignOut(): SignOutAction {
  const navigate = useNavigate();
  const [signingOut, setSigningOut] = useState(false);
  const running = useRef(false);

  const signOut = useCallback(
    ({ replace = false }: { replace?: boolean } = {}) => {
      if (running.current) return;
      running.current = true;
      setSigningOut(true);
      endSession()
        .catch((error: unknown) => console.error('quire: sign-out failed', error))
        .finally(() => {
          running.current = false;
          navigate(paths.landing, { replace });
        });
    },
    [navigate],
  );

  return { signOut, signingOut };
}
