// Comments and the owner's one queue in a real browser against the real binary (issue 31). The
// owner turns comments on in Settings → Comments; a reader in a browser with JavaScript disabled
// comments under a post (too quick at first, then thanked, with the secret edit link); a reply
// from the fediverse and a webmention are written into the database with the sqlite3 command, as
// the inbox and the webmention verifier store them. The owner sees all three on the Responses
// screen, answers and approves the comment, puts the webmention in Spam; the reader then sees the
// comment escaped under the post with the owner's reply; closing the post's comments in its editor
// takes the form away. Also takes the screen's screenshots on a desktop and a phone
// (into the directory QUIRE_E2E_SHOTS names).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { watchForErrors } from './support/browser';
import { createBlog, publishPost, savedBy, signInWithLocalIssuer } from './support/flows';
import { startQuire, type QuireServer } from './support/quire';
import { shotsDir, sqlite } from './support/server-db';

const SUBDOMAIN = 'garden-notes';
const POST_TITLE = 'Tomatoes in November';
const HOSTILE = 'Lovely *notes* <script>alert("comment")</script> & <b>more</b> <img src=x onerror=alert(2)>';

let quire: QuireServer | undefined;
let dataDir = '';
const sql = (statements: string) => sqlite(dataDir)(statements);

test.beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'quire-e2e-responses-'));
  quire = await startQuire({ dataDir });
});

test.afterAll(async () => {
  await quire?.stop();
  if (dataDir && !process.env.QUIRE_E2E_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true });
});

/** A held reply from the fediverse and a held webmention, as the inbox and the verifier store them. */
function seedReplyAndWebmention(shortId: string): void {
  sql(`
    INSERT INTO replies (note_id, post_id, actor_id, author_name, author_handle, author_url, url, text, published_at, state,
                         actor_host)
      SELECT 'https://peer.example/notes/1', id, 'https://peer.example/users/bob', 'Bob', '@bob@peer.example',
             'https://peer.example/@bob', 'https://peer.example/@bob/1', 'Mine are still green.', '2026-11-24T10:00:00.000Z',
             'held', 'peer.example'
      FROM posts WHERE short_id = '${shortId}';
    INSERT INTO responses (blog_id, post_id, kind, state, author_name, author_url, source_url, title, text)
      SELECT blog_id, id, 'webmention', 'held', 'Cy', 'https://cy.example/', 'https://cy.example/tomatoes',
             'Cheap seeds here', 'Buy seeds at a discount'
      FROM posts WHERE short_id = '${shortId}';`);
}

test('a comment sent without JavaScript is approved on the Responses screen and shows escaped', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const server = quire!;
  const problems = watchForErrors(page);
  await page.goto(`${server.baseUrl}/signup`);
  await signInWithLocalIssuer(page, 'Signup with Local', 'garden@example.com');
  await createBlog(page, SUBDOMAIN);
  const post = await publishPost(page, server.baseUrl, POST_TITLE, 'The last ones ripen on the windowsill.');
  const menu = page.getByRole('navigation', { name: 'Menu' });

  // Comments are off until the owner turns them on in Settings → Comments.
  await menu.getByRole('link', { name: 'Settings' }).click();
  const panel = page.getByRole('region', { name: 'Comments', exact: true });
  await expect(panel.getByRole('combobox', { name: 'Who may comment' })).toHaveValue('off');
  await panel.getByRole('combobox', { name: 'Who may comment' }).selectOption('held');
  await panel.getByRole('textbox', { name: 'Blocked words' }).fill('casino');
  await savedBy(page, () => panel.getByRole('button', { name: 'Save' }).click());

  // A reader without JavaScript comments under the post.
  const reader = await browser.newContext({ javaScriptEnabled: false });
  const readerPage = await reader.newPage();
  await readerPage.goto(post.permalink);
  const form = readerPage.getByRole('region', { name: 'Leave a comment' });
  await form.getByLabel('Your name').fill('Ann <i>the gardener</i>');
  await form.getByLabel('Your website (optional)').fill('https://ann.example/');
  await form.getByLabel('Your comment').fill(HOSTILE);
  await form.getByRole('button', { name: 'Send comment' }).click();
  await expect(readerPage.getByRole('alert')).toHaveText(
    'That was quick. Read your comment once more, then send it again.',
  );
  await expect(readerPage.getByLabel('Your comment')).toHaveValue(HOSTILE);
  await readerPage.waitForTimeout(3_100);
  await readerPage.getByRole('button', { name: 'Send comment' }).click();
  await expect(
    readerPage.getByText('Your comment is waiting for approval. It shows under the post once the author approves it.'),
  ).toBeVisible();
  await expect(readerPage.getByText(/Change or delete your comment in the next 15 minutes/)).toBeVisible();
  await readerPage.goto(post.permalink);
  await expect(readerPage.getByRole('region', { name: 'Responses' })).toHaveCount(0);
  seedReplyAndWebmention(post.shortId);

  // The owner's one queue: the three kinds, newest first.
  await menu.getByRole('link', { name: 'Responses' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Responses' })).toBeVisible();
  const held = page.getByRole('list', { name: 'Held responses' });
  await expect(held.getByRole('article')).toHaveCount(3);
  const comment = held.getByRole('article', { name: 'Comment by Ann <i>the gardener</i>' });
  await expect(comment.locator('.q-response__text')).toHaveText(HOSTILE, { useInnerText: false });
  await expect(comment.getByRole('link', { name: POST_TITLE })).toHaveAttribute(
    'href',
    `/d/posts/${post.shortId}/edit`,
  );
  await expect(held.getByRole('article', { name: 'Fediverse reply by Bob' })).toContainText('@bob@peer.example');
  await expect(held.getByRole('article', { name: 'Webmention by Cy' })).toContainText('Cheap seeds here');

  const shots = shotsDir();
  if (shots) {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: path.join(shots, 'responses-desktop.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(held.getByRole('article')).toHaveCount(3);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, 'nothing wider than a phone').toBeLessThanOrEqual(0);
    await page.screenshot({ path: path.join(shots, 'responses-phone.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  // The webmention goes to Spam; the comment gets the owner's reply and is approved.
  await held.getByRole('article', { name: 'Webmention by Cy' }).getByRole('button', { name: 'Spam' }).click();
  await expect(held.getByRole('article')).toHaveCount(2);
  await comment.getByRole('button', { name: 'Reply' }).click();
  await comment.getByRole('textbox', { name: 'Your reply' }).fill('Thank you, **Ann**!');
  await comment.getByRole('button', { name: 'Save reply' }).click();
  await expect(comment.getByRole('button', { name: 'Edit reply' })).toBeVisible();
  await comment.getByRole('button', { name: 'Approve' }).click();
  await expect(held.getByRole('article')).toHaveCount(1);
  await page.getByRole('tab', { name: 'Spam' }).click();
  await expect(page.getByRole('list', { name: 'Spam responses' }).getByRole('article')).toHaveCount(1);

  // The reader sees it under the post, as text, with the owner's reply through the renderer.
  await readerPage.goto(post.permalink);
  const shown = readerPage.getByRole('region', { name: 'Responses' });
  await expect(shown.getByRole('article')).toHaveCount(1);
  await expect(shown.getByRole('link', { name: 'Ann <i>the gardener</i>' })).toHaveAttribute('rel', 'nofollow ugc');
  await expect(shown.getByText('<script>alert("comment")</script>', { exact: false })).toBeVisible();
  await expect(shown.locator('em')).toHaveText(['notes']);
  await expect(shown.getByText('The author replied')).toBeVisible();
  await expect(shown.locator('.owner-reply strong')).toHaveText('Ann');
  expect(await shown.locator('script, b, i, img').count()).toBe(0);
  await expect(readerPage.getByText('Buy seeds at a discount')).toHaveCount(0);

  // Closing the post's comments in its editor takes the form away at once.
  await page.goto(`${server.baseUrl}/d/posts/${post.shortId}/edit`);
  await page.getByRole('checkbox', { name: /Close comments/ }).click();
  await expect(page.getByRole('checkbox', { name: /Close comments/ })).toBeChecked();
  await expect.poll(() => sql(`SELECT comments_closed FROM posts WHERE short_id = '${post.shortId}'`)).toBe('1');
  await readerPage.goto(post.permalink);
  await expect(readerPage.getByRole('region', { name: 'Leave a comment' })).toHaveCount(0);
  await expect(readerPage.getByRole('region', { name: 'Responses' }).getByRole('article')).toHaveCount(1);

  await reader.close();
  expect(problems).toEqual([]);
});
