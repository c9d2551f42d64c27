import { useCallback, useEffect, useRef } from 'react';
import { useBlocker, type BlockerFunction } from 'react-router';

/** The leave-page warning's question. */
export const LEAVE_WARNING = 'Are you sure?';

/**
 * While `enabled`, asks `LEAVE_WARNING` before the user leaves the screen: the browser's own
 * prompt on reload, close or another site (beforeunload), and a confirm dialog for navigation
 * inside the app (react-router's blocker). Call the returned `release()` right before a
 * navigation the screen makes itself (e.g. after saving), so that one goes through unasked.
 */
export function useLeaveWarning(enabled: boolean): { release: () => void } {
  const enabledRef = useRef(enabled);
  const releasedRef = useRef(false);
  useEffect(() => {
    enabledRef.current = enabled;
    if (enabled) releasedRef.current = false;
  }, [enabled]);

  const active = () => enabledRef.current && !releasedRef.current;

  useEffect(() => {
    if (!enabled) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!active()) return;
      event.preventDefault();
      // Older browsers show (or at least need) a return value; modern ones show their own text.
      event.returnValue = LEAVE_WARNING;
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [enabled]);

  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) =>
      active() &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
    [],
  );
  const blocker = useBlocker(shouldBlock);

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (window.confirm(LEAVE_WARNING)) blocker.proceed();
    else blocker.reset();
  }, [blocker]);

  const release = useCallback(() => {
    releasedRef.current = true;
  }, []);
  return { release };
}
