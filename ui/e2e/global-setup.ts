// Starts the real quire binary for the end-to-end tests and stops it afterwards (see
// support/quire.ts). Set QUIRE_E2E_URL to test a server that is already running instead
// (nothing is started then).
import { quireBin, startQuire } from './support/quire';

export default async function globalSetup(): Promise<(() => Promise<void>) | void> {
  if (process.env.QUIRE_E2E_URL) {
    process.env.QUIRE_E2E_BASE_URL = process.env.QUIRE_E2E_URL.replace(/\/$/, '');
    return;
  }
  const server = await startQuire();
  process.env.QUIRE_E2E_BASE_URL = server.baseUrl;
  console.log(`e2e: quire (${quireBin()}) is serving ${server.baseUrl}`);
  return server.stop;
}
