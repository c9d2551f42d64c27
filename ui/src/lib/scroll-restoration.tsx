import { useLayoutEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router';
import { useAppHistory } from './history';

/** Where the positions wait out a reload (this tab only). */
const STORAGE_KEY = 'quire-scroll-positions';

/**
 * Back and forward return to where the page was scrolled when it was left (after a reload too; once the
 * screen's content has come, if it loads after it shows); any other navigation shows the new screen from its top, or at the element its `#hash` names. The positions are the
 * ones `AppHistory` saved as each entry was left.
 */
export function ScrollRestoration() {
  const history = useAppHistory();
  const location = useLocation();
  const action = useNavigationType();

  // A layout effect declared before the one that restores: after a reload, the stored positions must be
  // in the map by the time the first restore reads it.
  useLayoutEffect(() => {
    window.history.scrollRestoration = 'manual';
    try {
      const stored: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}');
      for (const [key, y] of Object.entries(stored as Record<string, unknown>)) {
        if (typeof y === 'number' && !history.scrollPositions.has(key)) history.scrollPositions.set(key, y);
      }
    } catch {
      // Unreadable or unavailable storage: nothing to restore after a reload.
    }
    const save = () => {
      history.scrollPositions.set(history.location.key, window.scrollY);
      try {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify(Object.fromEntries(history.scrollPositions)));
      } catch {
        // Storage full or refused: positions are kept for this page's life only.
      }
    };
    window.addEventListener('pagehide', save);
    return () => window.removeEventListener('pagehide', save);
  }, [history]);

  useLayoutEffect(() => {
    const saved = action === 'POP' ? history.scrollPositions.get(location.key) : undefined;
    if (saved !== undefined) return scrollBackTo(saved);
    if (location.hash) {
      try {
        const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
        if (target) {
          target.scrollIntoView();
          return;
        }
      } catch {
        // A malformed #hash names no element.
      }
    }
    window.scrollTo(0, 0);
  }, [history, location, action]);

  return null;
}

/** How long a restored position waits for the screen's content to grow tall enough for it. */
const FOLLOW_MS = 2000;

/**
 * Scrolls to `y`. A screen that loads its data after it shows is still short at this moment, so the
 * position is tried again as the page grows, until it is reached, the user scrolls or types, or
 * `FOLLOW_MS` pass. Returns what stops the following (the next navigation calls it).
 */
function scrollBackTo(y: number): () => void {
  window.scrollTo(0, y);
  if (window.scrollY >= y || typeof ResizeObserver === 'undefined') return () => undefined;
  const observer = new ResizeObserver(() => {
    window.scrollTo(0, y);
    if (window.scrollY >= y) stop();
  });
  const userInput = ['wheel', 'touchstart', 'keydown', 'mousedown'] as const;
  const timer = window.setTimeout(() => stop(), FOLLOW_MS);
  function stop() {
    observer.disconnect();
    window.clearTimeout(timer);
    for (const type of userInput) window.removeEventListener(type, stop);
  }
  observer.observe(document.body);
  for (const type of userInput) window.addEventListener(type, stop, { passive: true });
  return stop;
}
