// A blog on its own domain, in a real browser against the real server. The owner enters
// Blog.Example.org. in Settings, is told the records to create, creates the TXT record (here: a
// tiny DNS server of this file, which quire asks through --test-only-dns-server), checks now and
// sees 'Verified'. The blog then reads at http://blog.example.org:PORT/ (Chromium resolves the
// name to loopback: --host-resolver-rules) with its canonical links there, and the old subdomain
// redirects to it; once the domain is removed the subdomain serves the blog again.
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { expect, test, type Page } from '@playwright/test';
import { keepTrafficLocal, watchForErrors, type ExpectedStatus } from './support/browser';
import { createBlog, signInWithLocalIssuer } from './support/flows';
import { startQuire, type QuireServer } from './support/quire';

const DOMAIN = 'blog.example.org';
const TXT_NAME = `_quire.${DOMAIN}`;
const SUBDOMAIN = 'harbour-lights';
const POST_TITLE = 'Lights along the harbour';

/** DNS record type TXT and class IN (RFC 1035 §3.2). */
const TYPE_TXT = 16;
const CLASS_IN = 1;
/** Response codes: no error, name error (NXDOMAIN), format error. */
const NOERROR = 0;
const NXDOMAIN = 3;
const FORMERR = 1;

/**
 * A DNS server on 127.0.0.1 over UDP that knows one record, `_quire.blog.example.org IN TXT`, once
 * `txt` is set; every other question gets NXDOMAIN. It keeps the questions it was asked.
 */
class TxtResponder {
  txt: string | null = null;
  readonly asked: string[] = [];
  private socket: Socket | undefined;

  async start(): Promise<number> {
    const socket = createSocket('udp4');
    socket.on('message', (query, from) => this.answer(query, from));
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(0, '127.0.0.1', () => resolve());
    });
    this.socket = socket;
    return socket.address().port;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.socket ? this.socket.close(() => resolve()) : resolve()));
  }

  private answer(query: Buffer, from: RemoteInfo) {
    const question = readQuestion(query);
    if (!question) {
      if (query.length >= 12) this.socket?.send(header(query, FORMERR, 0, 0), from.port, from.address);
      return;
    }
    this.asked.push(`${question.name} ${question.type === TYPE_TXT ? 'TXT' : question.type}`);
    const known = question.name === TXT_NAME && question.type === TYPE_TXT && question.class === CLASS_IN;
    const records = known && this.txt !== null ? [txtRecord(this.txt)] : [];
    const rcode = records.length > 0 ? NOERROR : NXDOMAIN;
    const reply = Buffer.concat([header(query, rcode, 1, records.length), question.bytes, ...records]);
    this.socket?.send(reply, from.port, from.address);
  }
}

/** The one question of a query: its name (lowercase, no trailing dot), type, class and bytes. */
function readQuestion(query: Buffer): { name: string; type: number; class: number; bytes: Buffer } | null {
  if (query.length < 12 || (query[2] ?? 0) & 0x80 || query.readUInt16BE(4) !== 1) return null;
  const labels: string[] = [];
  let at = 12;
  for (;;) {
    const length = query[at];
    if (length === undefined || length & 0xc0) return null;
    if (length === 0) break;
    labels.push(query.toString('latin1', at + 1, at + 1 + length));
    at += 1 + length;
  }
  if (at + 5 > query.length) return null;
  return {
    name: labels.join('.').toLowerCase(),
    type: query.readUInt16BE(at + 1),
    class: query.readUInt16BE(at + 3),
    bytes: query.subarray(12, at + 5),
  };
}

/** A response header for `query`: its id, QR and AA set, its opcode and RD echoed, the counts. */
function header(query: Buffer, rcode: number, questions: number, answers: number): Buffer {
  const out = Buffer.alloc(12);
  query.copy(out, 0, 0, 2);
  out[2] = 0x80 | ((query[2] ?? 0) & 0x79) | 0x04;
  out[3] = rcode;
  out.writeUInt16BE(questions, 4);
  out.writeUInt16BE(answers, 6);
  return out;
}

/** A TXT answer for the question's name (a pointer to offset 12), with `text` as one string. */
function txtRecord(text: string): Buffer {
  const data = Buffer.from(text, 'utf8');
  if (data.length > 255) throw new Error('one TXT string holds at most 255 bytes');
  const fixed = Buffer.alloc(12);
  fixed.writeUInt16BE(0xc00c, 0);
  fixed.writeUInt16BE(TYPE_TXT, 2);
  fixed.writeUInt16BE(CLASS_IN, 4);
  fixed.writeUInt32BE(60, 6);
  fixed.writeUInt16BE(1 + data.length, 10);
  return Buffer.concat([fixed, Buffer.from([data.length]), data]);
}

const dns = new TxtResponder();
let quire: QuireServer | undefined;

test.beforeAll(async () => {
  const port = await dns.start();
  quire = await startQuire({ args: ['--test-only-dns-server', `127.0.0.1:${port}`] });
});

test.afterAll(async () => {
  await quire?.stop();
  await dns.stop();
});

/** The blog's canonical address and its OpenGraph url on the page shown. */
async function canonical(page: Page): Promise<{ canonical: string | null; ogUrl: string | null }> {
  return {
    canonical: await page.locator('link[rel="canonical"]').getAttribute('href'),
    ogUrl: await page.locator('meta[property="og:url"]').getAttribute('content'),
  };
}

/** Creates a published post through the API, as the signed-in owner of `page`; gives its path. */
async function publishPost(page: Page, blogId: string): Promise<string> {
  const csrf = (await page.context().cookies()).find((c) => c.name === 'csrf_token')?.value ?? '';
  const response = await page.request.post(`/api/my/blogs/${blogId}/posts`, {
    headers: { 'CSRF-Token': csrf },
    data: {
      body: {
        type: 'root',
        children: [
          { type: 'heading', value: { text: POST_TITLE } },
          { type: 'paragraph', value: { text: 'Every evening the lamps come on one by one.' } },
        ],
      },
      draft: false,
    },
  });
  expect(response.status()).toBe(201);
  const { post } = (await response.json()) as { post: { permalink: string } };
  return new URL(post.permalink).pathname;
}

test('a blog on its own domain: set in Settings, verified through DNS, served there, and removed', async ({
  playwright,
  launchOptions,
}) => {
  test.setTimeout(90_000);
  if (!quire) throw new Error('quire did not start');
  const { baseUrl, port } = quire;
  const onDomain = `http://${DOMAIN}:${port}`;
  const onSubdomain = `http://${SUBDOMAIN}.localhost:${port}`;
  // This test's own Chromium, which resolves blog.example.org to loopback (the port stays quire's).
  const browser = await playwright.chromium.launch({
    ...launchOptions,
    args: [...(launchOptions.args ?? []), `--host-resolver-rules=MAP ${DOMAIN} 127.0.0.1`],
  });
  try {
    const context = await browser.newContext({ baseURL: baseUrl });
    await keepTrafficLocal(context, [DOMAIN]);
    const page = await context.newPage();
    const expected: ExpectedStatus[] = [];
    const problems = watchForErrors(page, expected);

    await page.goto('/signup');
    await signInWithLocalIssuer(page, 'Signup with Local', 'lights@example.com');
    await createBlog(page, SUBDOMAIN);
    const blogId = (await context.cookies()).find((c) => c.name === 'blog_id')?.value ?? '';
    expect(blogId).not.toBe('');
    const postPath = await publishPost(page, blogId);
    const checkPath = `/api/my/blogs/${blogId}/domain/check`;
    // The second 'Check now' below comes too soon on purpose.
    expected.push({ status: 429, path: checkPath });

    await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Settings' }).click();
    const panel = page.getByRole('region', { name: 'Custom domain', exact: true });
    await panel.getByRole('textbox', { name: 'Domain name' }).fill('Blog.Example.org.');
    await panel.getByRole('button', { name: 'Save' }).click();

    // The records to create: the TXT record that proves the name is the owner's, and the CNAME.
    const table = panel.getByRole('table', { name: 'Create these records at your DNS provider' });
    await expect(table).toBeVisible();
    const txtRow = table.getByRole('row').filter({ has: page.getByRole('cell', { name: 'TXT', exact: true }) });
    await expect(txtRow.getByRole('cell').nth(1)).toHaveText(TXT_NAME);
    const token = (await txtRow.getByRole('cell').nth(2).textContent())?.trim() ?? '';
    expect(token).toMatch(/^quire-verify=[0-9a-f]{32}$/);
    const cnameRow = table.getByRole('row').filter({ has: page.getByRole('cell', { name: 'CNAME', exact: true }) });
    await expect(cnameRow.getByRole('cell').nth(1)).toHaveText(DOMAIN);
    const status = panel.getByRole('status', { name: 'Domain status' });
    await expect(status).toContainText('Waiting for DNS');

    // Checked before the record exists: still waiting. Checked again at once: the server's 429.
    const checkNow = async () => {
      const answered = page.waitForResponse((r) => new URL(r.url()).pathname === checkPath);
      await panel.getByRole('button', { name: 'Check now' }).click();
      return (await answered).status();
    };
    expect(await checkNow()).toBe(200);
    await expect(status).toContainText('Waiting for DNS');
    expect(dns.asked, 'quire asked this file’s DNS server for the TXT record').toContain(`${TXT_NAME} TXT`);
    expect(await checkNow()).toBe(429);
    const tooSoon = panel.getByRole('alert').filter({ hasText: 'Checked a moment ago: try again in' });
    await expect(tooSoon).toBeVisible();
    const seconds = Number(/try again in (\d+) seconds?/.exec((await tooSoon.textContent()) ?? '')?.[1] ?? '10');

    // The owner creates the TXT record; once the 10 s are over, 'Check now' finds it.
    dns.txt = token;
    await page.waitForTimeout(seconds * 1000 + 500);
    expect(await checkNow()).toBe(200);
    await expect(status).toContainText('Verified');
    await expect(tooSoon).toHaveCount(0);
    // The owner area fetched the blog again: 'Open blog' goes to the domain.
    const openBlog = page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Open blog' });
    await expect(openBlog).toHaveAttribute('href', new RegExp(`^${onDomain.replaceAll('.', '\\.')}/?$`));

    // A reader on the domain: the home page and the post, whose canonical links are there.
    const reader = await context.newPage();
    const readerProblems = watchForErrors(reader, [{ status: 404, path: '/' }]);
    expect((await reader.goto(`${onDomain}/`))?.status()).toBe(200);
    expect(await canonical(reader)).toEqual({ canonical: `${onDomain}/`, ogUrl: `${onDomain}/` });
    await reader.getByRole('link', { name: POST_TITLE }).first().click();
    await expect(reader.getByRole('heading', { name: POST_TITLE, level: 1 })).toBeVisible();
    expect(reader.url()).toBe(`${onDomain}${postPath}`);
    expect(await canonical(reader)).toEqual({ canonical: `${onDomain}${postPath}`, ogUrl: `${onDomain}${postPath}` });

    // The old subdomain address answers 301 and lands on the same path on the domain.
    const moved = await reader.goto(`${onSubdomain}${postPath}`);
    expect(
      await moved
        ?.request()
        .redirectedFrom()
        ?.response()
        .then((r) => r?.status()),
    ).toBe(301);
    expect(reader.url()).toBe(`${onDomain}${postPath}`);
    await expect(reader.getByRole('heading', { name: POST_TITLE, level: 1 })).toBeVisible();

    // Removing the domain (after the confirmation) puts the blog back on its subdomain.
    page.once('dialog', (dialog) => void dialog.accept());
    await panel.getByRole('button', { name: 'Remove domain' }).click();
    await expect(panel.getByRole('textbox', { name: 'Domain name' })).toBeVisible();
    await expect(openBlog).toHaveAttribute('href', new RegExp(`^${onSubdomain.replaceAll('.', '\\.')}/?$`));
    const back = await reader.goto(`${onSubdomain}${postPath}`);
    expect(back?.status()).toBe(200);
    expect(back?.request().redirectedFrom()).toBeNull();
    const onSubdomainPost = `${onSubdomain}${postPath}`;
    expect(await canonical(reader)).toEqual({ canonical: onSubdomainPost, ogUrl: onSubdomainPost });
    // The domain is not served any more.
    expect((await reader.goto(`${onDomain}/`))?.status()).toBe(404);

    expect(readerProblems).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  } finally {
    await browser.close();
  }
});
