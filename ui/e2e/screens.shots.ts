// The screens a first-time blogger sees, written as PNG files to $QUIRE_SHOTS_DIR (default
// /tmp/quire-shots) for review: landing, Welcome, post list, editor in edit mode, settings and the
// icon picker, on a desktop and a phone; and the phone menu right after a desktop window is made
// phone-sized. Run with `npx playwright test -c playwright.shots.config.ts`; it asserts only that
// each screen is there.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { createBlog, signInWithLocalIssuer } from './support/flows';
import { ownQuire } from './support/own-quire';

const app = ownQuire();
const dir = process.env.QUIRE_SHOTS_DIR ?? '/tmp/quire-shots';

const viewports = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

/** What the window shows; with `full`, also the whole page (where a sticky menu stops at the first screen). */
async function shot(page: Page, name: string, full = false): Promise<void> {
  mkdirSync(dir, { recursive: true });
  // Let transitions (the menu's slide, the modal's fade) settle first.
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
  if (full) await page.screenshot({ path: path.join(dir, `${name}-full.png`), fullPage: true });
}

/** Creates `count` published posts through the API with the page's cookies. */
async function makePosts(page: Page, count: number): Promise<void> {
  const cookies = await page.context().cookies(app().baseUrl);
  const value = (name: string) => cookies.find((c) => c.name === name)?.value ?? '';
  for (let i = 1; i <= count; i += 1) {
    const response = await page.request.post(`${app().baseUrl}/api/my/blogs/${value('blog_id')}/posts`, {
      headers: { 'CSRF-Token': value('csrf_token') },
      data: {
        body: {
          type: 'root',
          children: [
            { type: 'heading', value: { text: `Notes from the river, part ${i}` } },
            {
              type: 'paragraph',
              value: { text: 'Herons at dawn, a kingfisher by the old mill, and rain after noon.' },
            },
          ],
        },
        draft: i % 5 === 0,
      },
    });
    expect(response.status()).toBe(201);
  }
}

for (const [device, viewport] of Object.entries(viewports)) {
  test(`screens on a ${device}`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const { baseUrl } = app();
    await page.goto(`${baseUrl}/`);
    await expect(page.getByRole('button', { name: 'Login with Local' })).toBeVisible();
    await shot(page, `${device}-1-landing`);

    await page.goto(`${baseUrl}/signup`);
    await signInWithLocalIssuer(page, 'Signup with Local', `${device}@example.com`);
    await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();
    await shot(page, `${device}-2-welcome`);

    await createBlog(page, `${device}-notes`);
    await makePosts(page, 23);
    await page.reload();
    await expect(page.getByRole('link', { name: /Notes from the river, part 23/ })).toBeVisible();
    await shot(page, `${device}-3-post-list`, true);

    await page.getByRole('link', { name: /Notes from the river, part 23/ }).click();
    await page.getByRole('button', { name: 'Edit blocks' }).click();
    await expect(page.getByRole('button', { name: 'Edit blocks', pressed: true })).toBeVisible();
    await shot(page, `${device}-4-editor-edit-mode`);

    await page.goto(`${baseUrl}/d/settings`);
    await expect(page.getByRole('combobox', { name: 'Time Zone' })).toBeVisible();
    await shot(page, `${device}-5-settings`, true);

    await page.getByRole('button', { name: 'Change' }).click();
    const picker = page.getByRole('dialog');
    await expect(picker.getByRole('listitem').first()).toBeVisible();
    await shot(page, `${device}-6-icon-picker`);
  });
}

test('the phone menu after a desktop window is made phone-sized', async ({ page }) => {
  await page.setViewportSize(viewports.desktop);
  const { baseUrl } = app();
  await page.goto(`${baseUrl}/signup`);
  await signInWithLocalIssuer(page, 'Signup with Local', 'resize@example.com');
  await createBlog(page, 'resize-notes');
  await page.setViewportSize(viewports.phone);
  mkdirSync(dir, { recursive: true });
  // At once, then once the transitions are over: neither may show the menu.
  await page.screenshot({ path: path.join(dir, 'resize-1-at-once.png') });
  await page.waitForTimeout(100);
  await page.screenshot({ path: path.join(dir, 'resize-2-after-100ms.png') });
  await page.waitForTimeout(600);
  await page.screenshot({ path: path.join(dir, 'resize-3-after-700ms.png') });
});
