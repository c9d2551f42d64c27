// Signing in and out (docs/api.md, 'Signing in and out'): the nonce that starts a popup sign-in,
// the session the popup's ID token buys, the current session, and signing out.
import type { MaybeSession, OneSession, Session, SignInStart } from '../../api-types/sessions';
import { api } from '../../lib/api';

// The answers' types are generated from the server's structs (ui/src/api-types/).
export type { Session, SignInStart, User } from '../../api-types/sessions';

/** Binds a fresh nonce to this browser (HttpOnly cookie) and returns the provider URL to open. */
export async function startSignIn(): Promise<SignInStart> {
  const { data } = await api.post<SignInStart>('/api/auth/nonce', {});
  return data;
}

/** Trades the popup's ID token for a session; `signup` creates the account when it is new. */
export async function createSession(idToken: string, signup: boolean): Promise<Session> {
  const { data } = await api.post<OneSession>('/api/sessions', { idToken, signup });
  return data.session;
}

/** The current session, or null when nobody is signed in (a visitor is not an error). */
export async function fetchSession(signal?: AbortSignal): Promise<Session | null> {
  const { data } = await api.get<MaybeSession>('/api/session', signal ? { signal } : {});
  return data.session;
}

/** Ends the session; the server clears the `session` and `blog_id` cookies. */
export async function signOut(): Promise<void> {
  await api.post('/d/signout', {});
}
