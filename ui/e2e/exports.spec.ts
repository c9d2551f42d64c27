// Taking a blog away in a real browser against the real server: the owner asks for a Quire
// archive in Settings, watches it finish, and downloads the zip. A quire of its own.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { watchForErrors } from './support/browser';
import { createBlog, signInWithLocalIssuer } from './support/flows';
import { ownQuire } from './support/own-quire';

const app = ownQuire();
const at = (pathname: string) => `${app().baseUrl}${pathname}`;

test('the owner exports a Quire archive from Settings and downloads it', async ({ page }) => {
  const problems = watchForErrors(page);
  await page.goto(at('/signup'));
  await signInWithLocalIssuer(page, 'Signup with Local', 'mover@example.com');
  await createBlog(page, 'mover');
  await expect(page).toHaveURL(at('/d/posts'));
  await page.getByRole('link', { name: 'New Post' }).click();
  await page.getByRole('textbox', { name: 'Heading' }).fill('Packing up');
  await page.getByRole('textbox', { name: 'Paragraph' }).fill('Everything goes in one box.');
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page).toHaveURL(at('/d/posts'));

  await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Settings' }).click();
  const panel = page.getByRole('region', { name: 'Import and export', exact: true });
  await expect(panel.getByText('any Quire can import', { exact: false })).toBeVisible();
  await panel.getByRole('button', { name: 'Export Quire archive' }).click();
  const link = panel.getByRole('link', { name: /^Download mover-\d{8}\.quire\.zip$/ });
  await expect(link).toBeVisible({ timeout: 15_000 });
  await expect(panel.getByText(/available until/)).toBeVisible();

  const downloading = page.waitForEvent('download');
  await link.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^mover-\d{8}\.quire\.zip$/);
  const bytes = readFileSync(await download.path());
  expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
  const names = bytes.toString('latin1');
  expect(names).toContain('quire-archive.json');
  expect(names).toMatch(/posts\/[a-z0-9]{8}\.json/);
  expect(problems).toEqual([]);
});
