// Keyed refreshes: a screen that changed something on the server asks every load that shows it to run
// again, without knowing where those loads are. A load takes part through `useLoad`'s `refreshKey`
// (the owner area's blog, refreshed by the settings panels that change the blog).
import { useEffect, useRef } from 'react';

/** Runs a load again; resolves once it has settled, and rejects when it failed. */
type Reload = () => Promise<void>;

/** The mounted loads by key. */
const reloads = new Map<string, Set<Reload>>();

/**
 * Runs every mounted load registered under `key` again. Resolves once all of them have settled
 * (at once when none is mounted), and rejects with the first failure among them.
 */
export async function refresh(key: string): Promise<void> {
  const outcomes = await Promise.allSettled([...(reloads.get(key) ?? [])].map((reload) => reload()));
  const failed = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
}

/** Registers `reload` under `key` while the component is mounted; nothing when `key` is undefined. */
export function useRefreshKey(key: string | undefined, reload: Reload): void {
  const latest = useRef(reload);
  useEffect(() => {
    latest.current = reload;
  });
  useEffect(() => {
    if (key === undefined) return undefined;
    const entry: Reload = () => latest.current();
    const entries = reloads.get(key) ?? new Set<Reload>();
    reloads.set(key, entries);
    entries.add(entry);
    return () => {
      entries.delete(entry);
      if (entries.size === 0 && reloads.get(key) === entries) reloads.delete(key);
    };
  }, [key]);
}
