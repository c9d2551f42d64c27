import { useCallback, useEffect, useRef, useState } from 'react';
import { startSignIn } from './api';
import { openSignInPopup, waitForPopup } from './sign-in-popup';

/** The provider refused in the popup: `error` is its OAuth error code, e.g. `access_denied`. */
export class ProviderRefused extends Error {
  constructor(readonly error: string) {
    super(`The sign-in provider refused: ${error}`);
    this.name = 'ProviderRefused';
  }
}

export interface ProviderPopupOptions<Mode> {
  /**
   * What the ID token is for (a session, a connected account); a throw is the run's failure.
   * `signal` is aborted when the screen goes away, so the caller can skip what only that screen
   * needs.
   */
  onToken: (idToken: string, mode: Mode, signal: AbortSignal) => Promise<void>;
  /** Told of each failure as it happens (e.g. to log it). */
  onFailure?: (error: unknown) => void;
}

export interface ProviderPopup<Mode> {
  /**
   * Starts a run, which the caller names by `mode` (e.g. login or signup). Call it straight from
   * the click handler: popup blockers allow a popup only there. Nothing happens while a run is
   * under way.
   */
  start: (mode: Mode) => void;
  /** The run under way, or null. */
  pending: Mode | null;
  /** The browser refused to open the popup on the last try. */
  blocked: boolean;
  /**
   * Why the last run failed: a refusal at the provider (ProviderRefused) or a failed call. Null
   * until then, and again once another run starts.
   */
  failure: unknown;
}

/**
 * The sign-in provider's popup, for signing in and for connecting another account alike: the
 * popup opens on about:blank from the click, `POST /api/auth/nonce` binds a nonce to this browser
 * and names the provider page the popup then goes to, and the ID token comes back from
 * /auth/callback by postMessage and goes to `onToken`. Closing the popup ends the run quietly;
 * leaving the screen aborts it. The popup is closed at the end either way.
 */
export function useProviderPopup<Mode>({ onToken, onFailure }: ProviderPopupOptions<Mode>): ProviderPopup<Mode> {
  const [pending, setPending] = useState<Mode | null>(null);
  const [blocked, setBlocked] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const abort = useRef<AbortController | null>(null);
  // The callers' latest callbacks, so `start` stays the same function from render to render.
  const callbacks = useRef({ onToken, onFailure });
  useEffect(() => {
    callbacks.current = { onToken, onFailure };
  });

  useEffect(
    () => () => {
      abort.current?.abort();
    },
    [],
  );

  const start = useCallback((mode: Mode) => {
    if (abort.current) return;
    const popup = openSignInPopup();
    if (!popup) {
      setBlocked(true);
      return;
    }
    const controller = new AbortController();
    abort.current = controller;
    setBlocked(false);
    setFailure(null);
    setPending(mode);

    const run = async () => {
      try {
        const { authorizationUrl } = await startSignIn();
        if (controller.signal.aborted) return;
        popup.location.href = authorizationUrl;
        const result = await waitForPopup(popup, controller.signal);
        if (controller.signal.aborted || result.kind === 'closed') return;
        if (result.kind === 'error') throw new ProviderRefused(result.error);
        await callbacks.current.onToken(result.idToken, mode, controller.signal);
      } catch (error) {
        if (controller.signal.aborted) return;
        callbacks.current.onFailure?.(error);
        setFailure(error);
      } finally {
        if (!popup.closed) popup.close();
        if (!controller.signal.aborted) {
          abort.current = null;
          setPending(null);
        }
      }
    };
    void run();
  }, []);

  return { start, pending, blocked, failure };
}
