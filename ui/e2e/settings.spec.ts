// The settings screen against the real binary: every change shows in the owner shell and on the
// public blog, connecting a second provider's account, and deleting the account for good.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Locator, type Page, type Request } from '@playwright/test';
import { keepTrafficLocal, watchForErrors, type ExpectedStatus } from './support/browser';
import { createBlog, savedBy, signInWithLocalIssuer, SUBDOMAIN_REFUSED } from './support/flows';
import { ownQuire } from './support/own-quire';
import { freePort, startQuire, type QuireServer } from './support/quire';
import {
  signInAtTestId as signInAt,
  startTestIdProvider,
  TEST_ID_CLIENT_ID,
  type TestIdProvider,
} from './support/test-id-provider';

// A quire of this file's own, on a fresh data dir: subdomains retired here stay retired only here.
const app = ownQuire();

/** The emoji a favicon code stands for (the same rule as the app's). */
function emojiOf(code: string): string {
  return String.fromCodePoint(...code.split('-').map((hex) => Number.parseInt(hex, 16)));
}

const menu = (page: Page) => page.getByRole('navigation', { name: 'Menu' });
const panel = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

/** Signs up as `email` through the local issuer, creates the blog `subdomain` and opens Settings. */
async function signUpAndOpenSettings(page: Page, baseUrl: string, email: string, subdomain: string): Promise<void> {
  await page.goto(`${baseUrl}/signup`);
  await signInWithLocalIssuer(page, 'Signup with Local', email);
  await createBlog(page, subdomain);
  await menu(page).getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(`${baseUrl}/d/settings`);
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
}

/** Clicks a save button, sees the server take the change, and the button say 'Save' again once its 3-s 'Saved' is over. */
async function save(button: Locator, saved: Locator): Promise<void> {
  await savedBy(button.page(), () => button.click());
  await expect(saved).toHaveCount(0, { timeout: 10_000 });
}

/** A call to the owner API with the page's cookies and CSRF token. */
async function ownerCall(page: Page, method: string, url: string, data?: unknown) {
  const csrf = (await page.context().cookies()).find((c) => c.name === 'csrf_token')?.value ?? '';
  const response = await page.request.fetch(url, { method, data, headers: { 'CSRF-Token': csrf } });
  return { status: response.status(), body: await response.json() };
}

async function blogIdOf(page: Page): Promise<string> {
  const id = (await page.context().cookies()).find((c) => c.name === 'blog_id')?.value;
  if (!id) throw new Error('no blog_id cookie');
  return id;
}

test('name, theme, tab icon and addons change the shell and the public blog', async ({ page, context }) => {
  test.setTimeout(120_000);
  const expected: ExpectedStatus[] = [];
  const problems = watchForErrors(page, expected);
  const { baseUrl, port } = app();
  const blogUrl = `http://dana.localhost:${port}`;
  await signUpAndOpenSettings(page, baseUrl, 'dana@example.com', 'dana');
  // The blank name refused below.
  expected.push({ status: 422, path: `/api/my/blogs/${await blogIdOf(page)}` });
  const blog = panel(page, 'Blog');
  const reader = await context.newPage();
  const readerProblems = watchForErrors(reader);

  await test.step('the sign-in account is connected', async () => {
    const social = panel(page, 'Social Accounts');
    await expect(social.getByText('Local', { exact: true })).toBeVisible();
    await expect(social.getByText('Connected', { exact: true })).toBeVisible();
    await expect(social.getByText('dana@example.com')).toBeVisible();
    await expect(social.getByRole('button', { name: 'Connect' })).toHaveCount(0);
  });

  await test.step('an instance that sends no email shows no Subscribers panel', async () => {
    await expect(panel(page, 'Fediverse')).toBeVisible();
    await expect(panel(page, 'Subscribers')).toHaveCount(0);
  });

  await test.step('rename: the menu and the public blog show the new name', async () => {
    const name = blog.getByRole('textbox', { name: 'Name' });
    await expect(name).toHaveValue('dana');
    await name.fill("Dana's field notes");
    await save(blog.getByRole('button', { name: 'Save' }).first(), blog.getByRole('button', { name: 'Saved' }));
    await expect(menu(page).getByText("Dana's field notes")).toBeVisible();
    await reader.goto(`${blogUrl}/`);
    await expect(reader.getByRole('banner').getByRole('link', { name: "Dana's field notes" })).toBeVisible();

    // The server's message for a name it refuses, under the field; the menu keeps the name.
    await name.fill('   ');
    await blog.getByRole('button', { name: 'Save' }).first().click();
    await expect(blog.getByRole('alert')).toHaveText("Can't be blank");
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    await expect(menu(page).getByText("Dana's field notes")).toBeVisible();
    await name.fill("Dana's field notes");
    await expect(blog.getByRole('alert')).toHaveCount(0);
  });

  await test.step('theme: the public page turns dark', async () => {
    await expect(reader.locator('body')).not.toHaveCSS('background-color', 'rgb(13, 17, 23)');
    const theme = blog.getByRole('combobox', { name: 'Theme' });
    await expect(theme.getByRole('option')).toHaveText(['Default', 'Serif', 'Mono', 'Dark']);
    await theme.selectOption({ label: 'Dark' });
    await save(blog.getByRole('button', { name: 'Save' }).nth(2), blog.getByRole('button', { name: 'Saved' }));
    await reader.reload();
    await expect(reader.locator('body')).toHaveCSS('background-color', 'rgb(13, 17, 23)');
  });

  await test.step('custom CSS: refused naming its line as it is typed, previewed live, then the public page takes it', async () => {
    // The check of the @import below answers 422, as it should.
    expected.push({ status: 422, path: `/api/my/blogs/${await blogIdOf(page)}/css/check` });
    const form = blog.getByRole('form', { name: 'Custom CSS' });
    const css = form.getByRole('textbox', { name: 'Custom CSS' });
    await css.fill('body { color: red; }\n@import url(https://tracker.example/x.css);');
    await expect(form.getByRole('alert')).toHaveText('Line 2: `@import` is not allowed');
    await css.fill('body { background-color: rgb(1, 2, 3); }');
    await expect(form.getByRole('status')).toHaveText('No problems found.');
    // The live preview: the blog's home page with the unsaved CSS, in a frame, under its own CSP.
    const preview = form.frameLocator('iframe[title="Preview of your blog with this CSS"]');
    await expect(preview.locator('body')).toHaveCSS('background-color', 'rgb(1, 2, 3)');
    await expect(preview.getByRole('banner').getByRole('link', { name: "Dana's field notes" })).toBeVisible();
    await reader.reload();
    await expect(reader.locator('body')).not.toHaveCSS('background-color', 'rgb(1, 2, 3)');
    await save(form.getByRole('button', { name: 'Save' }), form.getByRole('button', { name: 'Saved' }));
    // The strict CSP of the blog's pages lets its own stylesheet in.
    await reader.reload();
    await expect(reader.locator('body')).toHaveCSS('background-color', 'rgb(1, 2, 3)');
    await css.fill('');
    await save(form.getByRole('button', { name: 'Save' }), form.getByRole('button', { name: 'Saved' }));
    await reader.reload();
    await expect(reader.locator('body')).toHaveCSS('background-color', 'rgb(13, 17, 23)');
  });

  await test.step('tab icon: scroll the picker to page 3, pick an icon there', async () => {
    const pages: number[] = [];
    const onRequest = (request: Request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/favicons') pages.push(Number(url.searchParams.get('page')));
    };
    page.on('request', onRequest);
    const tabIcon = blog.getByRole('group', { name: 'Tab Icon' });
    await tabIcon.getByRole('button', { name: 'Change' }).click();
    const dialog = page.getByRole('dialog', { name: 'Choose a tab icon' });
    const icons = dialog.getByRole('listitem');
    // The first page of icons comes from the server; a loaded machine (the full test command
    // runs beside builds) can take longer than the default 5 s to answer and draw it.
    await expect.poll(() => icons.count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(100);

    // Scroll the grid down with the mouse wheel until the third page is in.
    await dialog.getByRole('button').nth(20).hover();
    for (let i = 0; i < 40 && (await icons.count()) < 201; i += 1) {
      await page.mouse.wheel(0, 600);
      await page.waitForTimeout(150);
    }
    await expect.poll(() => icons.count()).toBeGreaterThanOrEqual(300);
    page.off('request', onRequest);
    expect(pages.slice(0, 3)).toEqual([1, 2, 3]);
    expect(new Set(pages).size).toBe(pages.length);

    const chosen = icons.nth(250).getByRole('button');
    const code = await chosen.getAttribute('data-code');
    if (!code) throw new Error('an icon without its code');
    const emoji = emojiOf(code);
    await expect(chosen).toHaveAccessibleName(emoji);
    await savedBy(page, () => chosen.click());
    await expect(dialog).toHaveCount(0);
    await expect(tabIcon.getByRole('img', { name: emoji })).toBeVisible();

    // The blog's tab icon is the picture the picker showed, not a glyph of the reader's fonts.
    const svg = await reader.goto(`${blogUrl}/favicon.svg`);
    expect(svg?.status()).toBe(200);
    const shown = await tabIcon.getByRole('img', { name: emoji }).getAttribute('src');
    expect(await svg?.text()).toBe(await (await page.request.get(`${baseUrl}${shown}`)).text());

    // The choice is stored: the screen shows it after a reload too.
    await page.reload();
    await expect(
      panel(page, 'Blog').getByRole('group', { name: 'Tab Icon' }).getByRole('img', { name: emoji }),
    ).toBeVisible();
  });

  await test.step("addons: 'Reading time' shows on a post while installed", async () => {
    const blogId = await blogIdOf(page);
    const created = await ownerCall(page, 'POST', `${baseUrl}/api/my/blogs/${blogId}/posts`, {
      body: {
        type: 'root',
        children: [
          { type: 'heading', value: { text: 'A walk in the hills' } },
          { type: 'paragraph', value: { text: 'Word '.repeat(600) } },
        ],
      },
      draft: false,
    });
    expect(created.status).toBe(201);
    const permalink: string = created.body.post.permalink;
    await reader.goto(permalink);
    await expect(reader.getByRole('heading', { level: 1, name: 'A walk in the hills' })).toBeVisible();
    await expect(reader.getByText(/min read/)).toHaveCount(0);

    const addons = panel(page, 'Addons');
    const installed = addons.getByRole('region', { name: 'Installed' });
    const available = addons.getByRole('region', { name: 'Available' });
    await expect(installed.getByText('No addon is installed yet.')).toBeVisible();
    await expect(available.getByText('Shows an estimate of the minutes it takes to read each post.')).toBeVisible();
    await available.getByRole('button', { name: 'Install Reading time' }).click();
    await expect(installed.getByRole('button', { name: 'Uninstall Reading time' })).toBeVisible();
    await expect(available.getByText('Reading time', { exact: true })).toHaveCount(0);
    await reader.reload();
    await expect(reader.getByText(/\d+ min read/)).toBeVisible();

    await installed.getByRole('button', { name: 'Uninstall Reading time' }).click();
    await expect(available.getByRole('button', { name: 'Install Reading time' })).toBeVisible();
    await expect(installed.getByText('No addon is installed yet.')).toBeVisible();
    await reader.reload();
    await expect(reader.getByRole('heading', { level: 1, name: 'A walk in the hills' })).toBeVisible();
    await expect(reader.getByText(/min read/)).toHaveCount(0);
  });

  expect(problems).toEqual([]);
  expect(readerProblems).toEqual([]);
});

/** The day `zone`'s clocks show now, as the public blog writes it ("15 March 2026"). */
function todayIn(zone: string): string {
  return new Date().toLocaleDateString('en-GB', { timeZone: zone, day: 'numeric', month: 'long', year: 'numeric' });
}

test.describe('in a browser east of the date line', () => {
  // UTC+14: the blog's zone comes from here. Pago Pago, UTC-11, is always on another day.
  test.use({ timezoneId: 'Pacific/Kiritimati' });

  test("the blog takes the browser's time zone, and Settings changes the public dates", async ({ page, context }) => {
    const problems = watchForErrors(page);
    const { baseUrl, port } = app();
    await signUpAndOpenSettings(page, baseUrl, 'kiri@example.com', 'kiri');
    const zone = panel(page, 'Blog').getByRole('combobox', { name: 'Time Zone' });
    await expect(zone).toHaveValue('Pacific/Kiritimati');

    const blogId = await blogIdOf(page);
    const created = await ownerCall(page, 'POST', `${baseUrl}/api/my/blogs/${blogId}/posts`, {
      body: { type: 'root', children: [{ type: 'heading', value: { text: 'Dawn on the atoll' } }] },
      draft: false,
    });
    expect(created.status).toBe(201);
    const reader = await context.newPage();
    const readerProblems = watchForErrors(reader);
    await reader.goto(`http://kiri.localhost:${port}/`);
    await expect(reader.locator('article time')).toHaveText(todayIn('Pacific/Kiritimati'));

    await zone.selectOption('Pacific/Pago_Pago');
    const form = panel(page, 'Blog')
      .locator('form')
      .filter({ has: page.getByRole('combobox', { name: 'Time Zone' }) });
    await save(form.getByRole('button', { name: 'Save' }), form.getByRole('button', { name: 'Saved' }));
    await reader.reload();
    await expect(reader.locator('article time')).toHaveText(todayIn('Pacific/Pago_Pago'));
    await reader.goto(created.body.post.permalink);
    await expect(reader.locator('main time')).toHaveText(todayIn('Pacific/Pago_Pago'));

    await page.reload();
    await expect(panel(page, 'Blog').getByRole('combobox', { name: 'Time Zone' })).toHaveValue('Pacific/Pago_Pago');
    expect(problems).toEqual([]);
    expect(readerProblems).toEqual([]);
  });
});

test('deleting the account takes the blog away and retires its subdomain', async ({ page, context }) => {
  test.setTimeout(90_000);
  const { baseUrl, port } = app();
  const problems = watchForErrors(page, [SUBDOMAIN_REFUSED]);
  await signUpAndOpenSettings(page, baseUrl, 'erin@example.com', 'erin');
  const blogId = await blogIdOf(page);
  const deletes: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'DELETE') deletes.push(new URL(request.url()).pathname);
  });

  const account = panel(page, 'Account');
  await expect(account.getByRole('button', { name: 'Delete Account' })).toBeHidden();
  await account.getByRole('button', { name: 'Danger Zone!' }).click();
  const zone = account.getByRole('region', { name: 'Danger Zone!' });
  await expect(zone).toContainText('removes all of its posts permanently');
  await expect(zone).toContainText('This cannot be undone.');
  await expect(zone).toContainText('The same subdomain cannot be used to sign up again.');
  const remove = zone.getByRole('button', { name: 'Delete Account' });
  await expect(remove).toBeDisabled();
  await zone.getByRole('checkbox', { name: "I understand what I'm going to do." }).check();
  await expect(remove).toBeEnabled();
  await remove.dblclick();

  await expect(page).toHaveURL(`${baseUrl}/`);
  await expect(page.getByRole('button', { name: 'Login with Local' })).toBeEnabled();
  expect(deletes).toEqual([`/api/my/blogs/${blogId}`]);
  expect((await context.cookies()).map((c) => c.name).sort()).not.toContain('session');

  const reader = await context.newPage();
  const gone = await reader.goto(`http://erin.localhost:${port}/`);
  expect(gone?.status()).toBe(404);
  await reader.close();

  // Signing up again, as someone new, the old subdomain is refused with the server's message.
  await page.getByRole('button', { name: 'or Signup' }).click();
  await signInWithLocalIssuer(page, 'Signup with Local', 'erin.again@example.com');
  await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Preferred subdomain' }).fill('erin');
  await page.getByRole('button', { name: 'Signup' }).click();
  await expect(page.getByRole('alert')).toHaveText('This subdomain is taken (subdomains are never reused)');
  await createBlog(page, 'erin-again');

  expect(problems).toEqual([]);
});

test.describe('a second sign-in provider', () => {
  let dataDir: string | undefined;
  let first: QuireServer | undefined;
  let second: QuireServer | undefined;
  let provider: TestIdProvider | undefined;

  test.afterEach(async () => {
    await first?.stop();
    await second?.stop();
    await provider?.stop();
    if (dataDir && !process.env.QUIRE_E2E_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true });
  });

  /** Clicks `button`, then signs in at this test's TestID as `login`. */
  const signInAtTestId = (page: Page, button: Locator, login: string) =>
    signInAt(page, button, login, provider?.issuer ?? '');

  test("'Connect' links the new provider's account, which then signs the owner in", async ({
    page,
    context,
    browser,
  }) => {
    test.setTimeout(150_000);
    const problems = watchForErrors(page, [{ status: 422, path: '/api/my/social_accounts' }]);
    dataDir = mkdtempSync(path.join(tmpdir(), 'quire-e2e-settings-'));

    // Frank signs up on a quire with the local issuer...
    first = await startQuire({ dataDir });
    await signUpAndOpenSettings(page, first.baseUrl, 'frank@example.com', 'frank');
    await expect(panel(page, 'Social Accounts').getByText('Connected', { exact: true })).toBeVisible();
    // Every panel has loaded (the Fediverse panel's follower page comes after its settings), so
    // stopping the server refuses no request of this page.
    await page.waitForLoadState('networkidle');
    await first.stop();
    first = undefined;

    // ...which its admin then moves to TestID, on the same data dir.
    const port = await freePort();
    provider = await startTestIdProvider(`http://localhost:${port}/auth/callback`);
    second = await startQuire({
      dataDir,
      port,
      args: ['--oidc-issuer', provider.issuer, '--oidc-client-id', TEST_ID_CLIENT_ID, '--oidc-name', 'TestID'],
    });

    // Bob signs up there first, with his TestID account.
    const bobContext = await browser.newContext();
    await keepTrafficLocal(bobContext);
    const bob = await bobContext.newPage();
    await bob.goto(`${second.baseUrl}/signup`);
    await signInAtTestId(bob, bob.getByRole('button', { name: 'Signup with TestID' }), 'bob');
    await expect(bob.getByRole('heading', { name: 'Welcome' })).toBeVisible();
    await bobContext.close();

    // Frank's session outlived the restart (cookies are per host, not per port).
    await page.goto(`${second.baseUrl}/d/settings`);
    const social = panel(page, 'Social Accounts');
    await expect(social.getByText('TestID', { exact: true })).toBeVisible();
    await expect(social.getByText('Connected', { exact: true })).toHaveCount(0);
    const connect = social.getByRole('button', { name: 'Connect' });

    // Bob's account is taken: the server's message, and 'Connect' stays.
    await signInAtTestId(page, connect, 'bob');
    await expect(social.getByRole('alert')).toHaveText('This account is already connected to another Quire user');
    await expect(connect).toBeEnabled();

    // Frank's own TestID account (signed out at TestID first, so its login form shows again).
    await context.clearCookies({ domain: '127.0.0.1' });
    await signInAtTestId(page, connect, 'frank');
    await expect(social.getByText('Connected', { exact: true })).toBeVisible();
    await expect(social.getByText('frank@testid.example')).toBeVisible();
    await expect(social.getByRole('alert')).toHaveCount(0);

    // The connected account now signs Frank in to his blog.
    await menu(page).getByRole('link', { name: 'Signout' }).click();
    await expect(page).toHaveURL(`${second.baseUrl}/`);
    await context.clearCookies({ domain: '127.0.0.1' });
    await signInAtTestId(page, page.getByRole('button', { name: 'Login with TestID' }), 'frank');
    await expect(page).toHaveURL(`${second.baseUrl}/d/posts`);
    await expect(menu(page).getByRole('link', { name: 'Open blog' })).toHaveAttribute(
      'href',
      `http://frank.localhost:${port}`,
    );

    expect(problems).toEqual([]);
  });
});
