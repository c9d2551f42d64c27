// A reader's view of a public blog in a real browser: every page type renders, and no string a
// blogger typed ever runs as script (checked by executing the pages, not by string matching).
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { keepTrafficLocal, watchForErrors } from './support/browser';
import { createBlog, signInWithLocalIssuer } from './support/flows';

// Vectors from the OWASP XSS Filter Evasion Cheat Sheet and common polyglots; each would call
// alert() (counted below) if the markup or a handler ever executed.
const PAYLOADS = [
  `<script>alert(1)</script>`,
  `"><script>alert(2)</script>`,
  `'><img src=x onerror=alert(3)>`,
  `<svg onload=alert(4)>`,
  `<svg><script>alert(5)</script></svg>`,
  `<iframe src="javascript:alert(6)"></iframe>`,
  `</title><script>alert(7)</script>`,
  `</style><script>alert(8)</script>`,
  `</textarea><script>alert(9)</script>`,
  `<body onload=alert(10)>`,
  `<a href="javascript:alert(11)">click</a>`,
  `<img src="x" onerror="alert(12)">`,
  `<details open ontoggle=alert(13)>`,
  `--><script>alert(14)</script><!--`,
  `]]><script>alert(15)</script>`,
  `<math><mtext><table><mglyph><style><img src=x onerror=alert(16)>`,
  `<IMG SRC=JaVaScRiPt:alert(17)>`,
  `<input autofocus onfocus=alert(18)>`,
  `<video><source onerror=alert(19)></video>`,
  `<object data="javascript:alert(20)"></object>`,
  `jaVasCript:/*-/*\`/*\\\`/*'/*"/**/(/* */oNcliCk=alert(21) )//%0D%0A%0d%0a//</stYle/</titLe/</teXtarEa/</scRipt/--!>\\x3csVg/<sVg/oNloAd=alert(22)//>\\x3e`,
  `<meta http-equiv="refresh" content="0;url=javascript:alert(23)">`,
  `{{constructor.constructor('alert(24)')()}}`,
  `<base href="javascript:alert(25)//">`,
];
const ALL = PAYLOADS.join(' ');

test.beforeEach(async ({ context }) => {
  await keepTrafficLocal(context);
  await context.addInitScript(() => {
    const w = window as unknown as { __xss: number };
    w.__xss = 0;
    window.alert = () => {
      w.__xss += 1;
    };
  });
});

async function ownerCall(page: Page, request: APIRequestContext, method: string, path: string, data: unknown) {
  const csrf = (await page.context().cookies()).find((c) => c.name === 'csrf_token')?.value ?? '';
  const response = await request.fetch(path, { method, data, headers: { 'CSRF-Token': csrf } });
  return { status: response.status(), body: await response.json() };
}

test('no blogger-typed string runs as script on any public page', async ({ page, baseURL }) => {
  const problems = watchForErrors(page);
  const port = new URL(baseURL ?? '').port;
  await page.goto('/signup');
  await signInWithLocalIssuer(page, 'Signup with Local', 'xss-test@example.com');
  await createBlog(page, 'xss');
  const blogId = (await page.context().cookies()).find((c) => c.name === 'blog_id')?.value;
  const api = page.request;

  expect((await ownerCall(page, api, 'PUT', `/api/my/blogs/${blogId}`, { name: PAYLOADS[6] })).status).toBe(200);
  const { body: uninstalled } = await ownerCall(
    page,
    api,
    'GET',
    `/api/my/blogs/${blogId}/addons/uninstalled`,
    undefined,
  );
  for (const addon of uninstalled.addons as { id: number; slug: string }[]) {
    if (addon.slug === 'rich-tweet-embeds') continue; // it loads a third-party script by design
    await ownerCall(page, api, 'POST', `/api/my/blogs/${blogId}/addons/${addon.id}/installation`, {});
  }
  const permalinks: string[] = [];
  for (const [i, payload] of PAYLOADS.entries()) {
    const body = {
      type: 'root',
      children: [
        { type: 'heading', value: { text: `${i} ${payload}` } },
        { type: 'paragraph', value: { text: `${payload}\n${ALL}` } },
        { type: 'heading', value: { text: payload } },
        { type: 'link', value: { url: 'https://example.com/safe', title: payload } },
      ],
    };
    // The first few are pages: their titles are in the navigation of every page.
    const created = await ownerCall(page, api, 'POST', `/api/my/blogs/${blogId}/posts`, {
      body,
      draft: false,
      page: i < 3,
      tags: ['xss', `payload-${i}`],
    });
    expect(created.status).toBe(201);
    permalinks.push(created.body.post.permalink);
  }
  // URLs that would run script are refused before they are stored.
  for (const url of [
    'javascript:alert(1)',
    'https://example.com/"><script>alert(1)</script>',
    'data:text/html,<script>alert(1)</script>',
  ]) {
    const refused = await ownerCall(page, api, 'POST', `/api/my/blogs/${blogId}/posts`, {
      body: { type: 'root', children: [{ type: 'link', value: { url, title: 'x' } }] },
    });
    expect(refused.status).toBe(422);
  }

  const blog = `http://xss.localhost:${port}`;
  const reader = await page.context().newPage();
  const readerProblems = watchForErrors(reader, [{ status: 404, path: '/no-such-page' }]);
  const pages = [
    `${blog}/`,
    `${blog}/?page=2`,
    ...permalinks,
    `${blog}/search?q=${encodeURIComponent(ALL)}`,
    `${blog}/search?q=script`,
    `${blog}/tags/xss`,
    `${blog}/tags/xss?page=2`,
    `${blog}/search?q=script&tag=xss`,
    `${blog}/no-such-page`,
  ];
  for (const url of pages) {
    await reader.goto(url);
    await reader.waitForLoadState('load');
    // Give handlers (onload, onerror, ontoggle, autofocus) a moment to fire if they existed.
    await reader.waitForTimeout(50);
    expect(await reader.evaluate(() => (window as unknown as { __xss: number }).__xss), url).toBe(0);
    await expect(reader.locator('script')).toHaveCount(0);
  }
  await reader.goto(permalinks[0] ?? '');
  await expect(reader.getByRole('heading', { level: 1 })).toContainText('<script>alert(1)</script>');
  await expect(reader).toHaveTitle(/<\/title><script>alert\(7\)<\/script>/);
  // Feeds open in the browser too (Node's resolver does not map *.localhost to loopback).
  for (const feed of ['/feed.xml', '/rss.xml']) {
    const response = await reader.goto(`${blog}${feed}`);
    expect(response?.status()).toBe(200);
    expect(await reader.evaluate(() => (window as unknown as { __xss: number }).__xss)).toBe(0);
  }
  expect(readerProblems).toEqual([]);
  expect(problems).toEqual([]);
});

// Markdown written to break out: links and images to script, entity-encoded schemes, raw HTML,
// reference links, deep nesting and an unterminated fence.
const MARKDOWN_PAYLOADS = [
  '[a](javascript:alert(30))',
  '[b](java&#x73;cript:alert(31))',
  '[c](JaVaScRiPt:alert(32))',
  '[d](&#106;avascript:alert(33))',
  '![e](javascript:alert(34))',
  '<javascript:alert(35)>',
  '[f](<javascript:alert(36)>)',
  '[g][ref]\n\n[ref]: javascript:alert(37)',
  '[h](data:text/html;base64,PHNjcmlwdD5hbGVydCgzOCk8L3NjcmlwdD4=)',
  'Inline <img src=x onerror=alert(39)> html and <script>alert(40)</script>',
  '<div onmouseover="alert(41)">\n*block html*\n</div>',
  `${'> '.repeat(500)}deep ${'- '.repeat(500)}deeper`,
  '```\n<script>alert(42)</script>\nnever closed',
  '[i](https://example.com/"onmouseover="alert(43))',
];

test('Markdown written to run script never does, on the blog or in the editor preview', async ({ page, baseURL }) => {
  const problems = watchForErrors(page);
  const port = new URL(baseURL ?? '').port;
  await page.goto('/signup');
  await signInWithLocalIssuer(page, 'Signup with Local', 'xss-markdown@example.com');
  await createBlog(page, 'xssmd');
  const blogId = (await page.context().cookies()).find((c) => c.name === 'blog_id')?.value;
  const children = [
    { type: 'heading', value: { text: 'Markdown payloads' } },
    ...MARKDOWN_PAYLOADS.map((text) => ({ type: 'paragraph', value: { text } })),
    { type: 'paragraph', value: { text: ALL } },
  ];
  const created = await ownerCall(page, page.request, 'POST', `/api/my/blogs/${blogId}/posts`, {
    body: { type: 'root', children },
    draft: false,
  });
  expect(created.status).toBe(201);
  const safeHref = (href: string | null) => href === null || /^(https?:|mailto:|#|\/)/.test(href);

  const reader = await page.context().newPage();
  const readerProblems = watchForErrors(reader);
  for (const url of [created.body.post.permalink as string, `http://xssmd.localhost:${port}/feed.xml`]) {
    await reader.goto(url);
    await reader.waitForLoadState('load');
    await reader.waitForTimeout(50);
    expect(await reader.evaluate(() => (window as unknown as { __xss: number }).__xss), url).toBe(0);
  }
  await reader.goto(created.body.post.permalink as string);
  await expect(reader.locator('script')).toHaveCount(0);
  await expect(reader.locator('article [onerror], article [onmouseover]')).toHaveCount(0);
  for (const href of await reader.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href'))))
    expect(safeHref(href), String(href)).toBe(true);
  await reader.locator('article').hover();
  expect(await reader.evaluate(() => (window as unknown as { __xss: number }).__xss)).toBe(0);

  // The owner's editor frames the server's rendering of the post page: nothing in it runs either.
  await page.goto(`/d/posts/${created.body.post.shortId}/edit`);
  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  const preview = page.getByTitle('Preview of the post as readers will see it').contentFrame().locator('article.post');
  await expect(preview.getByRole('heading', { level: 1 })).toHaveText('Markdown payloads');
  await preview.hover();
  await page.waitForTimeout(50);
  expect(await page.evaluate(() => (window as unknown as { __xss: number }).__xss)).toBe(0);
  await expect(preview.locator('script, [onerror], [onmouseover]')).toHaveCount(0);
  for (const href of await preview.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href'))))
    expect(safeHref(href), String(href)).toBe(true);
  expect(readerProblems).toEqual([]);
  expect(problems).toEqual([]);
});
