// The first hour's screens (issue 33), written as PNG files to $QUIRE_SHOTS_DIR (default
// /tmp/quire-shots) for review before and after a change: the landing page on a desktop and a phone,
// the editor holding a 2,000-word post with a Spotify block, its preview, and the same editor on a
// phone. Run with `npx playwright test -c playwright.shots.config.ts first-hour`; it asserts only
// that each screen is there.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { signedOutContext } from './support/browser';
import { createBlog, signInWithLocalIssuer } from './support/flows';
import { ownQuire } from './support/own-quire';
import { startQuire } from './support/quire';

// The operator's description of the instance, as `--instance-description` reads it.
const about = path.join(mkdtempSync(path.join(tmpdir(), 'quire-shots-')), 'about.md');
writeFileSync(
  about,
  'Quire for the **estuary walking club**: members write about the tides, the birds and the mud.\n\nAsk at the boathouse for an invitation.\n',
);
const app = ownQuire(() => startQuire({ args: ['--instance-description', about] }));
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

test('the first hour: landing, a long post in the editor, its preview, the phone editor', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const { baseUrl } = app();

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
  // The blog is listed and has a published post: the landing page shows it as new on the instance.
  const headers = { 'CSRF-Token': value('csrf_token') };
  const blogPath = `${baseUrl}/api/my/blogs/${value('blog_id')}`;
  expect((await page.request.put(`${blogPath}/listed`, { headers, data: { listed: true } })).status()).toBe(200);
  const walk = { type: 'root', children: [{ type: 'heading', value: { text: 'Low tide at the mill' } }] };
  expect((await page.request.post(`${blogPath}/posts`, { headers, data: { body: walk, draft: false } })).status()).toBe(
    201,
  );
  const visitor = await (await signedOutContext(browser)).newPage();
  await visitor.setViewportSize(desktop);
  await visitor.goto(`${baseUrl}/`);
  await expect(visitor.getByRole('button', { name: 'Login with Local' })).toBeVisible();
  await shot(visitor, 'landing-desktop', true);
  await visitor.setViewportSize(phone);
  await shot(visitor, 'landing-phone', true);

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
