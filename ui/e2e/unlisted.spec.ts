// An unlisted post (issue 32, docs/unlisted.md) in a real browser against the real server: the
// owner chooses Unlisted in the post settings, the list marks it, a signed-out reader opens it
// by its link (noindex) and finds it neither on the home page nor in the feed, while the public
// post beside it is there; made public again, it joins the home page.
import { expect, test, type Page } from '@playwright/test';
import { keepTrafficLocal, signedOutContext, watchForErrors } from './support/browser';
import { createBlog, signInWithLocalIssuer } from './support/flows';

async function writePost(page: Page, title: string, text: string): Promise<void> {
  await page.getByRole('link', { name: 'New Post' }).click();
  await page.getByRole('group', { name: 'Block 1: Heading' }).getByRole('textbox', { name: 'Heading' }).fill(title);
  await page.getByRole('group', { name: 'Block 2: Paragraph' }).getByRole('textbox', { name: 'Paragraph' }).fill(text);
}

test('an unlisted post is read by its link and found nowhere else, until it is made public', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const problems = watchForErrors(page);
  await keepTrafficLocal(page.context());
  const port = new URL(baseURL ?? '').port;
  const blogUrl = `http://hush.localhost:${port}`;
  await page.goto('/signup');
  await signInWithLocalIssuer(page, 'Signup with Local', 'hush@example.com');
  await createBlog(page, 'hush');

  await writePost(page, 'Out in the open', 'Everyone may read this.');
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page).toHaveURL(/\/d\/posts$/);

  await writePost(page, 'Only for friends', 'Shared by link.');
  await page.getByRole('combobox', { name: 'Visibility' }).selectOption('unlisted');
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page).toHaveURL(/\/d\/posts$/);
  const card = page.getByRole('article').filter({ hasText: 'Only for friends' });
  await expect(card.getByText('Unlisted')).toBeVisible();
  const permalink = await card.getByRole('link', { name: 'Read' }).getAttribute('href');
  expect(permalink?.startsWith(`${blogUrl}/only-for-friends-`)).toBe(true);

  const reader = await signedOutContext(browser);
  const readerPage = await reader.newPage();
  const response = await readerPage.goto(permalink ?? '');
  expect(response?.status()).toBe(200);
  expect(response?.headers()['x-robots-tag']).toBe('noindex');
  await expect(readerPage.getByRole('heading', { level: 1, name: 'Only for friends' })).toBeVisible();
  await readerPage.goto(`${blogUrl}/`);
  await expect(readerPage.getByRole('link', { name: 'Out in the open' })).toBeVisible();
  await expect(readerPage.getByText('Only for friends')).toHaveCount(0);
  const feed = (await (await readerPage.goto(`${blogUrl}/feed.xml`))?.text()) ?? '';
  expect(feed).toContain('Out in the open');
  expect(feed).not.toContain('Only for friends');

  await card.getByRole('link', { name: 'Only for friends' }).click();
  await page.getByRole('combobox', { name: 'Visibility' }).selectOption('public');
  await expect(page.getByRole('checkbox', { name: 'Announce to followers and subscribers' })).not.toBeChecked();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page).toHaveURL(/\/d\/posts$/);
  await expect(page.getByRole('article').filter({ hasText: 'Only for friends' }).getByText('Unlisted')).toHaveCount(0);
  await readerPage.goto(`${blogUrl}/`);
  await expect(readerPage.getByRole('link', { name: 'Only for friends' })).toBeVisible();
  await reader.close();
  expect(problems).toEqual([]);
});
