// Scheduling a post and sharing it before it is public, in a real browser against the real
// server: the post appears on the public blog when its time comes (the server's timer, no
// request needed), and a signed-out browser reads a draft through its preview link until the
// link is revoked.
import { expect, test, type Page } from '@playwright/test';
import { keepTrafficLocal, localDateTime, signedOutContext, watchForErrors } from './support/browser';
import { createBlog, signInWithLocalIssuer } from './support/flows';

async function writePost(page: Page, title: string, text: string): Promise<void> {
  await page.getByRole('link', { name: 'New Post' }).click();
  await page.getByRole('group', { name: 'Block 1: Heading' }).getByRole('textbox', { name: 'Heading' }).fill(title);
  await page.getByRole('group', { name: 'Block 2: Paragraph' }).getByRole('textbox', { name: 'Paragraph' }).fill(text);
}

/** Creates a preview link in the open editor and returns its address. */
async function createPreviewLink(page: Page): Promise<string> {
  const region = page.getByRole('region', { name: 'Preview link' });
  await region.getByRole('button', { name: 'Create preview link' }).click();
  const address = region.getByRole('textbox', { name: 'Preview link address' });
  await expect(address).toHaveValue(/\/preview\/[0-9a-f]{64}$/);
  return address.inputValue();
}

test('a scheduled post appears on the blog at its time, and a preview link shows drafts to a signed-out reader', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const problems = watchForErrors(page);
  await keepTrafficLocal(page.context());
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const port = new URL(baseURL ?? '').port;
  const blogUrl = `http://later.localhost:${port}`;
  await page.goto('/signup');
  await signInWithLocalIssuer(page, 'Signup with Local', 'later@example.com');
  await createBlog(page, 'later');

  await test.step('schedule a post a few seconds ahead', async () => {
    await writePost(page, 'Written for later', 'These words wait for their time.');
    const publishAt = page.getByLabel('Publish at');
    await publishAt.fill(await localDateTime(page, new Date(Date.now() + 15_000)));
    await page.getByRole('button', { name: 'Schedule' }).click();
    await expect(page).toHaveURL(/\/d\/posts$/);
    const card = page.getByRole('article').filter({ hasText: 'Written for later' });
    await expect(card.getByText(/^Scheduled/)).toBeVisible();
  });

  const reader = await signedOutContext(browser);
  const readerPage = await reader.newPage();

  await test.step('a signed-out reader reads it through its preview link, and the blog does not show it yet', async () => {
    await page.getByRole('link', { name: 'Written for later' }).click();
    await expect(page.getByRole('button', { name: 'Schedule' })).toBeVisible();
    const url = await createPreviewLink(page);
    expect(url.startsWith(`${blogUrl}/preview/`)).toBe(true);
    const response = await readerPage.goto(url);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['cache-control']).toBe('no-store');
    expect(response?.headers()['x-robots-tag']).toBe('noindex');
    await expect(readerPage.getByRole('heading', { name: 'Written for later' })).toBeVisible();
    await expect(readerPage.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    await readerPage.goto(`${blogUrl}/`);
    await expect(readerPage.getByText('Written for later')).toHaveCount(0);
  });

  await test.step('at its time the post is on the blog, with no one asking for it', async () => {
    await expect(async () => {
      await readerPage.goto(`${blogUrl}/`);
      await expect(readerPage.getByRole('link', { name: 'Written for later' })).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 40_000, intervals: [1000] });
    await readerPage.goto(`${blogUrl}/feed.xml`);
    expect(await readerPage.content()).toContain('Written for later');
  });

  await test.step('a draft shared with a preview link, then revoked, is a 404 for the reader', async () => {
    await page.goto('/d/posts');
    await writePost(page, 'Unfinished thoughts', 'Not ready.');
    await page.getByRole('checkbox', { name: 'Mark as draft' }).check();
    await expect(page.getByLabel('Publish at')).toBeDisabled();
    await page.getByRole('button', { name: 'Save as Draft' }).click();
    await expect(page).toHaveURL(/\/d\/posts$/);
    await page.getByRole('link', { name: 'Unfinished thoughts' }).click();
    const url = await createPreviewLink(page);
    await page.getByRole('region', { name: 'Preview link' }).getByRole('button', { name: 'Copy link' }).click();
    expect((await readerPage.goto(url))?.status()).toBe(200);
    await expect(readerPage.getByRole('heading', { name: 'Unfinished thoughts' })).toBeVisible();
    await page.getByRole('region', { name: 'Preview link' }).getByRole('button', { name: 'Revoke link' }).click();
    await expect(
      page.getByRole('region', { name: 'Preview link' }).getByRole('button', { name: 'Create preview link' }),
    ).toBeVisible();
    expect((await readerPage.goto(url))?.status()).toBe(404);
  });

  await reader.close();
  expect(problems).toEqual([]);
});
