// Keyboard journeys (issue 33): a blogger who uses no mouse changes a setting, reaching every
// control with Tab and acting with Enter and the arrow keys, and sees the change on the public blog.
import { expect, test, type Page } from '@playwright/test';
import { createBlog, savedBy, signInWithLocalIssuer } from './support/flows';
import { ownQuire } from './support/own-quire';

const app = ownQuire();

/** Presses Tab until the focused element is the one `matches` describes; at most `limit` presses. */
async function tabTo(page: Page, what: string, matches: () => boolean, limit = 60): Promise<number> {
  for (let presses = 1; presses <= limit; presses += 1) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(matches)) return presses;
  }
  throw new Error(`${what} not reached in ${limit} Tab presses`);
}

test('a blogger renames the blog and changes its theme with the keyboard alone', async ({ page, browser }) => {
  const { baseUrl, port } = app();
  await page.goto(`${baseUrl}/signup`);
  await signInWithLocalIssuer(page, 'Signup with Local', 'keys@example.com');
  await createBlog(page, 'keys');

  // From the menu to Settings, by keyboard.
  await page.goto(`${baseUrl}/d/posts`);
  await tabTo(page, "the menu's Settings link", () => document.activeElement?.textContent?.trim() === 'Settings');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(`${baseUrl}/d/settings`);

  const blogPanel = page.getByRole('region', { name: 'Blog', exact: true });
  await tabTo(
    page,
    'the Name field',
    () => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent === 'Name',
  );
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('Notes by keyboard');
  await page.keyboard.press('Tab');
  await expect(blogPanel.getByRole('button', { name: 'Save' }).first()).toBeFocused();
  await savedBy(page, () => page.keyboard.press('Enter'));

  // The theme: a select changed with the arrow keys, saved with Enter on its button.
  const theme = blogPanel.getByRole('combobox', { name: 'Theme' });
  await tabTo(page, 'the Theme select', () => document.activeElement?.tagName === 'SELECT');
  await expect(theme).toBeFocused();
  for (const label of ['Serif', 'Mono', 'Dark']) {
    await page.keyboard.press('ArrowDown');
    await expect(theme.locator('option:checked')).toHaveText(label);
  }
  await page.keyboard.press('Tab');
  await savedBy(page, () => page.keyboard.press('Enter'));

  const reader = await browser.newPage();
  await reader.goto(`http://keys.localhost:${port}/`);
  await expect(reader).toHaveTitle(/Notes by keyboard/);
  await expect(reader.locator('body')).toHaveCSS('background-color', 'rgb(13, 17, 23)');
  await reader.close();
});
