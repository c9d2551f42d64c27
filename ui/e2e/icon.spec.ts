import { expect, test } from '@playwright/test';
import { keepTrafficLocal, watchForErrors } from './support/browser';

test.beforeEach(async ({ context }) => {
  await keepTrafficLocal(context);
});

test('the app has its tab icon and a first visit makes no failed request', async ({ page }) => {
  const problems = watchForErrors(page);
  const failed: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
  });
  page.on('requestfailed', (request) => failed.push(`${request.failure()?.errorText} ${request.url()}`));

  await page.goto('/');
  await expect(page.getByText('is a free blogging platform')).toBeVisible();

  const icon = page.locator('head link[rel="icon"]');
  await expect(icon).toHaveAttribute('type', 'image/svg+xml');
  const href = await icon.getAttribute('href');
  const linked = await page.request.get(href ?? '');
  expect(linked.status(), `${href}`).toBe(200);
  expect(linked.headers()['content-type']).toContain('image/svg+xml');
  expect(await linked.text()).toContain('<svg');

  // Browsers (and bookmarks, feed readers) still ask for /favicon.ico on their own.
  const favicon = await page.request.get('/favicon.ico');
  expect(favicon.status()).toBe(200);
  expect(favicon.headers()['content-type']).toMatch(/^image\//);
  expect(await favicon.body()).toEqual(await linked.body());

  await page.reload();
  await expect(page.getByText('is a free blogging platform')).toBeVisible();
  expect(failed).toEqual([]);
  expect(problems).toEqual([]);
});
