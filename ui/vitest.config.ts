import { defineConfig } from 'vitest/config';

export default defineConfig({
  esbuild: { jsx: 'automatic' },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    restoreMocks: true,
    unstubGlobals: true,
    // A test's whole budget, not a timed assertion: the editor's tests type and click a lot, and
    // under a loaded machine (the full suite beside cargo) 5 s, the default, was once not enough.
    testTimeout: 20_000,
  },
});
