import { useLocation, useNavigate } from 'react-router';
import { returnPathFrom } from '../../config/paths';
import { ApiError } from '../../lib/api';
import { failureText } from '../../lib/use-save-action';
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
  /** Why the last sign-in failed, in words for the landing page; null when it did not. */
  failure: string | null;
}

/**
 * Login and signup through the provider popup: the ID token buys a session
 * (`POST /api/sessions`, which makes the account of a new person either way), then the owner area
 * opens at /d/posts, which shows Welcome to someone without a blog. A failure is logged and said
 * on the landing page in words (signups closed, too many tries, the provider's refusal), and the
 * buttons come back, as they do when the user closes the popup.
 */
export function usePopupSignIn(): PopupSignIn {
  const navigate = useNavigate();
  const { search } = useLocation();
  const { start, pending, blocked, failure } = useProviderPopup<SignInMode>({
    onToken: async (idToken, mode, signal) => {
      await createSession(idToken, mode === 'signup');
      if (!signal.aborted) navigate(returnPathFrom(search));
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
  return { signIn: start, pending, blocked, failure: signInFailureText(failure) };
}

/** What the landing page says of a failed sign-in. */
export function signInFailureText(failure: unknown): string | null {
  if (failure === null || failure === undefined) return null;
  if (failure instanceof ProviderRefused) {
    return `Sign-in did not finish: the sign-in provider answered “${failure.error}”. Try again.`;
  }
  if (failure instanceof ApiError) return failureText(failure);
  return 'Sign-in did not finish: Quire could not be reached. Check your connection and try again.';
}
