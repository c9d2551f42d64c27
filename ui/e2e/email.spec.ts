// Email subscriptions end to end (issue 30), with a real SMTP server on loopback
// (tests/support/smtp_sink.py, aiosmtpd) and the real binary: a reader with JavaScript disabled
// subscribes from the form at the foot of a blog's page, reads the confirmation from the SMTP
// server's mailbox, confirms with the page's button, gets the next post (parsed with a real MIME
// parser: headers, both parts, a hostile title escaped), unsubscribes with `curl -X POST` on the
// List-Unsubscribe address, and gets nothing of the post after.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type Browser } from '@playwright/test';
import { simpleParser, type ParsedMail } from 'mailparser';
import { watchForErrors } from './support/browser';
import { createBlog, publishPost, signInWithLocalIssuer } from './support/flows';
import { ownQuire } from './support/own-quire';
import { startQuire } from './support/quire';
import { mailFlags, smtpSink } from './support/smtp-sink';

const sink = smtpSink();
const app = ownQuire(() => startQuire({ args: mailFlags(sink(), '--mail-grace', '1s') }));

/** Every message the SMTP server took, parsed, with its envelope recipients. */
async function messages(): Promise<{ to: string[]; mail: ParsedMail }[]> {
  const { mailbox } = sink();
  const names = readdirSync(mailbox)
    .filter((name) => name.endsWith('.eml'))
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const raw = readFileSync(path.join(mailbox, name));
      const to = [...raw.toString('latin1').matchAll(/^X-Sink-To: (.+)\r\n/gm)].map((m) => m[1]!);
      return { to, mail: await simpleParser(raw) };
    }),
  );
}

/** The messages to `address` whose subject is `subject`, once there are `count` (30 s at most). */
async function mailTo(address: string, subject: string, count = 1): Promise<ParsedMail[]> {
  let found: ParsedMail[] = [];
  await expect
    .poll(
      async () => {
        found = (await messages())
          .filter((m) => m.to.includes(address) && m.mail.subject === subject)
          .map((m) => m.mail);
        return found.length;
      },
      { timeout: 30_000, intervals: [250] },
    )
    .toBe(count);
  return found;
}

/** A reader in a browser with JavaScript disabled subscribes `address` from the blog's home page. */
async function subscribe(browser: Browser, blogUrl: string, address: string): Promise<void> {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${blogUrl}/`);
  const form = page.locator('form.email-subscribe');
  await form.getByLabel('Get new posts by email').fill(address);
  // A person takes a few seconds; the form's token says when the page was rendered.
  await page.waitForTimeout(3_100);
  await form.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Check your inbox');
  await context.close();
}

/** Opens the confirmation link of `mail` with JavaScript disabled and presses its button. */
async function confirm(browser: Browser, mail: ParsedMail, blogUrl: string): Promise<void> {
  const link = (mail.text ?? '').split('\n').find((line) => line.startsWith(`${blogUrl}/subscribe/confirm/`));
  expect(link, mail.text).toBeTruthy();
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(link!.trim());
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Confirm your subscription');
  await page.getByRole('button', { name: 'Confirm my subscription' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are subscribed');
  await context.close();
}

test('a reader subscribes without JavaScript, confirms, gets a post, unsubscribes in one click and gets no more', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const { baseUrl, port } = app();
  const blogUrl = `http://mail-test.localhost:${port}`;
  const problems = watchForErrors(page);
  await page.goto(`${baseUrl}/signup`);
  await signInWithLocalIssuer(page, 'Signup with Local', 'owner@example.com');
  await createBlog(page, 'mail-test');

  await subscribe(browser, blogUrl, 'Reader@Example.org');
  await subscribe(browser, blogUrl, 'stays@example.org');
  const [confirmation] = await mailTo('reader@example.org', 'Confirm your subscription to mail-test');
  expect(confirmation!.from?.value[0]?.name).toBe('mail-test');
  expect(confirmation!.headerLines.some((h) => h.key === 'list-unsubscribe')).toBe(false);
  await confirm(browser, confirmation!, blogUrl);
  await confirm(browser, (await mailTo('stays@example.org', 'Confirm your subscription to mail-test'))[0]!, blogUrl);

  // The post's email: the blog's name as the sender's, both parts, RFC 8058 headers, the title
  // escaped in the HTML.
  const title = 'Tea & <script>alert(1)</script>';
  await publishPost(page, app().baseUrl, title, 'A *first* post.');
  const [post] = await mailTo('reader@example.org', title);
  expect(post!.from?.value[0]).toMatchObject({ name: 'mail-test', address: 'noreply@localhost' });
  const rawHeader = (name: string) => post!.headerLines.find((h) => h.key === name)?.line ?? '';
  const listUnsubscribe = rawHeader('list-unsubscribe');
  const unsubscribe = /<(http[^>]+)>/.exec(listUnsubscribe)?.[1] ?? '';
  expect(unsubscribe.startsWith(`${blogUrl}/unsubscribe/`), listUnsubscribe).toBe(true);
  expect(rawHeader('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
  expect(post!.text).toContain('A *first* post.');
  expect(post!.text).toContain(unsubscribe);
  expect(post!.html).toContain('<em>first</em>');
  expect(post!.html).toContain('Tea &amp; &lt;script&gt;alert(1)&lt;/script&gt;');
  expect(post!.html).not.toContain('<script>');

  // One click, as a mail client does it: a POST with no cookie and no token.
  const { stdout } = await promisify(execFile)('curl', [
    '-sS',
    '-X',
    'POST',
    '--resolve',
    `mail-test.localhost:${port}:127.0.0.1`,
    '-d',
    'List-Unsubscribe=One-Click',
    '-w',
    '\n%{http_code}',
    unsubscribe,
  ]);
  expect(stdout.trim().endsWith('200'), stdout).toBe(true);
  expect(stdout).toContain('You are unsubscribed');

  // The next post reaches the reader who stayed, and not the one who left.
  await publishPost(page, app().baseUrl, 'Second post', 'More words.');
  await mailTo('stays@example.org', 'Second post');
  const toLeaver = (await messages()).filter((m) => m.to.includes('reader@example.org'));
  expect(toLeaver.map((m) => m.mail.subject)).toEqual(['Confirm your subscription to mail-test', title]);
  expect(problems).toEqual([]);
});
