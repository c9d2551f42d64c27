import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

// How long findBy* and waitFor wait for the screen to show something: a screen that loads its
// data and lazy parts took over a second, the default, on a machine busy with the rest of the
// suite (the post editor's preview link region, once). A test that waits for something that
// never comes still fails, only later.
configure({ asyncUtilTimeout: 5000 });

// jsdom has no layout; the app's ScrollRestoration (lib/scroll-restoration.tsx) calls this on every navigation.
window.scrollTo = () => undefined;

// No test reaches a real server: a request that no test set up fails like a dead network.
beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      throw new TypeError(`no fake server for ${String(input)} (use fakeApi in the test)`);
    }),
  );
});

afterEach(() => {
  cleanup();
});
