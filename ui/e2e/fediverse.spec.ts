// The owner's side of federation in a real browser against the real binary. A remote follower,
// one waiting for approval, two likes and a hostile reply are written into the server's database
// with the sqlite3 command, as the inbox would store them. The owner sees the counts on the post
// list, approves the follower and blocks a domain in Settings → Fediverse, approves the reply on
// the Replies screen, and the reply then shows under the post on the public blog, as text.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { keepTrafficLocal, watchForErrors } from './support/browser';
import { createBlog, publishPost, signInWithLocalIssuer } from './support/flows';
import { startQuire, type QuireServer } from './support/quire';
import { sqlite, sqlText } from './support/server-db';

const SUBDOMAIN = 'harbour-fedi';
const POST_TITLE = 'Notes from the harbour';
const HOSTILE = `<script>alert("reply")</script> Lovely "notes" & more\n\nSecond paragraph`;

let quire: QuireServer | undefined;
let dataDir = '';
const sql = (statements: string) => sqlite(dataDir)(statements);

test.beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'quire-e2e-fedi-'));
  quire = await startQuire({ dataDir });
});

test.afterAll(async () => {
  await quire?.stop();
  if (dataDir && !process.env.QUIRE_E2E_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true });
});

/**
 * What the inbox would have stored: two followers (one pending), two likes and a held reply, each with
 * the sender's host as the inbox records it (a block removes what a host sent by it).
 */
function seedFromTheFediverse(blogId: string, shortId: string): void {
  sql(`
    INSERT INTO followers (blog_id, actor_id, inbox, handle, follow_id, state, actor_host) VALUES
      (${blogId}, 'https://peer.example/users/bob', 'https://peer.example/users/bob/inbox', '@bob@peer.example',
       'https://peer.example/users/bob/follows/1', 'accepted', 'peer.example'),
      (${blogId}, 'https://other.example/u/carol', 'https://other.example/u/carol/inbox', '@carol@other.example',
       'https://other.example/u/carol/follows/1', 'pending', 'other.example');
    INSERT INTO reactions (activity_id, post_id, actor_id, kind, actor_host)
      SELECT 'https://peer.example/likes/' || n, p.id, 'https://peer.example/users/' || n, 'like', 'peer.example'
      FROM posts p, (SELECT 1 AS n UNION ALL SELECT 2) WHERE p.short_id = ${sqlText(shortId)};
    INSERT INTO replies (note_id, post_id, actor_id, author_name, author_handle, author_url, url, text, published_at, state,
                         actor_host)
      SELECT 'https://peer.example/notes/1', id, 'https://peer.example/users/bob', 'Bob <b>Boater</b>', '@bob@peer.example',
             'https://peer.example/@bob', 'https://peer.example/@bob/1', ${sqlText(HOSTILE)}, '2026-11-24T10:00:00.000Z', 'held',
             'peer.example'
      FROM posts WHERE short_id = ${sqlText(shortId)};
  `);
}

test('followers, blocked domains, counts and a reply approved from the Responses screen onto the public page', async ({
  page,
  context,
}) => {
  const server = quire!;
  await keepTrafficLocal(context);
  // The 422 of the IP address the owner tries to block is expected.
  const problems = watchForErrors(page, [{ status: 422, path: '/api/my/blogs/1/fediverse/blocked_domains' }]);
  page.on('dialog', (dialog) => {
    if (dialog.type() === 'alert') throw new Error(`an alert opened: ${dialog.message()}`);
  });

  await page.goto(`${server.baseUrl}/signup`);
  await signInWithLocalIssuer(page, 'Signup with Local', 'fedi@example.com');
  await createBlog(page, SUBDOMAIN);
  const blogId = (await context.cookies()).find((c) => c.name === 'blog_id')?.value ?? '';
  expect(blogId).toBe('1');
  const post = await publishPost(page, server.baseUrl, POST_TITLE, 'The boats come in at dusk.');
  seedFromTheFediverse(blogId, post.shortId);

  // The post list counts what came from the fediverse.
  await page.goto(`${server.baseUrl}/d/posts`);
  const card = page.getByRole('article').filter({ hasText: POST_TITLE });
  const counts = card.getByRole('list', { name: `Responses to ${POST_TITLE}` });
  await expect(counts.getByRole('img', { name: '2 likes' })).toHaveText('♥ 2');
  await expect(counts.getByRole('link', { name: '1 reply' })).toBeVisible();

  // Settings → Fediverse: the handle, the followers, approval, a blocked domain.
  const menu = page.getByRole('navigation', { name: 'Menu' });
  await menu.getByRole('link', { name: 'Settings' }).click();
  const panel = page.getByRole('region', { name: 'Fediverse', exact: true });
  await expect(panel.getByText(`@${SUBDOMAIN}@localhost:${server.port}`)).toBeVisible();
  await expect(panel.getByText('1 follower · 1 waiting for approval', { exact: true })).toBeVisible();
  const followers = panel.getByRole('list', { name: 'Followers' });
  await expect(followers.getByRole('link', { name: '@bob@peer.example' })).toHaveAttribute(
    'href',
    'https://peer.example/users/bob',
  );
  await followers.getByRole('button', { name: 'Approve @carol@other.example' }).click();
  await expect(panel.getByText('2 followers', { exact: true })).toBeVisible();
  await expect(followers.getByText('Waiting for approval')).toHaveCount(0);
  // The Accept went into the delivery queue, addressed to carol's inbox.
  expect(
    sql(
      `SELECT d.inbox || ' ' || json_extract(a.json, '$.type') FROM deliveries d JOIN outgoing_activities a ON a.id = d.activity_id`,
    ),
  ).toBe('https://other.example/u/carol/inbox Accept');

  const domainInput = panel.getByRole('textbox', { name: 'Domain to block' });
  await domainInput.fill('10.0.0.1');
  await panel.getByRole('button', { name: 'Block' }).click();
  await expect(panel.getByRole('alert')).toHaveText('Enter a domain name, not an IP address');
  await domainInput.fill('Other.Example');
  await panel.getByRole('button', { name: 'Block' }).click();
  await expect(panel.getByRole('list', { name: 'Blocked domains' }).getByText('other.example')).toBeVisible();
  await expect(panel.getByText('1 follower', { exact: true })).toBeVisible();
  await expect(followers.getByText('@carol@other.example')).toHaveCount(0);

  // The Responses screen: the held reply as text, approved.
  await menu.getByRole('link', { name: 'Responses' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Responses' })).toBeVisible();
  const held = page.getByRole('list', { name: 'Held responses' });
  const reply = held.getByRole('article', { name: 'Fediverse reply by Bob <b>Boater</b>' });
  await expect(reply.getByRole('link', { name: POST_TITLE })).toHaveAttribute('href', `/d/posts/${post.shortId}/edit`);
  await expect(reply.getByText('@bob@peer.example')).toBeVisible();
  await expect(reply.locator('.q-response__text')).toHaveText(HOSTILE, { useInnerText: false });
  await reply.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Nothing is waiting for your approval.')).toBeVisible();
  await page.getByRole('tab', { name: 'Approved' }).click();
  await expect(page).toHaveURL(`${server.baseUrl}/d/responses?state=approved`);
  await expect(page.getByRole('list', { name: 'Approved responses' }).getByRole('article')).toHaveCount(1);

  // The public post page shows it under the post, escaped, linked nofollow.
  await page.goto(post.permalink);
  const section = page.getByRole('region', { name: 'Replies from the fediverse' });
  await expect(section).toBeVisible();
  await expect(section.getByRole('link', { name: 'Bob <b>Boater</b>' })).toHaveAttribute('rel', 'nofollow ugc');
  await expect(section.getByText('<script>alert("reply")</script> Lovely "notes" & more')).toBeVisible();
  await expect(section.getByText('Second paragraph')).toBeVisible();
  expect(await section.locator('script, b').count()).toBe(0);

  expect(problems).toEqual([]);
});
