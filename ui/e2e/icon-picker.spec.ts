// The tab-icon picker against the real binary: emoji drawn from the image set the binary carries
// (not from the browser's fonts), the search over names and keywords, the current icon marked, and
// the chosen icon as the public blog's tab icon.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { watchForErrors } from './support/browser';
import { createBlog, signInWithLocalIssuer } from './support/flows';
import { ownQuire } from './support/own-quire';

const app = ownQuire();

/** Waits until `image` is an <img> that has loaded a picture (not a broken image, not text). */
async function expectLoadedImage(image: Locator): Promise<void> {
  await expect(image).toBeVisible({ timeout: 15_000 });
  await expect
    .poll(
      () =>
        image.evaluate(
          (element) => element instanceof HTMLImageElement && element.complete && element.naturalWidth > 0,
        ),
      {
        timeout: 15_000,
      },
    )
    .toBe(true);
}

async function openSettings(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/signup`);
  await signInWithLocalIssuer(page, 'Signup with Local', 'iris@example.com');
  await createBlog(page, 'iris');
  await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
}

test('the picker draws icons from the embedded images, finds them by name and keyword, and marks the current one', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const problems = watchForErrors(page);
  const { baseUrl, port } = app();
  await openSettings(page, baseUrl);

  const tabIcon = page.getByRole('group', { name: 'Tab Icon' });
  const preview = tabIcon.getByRole('img', { name: '📝' });
  await expect(preview).toHaveAttribute('src', /^\/emoji\/[^/]+\/1f4dd\.svg$/);
  await expectLoadedImage(preview);

  await tabIcon.getByRole('button', { name: 'Change' }).click();
  const dialog = page.getByRole('dialog', { name: 'Choose a tab icon' });
  const grinning = dialog.getByRole('list', { name: 'Icons' }).getByRole('button', { name: '😀' });
  await expectLoadedImage(grinning.locator('img'));
  await expect(dialog.getByText('Current icon')).toBeVisible();

  const search = dialog.getByRole('searchbox', { name: 'Search icons' });
  await search.fill('cat');
  const cats = dialog.getByRole('list', { name: 'Icons matching cat' });
  for (const cat of ['🐱', '🐈', '😺']) {
    await expectLoadedImage(cats.getByRole('button', { name: cat, exact: true }).locator('img'));
  }
  expect(await cats.getByRole('listitem').count()).toBeLessThan(100);

  // A keyword that is no word of the name: 👋 is "waving hand".
  await search.fill('hello');
  await expect(
    dialog.getByRole('list', { name: 'Icons matching hello' }).getByRole('button', { name: '👋', exact: true }),
  ).toBeVisible();

  await search.fill('heron');
  await expect(dialog.getByRole('status')).toHaveText('No icons match “heron”.');
  await expect(dialog.getByRole('listitem')).toHaveCount(0);

  // The blog's icon (📝 "memo") is marked where it shows: a ring, and to screen readers.
  await search.fill('memo');
  const memo = dialog.getByRole('list', { name: 'Icons matching memo' }).getByRole('button', { name: '📝' });
  await expect(memo).toHaveAttribute('aria-current', 'true');
  await expect(memo).toHaveAccessibleDescription('Current icon');
  await expect(memo).not.toHaveCSS('box-shadow', 'none');

  // Picked, the cat is the public blog's tab icon: the same picture, not a glyph.
  await search.fill('cat');
  await cats.getByRole('button', { name: '🐈', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  const chosen = tabIcon.getByRole('img', { name: '🐈' });
  await expectLoadedImage(chosen);
  const image = await page.request.get(`${baseUrl}${await chosen.getAttribute('src')}`);
  const reader = await page.context().newPage();
  const favicon = await reader.goto(`http://iris.localhost:${port}/favicon.svg`);
  expect(favicon?.headers()['content-type']).toBe('image/svg+xml');
  const svg = (await favicon?.text()) ?? '';
  expect(svg).toBe(await image.text());
  expect(svg).toContain('<path');
  expect(svg).not.toContain('<text');

  expect(problems).toEqual([]);
});
