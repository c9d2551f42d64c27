import { useCallback, useEffect, useRef } from 'react';
import { useAppHistory } from './history';

/** The leave-page warning's question. */
export const LEAVE_WARNING = 'Are you sure?';

/**
 * While `enabled`, asks `LEAVE_WARNING` before the user leaves the screen: the browser's own
 * prompt on reload, close or another site (beforeunload), and a confirm dialog for navigation
 * inside the app, links and back/forward alike (the app history's leave check). Call the returned
 * `release()` right before a navigation the screen makes itself (e.g. after saving), so that one
 * goes through unasked.
 */
export function useLeaveWarning(enabled: boolean): { release: () => void } {
  const enabledRef = useRef(enabled);
  const releasedRef = useRef(false);
  useEffect(() => {
    enabledRef.current = enabled;
    if (enabled) releasedRef.current = false;
  }, [enabled]);

  useEffect(() => {
    if (!enabled) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!enabledRef.current || releasedRef.current) return;
      event.preventDefault();
      // Older browsers show (or at least need) a return value; modern ones show their own text.
      event.returnValue = LEAVE_WARNING;
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [enabled]);

  // Another screen, or the same one with another query, asks first; a change of #hash alone does not.
  const history = useAppHistory();
  useEffect(
    () =>
      history.block(
        (current, next) =>
          !enabledRef.current ||
          releasedRef.current ||
          (current.pathname === next.pathname && current.search === next.search) ||
          window.confirm(LEAVE_WARNING),
      ),
    [history],
  );

  const release = useCallback(() => {
    releasedRef.current = true;
  }, []);
  return { release };
}
