// The post screens against the real server in a real browser: writing a post with every block
// type (an image upload included), the editor's validation, publishing, editing, the list and
// its pager, search, deleting, and the new post's local draft. A quire of its own, with its
// own data dir, so the counts below are this file's alone.
import { deflateSync, crc32 } from 'node:zlib';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Dialog, type Page } from '@playwright/test';
import { watchForErrors } from './support/browser';
import { createBlog, signInWithLocalIssuer } from './support/flows';
import { ownQuire } from './support/own-quire';

const app = ownQuire();
let scratch = '';

test.beforeAll(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), 'quire-e2e-posts-'));
});

test.afterAll(async () => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** An address on this file's quire. */
function at(pathname: string): string {
  return `${app().baseUrl}${pathname}`;
}

/** A real PNG file (`size` pixels square, one colour), written to the scratch dir. */
function writePng(name: string, size: number, rgb: [number, number, number]): string {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(size * 3).map((_, i) => rgb[i % 3] as number)]);
  const pixels = Buffer.concat(Array.from({ length: size }, () => row));
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  const file = path.join(scratch, name);
  writeFileSync(file, png);
  return file;
}

/** Signs up as `email` through the local issuer and creates the blog `subdomain`. */
async function signUp(page: Page, email: string, subdomain: string): Promise<void> {
  await page.goto(at('/signup'));
  await signInWithLocalIssuer(page, 'Signup with Local', email);
  await createBlog(page, subdomain);
  await expect(page).toHaveURL(at('/d/posts'));
}

/** The signed-in owner's blog id and CSRF token, from the cookies the server set. */
async function ownerCookies(page: Page): Promise<{ blogId: string; csrf: string }> {
  const cookies = await page.context().cookies(at('/'));
  const value = (name: string) => cookies.find((c) => c.name === name)?.value ?? '';
  return { blogId: value('blog_id'), csrf: value('csrf_token') };
}

interface ApiPost {
  shortId: string;
  permalink: string;
  title: string;
  publishedAt: string | null;
  body: { children: { type: string; value: Record<string, string> }[] };
}

/** The owner's posts straight from the API (newest first, up to 100). */
async function apiPosts(page: Page): Promise<ApiPost[]> {
  const { blogId } = await ownerCookies(page);
  const response = await page.request.get(at(`/api/my/blogs/${blogId}/posts?page=1&page_size=100`));
  expect(response.status()).toBe(200);
  return ((await response.json()) as { posts: ApiPost[] }).posts;
}

/** Answers every dialog with `answer()` and keeps what they asked. */
function answerDialogs(page: Page, answer: (dialog: Dialog) => boolean) {
  const asked: string[] = [];
  page.on('dialog', (dialog) => {
    asked.push(`${dialog.type()}: ${dialog.message()}`);
    void (answer(dialog) ? dialog.accept() : dialog.dismiss());
  });
  return asked;
}

/** Requests the page sends to `pathPart` (method and path). */
function watchRequests(page: Page, pathPart: string): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.includes(pathPart)) seen.push(`${request.method()} ${url.pathname}${url.search}`);
  });
  return seen;
}

const block = (page: Page, n: number) => page.getByRole('group', { name: new RegExp(`^Block ${n}: `) });
const blocks = (page: Page) => page.getByRole('group', { name: /^Block \d+: / });
/** Checks the blocks' types, in order, by their names ('Block 2: Paragraph'). */
async function expectBlocks(page: Page, types: string[]): Promise<void> {
  await expect(blocks(page)).toHaveCount(types.length);
  for (const [i, type] of types.entries())
    await expect(blocks(page).nth(i)).toHaveAccessibleName(`Block ${i + 1}: ${type}`);
}
const cards = (page: Page) => page.getByRole('list', { name: 'Posts' }).getByRole('article');
const scrollY = (page: Page) => page.evaluate(() => window.scrollY);

/** In edit mode: adds a block of `type` at the end through the add-block dialog. */
async function addAtEnd(page: Page, type: string): Promise<void> {
  await page.getByRole('button', { name: 'Add block at the end' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a block' });
  await dialog.getByRole('button', { name: type, exact: true }).click();
  await expect(dialog).toHaveCount(0);
}

test('writing a post with every block type, fixing what the editor refuses, publishing and editing it', async ({
  page,
}) => {
  const problems = watchForErrors(page);
  const asked = answerDialogs(
    page,
    (dialog) => !dialog.message().startsWith('Are you sure you want to remove') || asked.length > 1,
  );
  const postCalls = watchRequests(page, '/posts');
  await signUp(page, 'writer@example.com', 'writer');
  const png = writePng('harbour.png', 24, [40, 90, 200]);

  await test.step('a new blog has no posts yet', async () => {
    await expect(page.getByText('No posts yet')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Pages' })).toHaveCount(0);
    await page.getByRole('link', { name: 'New Post' }).click();
    await expect(page).toHaveURL(at('/d/posts/new'));
    await expect(page.getByRole('heading', { level: 1, name: 'New Post' })).toBeVisible();
  });

  await test.step('every block type, the image uploaded from a file', async () => {
    await expect(blocks(page)).toHaveCount(2);
    await expect(block(page, 1).getByRole('textbox', { name: 'Heading' })).toHaveValue('');
    await expect(block(page, 2).getByRole('textbox', { name: 'Paragraph' })).toHaveAttribute('rows', '8');
    await expect(page.getByRole('checkbox', { name: 'Mark as draft' })).not.toBeChecked();
    await block(page, 2)
      .getByRole('textbox', { name: 'Paragraph' })
      .fill('Rain falls softly on the quiet harbour at dawn.');

    await page.getByRole('button', { name: 'Edit blocks' }).click();
    await addAtEnd(page, 'Link');
    await block(page, 3).getByRole('textbox', { name: 'URL' }).fill('https://example.com/harbour');
    await block(page, 3).getByRole('textbox', { name: 'Link Text' }).fill('The harbour');

    await page.getByRole('button', { name: 'Add block at the end' }).click();
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('dialog', { name: 'Add a block' }).getByRole('button', { name: 'Image', exact: true }).click();
    await (await chooser).setFiles(png);
    const thumbnail = block(page, 4).getByRole('img', { name: 'The uploaded image' });
    await expect(thumbnail).toHaveAttribute('src', new RegExp(`^${at('/media/')}[0-9a-f]{64}\\.png$`));
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(24);

    await addAtEnd(page, 'Spotify');
    const spotify = block(page, 5).getByRole('textbox', { name: 'Spotify URL' });
    await expect(spotify).toHaveAttribute('placeholder', 'https://open.spotify.com/track/...');
    await spotify.fill('https://example.com/not-a-track');
    await addAtEnd(page, 'Tweet');
    const tweet = block(page, 6).getByRole('textbox', { name: 'Tweet URL' });
    await expect(tweet).toHaveAttribute('placeholder', 'https://x.com/user/status/...');
    await tweet.fill('https://x.com/quire/status/1234567890');
    await expectBlocks(page, ['Heading', 'Paragraph', 'Link', 'Image', 'Spotify', 'Tweet']);
  });

  await test.step('the blank heading and the bad spotify URL stop the first submit, on their blocks', async () => {
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(block(page, 1).getByRole('alert')).toHaveText("Can't be blank");
    await expect(block(page, 5).getByRole('alert')).toHaveText('Should start with https://open.spotify.com/');
    await expect(page.getByRole('alert')).toHaveCount(2);
    await expect(block(page, 1).getByRole('textbox', { name: 'Heading' })).toBeFocused();
    expect(postCalls.filter((call) => call.startsWith('POST'))).toEqual([]);

    await block(page, 1).getByRole('textbox', { name: 'Heading' }).fill('Harbour notes');
    await expect(block(page, 1).getByRole('alert')).toHaveCount(0);
    await block(page, 5)
      .getByRole('textbox', { name: 'Spotify URL' })
      .fill('https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC');
    await expect(page.getByRole('alert')).toHaveCount(0);
    const stored = await page.evaluate(
      () => JSON.parse(localStorage.getItem('new') ?? 'null') as { blocks: unknown[]; draft: boolean },
    );
    expect(stored.blocks).toHaveLength(6);
    expect(stored.draft).toBe(false);
  });

  await test.step('published: the list shows it with its date and Read, scrolled to the top', async () => {
    await page.getByRole('button', { name: 'Publish' }).click();
    await expect(page).toHaveURL(at('/d/posts'));
    expect(await scrollY(page)).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('new'))).toBeNull();

    const [post] = await apiPosts(page);
    expect(post?.title).toBe('Harbour notes');
    expect(post?.body.children.map((child) => child.type)).toEqual([
      'heading',
      'paragraph',
      'link',
      'image',
      'spotify',
      'tweet',
    ]);
    expect(post?.publishedAt).not.toBeNull();
    const when = await page.evaluate(
      (iso) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }),
      post?.publishedAt ?? '',
    );
    await expect(cards(page)).toHaveCount(1);
    const card = cards(page).first();
    await expect(card.getByRole('link', { name: 'Harbour notes' })).toHaveAttribute(
      'href',
      `/d/posts/${post?.shortId}/edit`,
    );
    await expect(card.locator('time')).toHaveText(when);
    await expect(card.getByText('Draft')).toHaveCount(0);
    const read = card.getByRole('link', { name: 'Read' });
    await expect(read).toHaveAttribute('href', post?.permalink ?? '');
    await expect(read).toHaveAttribute('target', '_blank');
    await expect(card.getByRole('button', { name: 'Share' })).toBeVisible();

    // The permalink is the public page of the post.
    const opened = page.waitForEvent('popup');
    await read.click();
    const reader = await opened;
    await expect(reader).toHaveURL(post?.permalink ?? '');
    await expect(reader.getByRole('heading', { name: 'Harbour notes' }).first()).toBeVisible();
    await reader.close();
  });

  await test.step('editing: reorder, remove a block after confirming, save', async () => {
    await cards(page).first().getByRole('link', { name: 'Harbour notes' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Edit Post' })).toBeVisible();
    await expect(blocks(page)).toHaveCount(6);
    await expect(page.getByRole('checkbox', { name: 'Mark as draft' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeVisible();

    await page.getByRole('button', { name: 'Edit blocks' }).click();
    await expect(block(page, 1).getByRole('button', { name: 'Move up' })).toBeDisabled();
    await expect(block(page, 6).getByRole('button', { name: 'Move down' })).toBeDisabled();
    await block(page, 6).getByRole('button', { name: 'Move up' }).click(); // tweet above spotify
    await block(page, 3).getByRole('button', { name: 'Move down' }).click(); // link below image
    await expectBlocks(page, ['Heading', 'Paragraph', 'Image', 'Link', 'Tweet', 'Spotify']);

    // The first answer is "no": the block stays. The second is "yes".
    await block(page, 6).getByRole('button', { name: 'Remove' }).click();
    await expect(blocks(page)).toHaveCount(6);
    await block(page, 6).getByRole('button', { name: 'Remove' }).click();
    await expect(blocks(page)).toHaveCount(5);
    expect(asked).toEqual([
      'confirm: Are you sure you want to remove this block?',
      'confirm: Are you sure you want to remove this block?',
    ]);

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page).toHaveURL(at('/d/posts'));
    await expect(cards(page)).toHaveCount(1);
    const [post] = await apiPosts(page);
    expect(post?.body.children.map((child) => child.type)).toEqual(['heading', 'paragraph', 'image', 'link', 'tweet']);
    expect(post?.body.children[3]?.value).toEqual({ url: 'https://example.com/harbour', title: 'The harbour' });
  });

  expect(asked).toHaveLength(2); // no leave-page question after saving
  expect(problems).toEqual([]);
});

test('paging through 25 posts, searching, and deleting one', async ({ page }) => {
  const problems = watchForErrors(page);
  const asked = answerDialogs(page, () => true);
  await signUp(page, 'pager@example.com', 'pager');
  const { blogId, csrf } = await ownerCookies(page);

  await test.step('25 posts through the API', async () => {
    for (let n = 1; n <= 25; n += 1) {
      const words = n === 7 ? 'A zeppelin drifts over the bay.' : `Notes for day ${n}.`;
      const response = await page.request.post(at(`/api/my/blogs/${blogId}/posts`), {
        headers: { 'CSRF-Token': csrf },
        data: {
          body: {
            type: 'root',
            children: [
              { type: 'heading', value: { text: `Day ${n}` } },
              { type: 'paragraph', value: { text: words } },
            ],
          },
          draft: n % 5 === 0,
        },
      });
      expect(response.status()).toBe(201);
    }
  });

  const pager = page.getByRole('navigation', { name: 'Pages' });
  const titles = () => cards(page).getByRole('heading');

  await test.step('first, next, last, previous and first again; each scrolls to the top', async () => {
    await page.goto(at('/d/posts'));
    await expect(titles()).toHaveText([
      'Day 25',
      'Day 24',
      'Day 23',
      'Day 22',
      'Day 21',
      'Day 20',
      'Day 19',
      'Day 18',
      'Day 17',
      'Day 16',
    ]);
    await expect(cards(page).first().getByText('Draft')).toBeVisible(); // day 25 is a draft
    await expect(cards(page).first().getByRole('link', { name: 'Read' })).toHaveCount(0);
    await expect(cards(page).nth(1).getByRole('link', { name: 'Read' })).toBeVisible();
    await expect(pager.getByText('Page 1 of 3')).toBeVisible();
    await expect(pager.getByRole('button', { name: 'First' })).toBeDisabled();
    await expect(pager.getByRole('button', { name: 'Previous' })).toBeDisabled();

    const go = async (name: string, url: string, first: string, count: number) => {
      await pager.getByRole('button', { name }).scrollIntoViewIfNeeded();
      // Ten cards are taller than the window: the pager is below the fold, so the page scrolled.
      if ((await titles().count()) === 10) expect(await scrollY(page)).toBeGreaterThan(0);
      await pager.getByRole('button', { name }).click();
      await expect(page).toHaveURL(at(url));
      await expect(titles().first()).toHaveText(first);
      await expect(titles()).toHaveCount(count);
      await expect.poll(() => scrollY(page)).toBe(0);
    };
    await go('Next', '/d/posts?p=2', 'Day 15', 10);
    await go('Last', '/d/posts?p=3', 'Day 5', 5);
    await expect(pager.getByRole('button', { name: 'Next' })).toBeDisabled();
    await expect(pager.getByRole('button', { name: 'Last' })).toBeDisabled();
    await go('Previous', '/d/posts?p=2', 'Day 15', 10);
    await go('First', '/d/posts', 'Day 25', 10);

    await page.goto(at('/d/posts?p=3'));
    await expect(titles()).toHaveText(['Day 5', 'Day 4', 'Day 3', 'Day 2', 'Day 1']);
    await expect(pager.getByText('Page 3 of 3')).toBeVisible();
  });

  await test.step('on a phone the pager keeps to one line and its buttons keep their names', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(at('/d/posts?p=2'));
    await pager.scrollIntoViewIfNeeded();
    const tops = [];
    for (const name of ['First', 'Previous', 'Next', 'Last']) {
      const button = pager.getByRole('button', { name, exact: true });
      await expect(button).toBeVisible();
      const box = await button.boundingBox();
      tops.push(Math.round((box?.y ?? 0) + (box?.height ?? 0) / 2));
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
    }
    const position = await pager.getByText('Page 2 of 3').boundingBox();
    tops.push(Math.round((position?.y ?? 0) + (position?.height ?? 0) / 2));
    expect(new Set(tops).size, `${tops}`).toBe(1);
    await page.setViewportSize({ width: 1280, height: 720 });
  });

  await test.step('search keeps the query in the address and opens the result', async () => {
    const searches = watchRequests(page, '/posts/search');
    await page.goto(at('/d/posts'));
    await page.getByRole('link', { name: 'Search' }).click();
    await expect(page).toHaveURL(at('/d/posts/search'));
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('searchbox', { name: 'query' }).fill('   ');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(at('/d/posts/search'));
    expect(searches).toEqual([]);

    await page.getByRole('searchbox', { name: 'query' }).fill('zeppelin');
    await page.getByRole('searchbox', { name: 'query' }).press('Enter');
    await expect(page).toHaveURL(at('/d/posts/search?query=zeppelin'));
    const results = page.getByRole('list', { name: 'Results' }).getByRole('article');
    await expect(results.getByRole('heading')).toHaveText(['Day 7']);
    expect(searches).toEqual([`POST /api/my/blogs/${blogId}/posts/search`]);

    await page.reload();
    await expect(page.getByRole('searchbox', { name: 'query' })).toHaveValue('zeppelin');
    await expect(results.getByRole('heading')).toHaveText(['Day 7']);
    await results.getByRole('link', { name: 'Day 7' }).click();
    await expect(page).toHaveURL(/\/d\/posts\/[a-z0-9]{8}\/edit$/);
    await expect(block(page, 2).getByRole('textbox', { name: 'Paragraph' })).toHaveValue(
      'A zeppelin drifts over the bay.',
    );
  });

  await test.step('deleting the post from the editor', async () => {
    await page.getByRole('button', { name: 'More' }).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    await expect(page).toHaveURL(at('/d/posts'));
    expect(asked).toEqual(['confirm: Are you sure you want to delete this post? This cannot be undone.']);
    await page.goto(at('/d/posts?p=2'));
    await expect(titles()).toHaveText([
      'Day 15',
      'Day 14',
      'Day 13',
      'Day 12',
      'Day 11',
      'Day 10',
      'Day 9',
      'Day 8',
      'Day 6',
      'Day 5',
    ]);
    await page.goto(at('/d/posts/search?query=zeppelin'));
    await expect(page.getByText('No posts match “zeppelin”.')).toBeVisible();
    expect((await apiPosts(page)).map((p) => p.title)).not.toContain('Day 7');
  });

  expect(problems).toEqual([]);
});

test('the local draft of a new post: a malformed one is removed, a good one comes back, leaving asks first', async ({
  page,
}) => {
  const problems = watchForErrors(page);
  let leave = false;
  const asked = answerDialogs(page, () => leave);
  await signUp(page, 'drafter@example.com', 'drafter');

  await test.step('a malformed draft is deleted and the editor starts empty', async () => {
    await page.evaluate(() =>
      localStorage.setItem('new', '{"blocks": [{"type": "video", "value": {}}], "draft": "maybe"}'),
    );
    await page.getByRole('link', { name: 'New Post' }).click();
    await expect(blocks(page)).toHaveCount(2);
    await expect(block(page, 1).getByRole('textbox', { name: 'Heading' })).toHaveValue('');
    await expect(block(page, 2).getByRole('textbox', { name: 'Paragraph' })).toHaveValue('');
    expect(await page.evaluate(() => localStorage.getItem('new'))).toBeNull();
  });

  await test.step('a draft in progress survives a reload', async () => {
    await block(page, 1).getByRole('textbox', { name: 'Heading' }).fill('Half a thought');
    await page.getByRole('checkbox', { name: 'Mark as draft' }).check();
    await expect(page.getByRole('button', { name: 'Save as Draft' })).toBeVisible();
    leave = true;
    await page.reload();
    await expect(block(page, 1).getByRole('textbox', { name: 'Heading' })).toHaveValue('Half a thought');
    await expect(page.getByRole('checkbox', { name: 'Mark as draft' })).toBeChecked();
    expect(asked).toEqual(['beforeunload: ']);
  });

  await test.step('leaving with unsaved changes asks first', async () => {
    leave = false;
    await block(page, 2).getByRole('textbox', { name: 'Paragraph' }).fill('More later.');
    const menu = page.getByRole('navigation', { name: 'Menu' });
    await menu.getByRole('link', { name: 'Posts' }).click();
    await expect(page).toHaveURL(at('/d/posts/new'));
    leave = true;
    await menu.getByRole('link', { name: 'Posts' }).click();
    await expect(page).toHaveURL(at('/d/posts'));
    expect(asked.slice(1)).toEqual(['confirm: Are you sure?', 'confirm: Are you sure?']);
  });

  await test.step('saved as a draft, it is listed as one and the local draft is gone', async () => {
    await page.getByRole('link', { name: 'New Post' }).click();
    await expect(block(page, 2).getByRole('textbox', { name: 'Paragraph' })).toHaveValue('More later.');
    await page.getByRole('button', { name: 'Save as Draft' }).click();
    await expect(page).toHaveURL(at('/d/posts'));
    await expect(cards(page).getByRole('heading')).toHaveText(['Half a thought']);
    await expect(cards(page).first().getByText('Draft')).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('new'))).toBeNull();
    await cards(page).first().getByRole('link', { name: 'Half a thought' }).click();
    await expect(page.getByRole('checkbox', { name: 'Mark as draft' })).toBeChecked();
    await expect(page.getByRole('button', { name: 'Publish' })).toBeVisible();
  });

  expect(problems).toEqual([]);
});

test('the back button asks before it leaves unsaved changes, and the post list comes back where it was', async ({
  page,
}) => {
  const problems = watchForErrors(page);
  let leave = false;
  const asked = answerDialogs(page, () => leave);
  await signUp(page, 'backer@example.com', 'backer');

  await page.getByRole('link', { name: 'New Post' }).click();
  await block(page, 1).getByRole('textbox', { name: 'Heading' }).fill('Not saved yet');

  await test.step('back, answered Cancel: the editor stays with its text', async () => {
    await page.goBack();
    await expect.poll(() => asked).toEqual(['confirm: Are you sure?']);
    await expect(page).toHaveURL(at('/d/posts/new'));
    await expect(block(page, 1).getByRole('textbox', { name: 'Heading' })).toHaveValue('Not saved yet');
  });

  await test.step('back, answered OK: the post list', async () => {
    leave = true;
    await page.goBack();
    await expect(page).toHaveURL(at('/d/posts'));
    await expect(page.getByRole('link', { name: 'New Post' })).toBeVisible();
    expect(asked).toEqual(['confirm: Are you sure?', 'confirm: Are you sure?']);
  });

  await test.step('forward and back again, then a reload: the page scrolled down comes back scrolled down', async () => {
    await page.setViewportSize({ width: 800, height: 300 });
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const down = await page.evaluate(() => window.scrollY);
    expect(down).toBeGreaterThan(0);
    await page.goForward();
    await expect(page).toHaveURL(at('/d/posts/new'));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await page.goBack();
    await expect(page).toHaveURL(at('/d/posts'));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(down);

    await page.reload();
    await expect(page.getByRole('link', { name: 'New Post' })).toBeVisible();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(down);
  });

  expect(problems).toEqual([]);
});

test('the editor shows when edit mode is on, keeps Remove quiet and fits Publish in the toolbar on a phone', async ({
  page,
}) => {
  const problems = watchForErrors(page);
  await signUp(page, 'layout@example.com', 'layout');
  await page.goto(at('/d/posts/new'));
  const editBlocks = page.getByRole('button', { name: 'Edit blocks', exact: true });
  const publish = page.getByRole('button', { name: 'Publish' });
  const style = (locator: typeof editBlocks) =>
    locator.evaluate((element) => {
      const css = getComputedStyle(element);
      return { background: css.backgroundColor, border: css.borderTopColor, color: css.color };
    });
  const danger = await page.evaluate(() => {
    const probe = document.createElement('span');
    probe.style.color = 'var(--q-danger)';
    document.body.append(probe);
    const color = getComputedStyle(probe).color;
    probe.remove();
    return color;
  });

  for (const size of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    await expect(editBlocks).toHaveAttribute('aria-pressed', 'false');
    const off = await style(editBlocks);
    await editBlocks.click();
    await expect(editBlocks).toHaveAttribute('aria-pressed', 'true');
    await page.mouse.move(0, size.height - 1); // no hover on the button
    expect(await style(editBlocks), `${size.width}: pressed looks different`).not.toEqual(off);

    const remove = block(page, 1).getByRole('button', { name: 'Remove' });
    await expect(remove).toBeVisible();
    expect((await style(remove)).background, `${size.width}: Remove is no solid red button`).not.toBe(danger);

    // Publish stays on the toolbar's row.
    const row = await editBlocks.boundingBox();
    const button = await publish.boundingBox();
    expect(
      Math.abs((button?.y ?? 0) + (button?.height ?? 0) / 2 - ((row?.y ?? 0) + (row?.height ?? 0) / 2)),
      `${size.width}`,
    ).toBeLessThan(4);
    expect((button?.x ?? 0) + (button?.width ?? 0), `${size.width}`).toBeLessThanOrEqual(size.width);

    await editBlocks.click();
    await expect(editBlocks).toHaveAttribute('aria-pressed', 'false');
  }
  expect(problems).toEqual([]);
});
