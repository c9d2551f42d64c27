import { useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api';
import { createSession } from './api';
import { ProviderRefused, useProviderPopup } from './use-provider-popup';

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
 * Login and signup through the provider popup: the ID token buys a session
 * (`POST /api/sessions`), then the owner area opens at /d/posts. A failure is only logged, with no
 * message on the landing page, and the buttons come back, as they do when the user closes the
 * popup.
 */
export function usePopupSignIn(): PopupSignIn {
  const navigate = useNavigate();
  const { start, pending, blocked } = useProviderPopup<SignInMode>({
    onToken: async (idToken, mode, signal) => {
      await createSession(idToken, mode === 'signup');
      if (!signal.aborted) navigate(paths.posts);
    },
    onFailure: (error) => {
      if (error instanceof ProviderRefused) {
        console.error(`quire: sign-in failed at the provider: ${error.error}`);
        return;
      }
      const status = error instanceof ApiError ? ` (status ${error.status})` : '';
      console.error(`quire: sign-in failed${status}`, error);
    },
  });
  return { signIn: start, pending, blocked };
}
