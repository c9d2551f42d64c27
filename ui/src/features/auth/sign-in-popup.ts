// The provider's sign-in page runs in a popup. It must be opened synchronously in the click
// handler (popup blockers allow only that), so it starts on about:blank and is sent to the
// provider once the server has handed out the authorization URL.
import { isIdTokenMessage } from './popup-message';

/** Window name: a second click reuses the same popup instead of stacking new ones. */
export const POPUP_NAME = 'quire-signin';
export const POPUP_FEATURES = 'popup,width=500,height=650';
/** How often to look whether the user closed the popup. */
export const POPUP_POLL_MS = 250;

/** Opens the empty sign-in popup; null when the browser blocked it. */
export function openSignInPopup(): Window | null {
  return window.open('about:blank', POPUP_NAME, POPUP_FEATURES);
}

/** How a popup sign-in ended. */
export type PopupResult =
  | { kind: 'token'; idToken: string }
  | { kind: 'error'; error: string }
  /** The user closed the popup without finishing. */
  | { kind: 'closed' };

/**
 * Waits for the callback page's message (same origin only) or for the popup to be closed.
 * A popup found closed gets one more poll interval, because the callback page posts its message
 * and closes itself right after: the message may still be on its way.
 */
export function waitForPopup(popup: Window, signal: AbortSignal): Promise<PopupResult> {
  return new Promise((resolve) => {
    let closedSeen = false;
    const finish = (result: PopupResult) => {
      window.removeEventListener('message', onMessage);
      window.clearInterval(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || !isIdTokenMessage(event.data)) return;
      const data = event.data;
      finish('idToken' in data ? { kind: 'token', idToken: data.idToken } : { kind: 'error', error: data.error });
    };
    const timer = window.setInterval(() => {
      if (!popup.closed) return;
      if (closedSeen) finish({ kind: 'closed' });
      closedSeen = true;
    }, POPUP_POLL_MS);
    // Unmounted mid-way: stop listening; nothing is waiting for the answer any more.
    const onAbort = () => finish({ kind: 'closed' });
    window.addEventListener('message', onMessage);
    signal.addEventListener('abort', onAbort);
  });
}
