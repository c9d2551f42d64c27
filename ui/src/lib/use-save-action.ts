import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from './api';

/** How long a save button says 'Saved' before it says 'Save' again. */
export const SAVED_MS = 3000;

/** The state of one save button and the call behind it. */
export interface SaveAction {
  /** The call is running: the button shows its spinner and takes no clicks. */
  loading: boolean;
  /** The last call succeeded less than SAVED_MS ago: the button says 'Saved'. */
  saved: boolean;
  /** Why the last call failed, or null. */
  failure: unknown;
  /** Runs `work` unless a call is already running; true when it succeeded. */
  run: (work: () => Promise<void>) => Promise<boolean>;
  /** Forgets the failure and the 'Saved' confirmation (e.g. when the input changes). */
  reset: () => void;
}

/**
 * One save button's life: loading while the call runs, 'Saved' for SAVED_MS after a success, the
 * failure kept for the screen to show with the server's messages (nothing else changes, so what
 * was typed stays to be fixed), and the loading flag cleared either way.
 */
export function useSaveAction(): SaveAction {
  const [loading, setLoading] = useState(false);
  const [saved, setSaved] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const running = useRef(false);
  const mounted = useRef(true);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      clearTimeout(timer.current);
    };
  }, []);

  const reset = useCallback(() => {
    clearTimeout(timer.current);
    setSaved(false);
    setFailure(null);
  }, []);

  const run = useCallback(async (work: () => Promise<void>) => {
    if (running.current) return false;
    running.current = true;
    clearTimeout(timer.current);
    setSaved(false);
    setFailure(null);
    setLoading(true);
    try {
      await work();
      if (mounted.current) {
        setSaved(true);
        timer.current = setTimeout(() => setSaved(false), SAVED_MS);
      }
      return true;
    } catch (error) {
      // Shown to the owner by the screen; the browser has already logged the failed response.
      if (!(error instanceof ApiError)) console.error('quire: a settings call failed', error);
      if (mounted.current) setFailure(error);
      return false;
    } finally {
      running.current = false;
      if (mounted.current) setLoading(false);
    }
  }, []);

  return { loading, saved, failure, run, reset };
}

/**
 * The text to show for a failure: the server's messages for `field` when it sent some, else all of
 * its messages (a failure that is not about the field, e.g. a lost connection). Null without one.
 */
export function failureText(failure: unknown, field?: string): string | null {
  if (failure === null || failure === undefined) return null;
  if (failure instanceof ApiError) {
    const forField = field ? failure.messagesFor(field) : [];
    return (forField.length > 0 ? forField : failure.messages).join(' ');
  }
  return failure instanceof Error ? failure.message : String(failure);
}
