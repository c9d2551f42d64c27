// The Admin screen against the real binary (issue 29): a reader with JavaScript disabled reports a
// blog from its footer's Report link; an admin approves, silences and suspends blogs waiting for
// review and resolves the report; a user who is not an admin has no Admin entry and is told
// /d/admin is not theirs. Also takes the screen's screenshots on a desktop and a phone (into the
// directory QUIRE_E2E_SHOTS names).
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { watchForErrors } from './support/browser';
import { createBlog, signInWithLocalIssuer } from './support/flows';
import { ownQuire } from './support/own-quire';
import { startQuire } from './support/quire';
import { shotsDir } from './support/server-db';

const ADMIN = 'admin@example.com';
const app = ownQuire(() => startQuire({ args: ['--signups', 'approval', '--admin', ADMIN] }));

const menu = (page: Page) => page.getByRole('navigation', { name: 'Menu' });
const queue = (page: Page) => page.getByRole('list', { name: 'Blogs waiting for review' });
const card = (page: Page, subdomain: string) => queue(page).getByRole('article', { name: subdomain, exact: true });

/** A call to the owner API with the page's cookies and CSRF token. */
async function call(page: Page, method: string, url: string, data?: unknown): Promise<number> {
  const csrf = (await page.context().cookies()).find((c) => c.name === 'csrf_token')?.value ?? '';
  const response = await page.request.fetch(url, { method, data, headers: { 'CSRF-Token': csrf } });
  return response.status();
}

/** Signs `email` up in a browser of its own with the blog `subdomain` and publishes `links` links. */
async function blogger(browser: Browser, email: string, subdomain: string, links: string[]): Promise<void> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const { baseUrl } = app();
  await page.goto(`${baseUrl}/signup`);
  await signInWithLocalIssuer(page, 'Signup with Local', email);
  await createBlog(page, subdomain);
  const blogId = (await context.cookies()).find((c) => c.name === 'blog_id')?.value;
  const children = [
    { type: 'heading', value: { text: `${subdomain} writes` } },
    ...links.map((url) => ({ type: 'link', value: { url, title: 'Offer' } })),
    { type: 'paragraph', value: { text: 'A few words of text about the week.' } },
  ];
  const status = await call(page, 'POST', `${baseUrl}/api/my/blogs/${blogId}/posts`, {
    body: { type: 'root', children },
    draft: false,
  });
  expect(status).toBe(201);
  await context.close();
}

/**
 * A reader in a browser with JavaScript disabled reports the blog `subdomain` from the Report link
 * of its footer: sent too soon, the form comes back with what was typed; sent again, it thanks them.
 */
async function reportWithoutJavaScript(browser: Browser, subdomain: string, details: string): Promise<void> {
  const { baseUrl, port } = app();
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`http://${subdomain}.localhost:${port}/`);
  await page.getByRole('contentinfo').getByRole('link', { name: 'Report' }).click();
  await expect(page).toHaveURL(`${baseUrl}/report?blog=${subdomain}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Report the blog ${subdomain}`);
  await page.getByLabel('Reason').selectOption({ label: 'Phishing or malware' });
  await page.getByLabel(/Details/).fill(details);
  await page.getByRole('button', { name: 'Send report' }).click();
  await expect(page.getByRole('alert')).toHaveText('That was quick. Check your report, then send it again.');
  await expect(page.getByLabel(/Details/)).toHaveValue(details);
  // A person takes a few seconds to fill the form in; the form's token says when it was shown.
  await page.waitForTimeout(3_100);
  await page.getByRole('button', { name: 'Send report' }).click();
  await expect(page).toHaveURL(`${baseUrl}/report/sent`);
  await expect(page.getByText('Thank you. The people who run this instance will read your report.')).toBeVisible();
  await context.close();
}

test('an admin approves, silences and suspends blogs from the Admin screen', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const { baseUrl } = app();
  const spam = Array.from({ length: 12 }, (_, i) => `https://casino-${i % 3}.example/offer/${i}`);
  await blogger(browser, 'ann@example.com', 'ann-bakes', ['https://bread.example/guide']);
  await blogger(browser, 'sam@example.com', 'sam-deals', spam);
  await blogger(browser, 'pat@example.com', 'pat-pills', spam.slice(0, 6));
  const details = '<script>alert(1)</script> The "offers" ask for bank logins.';
  await reportWithoutJavaScript(browser, 'sam-deals', details);

  const problems = watchForErrors(page, [{ status: 422, path: '/api/admin/blogs/sam-deals/suspend' }]);
  await page.goto(`${baseUrl}/signup`);
  await signInWithLocalIssuer(page, 'Signup with Local', ADMIN);
  await createBlog(page, 'the-admin');
  await menu(page).getByRole('link', { name: 'Admin' }).click();
  await expect(page).toHaveURL(`${baseUrl}/d/admin`);
  await expect(page.getByRole('heading', { level: 1, name: 'Admin' })).toBeVisible();

  // Newest first; the spam blog shows where its links go and why it scores high.
  await expect(queue(page).getByRole('article')).toHaveCount(4);
  const sam = card(page, 'sam-deals');
  await expect(sam).toContainText('sam@example.com');
  await expect(sam).toContainText('casino-0.example ×4, casino-1.example ×4, casino-2.example ×4');
  await expect(sam).toContainText('12 links to 3 hosts in 1 post; 1 of 1 post mostly links');
  await page.getByLabel('Order').selectOption('risk');
  await expect(queue(page).getByRole('article').first()).toHaveAccessibleName('sam-deals');

  // The reader's report waits with the blog's state; the script in it is text.
  const report = page.getByRole('list', { name: 'Open reports' }).getByRole('article');
  await expect(report).toHaveCount(1);
  await expect(report).toContainText('Phishing or malware');
  await expect(report).toContainText('the blog sam-deals');
  await expect(report.getByText(details)).toBeVisible();

  if (shotsDir()) {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: path.join(shotsDir()!, 'admin-desktop.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByRole('heading', { level: 1, name: 'Admin' })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, 'nothing wider than a phone').toBeLessThanOrEqual(0);
    await page.screenshot({ path: path.join(shotsDir()!, 'admin-phone.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  // Approve: out of the queue.
  await card(page, 'ann-bakes').getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('status')).toHaveText('Approved ann-bakes: it is approved now.');
  await expect(card(page, 'ann-bakes')).toHaveCount(0);

  // Silence, with a reason.
  await card(page, 'pat-pills')
    .getByLabel(/Reason/)
    .fill('Only links to pharmacies');
  await card(page, 'pat-pills').getByRole('button', { name: 'Silence' }).click();
  await expect(page.getByRole('status')).toHaveText('Silenced pat-pills: it is silenced now.');
  await expect(card(page, 'pat-pills')).toHaveCount(0);

  // Suspend: refused without a reason, done with one.
  await card(page, 'sam-deals').getByRole('button', { name: 'Suspend' }).click();
  await expect(card(page, 'sam-deals').getByRole('alert')).toHaveText(
    'Say why the blog is suspended: its owner is shown the reason',
  );
  await card(page, 'sam-deals')
    .getByLabel(/Reason/)
    .fill('Casino spam');
  await card(page, 'sam-deals').getByRole('button', { name: 'Suspend' }).click();
  await expect(page.getByRole('status')).toHaveText('Suspended sam-deals: it is suspended now.');

  // The search finds the suspended blog, which now only takes Unsuspend.
  await page.getByLabel('Subdomain, name or owner email').fill('sam');
  await page.getByRole('button', { name: 'Search' }).click();
  const found = page.getByRole('list', { name: 'Blogs found' }).getByRole('article', { name: 'sam-deals' });
  await expect(found).toContainText('suspended');
  await expect(found).toContainText('Casino spam');
  await expect(found.getByRole('button', { name: 'Unsuspend' })).toBeVisible();
  await expect(found.getByRole('button', { name: 'Approve' })).toHaveCount(0);

  // The report now shows the blog suspended; resolving it empties the open list.
  await expect(report.getByText('suspended', { exact: true })).toBeVisible();
  await report.getByRole('button', { name: 'Resolve' }).click();
  await expect(page.getByRole('status')).toHaveText(/^Resolved report #\d+ on sam-deals\.$/);
  await expect(page.getByText('No report is waiting.')).toBeVisible();

  const record = page.getByRole('list', { name: 'Admin actions, newest first' });
  await expect(record.getByRole('listitem')).toHaveCount(4);
  await expect(record.getByRole('listitem').first()).toContainText(
    `${ADMIN} resolved a report on sam-deals — Report #`,
  );
  await expect(record.getByRole('listitem').nth(1)).toContainText(`${ADMIN} suspended sam-deals — Casino spam`);
  await expect(record.getByRole('listitem').nth(2)).toContainText(
    `${ADMIN} silenced pat-pills — Only links to pharmacies`,
  );
  await expect(record.getByRole('listitem').nth(3)).toContainText(`${ADMIN} approved ann-bakes`);
  expect(problems).toEqual([]);
});

test('a user who is not an admin has no Admin entry and is told /d/admin is not theirs', async ({ page }) => {
  const { baseUrl } = app();
  const problems = watchForErrors(page, [{ status: 403, path: '/api/admin/queue' }]);
  await page.goto(`${baseUrl}/signup`);
  await signInWithLocalIssuer(page, 'Signup with Local', 'nobody@example.com');
  await createBlog(page, 'just-a-blog');
  await expect(menu(page).getByRole('link', { name: 'Settings' })).toBeVisible();
  await expect(menu(page).getByRole('link', { name: 'Admin' })).toHaveCount(0);
  await page.goto(`${baseUrl}/d/admin`);
  await expect(page.getByRole('alert')).toContainText("This screen is for the instance's admins");
  await expect(page.getByRole('list', { name: 'Blogs waiting for review' })).toHaveCount(0);
  expect(await call(page, 'GET', `${baseUrl}/api/admin/queue`)).toBe(403);
  expect(await call(page, 'POST', `${baseUrl}/api/admin/blogs/just-a-blog/approve`, { reason: '' })).toBe(403);
  expect(problems).toEqual([]);
});
