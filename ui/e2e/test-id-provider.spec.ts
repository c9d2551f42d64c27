// Sign-in through a real third-party OpenID provider ("TestID", oidc-provider on 127.0.0.1) and a
// second quire configured for it, the way a deployment uses Google.
import { expect, test, type Page } from '@playwright/test';
import { watchForErrors } from './support/browser';
import { createBlog } from './support/flows';
import { ownQuire } from './support/own-quire';
import { freePort, startQuire } from './support/quire';
import {
  signInAtTestId as signInAt,
  startTestIdProvider,
  TEST_ID_CLIENT_ID,
  type TestIdProvider,
} from './support/test-id-provider';

const SUPPORT_URL = 'https://ko-fi.com/quire-e2e';

let provider: TestIdProvider | undefined;

const app = ownQuire(async () => {
  const port = await freePort();
  provider = await startTestIdProvider(`http://localhost:${port}/auth/callback`);
  return startQuire({
    port,
    args: [
      '--oidc-issuer',
      provider.issuer,
      '--oidc-client-id',
      TEST_ID_CLIENT_ID,
      '--oidc-name',
      'TestID',
      '--support-url',
      SUPPORT_URL,
    ],
  });
});

test.afterAll(async () => {
  await provider?.stop();
});

/** Clicks the button named `button`, then signs in at TestID as `login`. */
async function signInAtTestId(page: Page, button: string, login: string): Promise<void> {
  await signInAt(page, page.getByRole('button', { name: button }), login, provider?.issuer ?? '');
}

test('signing up, creating a blog, signing out and logging in again through a third-party provider', async ({
  page,
  context,
}) => {
  const problems = watchForErrors(page);
  const { baseUrl, port } = app();
  const menu = page.getByRole('navigation', { name: 'Menu' });

  await page.goto(`${baseUrl}/`);
  await expect(page.getByRole('button', { name: 'Login with TestID' })).toBeEnabled();
  await page.getByRole('button', { name: 'or Signup' }).click();
  await signInAtTestId(page, 'Signup with TestID', 'carol');
  await expect(page).toHaveURL(`${baseUrl}/d/posts`);
  await createBlog(page, 'carol');

  await expect(menu.getByRole('link')).toHaveText([
    'Posts',
    'Responses',
    'Settings',
    'Open blog',
    'Support',
    'Signout',
  ]);
  await expect(menu.getByRole('link', { name: 'Open blog' })).toHaveAttribute('href', `http://carol.localhost:${port}`);
  await expect(menu.getByRole('link', { name: 'Support' })).toHaveAttribute('href', SUPPORT_URL);
  await expect(menu.getByRole('link', { name: 'Support' })).toHaveAttribute('target', '_blank');

  await menu.getByRole('link', { name: 'Signout' }).click();
  await expect(page).toHaveURL(`${baseUrl}/`);

  // Forget the provider's own session too, so logging in goes through its login form again.
  await context.clearCookies({ domain: '127.0.0.1' });
  await signInAtTestId(page, 'Login with TestID', 'carol');
  await expect(page).toHaveURL(`${baseUrl}/d/posts`);
  await expect(page.getByRole('heading', { level: 1, name: 'Posts' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Open blog' })).toHaveAttribute('href', `http://carol.localhost:${port}`);

  // Still signed in at the provider, which skips its login form and only asks to confirm (it does
  // for every native client).
  await menu.getByRole('link', { name: 'Signout' }).click();
  await expect(page).toHaveURL(`${baseUrl}/`);
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Login with TestID' }).click();
  const popup = await popupOpened;
  const closed = popup.waitForEvent('close');
  await expect(popup.getByRole('button', { name: 'Continue' })).toBeVisible();
  await expect(popup.getByPlaceholder('Enter any login')).toHaveCount(0);
  await popup.getByRole('button', { name: 'Continue' }).click();
  await closed;
  await expect(page).toHaveURL(`${baseUrl}/d/posts`);
  await expect(page.getByRole('heading', { level: 1, name: 'Posts' })).toBeVisible();

  expect(problems).toEqual([]);
});
