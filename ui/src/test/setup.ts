import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

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
