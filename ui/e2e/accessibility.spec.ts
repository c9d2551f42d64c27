// Accessibility as a check, not a hope (issue 33): axe-core runs over every owner screen (the
// landing page, Welcome, the post list, the editor and its dialogs, search, trash, responses,
// settings and its icon picker, admin, the not-found screen) and every public page type (a blog's
// home, a post with its comment form, a page, a tag, the tag list, search, the subscribe page, the
// report page, an unknown blog), on a desktop and on a phone. Any WCAG 2.0–2.2 A or AA violation
// fails the test, named with its rule and where it is.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { createBlog, publishPost, savedBy, signInWithLocalIssuer } from './support/flows';
import { ownQuire } from './support/own-quire';
import { startQuire } from './support/quire';

const ADMIN = 'a11y-desktop@example.com';
const app = ownQuire(() => startQuire({ args: ['--admin', ADMIN] }));

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

const viewports = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

/** Runs axe-core on what `page` shows now; gives one line per violation and element. */
async function violations(page: Page, screen: string): Promise<string[]> {
  // Let transitions (a modal's fade, the menu's slide) end, so colours are the final ones.
  await page.waitForTimeout(300);
  const results = await new AxeBuilder({ page }).withTags(WCAG).analyze();
  return results.violations.flatMap((v) =>
    v.nodes.slice(0, 5).map((node) => `${screen}: ${v.id} (${v.help}) at ${node.target.join(' ')}`),
  );
}

/** Owner API calls with the page's cookies: the blog's ID and the CSRF header. */
async function ownerApi(page: Page) {
  const cookies = await page.context().cookies();
  const value = (name: string) => cookies.find((c) => c.name === name)?.value ?? '';
  return { blogId: value('blog_id'), headers: { 'CSRF-Token': value('csrf_token') } };
}

for (const [device, viewport] of Object.entries(viewports)) {
  test(`every screen and public page passes axe-core on a ${device}`, async ({ page, browser }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(viewport);
    const { baseUrl, port } = app();
    const found: string[] = [];
    const check = async (screen: string) => found.push(...(await violations(page, `${device} ${screen}`)));

    await page.goto(`${baseUrl}/`);
    await expect(page.getByRole('button', { name: 'Login with Local' })).toBeVisible();
    await check('landing');
    await page.goto(`${baseUrl}/signup`);
    await expect(page.getByRole('button', { name: 'Signup with Local' })).toBeVisible();
    await check('signup');

    await signInWithLocalIssuer(page, 'Signup with Local', device === 'desktop' ? ADMIN : `a11y-${device}@example.com`);
    await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();
    await check('welcome');
    const subdomain = `a11y-${device}`;
    await createBlog(page, subdomain);

    const post = await publishPost(
      page,
      baseUrl,
      'Herons at dawn',
      'A kingfisher by the old mill, and rain after noon.',
    );
    const { blogId, headers } = await ownerApi(page);
    const body = (title: string, text: string) => ({
      type: 'root',
      children: [
        { type: 'heading', value: { text: title } },
        { type: 'paragraph', value: { text } },
      ],
    });
    const about = await page.request.post(`${baseUrl}/api/my/blogs/${blogId}/posts`, {
      headers,
      data: { body: body('About', 'Who writes here, and why.'), draft: false, page: true },
    });
    expect(about.status()).toBe(201);
    const tagged = await page.request.put(`${baseUrl}/api/my/blogs/${blogId}/posts/${post.shortId}`, {
      headers,
      data: {
        body: body('Herons at dawn', 'A kingfisher by the old mill, and rain after noon.'),
        draft: false,
        tags: ['birds'],
      },
    });
    expect(tagged.status()).toBe(200);
    const gone = await publishPost(page, baseUrl, 'A post to throw away', 'Soon in the trash.');
    expect(
      (await page.request.delete(`${baseUrl}/api/my/blogs/${blogId}/posts/${gone.shortId}`, { headers })).ok(),
    ).toBe(true);

    await page.goto(`${baseUrl}/d/posts`);
    await expect(page.getByRole('link', { name: 'Herons at dawn' }).first()).toBeVisible();
    await check('post list');
    await page.goto(`${baseUrl}/d/posts/search?q=heron`);
    await expect(page.getByRole('link', { name: 'Herons at dawn' }).first()).toBeVisible();
    await check('post search');
    await page.goto(`${baseUrl}/d/posts/trash`);
    await expect(page.getByRole('button', { name: 'Delete forever' })).toBeVisible();
    await check('trash');

    await page.goto(`${baseUrl}/d/posts/new`);
    await expect(page.getByRole('button', { name: 'Edit blocks' })).toBeVisible();
    await check('new post');
    await page.goto(`${baseUrl}/d/posts/${post.shortId}/edit`);
    await page.getByRole('button', { name: 'Edit blocks' }).click();
    await expect(page.getByRole('button', { name: 'Edit blocks', pressed: true })).toBeVisible();
    await check('editor in edit mode');
    await page.getByRole('button', { name: 'Add block at the end' }).click();
    await expect(page.getByRole('dialog', { name: 'Add a block' })).toBeVisible();
    await check('add-block dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'More' }).click();
    await page.getByRole('button', { name: 'History' }).click();
    await expect(page.getByRole('dialog', { name: 'History' })).toBeVisible();
    await check('history');
    await page.keyboard.press('Escape');

    await page.goto(`${baseUrl}/d/responses`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await check('responses');

    await page.goto(`${baseUrl}/d/settings`);
    const comments = page.getByRole('region', { name: 'Comments', exact: true });
    await comments.getByRole('combobox', { name: 'Who may comment' }).selectOption('held');
    await savedBy(page, () => comments.getByRole('button', { name: 'Save' }).click());
    await check('settings');
    await page.getByRole('button', { name: 'Change' }).click();
    await expect(page.getByRole('dialog').getByRole('listitem').first()).toBeVisible();
    await check('icon picker');
    await page.keyboard.press('Escape');

    if (device === 'desktop') {
      await page.goto(`${baseUrl}/d/admin`);
      await expect(page.getByRole('heading', { level: 1, name: 'Admin' })).toBeVisible();
      await check('admin');
    }
    await page.goto(`${baseUrl}/d/no-such-screen`);
    await check('not found');

    // The public pages, as a reader without a session sees them.
    const reader = await browser.newContext({ viewport });
    const readerPage = await reader.newPage();
    const blog = `http://${subdomain}.localhost:${port}`;
    const publicPages: [string, string][] = [
      ['blog home', `${blog}/`],
      ['post with comments', post.permalink],
      ['page', `${blog}/about`],
      ['tag', `${blog}/tags/birds`],
      ['tag list', `${blog}/tags`],
      ['search', `${blog}/search?q=heron`],
      ['subscribe', `${blog}/subscribe`],
      ['report', `${baseUrl}/report?blog=${subdomain}`],
      ['unknown blog', `http://no-such-blog.localhost:${port}/`],
      ['missing post', `${blog}/no-such-post`],
    ];
    for (const [screen, url] of publicPages) {
      await readerPage.goto(url);
      found.push(...(await violations(readerPage, `${device} ${screen}`)));
    }
    await reader.close();

    expect(found, 'WCAG 2.2 A/AA violations found by axe-core').toEqual([]);
  });
}
