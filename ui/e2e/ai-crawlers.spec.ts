// A blog that asks AI crawlers to stay away (issue 35; docs/api.md 6.7.3): the owner ticks the switch
// in Settings, and a signed-out visitor finds the blog's robots.txt naming the AI companies' crawlers
// with `Disallow: /` (search engines left alone) and its home page saying `noai, noimageai`; unticked,
// both are as before.
import { expect, test } from '@playwright/test';
import { signedOutContext, watchForErrors } from './support/browser';
import { savedBy, signUpWithBlog } from './support/flows';
import { ownQuire } from './support/own-quire';
import { startQuire } from './support/quire';

const app = ownQuire(() => startQuire());

test('an owner asks AI crawlers not to use the blog, and its robots.txt and pages say so', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const problems = watchForErrors(page);
  const { baseUrl, port } = app();
  const blogUrl = `http://mira.localhost:${port}`;
  await signUpWithBlog(page, baseUrl, 'mira@example.com', 'mira');
  const visitor = await (await signedOutContext(browser)).newPage();
  // Through the browser, which resolves *.localhost to this machine.
  const robots = async () => (await visitor.goto(`${blogUrl}/robots.txt`))!.text();

  expect(await robots()).not.toContain('GPTBot');
  await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Settings' }).click();
  const blog = page.getByRole('region', { name: 'Blog', exact: true });
  const ask = blog.getByRole('checkbox', { name: 'Ask AI crawlers not to use this blog' });
  await expect(ask).not.toBeChecked();
  await savedBy(page, () => ask.check());

  const asked = await robots();
  expect(asked).toMatch(/^User-agent: GPTBot\n/);
  expect(asked).toContain('User-agent: ClaudeBot\n');
  expect(asked).toContain('Disallow: /\n\nUser-agent: *\nAllow: /\n');
  expect(asked).not.toContain('Googlebot');
  const home = await visitor.goto(`${blogUrl}/`);
  expect(home?.headers()['x-robots-tag']).toBe('noai, noimageai');
  await expect(visitor.locator('meta[name="robots"]')).toHaveAttribute('content', 'noai, noimageai');

  await page.reload();
  await expect(ask).toBeChecked();
  await savedBy(page, () => ask.uncheck());
  expect(await robots()).not.toContain('GPTBot');
  await visitor.goto(`${blogUrl}/`);
  await expect(visitor.locator('meta[name="robots"]')).toHaveCount(0);
  expect(problems).toEqual([]);
});
