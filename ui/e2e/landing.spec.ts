// The landing page says what the instance is (issue 33; docs/public-instance.md): the operator's
// description (`--instance-description`) and, once an owner lists their blog in Settings, its
// newest posts, seen by a signed-out visitor in a fresh browser context. The blog's own
// description shows under its name on its home, the name once.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { signedOutContext, watchForErrors } from './support/browser';
import { savedBy, signUpWithBlog } from './support/flows';
import { ownQuire } from './support/own-quire';
import { startQuire } from './support/quire';

const descriptionDir = mkdtempSync(path.join(tmpdir(), 'quire-e2e-description-'));
const descriptionFile = path.join(descriptionDir, 'about.md');
writeFileSync(descriptionFile, 'Blogs of the **harbour club**. <script>window.hacked = 1</script>\n');
const app = ownQuire(() => startQuire({ args: ['--instance-description', descriptionFile] }));
test.afterAll(() => rmSync(descriptionDir, { recursive: true, force: true }));

test('an owner lists their blog, publishes, and a visitor sees the post on the landing page', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const problems = watchForErrors(page);
  const { baseUrl, port } = app();
  const blogUrl = `http://lena.localhost:${port}`;
  await signUpWithBlog(page, baseUrl, 'lena@example.com', 'lena');

  await test.step('Settings: the switch, off by default, and a description', async () => {
    await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Settings' }).click();
    const blog = page.getByRole('region', { name: 'Blog', exact: true });
    const listed = blog.getByRole('checkbox', { name: 'List this blog on the front page of this instance' });
    await expect(listed).not.toBeChecked();
    await savedBy(page, () => listed.check());
    await blog.getByRole('textbox', { name: 'Description' }).fill('Tides & <b>boats</b>');
    await savedBy(page, () => blog.getByRole('button', { name: 'Save' }).nth(1).click());
  });

  await test.step('a post written and published in the editor', async () => {
    await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Posts' }).click();
    await page.getByRole('link', { name: 'New Post' }).click();
    await page
      .getByRole('group', { name: 'Block 1: Heading' })
      .getByRole('textbox', { name: 'Heading' })
      .fill('Low tide');
    await page
      .getByRole('group', { name: 'Block 2: Paragraph' })
      .getByRole('textbox', { name: 'Paragraph' })
      .fill('The boats sit on the mud.');
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page).toHaveURL(/\/d\/posts$/);
  });

  const visitor = await signedOutContext(browser);
  const landing = await visitor.newPage();
  const visitorProblems = watchForErrors(landing);
  await test.step('a visitor reads the description and the new post on the landing page', async () => {
    await landing.goto(`${baseUrl}/`);
    await expect(landing.getByText('is a free blogging platform')).toBeVisible();
    await expect(landing.getByRole('button', { name: 'Login with Local' })).toBeVisible();
    const description = landing.getByTestId('instance-description');
    await expect(description.locator('strong')).toHaveText('harbour club');
    await expect(description).toContainText('<script>window.hacked = 1</script>');
    expect(await landing.evaluate(() => (window as { hacked?: number }).hacked)).toBeUndefined();
    const newest = landing.getByRole('region', { name: 'New on this instance' });
    await expect(newest.getByRole('link', { name: 'Tides & <b>boats</b>' })).toHaveCount(0);
    await expect(newest.getByRole('link', { name: 'lena' })).toHaveAttribute('href', `${blogUrl}/`);
    const post = newest.getByRole('link', { name: 'Low tide' });
    await expect(post).toHaveAttribute('href', new RegExp(`^${blogUrl}/low-tide-[a-z0-9]+$`));
    await post.click();
    await expect(landing.getByRole('heading', { level: 1, name: 'Low tide' })).toBeVisible();
  });

  await test.step("the blog's home: its name once, its description under it", async () => {
    await landing.goto(`${blogUrl}/`);
    await expect(landing.getByRole('heading', { level: 1, name: 'lena' })).toBeVisible();
    expect((await landing.locator('body').innerText()).match(/\blena\b/g)).toHaveLength(1);
    await expect(landing.getByText('Tides & <b>boats</b>', { exact: true })).toBeVisible();
  });
  await visitor.close();
  expect(problems).toEqual([]);
  expect(visitorProblems).toEqual([]);
});
