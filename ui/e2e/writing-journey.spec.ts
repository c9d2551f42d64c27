// A blogger's whole writing session, in a real browser against the real server: a post with a
// bold word, a link inside a sentence, a list, a quote and a code block, an image with alt text
// and a caption, and two tags; previewed in the editor; scheduled two minutes ahead (in the
// owner's own time zone, which is not UTC here); its preview link sent to a signed-out browser
// that reads it; an About page in the blog's navigation; a draft's preview link revoked (a 404);
// and, when the time comes, the post on the blog, its tag page, its tag feed and the sitemap,
// with no request needed to make it so. A quire of its own, so its data is this file's alone.
import { expect, test } from '@playwright/test';
import { localDateTime, signedOutContext, watchForErrors } from './support/browser';
import { createBlog, signInWithLocalIssuer } from './support/flows';
import {
  addDescribedImage,
  block,
  expectHarbourPost,
  PARAGRAPH,
  TITLE,
  writeHeadingAndParagraph,
} from './support/harbour-post';
import { ownQuire } from './support/own-quire';

const app = ownQuire();
const at = (pathname: string) => `${app().baseUrl}${pathname}`;
const blogUrl = (pathname: string) => `http://journey.localhost:${new URL(app().baseUrl).port}${pathname}`;

/**
 * How far ahead the post is scheduled: two minutes, as a blogger would. QUIRE_E2E_SCHEDULE_AHEAD_MS
 * shortens it while working on this test (the steps before the wait need about 30 s).
 */
const AHEAD_MS = Number(process.env.QUIRE_E2E_SCHEDULE_AHEAD_MS ?? 120_000);

/** How long a save may take before the editor leaves for the list (a shared, busy machine is slow). */
const SAVED = { timeout: 15_000 };

// The owner's browser is five hours or so off UTC: the time typed is local, the wire is UTC.
test.use({ timezoneId: 'America/New_York' });

test('a formatted, described, tagged post is previewed, shared before it is public, and appears at its scheduled time', async ({
  page,
  browser,
}) => {
  test.setTimeout(AHEAD_MS + 120_000);
  const problems = watchForErrors(page);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(at('/signup'));
  await signInWithLocalIssuer(page, 'Signup with Local', 'journey@example.com');
  await createBlog(page, 'journey');
  await page.getByRole('link', { name: 'New Post' }).click();

  await test.step('write a formatted paragraph, with the formatting hint under it', async () => {
    await writeHeadingAndParagraph(page);
  });

  await test.step('add an image: alt text is asked for, then given with a caption', async () => {
    await addDescribedImage(page);
  });

  await test.step('give it two tags', async () => {
    const tags = page.getByRole('combobox', { name: 'Tags' });
    await tags.fill('Sailing');
    await tags.press('Enter');
    await tags.fill('harbour-life');
    await tags.press('Enter');
    await expect(page.getByRole('list', { name: 'Tags of this post' }).getByRole('listitem')).toHaveText([
      'sailing×',
      'harbour-life×',
    ]);
  });

  await test.step('Preview shows what readers will see, then back to writing', async () => {
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const preview = page.getByTitle('Preview of the post as readers will see it');
    await expectHarbourPost(preview.contentFrame().locator('article.post'));
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    await expect(preview).toHaveCount(0);
    await expect(block(page, 2).getByRole('textbox', { name: 'Paragraph' })).toHaveValue(PARAGRAPH);
  });

  const due = new Date(Math.ceil((Date.now() + AHEAD_MS) / 1000) * 1000);
  await test.step('schedule it two minutes ahead, in local time', async () => {
    await expect(page.getByRole('button', { name: 'Publish', exact: true })).toBeVisible();
    await page.getByLabel('Publish at').fill(await localDateTime(page, due));
    await expect(page.getByRole('button', { name: 'Publish', exact: true })).toHaveCount(0);
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await expect(page).toHaveURL(at('/d/posts'), SAVED);
    const card = page.getByRole('article').filter({ hasText: TITLE });
    const when = card.locator('.q-post-card__scheduled');
    await expect(when).toHaveText(/^Scheduled /);
    // The card names the local time typed; the wire carried the same instant in UTC.
    expect(new Date((await when.locator('time').getAttribute('datetime')) ?? '').getTime()).toBe(due.getTime());
    const shown = await page.evaluate(
      (ms) => new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }),
      due.getTime(),
    );
    await expect(when.locator('time')).toHaveText(shown);
    await expect(card.getByRole('link', { name: 'Read', exact: true })).toHaveCount(0);
  });

  const reader = await signedOutContext(browser);
  // A tab of the reader's for feeds, the sitemap and statuses (the browser resolves *.localhost,
  // Node does not); it is opened before the reader's tab is watched, so its 404s are not problems.
  const fetcher = await reader.newPage();
  const get = async (url: string) => {
    const response = await fetcher.goto(url);
    return { status: response?.status() ?? 0, text: (await response?.text()) ?? '' };
  };
  const readerPage = await reader.newPage();
  const readerProblems = watchForErrors(readerPage);

  await test.step('before its time the post is nowhere public', async () => {
    await readerPage.goto(blogUrl('/'));
    await expect(readerPage.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expect(readerPage.getByText(TITLE)).toHaveCount(0);
    for (const path of ['/feed.xml', '/tags/sailing/feed.xml', '/sitemap.xml', '/tags/sailing', '/search?q=harbour']) {
      const { status, text } = await get(blogUrl(path));
      expect(status, path).toBeLessThan(500);
      expect(text, path).not.toContain(TITLE);
    }
  });

  let previewUrl = '';
  await test.step('the owner copies its preview link and a signed-out browser reads it', async () => {
    await page.getByRole('link', { name: TITLE }).click();
    await expect(page.getByRole('button', { name: 'Schedule', exact: true })).toBeVisible();
    const region = page.getByRole('region', { name: 'Preview link' });
    await region.getByRole('button', { name: 'Create preview link' }).click();
    await expect(region.getByRole('textbox', { name: 'Preview link address' })).toHaveValue(/\/preview\/[0-9a-f]{64}$/);
    await region.getByRole('button', { name: 'Copy link' }).click();
    previewUrl = await page.evaluate(() => navigator.clipboard.readText());
    expect(previewUrl).toBe(await region.getByRole('textbox', { name: 'Preview link address' }).inputValue());
    expect(previewUrl.startsWith(blogUrl('/preview/'))).toBe(true);

    const response = await readerPage.goto(previewUrl);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['cache-control']).toBe('no-store');
    await expect(readerPage.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    await expectHarbourPost(readerPage.locator('article.post'));
    await expect(readerPage.getByRole('list', { name: 'Tags' }).getByRole('link')).toHaveText([
      'sailing',
      'harbour-life',
    ]);
  });

  await test.step('an About page shows in the blog’s navigation', async () => {
    await page.goto(at('/d/posts'));
    await page.getByRole('link', { name: 'New Post' }).click();
    await block(page, 1).getByRole('textbox', { name: 'Heading' }).fill('About');
    await block(page, 2).getByRole('textbox', { name: 'Paragraph' }).fill('I write about *boats*.');
    await page.getByRole('checkbox', { name: 'Show as a page' }).check();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect(page).toHaveURL(at('/d/posts'), SAVED);

    await readerPage.goto(blogUrl('/'));
    const nav = readerPage.getByRole('navigation', { name: 'Pages' });
    await nav.getByRole('link', { name: 'About' }).click();
    await expect(readerPage).toHaveURL(blogUrl('/about'));
    await expect(readerPage.getByRole('heading', { level: 1 })).toHaveText('About');
    await expect(readerPage.locator('em')).toHaveText('boats');
    await readerPage.goto(blogUrl('/'));
    await expect(readerPage.locator('main').getByRole('link', { name: 'About' })).toHaveCount(0);
  });

  await test.step('a draft’s preview link, once revoked, is a 404', async () => {
    await page.getByRole('link', { name: 'New Post' }).click();
    await block(page, 1).getByRole('textbox', { name: 'Heading' }).fill('Half a thought');
    await block(page, 2).getByRole('textbox', { name: 'Paragraph' }).fill('Not ready.');
    await page.getByRole('checkbox', { name: 'Mark as draft' }).check();
    await page.getByRole('button', { name: 'Save as Draft' }).click();
    await expect(page).toHaveURL(at('/d/posts'), SAVED);
    await page.getByRole('link', { name: 'Half a thought' }).click();
    const region = page.getByRole('region', { name: 'Preview link' });
    await region.getByRole('button', { name: 'Create preview link' }).click();
    const address = region.getByRole('textbox', { name: 'Preview link address' });
    await expect(address).toHaveValue(/\/preview\/[0-9a-f]{64}$/);
    const draftUrl = await address.inputValue();
    expect((await get(draftUrl)).status).toBe(200);
    await region.getByRole('button', { name: 'Revoke link' }).click();
    await expect(region.getByRole('button', { name: 'Create preview link' })).toBeVisible();
    expect((await get(draftUrl)).status).toBe(404);
    // The scheduled post's own link still works.
    expect((await get(previewUrl)).status).toBe(200);
  });

  await test.step('at its time the post is on the blog, its tag page, its tag feed and the sitemap', async () => {
    // Nothing is asked of the server until the time has passed: the server's own timer publishes.
    const wait = due.getTime() - Date.now();
    expect(wait, 'the steps before the wait took longer than the schedule').toBeGreaterThan(0);
    await readerPage.waitForTimeout(wait + 1_000);
    await expect(async () => {
      const response = await readerPage.goto(blogUrl('/'));
      expect(response?.status()).toBe(200);
      await expect(readerPage.getByRole('link', { name: TITLE })).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 20_000, intervals: [1_000] });

    await readerPage.getByRole('link', { name: TITLE }).click();
    await expect(readerPage).toHaveURL(new RegExp(`^${blogUrl('/harbour-days-')}[^/]+$`));
    await expectHarbourPost(readerPage.locator('article.post'));
    // Its date is the time it was scheduled for.
    const published = await readerPage.locator('article.post .meta time').getAttribute('datetime');
    expect(new Date(published ?? '').getTime()).toBe(due.getTime());
    await expect(
      readerPage.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'About' }),
    ).toBeVisible();
    const permalink = readerPage.url();

    await readerPage.getByRole('list', { name: 'Tags' }).getByRole('link', { name: 'sailing' }).click();
    await expect(readerPage).toHaveURL(blogUrl('/tags/sailing'));
    await expect(readerPage.getByRole('heading', { level: 1 })).toHaveText('Tagged sailing');
    await expect(readerPage.getByRole('link', { name: TITLE })).toBeVisible();

    const feed = await get(blogUrl('/tags/harbour-life/feed.xml'));
    expect(feed.status).toBe(200);
    expect(feed.text).toContain(`<title>${TITLE}</title>`);
    const sitemap = (await get(blogUrl('/sitemap.xml'))).text;
    expect(sitemap).toContain(`<loc>${permalink}</loc>`);
    expect(sitemap).toContain(`<loc>${blogUrl('/tags/sailing')}</loc>`);
    expect(sitemap).not.toContain('/preview/');
  });

  await test.step('the owner’s list shows it published', async () => {
    await page.goto(at('/d/posts'));
    const card = page.getByRole('article').filter({ hasText: TITLE });
    await expect(card.locator('.q-post-card__scheduled')).toHaveCount(0);
    await expect(card.getByRole('link', { name: 'Read', exact: true })).toHaveAttribute(
      'href',
      /^http:\/\/journey\.localhost/,
    );
  });

  await reader.close();
  expect(problems).toEqual([]);
  expect(readerProblems).toEqual([]);
});
