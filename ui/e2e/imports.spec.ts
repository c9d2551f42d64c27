// Bringing a blog in, in a real browser against the real server: the owner imports the real
// WordPress export of tests/fixtures/import/wordpress/ from Settings and watches it reach its
// report; the post then reads on the public blog with its image, now served by Quire, and an
// old WordPress address leads to it. The old site is a small server on 127.0.0.1 serving the
// fixture's media/ where the export says the images are (http://127.0.0.1:8089/wp-content/...),
// and quire runs with --test-only-fetch-loopback so its fetcher may reach it.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Locator } from '@playwright/test';
import { watchForErrors } from './support/browser';
import { createBlog, signInWithLocalIssuer } from './support/flows';
import { ownQuire } from './support/own-quire';
import { startQuire } from './support/quire';

const fixture = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'tests',
  'fixtures',
  'import',
  'wordpress',
);
const expected = JSON.parse(readFileSync(path.join(fixture, 'expected.json'), 'utf8')) as {
  site_url: string;
  site_title: string;
  counts: { posts: number; pages: number; drafts: number; scheduled: number; images: number };
  items: {
    source_id: number;
    title: string;
    tags: string[];
    categories: string[];
    old_paths: string[];
    images: { path: string; alt: string }[];
  }[];
};
/** The name WordPress gives its export download (docs: "harbournotes.WordPress.<date>.xml"). */
const FILE_NAME = 'harbournotes.WordPress.2026-11-24.xml';
const TYPES: Record<string, string> = { '.jpg': 'image/jpeg', '.png': 'image/png' };

const app = ownQuire(() => startQuire({ args: ['--test-only-fetch-loopback'] }));
const at = (pathname: string) => `${app().baseUrl}${pathname}`;

/** The old WordPress site: the fixture's media/ on the port the export names, and what was asked of it. */
const oldSite = {
  server: undefined as Server | undefined,
  requested: [] as string[],
  /** Images are answered once this settles: the test holds them to watch the import under way. */
  images: Promise.resolve(),
};

test.beforeAll(async () => {
  const mediaDir = path.join(fixture, 'media');
  const server = createServer(async (request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    oldSite.requested.push(pathname);
    await oldSite.images;
    const file = path.join(mediaDir, path.normalize(pathname));
    let body: Buffer | undefined;
    try {
      body = file.startsWith(mediaDir + path.sep) ? readFileSync(file) : undefined;
    } catch {
      body = undefined;
    }
    if (!body) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream' }).end(body);
  });
  const { hostname, port } = new URL(expected.site_url);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`${expected.site_url} is in use: the old WordPress site of this test must be served there`)
          : error,
      ),
    );
    server.listen(Number(port), hostname, () => resolve());
  });
  oldSite.server = server;
});

test.afterAll(async () => {
  await new Promise((resolve) => (oldSite.server ? oldSite.server.close(resolve) : resolve(undefined)));
});

/** Waits until `image` has loaded and gives its address and natural width. */
async function loaded(image: Locator): Promise<{ src: string; width: number }> {
  await image.scrollIntoViewIfNeeded();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  return image.evaluate((img: HTMLImageElement) => ({ src: img.currentSrc || img.src, width: img.naturalWidth }));
}

test('the owner imports a WordPress export from Settings, and its posts, images and old addresses work', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const problems = watchForErrors(page);
  await page.goto(at('/signup'));
  await signInWithLocalIssuer(page, 'Signup with Local', 'harbour@example.com');
  await createBlog(page, 'harbour');
  await expect(page).toHaveURL(at('/d/posts'));
  await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Settings' }).click();

  // What the page hears about the import: the upload's answer, then the list and each question
  // about the import under way (this small export is often done before the first question).
  const states: string[] = [];
  page.on('response', async (response) => {
    const { pathname } = new URL(response.url());
    if (!/^\/api\/my\/blogs\/\d+\/imports(\/\d+)?$/.test(pathname) || !response.ok()) return;
    const body = (await response.json()) as { import?: { state: string }; imports?: { state: string }[] };
    const state = body.import?.state ?? body.imports?.[0]?.state;
    if (state) states.push(state);
  });
  // The upload is held until the page has said it is uploading.
  let sendUpload: () => void = () => undefined;
  const uploadHeld = new Promise<void>((resolve) => {
    sendUpload = resolve;
  });
  await page.route(/\/api\/my\/blogs\/\d+\/imports\?/, async (route) => {
    await uploadHeld;
    await route.continue();
  });

  const panel = page.getByRole('region', { name: 'Import and export', exact: true });
  const section = panel.getByRole('region', { name: 'Import', exact: true });
  await expect(section.getByText('WordPress, Ghost, WriteFreely, Bear Blog', { exact: false })).toBeVisible();
  await section.getByLabel('Export file').setInputFiles({
    name: FILE_NAME,
    mimeType: 'text/xml',
    buffer: readFileSync(path.join(fixture, 'export.xml')),
  });
  // The old site answers no image until the page has shown the import under way.
  let sendImages: () => void = () => undefined;
  oldSite.images = new Promise<void>((resolve) => {
    sendImages = resolve;
  });
  await section.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(section.getByRole('status').filter({ hasText: 'Uploading…' })).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Export Quire archive' })).toBeDisabled();
  sendUpload();

  const row = section.getByRole('list', { name: 'Your imports' }).getByRole('listitem').filter({ hasText: FILE_NAME });
  await expect(row).toContainText('WordPress');
  const items = expected.counts.posts + expected.counts.pages;
  await expect(row).toContainText(`Importing… 0 of ${items} items`, { timeout: 15_000 });
  await expect(row.getByRole('progressbar', { name: `Import of ${FILE_NAME}` })).toBeVisible();
  sendImages();
  const report = row.getByRole('region', { name: `Report of ${FILE_NAME}` });
  await expect(report).toBeVisible({ timeout: 30_000 });
  expect(states[0], 'the upload answers with the import queued').toBe('queued');
  expect(states, 'the page asked about the import while it ran').toContain('running');
  expect(states.at(-1)).toBe('done');
  await expect(panel.getByRole('button', { name: 'Export Quire archive' })).toBeEnabled();
  // The export named the blog: the Blog panel and the menu's blog show the new name.
  await expect(
    page.getByRole('region', { name: 'Blog', exact: true }).getByRole('textbox', { name: 'Name', exact: true }),
  ).toHaveValue(expected.site_title);

  const tags = new Set(expected.items.flatMap((item) => [...item.tags, ...item.categories]));
  const { counts } = expected;
  const count = (label: string) =>
    report.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');
  await expect(count('Posts')).toHaveText(String(counts.posts));
  await expect(count('Pages')).toHaveText(String(counts.pages));
  await expect(count('Drafts')).toHaveText(String(counts.drafts));
  await expect(count('Scheduled')).toHaveText(String(counts.scheduled));
  await expect(count('Images')).toHaveText(String(counts.images));
  await expect(count('Tags')).toHaveText(String(tags.size));
  await expect(count('Skipped')).toHaveText('0');
  await expect(count('Old addresses kept')).not.toHaveText('0');
  for (const image of expected.items.flatMap((item) => item.images)) {
    expect(oldSite.requested, 'the importer downloaded the image from the old site').toContain(image.path);
  }
  // From here on, nothing may come from the old site.
  await new Promise((resolve) => oldSite.server?.close(resolve));
  oldSite.server = undefined;

  // The imported post on the public blog, with its images now served by Quire.
  const blog = `http://harbour.localhost:${app().port}`;
  const post = (title: string) => {
    const item = expected.items.find((entry) => entry.title === title);
    if (!item) throw new Error(`${title} is not in expected.json`);
    return item;
  };
  const maps = post('Maps and mountains');
  await page.goto(`${blog}/`);
  await page.getByRole('link', { name: maps.title }).first().click();
  await expect(page.getByRole('heading', { name: maps.title, level: 1 })).toBeVisible();
  for (const { alt } of maps.images) {
    const { src, width } = await loaded(page.getByRole('img', { name: alt }).first());
    expect(width).toBeGreaterThan(0);
    expect(new URL(src).origin, 'served by quire, not the old site').toBe(app().baseUrl);
    expect(new URL(src).pathname).toMatch(/^\/media\//);
  }

  // Old WordPress addresses of a post, its pretty one and ?p=<id>, answer 301 and land on it.
  const hello = post('Hello from the harbour');
  expect(hello.old_paths).toEqual(['/2015/03/hello-from-the-harbour/']);
  let permalink = '';
  for (const old of [...hello.old_paths, `/?p=${hello.source_id}`]) {
    const landed = await page.goto(`${blog}${old}`);
    const first = await landed?.request().redirectedFrom()?.response();
    expect(first?.status(), `${old} redirects`).toBe(301);
    expect(new URL(page.url()).pathname).toMatch(/^\/hello-from-the-harbour-[a-z0-9]+$/);
    permalink ||= page.url();
    expect(page.url()).toBe(permalink);
  }
  await expect(page.getByRole('heading', { name: hello.title, level: 1 })).toBeVisible();
  const harbour = await loaded(page.getByRole('img', { name: hello.images[0]?.alt ?? '' }).first());
  expect(harbour.width).toBe(320);
  expect(new URL(harbour.src).origin).toBe(app().baseUrl);
  expect(problems).toEqual([]);
});
