// The first hour's screens (issue 33), written as PNG files to $QUIRE_SHOTS_DIR (default
// /tmp/quire-shots) for review before and after a change: the landing page on a desktop and a phone,
// the editor holding a 2,000-word post with a Spotify block, its preview, and the same editor on a
// phone. Run with `npx playwright test -c playwright.shots.config.ts first-hour`; it asserts only
// that each screen is there.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { createBlog, signInWithLocalIssuer } from './support/flows';
import { ownQuire } from './support/own-quire';

const app = ownQuire();
const dir = process.env.QUIRE_SHOTS_DIR ?? '/tmp/quire-shots';

const desktop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };

async function shot(page: Page, name: string, full = false): Promise<void> {
  mkdirSync(dir, { recursive: true });
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: full });
}

/** About 2,000 words in ten paragraphs, under a heading and with a Spotify block in the middle. */
function longPost() {
  const sentence =
    'The tide went out slowly past the harbour wall, and the gulls settled on the wet stones to argue about nothing in particular. ';
  const paragraph = (n: number) => ({
    type: 'paragraph',
    value: { text: `Stretch ${n}: ${sentence.repeat(8).trim()}` },
  });
  const children = [
    { type: 'heading', value: { text: 'A long walk along the estuary' } },
    ...Array.from({ length: 5 }, (_, i) => paragraph(i + 1)),
    { type: 'spotify', value: { url: 'https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC' } },
    ...Array.from({ length: 5 }, (_, i) => paragraph(i + 6)),
  ];
  return { type: 'root', children };
}

test('the first hour: landing, a long post in the editor, its preview, the phone editor', async ({ page }) => {
  test.setTimeout(120_000);
  const { baseUrl } = app();
  await page.setViewportSize(desktop);
  await page.goto(`${baseUrl}/`);
  await expect(page.getByRole('button', { name: 'Login with Local' })).toBeVisible();
  await shot(page, 'landing-desktop', true);
  await page.setViewportSize(phone);
  await shot(page, 'landing-phone', true);

  await page.setViewportSize(desktop);
  await page.goto(`${baseUrl}/signup`);
  await signInWithLocalIssuer(page, 'Signup with Local', 'long@example.com');
  await createBlog(page, 'estuary');
  const cookies = await page.context().cookies();
  const value = (name: string) => cookies.find((c) => c.name === name)?.value ?? '';
  const created = await page.request.post(`${baseUrl}/api/my/blogs/${value('blog_id')}/posts`, {
    headers: { 'CSRF-Token': value('csrf_token') },
    data: { body: longPost(), draft: true },
  });
  expect(created.status()).toBe(201);
  const { shortId } = ((await created.json()) as { post: { shortId: string } }).post;

  await page.goto(`${baseUrl}/d/posts/${shortId}/edit`);
  await expect(page.getByRole('button', { name: 'Preview', exact: true })).toBeVisible();
  await shot(page, 'editor-desktop');
  await shot(page, 'editor-desktop-full', true);
  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  await page.waitForTimeout(1000);
  await shot(page, 'preview-desktop');
  await shot(page, 'preview-desktop-full', true);

  await page.setViewportSize(phone);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Preview', exact: true })).toBeVisible();
  await shot(page, 'editor-phone');
});
