// Issue 33's "done when", in a real browser against the real server: a blogger writes a post,
// saves it with Ctrl+S and keeps writing at its edit address, previews it with the Spotify player
// showing, publishes it (a reader opens it), then unpublishes it from the More menu: the reader's
// address answers 404 and the post is a draft again. Then the same journey's first steps from the
// keyboard alone: the skip link leads to the title, Tab to the text, Ctrl+S saves, and Publish is
// reached and pressed from the keyboard; the long text grows its paragraph instead of scrolling
// inside it.
// A quire of its own, so its data is this file's alone.
import { expect, test } from '@playwright/test';
import { watchForErrors } from './support/browser';
import { createBlog, signInWithLocalIssuer } from './support/flows';
import { block } from './support/harbour-post';
import { ownQuire } from './support/own-quire';

const app = ownQuire();
const at = (pathname: string) => `${app().baseUrl}${pathname}`;
const SPOTIFY = 'https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC';

test('write, Ctrl+S, keep writing, preview with Spotify, publish, unpublish', async ({ page, browser }) => {
  const problems = watchForErrors(page);
  const asked: string[] = [];
  page.on('dialog', (dialog) => {
    asked.push(dialog.message());
    void dialog.accept();
  });
  await page.goto(at('/signup'));
  await signInWithLocalIssuer(page, 'Signup with Local', 'keep@example.com');
  await createBlog(page, 'keep');
  await page.getByRole('link', { name: 'New Post' }).click();

  await test.step('write, save with Ctrl+S and stay at the edit address', async () => {
    await block(page, 1).getByRole('textbox', { name: 'Heading' }).fill('Harbour at dawn');
    const paragraph = block(page, 2).getByRole('textbox', { name: 'Paragraph' });
    await paragraph.fill('The boats were still.');
    await paragraph.press('ControlOrMeta+s');
    await expect(page.getByRole('status').filter({ hasText: /^Saved at / })).toBeVisible();
    await expect(page).toHaveURL(/\/d\/posts\/[A-Za-z0-9]+\/edit$/);
    await expect(paragraph).toBeFocused();
    await paragraph.press('End');
    await page.keyboard.type(' Then the gulls woke.');
    await page.keyboard.press('ControlOrMeta+s');
    await expect(page.getByRole('status').filter({ hasText: /^Saved at / })).toBeVisible();
    // One post, not two: the second save went over the first.
    await page.reload();
    await expect(block(page, 2).getByRole('textbox', { name: 'Paragraph' })).toHaveValue(
      'The boats were still. Then the gulls woke.',
    );
  });

  await test.step('preview with the Spotify player', async () => {
    await page.getByRole('button', { name: 'Edit blocks' }).click();
    await page.getByRole('button', { name: 'Add block at the end' }).click();
    await page
      .getByRole('dialog', { name: 'Add a block' })
      .getByRole('button', { name: 'Spotify', exact: true })
      .click();
    await block(page, 3).getByRole('textbox', { name: 'Spotify URL' }).fill(SPOTIFY);
    await page.getByRole('button', { name: 'Edit blocks' }).click();
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const shown = page.getByTitle('Preview of the post as readers will see it').contentFrame();
    await expect(shown.getByRole('heading', { level: 1 })).toHaveText('Harbour at dawn');
    await expect(shown.locator('iframe')).toBeVisible();
    await expect(shown.locator('iframe')).toHaveAttribute('src', /^https:\/\/open\.spotify\.com\/embed\/track\//);
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
  });

  let permalink = '';
  await test.step('publish: a reader opens it', async () => {
    await page.getByRole('checkbox', { name: 'Mark as draft' }).uncheck();
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page).toHaveURL(at('/d/posts'));
    permalink = (await page.getByRole('link', { name: 'Read' }).first().getAttribute('href')) ?? '';
    const reader = await (await browser.newContext()).newPage();
    expect((await reader.goto(permalink))?.status()).toBe(200);
    await expect(reader.getByRole('heading', { level: 1, name: 'Harbour at dawn' })).toBeVisible();
    await reader.close();
  });

  await test.step('unpublish from the More menu: the address answers 404, the post is a draft', async () => {
    await page.getByRole('link', { name: 'Harbour at dawn' }).click();
    await page.getByRole('button', { name: 'More' }).click();
    await page.getByRole('button', { name: 'Unpublish' }).click();
    expect(asked.at(-1)).toMatch(/^Unpublish this post\?/);
    await expect(page.getByRole('checkbox', { name: 'Mark as draft' })).toBeChecked();
    const reader = await (await browser.newContext()).newPage();
    expect((await reader.goto(permalink))?.status()).toBe(404);
    await reader.close();
    await page.getByRole('link', { name: 'Posts' }).click();
    await expect(page.getByRole('link', { name: 'Read' })).toHaveCount(0);
  });
  expect(problems.filter((problem) => !problem.includes('open.spotify.com'))).toEqual([]);
});

test('from the keyboard: the skip link leads to the title, the text grows, Ctrl+S saves, Enter publishes', async ({
  page,
}) => {
  const problems = watchForErrors(page);
  await page.goto(at('/signup'));
  await signInWithLocalIssuer(page, 'Signup with Local', 'keys@example.com');
  await createBlog(page, 'keys');
  await page.goto(at('/d/posts/new'));
  await expect(block(page, 1)).toBeVisible();

  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');
  const title = block(page, 1).getByRole('textbox', { name: 'Heading' });
  await expect(title).toBeFocused();
  await page.keyboard.type('Written by keys');
  const size = await title.evaluate((input) => parseFloat(getComputedStyle(input).fontSize));
  expect(size).toBeGreaterThanOrEqual(30);

  await page.keyboard.press('Tab');
  const paragraph = block(page, 2).getByRole('textbox', { name: 'Paragraph' });
  await expect(paragraph).toBeFocused();
  const empty = (await paragraph.boundingBox())?.height ?? 0;
  const long = Array.from({ length: 30 }, (_, i) => `Line ${i + 1} of a long paragraph that keeps going.`).join('\n');
  await paragraph.fill(long);
  const grown = await paragraph.evaluate((area) => ({
    height: area.getBoundingClientRect().height,
    scrolls: area.scrollHeight > area.clientHeight + 1,
  }));
  expect(grown.scrolls).toBe(false);
  expect(grown.height).toBeGreaterThan(empty * 2);

  await page.keyboard.press('ControlOrMeta+s');
  await expect(page.getByRole('status').filter({ hasText: /^Saved at / })).toBeVisible();
  await expect(page).toHaveURL(/\/d\/posts\/[A-Za-z0-9]+\/edit$/);
  // The post's settings come after the text in the tab order.
  await page.keyboard.press('Tab');
  await expect(page.locator('summary', { hasText: 'Post settings' })).toBeFocused();

  // Back past the text and the title to the toolbar's last button: Publish, with Enter.
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  await expect(title).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByRole('button', { name: 'Publish' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/d\/posts$/);
  const card = page.getByRole('article').filter({ hasText: 'Written by keys' });
  await expect(card.getByRole('link', { name: 'Read' })).toBeVisible();
  expect(problems).toEqual([]);
});
