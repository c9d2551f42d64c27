// Who may sign up (`quire serve --signups`) and the operator's pages (`--terms`, `--privacy`,
// `--contact-email`), each mode on a quire of its own: docs/public-instance.md.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { keepTrafficLocal, watchForErrors } from './support/browser';
import { createBlog, signInWithLocalIssuer } from './support/flows';
import { quireBin, startQuire, type QuireServer } from './support/quire';

let dataDir = '';
let server: QuireServer | undefined;

test.beforeEach(async ({ context }) => {
  await keepTrafficLocal(context);
  dataDir = mkdtempSync(path.join(tmpdir(), 'quire-e2e-signups-'));
});

test.afterEach(async () => {
  await server?.stop();
  server = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

/** Starts this test's quire with `args` on its own data dir. */
async function start(args: string[]): Promise<QuireServer> {
  server = await startQuire({ args, dataDir });
  return server;
}

/** Signs up through the landing page's notice as `email`. */
async function signUp(page: Page, email: string) {
  await page.getByRole('button', { name: 'or Signup' }).click();
  await signInWithLocalIssuer(page, 'Signup with Local', email);
}

test('open: no mode line, and the blog is made', async ({ page }) => {
  const quire = await start([]);
  const problems = watchForErrors(page);
  await page.goto(`${quire.baseUrl}/`);
  await expect(page.getByRole('button', { name: 'Login with Local' })).toBeVisible();
  await expect(page.getByText(/^Signups are|reviewed before/)).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Terms' })).toHaveCount(0);
  await signUp(page, 'olive@example.com');
  await createBlog(page, 'olive');
  expect(problems).toEqual([]);
});

test("open: a new person pressing 'Login with' gets an account and the Welcome screen, as Signup would", async ({
  page,
}) => {
  const quire = await start([]);
  const problems = watchForErrors(page);
  await page.goto(`${quire.baseUrl}/`);
  await signInWithLocalIssuer(page, 'Login with Local', 'newcomer@example.com');
  await createBlog(page, 'newcomer');
  expect(problems).toEqual([]);
});

test('approval: the landing page and the notice say blogs are reviewed, and the blog is made', async ({ page }) => {
  const quire = await start(['--signups', 'approval']);
  const problems = watchForErrors(page);
  await page.goto(`${quire.baseUrl}/`);
  const line = 'New blogs are reviewed before they are listed.';
  await expect(page.getByRole('main').getByText(line)).toBeVisible();
  await page.getByRole('button', { name: 'or Signup' }).click();
  await expect(page.getByRole('dialog', { name: 'Signup' }).getByText(line)).toBeVisible();
  await signInWithLocalIssuer(page, 'Signup with Local', 'april@example.com');
  await createBlog(page, 'april');
  expect(problems).toEqual([]);
});

test('invite: a link made by `quire invites create` fills in the code and the blog is made', async ({ page }) => {
  const quire = await start(['--signups', 'invite']);
  const problems = watchForErrors(page);
  const out = execFileSync(
    quireBin(),
    ['invites', 'create', '--data-dir', path.join(dataDir, 'data'), '--host', `localhost:${quire.port}`],
    { encoding: 'utf8' },
  );
  const link = /^Link: (\S+)$/m.exec(out)?.[1] ?? '';
  const code = /^Invite code: (\S+)$/m.exec(out)?.[1] ?? '';
  expect(link).toBe(`${quire.baseUrl}/?invite=${code}`);

  await page.goto(link);
  await expect(page.getByText('Signups are by invitation.').first()).toBeVisible();
  await expect(page).toHaveURL(`${quire.baseUrl}/`);
  await signUp(page, 'ivy@example.com');
  await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Invite code' })).toHaveValue(code);
  await createBlog(page, 'ivy');

  const list = execFileSync(quireBin(), ['invites', 'list', '--data-dir', path.join(dataDir, 'data')], {
    encoding: 'utf8',
  });
  expect(list).toContain('1/1 used');
  expect(problems).toEqual([]);
});

test('invite: a guessed code is refused on the Welcome screen', async ({ page }) => {
  const quire = await start(['--signups', 'invite']);
  const problems = watchForErrors(page, [{ status: 403, path: '/api/my/blogs' }]);
  await page.goto(`${quire.baseUrl}/`);
  await signUp(page, 'guess@example.com');
  await page.getByRole('textbox', { name: 'Preferred subdomain' }).fill('guess');
  await page.getByRole('textbox', { name: 'Invite code' }).fill('0123456789abcdef0123456789abcdef');
  await page.getByRole('button', { name: 'Signup' }).click();
  await expect(page.getByText(/This invite code cannot be used/)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();
  expect(problems).toEqual([]);
});

test('closed: no Signup is offered, Login stays, a stranger is told why, and a signed-in user without a blog is refused one', async ({
  page,
}) => {
  // Someone signed up while signups were open, without making a blog; then the operator closed them.
  let quire = await start([]);
  await page.goto(`${quire.baseUrl}/`);
  await signUp(page, 'carl@example.com');
  await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();
  const port = quire.port;
  await quire.stop();
  server = undefined;
  quire = server = await startQuire({ args: ['--signups', 'closed'], dataDir, port });
  const problems = watchForErrors(page, [
    { status: 403, path: '/api/my/blogs' },
    { status: 403, path: '/api/sessions' },
  ]);

  await page.goto(`${quire.baseUrl}/d`);
  await page.getByRole('textbox', { name: 'Preferred subdomain' }).fill('carl');
  await page.getByRole('button', { name: 'Signup' }).click();
  await expect(page.getByText('Signups are closed on this instance.')).toBeVisible();
  const status = await page.evaluate(async () => {
    const csrf = /(?:^|; )csrf_token=([^;]+)/.exec(document.cookie)?.[1] ?? '';
    const response = await fetch('/api/my/blogs', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'CSRF-Token': csrf },
      body: JSON.stringify({ subdomain: 'carl', invite: '0123456789abcdef0123456789abcdef' }),
    });
    return response.status;
  });
  expect(status).toBe(403);

  await page.context().clearCookies();
  await page.goto(`${quire.baseUrl}/signup`);
  await expect(page.getByText('Signups are closed.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Login with Local' })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'or Signup' })).toHaveCount(0);
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // A stranger pressing Login is told in words, on the page, that no account is made.
  await signInWithLocalIssuer(page, 'Login with Local', 'stranger@example.com');
  await expect(page.getByRole('alert')).toHaveText('Signups are closed on this instance.');
  await expect(page).toHaveURL(`${quire.baseUrl}/signup`);
  expect(problems.filter((p) => !p.includes('sign-in failed'))).toEqual([]);
});

test('/terms and /privacy render the Markdown with its HTML escaped, linked from the landing page', async ({
  page,
}) => {
  const terms = path.join(dataDir, 'terms.md');
  const privacy = path.join(dataDir, 'privacy.md');
  writeFileSync(terms, '# Our terms\n\nBe **kind**. <img src=x onerror="document.title=\'pwned\'">\n');
  writeFileSync(privacy, 'We keep *little*. <script>document.title = "pwned"</script>\n');
  const quire = await start(['--terms', terms, '--privacy', privacy, '--contact-email', 'ops@example.com']);
  await page.goto(`${quire.baseUrl}/`);
  await expect(page.getByRole('link', { name: 'ops@example.com' })).toHaveAttribute('href', 'mailto:ops@example.com');
  await page.getByRole('main').getByRole('link', { name: 'Terms' }).click();
  await expect(page).toHaveURL(`${quire.baseUrl}/terms`);
  await expect(page.locator('strong', { hasText: 'kind' })).toBeVisible();
  await expect(page.getByText('<img src=x onerror=', { exact: false })).toBeVisible();
  await expect(page.locator('img')).toHaveCount(0);
  await expect(page).toHaveTitle('Terms');

  await page.goto(`${quire.baseUrl}/`);
  await page.getByRole('button', { name: 'or Signup' }).click();
  await page.getByRole('dialog', { name: 'Signup' }).getByRole('link', { name: 'Privacy' }).click();
  await expect(page).toHaveURL(`${quire.baseUrl}/privacy`);
  await expect(page.locator('em', { hasText: 'little' })).toBeVisible();
  await expect(page.getByText('<script>document.title = "pwned"</script>', { exact: false })).toBeVisible();
  await expect(page).toHaveTitle('Privacy');
});
