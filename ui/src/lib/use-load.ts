import { useCallback, useEffect, useRef, useState, type DependencyList } from 'react';
import { useRefreshKey } from './refresh';

/**
 * Loads something for a screen; `signal` aborts when the result is no longer wanted. `previous` is
 * the data loaded last (undefined before the first), for loads that add to it, such as the next page.
 */
export type Fetcher<T> = (signal: AbortSignal, previous: T | undefined) => Promise<T>;

/** What to show: nothing to load, loading, the failure, or the data. */
export type LoadStatus<T> =
  { status: 'idle' } | { status: 'loading' } | { status: 'failed'; error: unknown } | { status: 'ready'; data: T };

/** A screen's data and what it can do about it. */
export type Load<T> = LoadStatus<T> & {
  /** The last data loaded, also while loading again (whatever the deps) and after a failure. */
  lastData: T | undefined;
  /** The last failure, also while loading again; null once a load succeeds. */
  lastError: unknown;
  /** Loads again with the same deps (e.g. 'Try again'); resolves once that load has settled. */
  reload: () => Promise<void>;
  /** Replaces the data in place (e.g. with what a save answered); nothing happens without data. */
  setData: (update: (data: T) => T) => void;
};

/** How a load takes part in keyed refreshes (`lib/refresh.ts`). */
export interface LoadOptions {
  /** `refresh(refreshKey)`, called anywhere, runs this load again (as `reload()` does). */
  refreshKey?: string;
}

/** How a run ended: aborted runs count as settled without a failure. */
type Outcome = { failed: false } | { failed: true; error: unknown };

interface State<T> {
  data: T | undefined;
  failed: boolean;
  error: unknown;
  loading: boolean;
}

const NOTHING: State<never> = { data: undefined, failed: false, error: null, loading: false };

function statusOf<T>({ data, failed, error, loading }: State<T>): LoadStatus<T> {
  if (loading) return { status: 'loading' };
  if (failed) return { status: 'failed', error };
  return data === undefined ? { status: 'idle' } : { status: 'ready', data };
}

/**
 * Runs `fetcher` when the component mounts and whenever `deps` change, like an effect, and keeps
 * its result. Each run gets an AbortController's signal; the run is aborted when `deps` change,
 * when another run starts and on unmount, and an aborted run's result (or failure) is ignored.
 * While a run is under way the status is 'loading' and the last result stays in `lastData` and
 * `lastError` for screens that keep showing it. A null `fetcher` loads nothing and forgets what
 * was loaded (status 'idle'). With a `refreshKey`, `refresh(refreshKey)` runs it again from anywhere,
 * and learns whether that run failed.
 */
export function useLoad<T>(fetcher: Fetcher<T> | null, deps: DependencyList, options: LoadOptions = {}): Load<T> {
  const [state, setState] = useState<State<T>>(() => ({ ...NOTHING, loading: fetcher !== null }));
  const latest = useRef({ fetcher, data: state.data });
  const running = useRef<AbortController | null>(null);

  useEffect(() => {
    latest.current = { fetcher, data: state.data };
  });

  /** Starts a run (aborting the one before); resolves once it has settled, with how it ended. */
  const run = useCallback((): Promise<Outcome> => {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    const { fetcher: fetch, data: previous } = latest.current;
    if (!fetch) {
      setState(NOTHING);
      return Promise.resolve({ failed: false });
    }
    setState((current) => ({ ...current, loading: true }));
    let result: Promise<T>;
    try {
      result = fetch(controller.signal, previous);
    } catch (error) {
      result = Promise.reject(error);
    }
    return result.then(
      (data): Outcome => {
        if (!controller.signal.aborted) setState({ data, failed: false, error: null, loading: false });
        return { failed: false };
      },
      (error: unknown): Outcome => {
        if (controller.signal.aborted) return { failed: false };
        setState((current) => ({ ...current, failed: true, error, loading: false }));
        return { failed: true, error };
      },
    );
  }, []);

  const reload = useCallback(async () => {
    await run();
  }, [run]);

  useRefreshKey(
    options.refreshKey,
    useCallback(async () => {
      const outcome = await run();
      if (outcome.failed) throw outcome.error;
    }, [run]),
  );

  useEffect(() => {
    void run();
    return () => running.current?.abort();
    // The caller's deps decide when to load afresh, as with useEffect.
  }, deps);

  const setData = useCallback((update: (data: T) => T) => {
    setState((current) => (current.data === undefined ? current : { ...current, data: update(current.data) }));
  }, []);

  return {
    ...statusOf(state),
    lastData: state.data,
    lastError: state.failed ? state.error : null,
    reload,
    setData,
  };
}
