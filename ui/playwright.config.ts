import { defineConfig, devices } from '@playwright/test';

// The browser is the system Chromium (no Playwright download): PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1.
const executablePath = process.env.QUIRE_E2E_CHROMIUM ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: './e2e',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: 'list',
  timeout: 30_000,
  // An answer the server gives in milliseconds can take seconds when the machine is also building:
  // a step that never happens still fails, 10 s later.
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  use: {
    // Set by global-setup once the server answers; the workers inherit it.
    baseURL: process.env.QUIRE_E2E_BASE_URL,
    headless: true,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath,
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      },
    },
  ],
});
