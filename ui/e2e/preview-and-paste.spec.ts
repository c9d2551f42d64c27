// Issue 33's editor, in a real browser against the real server. The Preview is the blog's own
// post page: a post with two paragraphs and a Spotify block, previewed, shows the page in a frame
// on the blog's host with the Spotify player framed from open.spotify.com (it need not load:
// nothing leaves this machine) and the theme's styles, the same as the published page's; the
// editable blocks are hidden meanwhile. Pasting Markdown into a paragraph offers to split it
// into blocks, and a "## Morning" line becomes a heading block.
// A quire of its own, so its data is this file's alone.
import { expect, test, type Locator } from '@playwright/test';
import { watchForErrors } from './support/browser';
import { createBlog, publishPost, signInWithLocalIssuer } from './support/flows';
import { block } from './support/harbour-post';
import { ownQuire } from './support/own-quire';

const app = ownQuire();
const at = (pathname: string) => `${app().baseUrl}${pathname}`;
const SPOTIFY = 'https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC';
const FIRST = 'First light over the harbour.';

/** What the theme decides of a paragraph: its type and the space around it. */
const looks = (paragraph: Locator) =>
  paragraph.evaluate((p) => {
    const style = getComputedStyle(p);
    return [style.fontFamily, style.fontSize, style.lineHeight, style.marginTop, style.marginBottom];
  });

test("the Preview shows the blog's own page with its theme and the Spotify player", async ({ page }) => {
  const problems = watchForErrors(page);
  await page.goto(at('/signup'));
  await signInWithLocalIssuer(page, 'Signup with Local', 'preview@example.com');
  await createBlog(page, 'preview');
  await page.getByRole('link', { name: 'New Post' }).click();

  await block(page, 1).getByRole('textbox', { name: 'Heading' }).fill('Morning');
  await block(page, 2).getByRole('textbox', { name: 'Paragraph' }).fill(`${FIRST}\n\nThe second paragraph.`);
  await page.getByRole('button', { name: 'Edit blocks' }).click();
  await page.getByRole('button', { name: 'Add block at the end' }).click();
  await page.getByRole('dialog', { name: 'Add a block' }).getByRole('button', { name: 'Spotify', exact: true }).click();
  await block(page, 3).getByRole('textbox', { name: 'Spotify URL' }).fill(SPOTIFY);
  await page.getByRole('button', { name: 'Edit blocks' }).click();

  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  const frame = page.getByTitle('Preview of the post as readers will see it');
  await expect(frame).toHaveAttribute('src', /^http:\/\/preview\.localhost:\d+\/post-preview\/[0-9a-f]{32}$/);
  await expect(block(page, 1)).toBeHidden();
  await expect(block(page, 2)).toBeHidden();
  const shown = frame.contentFrame();
  await expect(shown.getByRole('heading', { level: 1 })).toHaveText('Morning');
  await expect(shown.locator('iframe')).toHaveAttribute('src', /^https:\/\/open\.spotify\.com\/embed\/track\//);
  const previewed = await looks(shown.locator('article.post p', { hasText: FIRST }));
  const box = await frame.boundingBox();
  expect(box?.height ?? 0).toBeGreaterThan(400);

  // The published page's paragraph looks the same.
  const post = await publishPost(page, app().baseUrl, 'Morning', `${FIRST}\n\nThe second paragraph.`);
  const reader = await page.context().newPage();
  await reader.goto(post.permalink);
  expect(await looks(reader.locator('article.post p', { hasText: FIRST }))).toEqual(previewed);
  await reader.close();

  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  await expect(frame).toHaveCount(0);
  await expect(block(page, 2).getByRole('textbox', { name: 'Paragraph' })).toBeVisible();
  // The Spotify player's own load fails here (no internet): not a problem of the app's.
  expect(problems.filter((problem) => !problem.includes('open.spotify.com'))).toEqual([]);
});

test('Markdown pasted into a paragraph is split into blocks on request', async ({ page, context }) => {
  const problems = watchForErrors(page);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app().baseUrl });
  await page.goto(at('/signup'));
  await signInWithLocalIssuer(page, 'Signup with Local', 'paste@example.com');
  await createBlog(page, 'paste');
  await page.getByRole('link', { name: 'New Post' }).click();

  await block(page, 1).getByRole('textbox', { name: 'Heading' }).fill('Notes');
  const paragraph = block(page, 2).getByRole('textbox', { name: 'Paragraph' });
  await paragraph.focus();
  await page.evaluate((text) => navigator.clipboard.writeText(text), '## Morning\n\nFirst.\n\n- a\n- b');
  await page.keyboard.press('ControlOrMeta+V');
  await expect(paragraph).toHaveValue('## Morning\n\nFirst.\n\n- a\n- b');

  const offer = block(page, 2).getByRole('group', { name: 'Pasted text' });
  await expect(offer.getByRole('status')).toHaveText('The pasted text holds 2 blocks.');
  await page.keyboard.press('Tab');
  await expect(offer.getByRole('button', { name: 'Split into 2 blocks' })).toBeFocused();
  await page.keyboard.press('Enter');

  await expect(page.getByRole('group', { name: /^Block \d+: / })).toHaveCount(3);
  const heading = block(page, 2).getByRole('textbox', { name: 'Heading' });
  await expect(heading).toHaveValue('Morning');
  await expect(heading).toBeFocused();
  await expect(block(page, 3).getByRole('textbox', { name: 'Paragraph' })).toHaveValue('First.\n\n- a\n- b');
  expect(problems).toEqual([]);
});
