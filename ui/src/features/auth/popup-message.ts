// The one message the sign-in popup sends its opener (ui/README.md, 'Sign-in'): the provider
// returns the popup to /auth/callback with the ID token (or an error) in the URL fragment, and the
// callback page hands it over with postMessage, to this origin only.

/** `type` of the message; anything else reaching the opener is ignored. */
export const ID_TOKEN_MESSAGE = 'quire:id_token';

/** The token the provider issued, or the reason it did not. */
export type IdTokenMessage =
  { type: typeof ID_TOKEN_MESSAGE; idToken: string } | { type: typeof ID_TOKEN_MESSAGE; error: string };

/** True for a well-formed message from the callback page. */
export function isIdTokenMessage(data: unknown): data is IdTokenMessage {
  if (data === null || typeof data !== 'object') return false;
  const message = data as Record<string, unknown>;
  if (message.type !== ID_TOKEN_MESSAGE) return false;
  return typeof message.idToken === 'string' || typeof message.error === 'string';
}

/**
 * Reads the provider's answer from a callback URL fragment: `#id_token=...` or
 * `#error=...&error_description=...`. A fragment with neither is reported as an error.
 */
export function readCallbackFragment(hash: string): IdTokenMessage {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const idToken = params.get('id_token');
  if (idToken) return { type: ID_TOKEN_MESSAGE, idToken };
  const error = params.get('error');
  if (error) {
    const description = params.get('error_description');
    return { type: ID_TOKEN_MESSAGE, error: description ? `${error}: ${description}` : error };
  }
  return { type: ID_TOKEN_MESSAGE, error: 'The sign-in provider returned neither a token nor an error' };
}
