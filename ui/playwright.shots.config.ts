// Screenshots of the owner app for a person to review, on demand only (not part of the test run):
//   QUIRE_SHOTS_DIR=/tmp/shots npx playwright test -c playwright.shots.config.ts
// Takes the same browser and settings as the end-to-end tests; each screen is written on a desktop
// (1280x800) and a phone (390x844) viewport.
import { defineConfig } from '@playwright/test';
import base from './playwright.config';

export default defineConfig({
  ...base,
  testMatch: '**/*.shots.ts',
  timeout: 120_000,
});
