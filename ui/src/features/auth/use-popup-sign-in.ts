import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api';
import { createSession, startSignIn } from './api';
import { openSignInPopup, waitForPopup } from './sign-in-popup';

/** Which button started the sign-in in progress. */
export type SignInMode = 'login' | 'signup';

export interface PopupSignIn {
  /** Starts a sign-in; call it straight from the click handler so the popup is allowed. */
  signIn: (mode: SignInMode) => void;
  /** The sign-in in progress, or null. Every sign-in button is disabled meanwhile. */
  pending: SignInMode | null;
  /** The browser refused to open the popup on the last try. */
  blocked: boolean;
}

/**
 * Login and signup through the provider popup: nonce, popup, ID token by postMessage,
 * `POST /api/sessions`, then /d/posts. A failure is only logged, with no message on the landing
 * page, and the buttons come back, as they do when the user closes the popup.
 */
export function usePopupSignIn(): PopupSignIn {
  const navigate = useNavigate();
  const [pending, setPending] = useState<SignInMode | null>(null);
  const [blocked, setBlocked] = useState(false);
  const running = useRef(false);
  const abort = useRef<AbortController | null>(null);

  useEffect(
    () => () => {
      abort.current?.abort();
    },
    [],
  );

  const signIn = useCallback(
    (mode: SignInMode) => {
      if (running.current) return;
      const popup = openSignInPopup();
      if (!popup) {
        setBlocked(true);
        return;
      }
      running.current = true;
      setBlocked(false);
      setPending(mode);
      const controller = new AbortController();
      abort.current = controller;

      const run = async () => {
        try {
          const { authorizationUrl } = await startSignIn();
          if (controller.signal.aborted) return;
          popup.location.href = authorizationUrl;
          const result = await waitForPopup(popup, controller.signal);
          if (controller.signal.aborted || result.kind === 'closed') return;
          if (result.kind === 'error') {
            console.error(`quire: sign-in failed at the provider: ${result.error}`);
            return;
          }
          await createSession(result.idToken, mode === 'signup');
          if (controller.signal.aborted) return;
          navigate(paths.posts);
        } catch (error) {
          const status = error instanceof ApiError ? ` (status ${error.status})` : '';
          console.error(`quire: sign-in failed${status}`, error);
        } finally {
          if (!popup.closed) popup.close();
          running.current = false;
          if (!controller.signal.aborted) setPending(null);
        }
      };
      void run();
    },
    [navigate],
  );

  return { signIn, pending, blocked };
}
