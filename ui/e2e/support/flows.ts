// Steps several end-to-end tests share: signing in through the local issuer's popup and
// creating a blog on the 'Welcome' screen, publishing a post through the owner API.
import { expect, type Page } from '@playwright/test';

/** Clicks `button` (which opens the sign-in popup) and signs in as `email` at the local issuer. */
export async function signInWithLocalIssuer(page: Page, button: string, email: string): Promise<void> {
  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: button }).click();
  const popup = await popupOpened;
  const closed = popup.waitForEvent('close');
  await popup.getByLabel('E-mail address').fill(email);
  await popup.getByRole('button', { name: 'Sign in' }).click();
  await closed;
}

/** On the 'Welcome' screen: asks for `subdomain` and waits for the reloaded owner area. */
export async function createBlog(page: Page, subdomain: string): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Preferred subdomain' }).fill(subdomain);
  await page.getByRole('button', { name: 'Signup' }).click();
  // Attached, not visible: on a phone the menu waits hidden behind the hamburger button.
  await expect(page.getByRole('navigation', { name: 'Menu', includeHidden: true })).toBeAttached();
  await expect(page.getByRole('heading', { name: 'Welcome' })).toHaveCount(0);
}

/** Signs up at `baseUrl` as `email` through the local issuer and creates the blog `subdomain`. */
export async function signUpWithBlog(page: Page, baseUrl: string, email: string, subdomain: string): Promise<void> {
  await page.goto(`${baseUrl}/signup`);
  await signInWithLocalIssuer(page, 'Signup with Local', email);
  await createBlog(page, subdomain);
}

/** A subdomain the server refused. */
export const SUBDOMAIN_REFUSED = { status: 422, path: '/api/my/blogs' } as const;

/** A post as the owner API answers it (the fields the tests read). */
export interface PublishedPost {
  shortId: string;
  permalink: string;
}

/**
 * Publishes a post (a heading and a paragraph) on `baseUrl` through the owner API, with the page's
 * cookies and CSRF token, in the page's current blog; gives it.
 */
export async function publishPost(page: Page, baseUrl: string, title: string, text: string): Promise<PublishedPost> {
  const cookies = await page.context().cookies();
  const csrf = cookies.find((c) => c.name === 'csrf_token')?.value ?? '';
  const blogId = cookies.find((c) => c.name === 'blog_id')?.value;
  const body = {
    type: 'root',
    children: [
      { type: 'heading', value: { text: title } },
      { type: 'paragraph', value: { text } },
    ],
  };
  const response = await page.request.post(`${baseUrl}/api/my/blogs/${blogId}/posts`, {
    data: { body, draft: false },
    headers: { 'CSRF-Token': csrf },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { post: PublishedPost }).post;
}

/**
 * Runs `act` (the click or key that saves a setting) and waits for the server's answer to the write
 * it sends, which must be a success. Settings' buttons say 'Saved' for only 3 s after that answer
 * (the unit tests check the label); a machine loaded by builds can let the label come and go
 * between two looks, but it cannot lose the answer. Checks of what the form calls while typing
 * (`.../check`) are not the save.
 */
export async function savedBy(page: Page, act: () => Promise<unknown>): Promise<void> {
  const answer = page.waitForResponse(
    (response) => {
      const { pathname } = new URL(response.url());
      return response.request().method() !== 'GET' && pathname.startsWith('/api/my/') && !pathname.endsWith('/check');
    },
    { timeout: 30_000 },
  );
  await act();
  const response = await answer;
  expect(response.status(), `${response.request().method()} ${response.url()}`).toBeLessThan(300);
}
