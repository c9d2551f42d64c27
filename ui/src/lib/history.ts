import { createContext, useContext } from 'react';
import type { HistoryRouterProps, Location, Path } from 'react-router';

/** The history react-router's `HistoryRouter` takes (browser or memory). */
export type History = HistoryRouterProps['history'];

/** Whether a navigation from `current` to `next` may go ahead; it may ask the user first. */
export type LeaveCheck = (current: Location, next: Path) => boolean;

/**
 * The app's history: react-router's, plus what its data router would otherwise add (and cost the bundle
 * ~15 KB compressed): a leave check that can hold a navigation back, and the scroll position of every
 * entry left, for `ScrollRestoration`.
 */
export interface AppHistory extends History {
  /** Holds every navigation the check refuses; returns the function that removes the check. */
  block(check: LeaveCheck): () => void;
  /** The vertical scroll position of each entry at the moment it was left, by its `location.key`. */
  readonly scrollPositions: Map<string, number>;
}

/**
 * Wraps `inner` (which must notify its listener of pushes and replaces: `v5Compat`). A push or replace the
 * check refuses never happens; a back/forward move it refuses (the browser has already moved) is undone
 * with `go(-delta)`, and that undoing move is not passed on. `scrollY` is read when an entry is left.
 */
export function guardHistory(inner: History, scrollY: () => number = () => window.scrollY): AppHistory {
  let check: LeaveCheck | null = null;
  let undoing = false;
  let current = inner.location;
  const scrollPositions = new Map<string, number>();
  const allowed = (to: Parameters<History['push']>[0]) => check === null || check(current, inner.encodeLocation(to));

  return {
    get action() {
      return inner.action;
    },
    get location() {
      return inner.location;
    },
    createHref: (to) => inner.createHref(to),
    createURL: (to) => inner.createURL(to),
    encodeLocation: (to) => inner.encodeLocation(to),
    push(to, state) {
      if (allowed(to)) inner.push(to, state);
    },
    replace(to, state) {
      if (allowed(to)) inner.replace(to, state);
    },
    go: (delta) => inner.go(delta),
    listen(listener) {
      return inner.listen((update) => {
        if (update.action === 'POP') {
          if (undoing) {
            undoing = false;
            return;
          }
          if (check !== null && update.delta && !check(current, update.location)) {
            undoing = true;
            inner.go(-update.delta);
            return;
          }
        }
        scrollPositions.set(current.key, scrollY());
        current = update.location;
        listener(update);
      });
    },
    block(next) {
      check = next;
      return () => {
        if (check === next) check = null;
      };
    },
    scrollPositions,
  };
}

/** The app's history, for the hooks that hold navigations or restore scroll positions. */
export const AppHistoryContext = createContext<AppHistory | null>(null);

export function useAppHistory(): AppHistory {
  const history = useContext(AppHistoryContext);
  if (history === null) throw new Error('quire: useAppHistory needs an AppHistoryContext provider (see app/app.tsx)');
  return history;
}
