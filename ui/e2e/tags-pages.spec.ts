// Tags and pages in a real browser against the real server: a blogger adds two tags to a post
// and a reader finds it on the tag page and in the tag feed; an About page made in the editor
// shows in the blog's navigation, and the owner reorders pages. A quire of its own.
import { expect, test, type Page } from '@playwright/test';
import { watchForErrors } from './support/browser';
import { createBlog, signInWithLocalIssuer } from './support/flows';
import { ownQuire } from './support/own-quire';

const app = ownQuire();
const at = (pathname: string) => `${app().baseUrl}${pathname}`;
const blogUrl = (subdomain: string) => `http://${subdomain}.localhost:${new URL(app().baseUrl).port}`;

async function signUp(page: Page, email: string, subdomain: string): Promise<void> {
  await page.goto(at('/signup'));
  await signInWithLocalIssuer(page, 'Signup with Local', email);
  await createBlog(page, subdomain);
  await expect(page).toHaveURL(at('/d/posts'));
}

/** Writes a post's heading and paragraph in the open editor. */
async function write(page: Page, title: string, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Heading' }).fill(title);
  await page.getByRole('textbox', { name: 'Paragraph' }).fill(text);
}

test('a post with two tags is on the tag page and in the tag feed', async ({ page, context }) => {
  const problems = watchForErrors(page);
  await signUp(page, 'tagger@example.com', 'tagger');
  await page.getByRole('link', { name: 'New Post' }).click();
  await write(page, 'Over the hills', 'A day on the road.');
  const tags = page.getByRole('combobox', { name: 'Tags' });
  await tags.fill('Road-Trip');
  await tags.press('Enter');
  await tags.fill('hiking');
  await tags.press('Enter');
  await expect(page.getByRole('list', { name: 'Tags of this post' }).getByRole('listitem')).toHaveText([
    'road-trip×',
    'hiking×',
  ]);
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page).toHaveURL(at('/d/posts'));
  await expect(page.getByRole('list', { name: 'Tags of Over the hills' }).getByRole('link')).toHaveText([
    'road-trip',
    'hiking',
  ]);

  // The owner's list filters by tag.
  await page.getByRole('combobox', { name: 'Filter by tag' }).selectOption('hiking');
  await expect(page).toHaveURL(at('/d/posts?tag=hiking'));
  await expect(page.getByRole('link', { name: 'Over the hills' })).toBeVisible();

  const reader = await context.newPage();
  await reader.goto(`${blogUrl('tagger')}/`);
  await reader.getByRole('list', { name: 'Tags' }).first().getByRole('link', { name: 'road-trip' }).click();
  await expect(reader).toHaveURL(`${blogUrl('tagger')}/tags/road-trip`);
  await expect(reader.getByRole('heading', { level: 1 })).toHaveText('Tagged road-trip');
  await expect(reader.getByRole('link', { name: 'Over the hills' })).toBeVisible();
  const feed = await reader.goto(`${blogUrl('tagger')}/tags/hiking/feed.xml`);
  expect(feed?.status()).toBe(200);
  expect(await feed?.text()).toContain('<title>Over the hills</title>');
  expect(problems).toEqual([]);
});

test('an About page shows in the navigation of every page, in the order the owner sets', async ({ page, context }) => {
  const problems = watchForErrors(page);
  await signUp(page, 'pager@example.com', 'pager');
  for (const title of ['About', 'Now']) {
    await page.getByRole('link', { name: 'New Post' }).click();
    await write(page, title, `The ${title} page.`);
    await page.getByRole('checkbox', { name: 'Show as a page' }).check();
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page).toHaveURL(at('/d/posts'));
  }
  await page.getByRole('link', { name: 'New Post' }).click();
  await write(page, 'A plain post', 'Not a page.');
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page).toHaveURL(at('/d/posts'));

  const reader = await context.newPage();
  await reader.goto(`${blogUrl('pager')}/`);
  const nav = reader.getByRole('navigation', { name: 'Pages' });
  await expect(nav.getByRole('link')).toHaveText(['About', 'Now']);
  await expect(reader.getByRole('link', { name: 'A plain post' })).toBeVisible();
  await nav.getByRole('link', { name: 'About' }).click();
  await expect(reader).toHaveURL(`${blogUrl('pager')}/about`);
  await expect(reader.getByRole('heading', { level: 1 })).toHaveText('About');
  await expect(nav.getByRole('link', { name: 'About' })).toHaveAttribute('aria-current', 'page');

  await page.getByRole('button', { name: 'Move Now up' }).click();
  // The list shows the new order once the server has saved it (the buttons are disabled while it saves).
  await expect(page.getByRole('list', { name: 'Pages' }).getByRole('listitem')).toHaveText([/^Now /, /^About /]);
  await expect(page.getByRole('button', { name: 'Move About up' })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Move Now up' })).toBeDisabled();
  await reader.reload();
  await expect(nav.getByRole('link')).toHaveText(['Now', 'About']);
  expect(problems).toEqual([]);
});
