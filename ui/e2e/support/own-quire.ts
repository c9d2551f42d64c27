// A quire of one test file's own: started before the file's first test, stopped (its data dir
// deleted) after the last, so what the file's tests write (retired subdomains, post counts) is
// theirs alone. Every test of the file also keeps its browser's traffic on this machine.
import { test } from '@playwright/test';
import { keepTrafficLocal } from './browser';
import { startQuire, type QuireServer } from './quire';

/**
 * Registers the file's hooks and returns the function its tests get the server with (it fails the
 * test when the server did not start). `start` defaults to a plain `startQuire()`.
 */
export function ownQuire(start: () => Promise<QuireServer> = () => startQuire()): () => QuireServer {
  let quire: QuireServer | undefined;
  test.beforeAll(async () => {
    quire = await start();
  });
  test.afterAll(async () => {
    await quire?.stop();
  });
  test.beforeEach(async ({ context }) => {
    await keepTrafficLocal(context);
  });
  return () => {
    if (!quire) throw new Error('quire did not start');
    return quire;
  };
}
