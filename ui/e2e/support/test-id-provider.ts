// "TestID": a real third-party OpenID provider for the end-to-end tests, built on the
// oidc-provider package and bound to 127.0.0.1. Its dev interactions ask for any login and
// password (then for consent); the login becomes the account id, and an e-mail address is
// derived from it unless it is one already. ID tokens are RS256 with a key made at start.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Locator, type Page } from '@playwright/test';
import Provider, { type Configuration } from 'oidc-provider';

/** The client id quire is started with (`--oidc-client-id`). */
export const TEST_ID_CLIENT_ID = 'quire-e2e';

export interface TestIdProvider {
  /** `http://127.0.0.1:PORT`, for `--oidc-issuer`. */
  issuer: string;
  stop: () => Promise<void>;
}

/** The e-mail address TestID puts into the ID token for `login`. */
export function testIdEmail(login: string): string {
  return login.includes('@') ? login : `${login}@testid.example`;
}

/** Starts TestID with one client allowed to return to `redirectUri`. */
export async function startTestIdProvider(redirectUri: string): Promise<TestIdProvider> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;

  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: 'testid-rs256', alg: 'RS256', use: 'sig' };

  const configuration: Configuration = {
    clients: [
      {
        client_id: TEST_ID_CLIENT_ID,
        redirect_uris: [redirectUri],
        response_types: ['id_token'],
        grant_types: ['implicit'],
        token_endpoint_auth_method: 'none',
        // Implicit flow back to an http:// (loopback) address is allowed for native clients only.
        application_type: 'native',
      },
    ],
    jwks: { keys: [signingKey] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({ sub: id, email: testIdEmail(id), email_verified: true, name: id.split('@')[0] }),
    }),
    cookies: { keys: [randomBytes(32).toString('hex')] },
    ttl: { Session: 3600, Interaction: 600, Grant: 3600, IdToken: 600 },
    features: { devInteractions: { enabled: true } },
  };
  const provider = new Provider(issuer, configuration);
  server.on('request', provider.callback());

  return {
    issuer,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Clicks `button` on `page` (it opens the sign-in popup), then signs in at the TestID of `issuer`
 * as `login`: its dev login form, then its consent screen. Waits until the popup has closed.
 */
export async function signInAtTestId(page: Page, button: Locator, login: string, issuer: string): Promise<void> {
  const popupOpened = page.waitForEvent('popup');
  await button.click();
  const popup = await popupOpened;
  const closed = popup.waitForEvent('close');
  await expect(popup).toHaveURL(new RegExp(`^${issuer}/interaction/`));
  await popup.getByPlaceholder('Enter any login').fill(login);
  await popup.getByPlaceholder('and password').fill('any password');
  await popup.getByRole('button', { name: 'Sign-in' }).click();
  await popup.getByRole('button', { name: 'Continue' }).click();
  await closed;
}
