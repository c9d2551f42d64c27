// The owner's side of email subscriptions end to end (issue 30), on a quire that sends through a
// real SMTP server on loopback: Settings → Subscribers imports a Ghost members export (refused
// without the owner's word that these readers consented, then taken with the unsubscribed row and
// the bad address left out), shows the counts, searches the list, removes a subscriber, downloads
// the CSV export (a cell a spreadsheet would run defused), sees in the post list the new post
// emailed to the rest, and 'Send new posts by email' switched off takes the subscribe form off
// the blog's home page.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { watchForErrors, type ExpectedStatus } from './support/browser';
import { createBlog, publishPost, signInWithLocalIssuer } from './support/flows';
import { ownQuire } from './support/own-quire';
import { startQuire } from './support/quire';
import { mailFlags, smtpSink } from './support/smtp-sink';

const sink = smtpSink();
const app = ownQuire(() => startQuire({ args: mailFlags(sink(), '--mail-grace', '4s') }));

/** Ghost's members export: three who get the newsletter (one starting with `=`), one who does not, one bad address. */
const GHOST_EXPORT = [
  'id,email,name,note,subscribed_to_emails,complimentary_plan,stripe_customer_id,created_at,deleted_at,labels,tiers',
  '1,ann@example.org,Ann,,true,,,2024-03-01T10:00:00.000Z,,,',
  '2,bo@example.org,Bo,,false,,,2024-03-02T10:00:00.000Z,,,',
  '3,not-an-address,Cy,,true,,,2024-03-03T10:00:00.000Z,,,',
  '4,=cmd@example.org,Dee,,true,,,2024-03-04T10:00:00.000Z,,,',
  '5,eve@example.net,Eve,,true,,,2024-03-05T10:00:00.000Z,,,',
  '',
].join('\n');

const panel = (page: Page) => page.getByRole('region', { name: 'Subscribers', exact: true });

test('the owner imports a Ghost export with consent, searches, removes, exports and turns email off', async ({
  page,
  context,
}) => {
  test.setTimeout(90_000);
  const { baseUrl, port } = app();
  const blogUrl = `http://subs.localhost:${port}`;
  const expected: ExpectedStatus[] = [];
  const problems = watchForErrors(page, expected);
  await page.goto(`${baseUrl}/signup`);
  await signInWithLocalIssuer(page, 'Signup with Local', 'owner@example.com');
  await createBlog(page, 'subs');
  const blogId = (await context.cookies()).find((c) => c.name === 'blog_id')?.value;
  // The import without the owner's word, refused below.
  expected.push({ status: 422, path: `/api/my/blogs/${blogId}/subscribers/import` });

  await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Settings' }).click();
  const subscribers = panel(page);
  await expect(subscribers.getByText('No subscribers yet.')).toBeVisible();
  const reader = await context.newPage();
  await reader.goto(`${blogUrl}/`);
  await expect(reader.locator('form.email-subscribe')).toHaveCount(1);

  await test.step('the import needs the consent box, then adds the readers who get mail there', async () => {
    await subscribers
      .getByLabel('CSV file')
      .setInputFiles({ name: 'members.csv', mimeType: 'text/csv', buffer: Buffer.from(GHOST_EXPORT) });
    await expect(subscribers.getByLabel('CSV file')).toHaveAccessibleDescription(
      'You may import 5,000 more subscribers today.',
    );
    await subscribers.getByRole('button', { name: 'Import' }).click();
    const consent = subscribers.getByRole('checkbox', { name: /These readers agreed to receive my posts by email/ });
    await expect(consent).toHaveAccessibleDescription(/agreed to receive your posts by email/);
    await expect(subscribers.getByText('No subscribers yet.')).toBeVisible();

    await consent.check();
    await subscribers.getByRole('button', { name: 'Import' }).click();
    const outcome = subscribers.getByRole('status');
    await expect(outcome).toContainText('Added 3 · 1 unsubscribed there left out · 1 row not taken');
    await expect(outcome.getByRole('list', { name: 'Rows not taken' })).toHaveText(
      'Line 4: This is not an email address.',
    );
    await expect(subscribers.getByText('3 confirmed', { exact: true })).toBeVisible();
    const table = subscribers.getByRole('table', { name: 'Subscribers' });
    await expect(table.getByRole('row')).toHaveCount(4);
    await expect(table.getByRole('row', { name: /ann@example\.org/ }).getByText('Confirmed')).toBeVisible();
    await expect(table.getByText('bo@example.org')).toHaveCount(0);
  });

  await test.step('the list is searched by address and filtered by state', async () => {
    const table = subscribers.getByRole('table', { name: 'Subscribers' });
    await subscribers.getByRole('searchbox', { name: 'Address contains' }).fill('example.org');
    await subscribers.getByRole('button', { name: 'Search' }).click();
    await expect(table.getByText('eve@example.net')).toHaveCount(0);
    await expect(table.getByRole('row')).toHaveCount(3);
    await subscribers.getByRole('combobox', { name: 'Show' }).selectOption({ label: 'Bounced' });
    await expect(subscribers.getByText('No subscriber matches.')).toBeVisible();
    await subscribers.getByRole('combobox', { name: 'Show' }).selectOption({ label: 'Confirmed' });
    await expect(table.getByRole('row')).toHaveCount(3);
  });

  await test.step('a subscriber is removed once confirmed', async () => {
    page.once('dialog', (dialog) => void dialog.accept());
    await subscribers.getByRole('button', { name: 'Remove ann@example.org' }).click();
    await expect(subscribers.getByText('2 confirmed', { exact: true })).toBeVisible();
    await expect(subscribers.getByText('ann@example.org')).toHaveCount(0);
  });

  await test.step('the export downloads the rest, a formula-like cell defused', async () => {
    const downloading = page.waitForEvent('download');
    await subscribers.getByRole('link', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('subs-subscribers.csv');
    const csv = readFileSync((await download.path())!, 'utf8');
    const lines = csv.trim().split(/\r?\n/);
    expect(lines[0]).toBe('email,state,source,subscribed_at,confirmed_at,last_sent_at');
    expect(lines.slice(1).map((line) => line.split(',').slice(0, 3).join(','))).toEqual([
      "'=cmd@example.org,confirmed,import",
      'eve@example.net,confirmed,import',
    ]);
  });

  await test.step('the post list says how many the new post was emailed to', async () => {
    await publishPost(page, baseUrl, 'For the imported', 'Hello by email.');
    await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Posts' }).click();
    const card = page.getByRole('article').filter({ hasText: 'For the imported' });
    await expect(card.getByText(/^Email goes out at \d{1,2}:\d{2}/)).toBeVisible();
    // After the grace period (4 s here) the server queues the two messages and the SMTP sink takes them.
    await expect(async () => {
      await page.reload();
      await expect(card.getByText('Emailed to 2', { exact: true })).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 30_000, intervals: [500] });
    await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Settings' }).click();
  });

  await test.step("'Send new posts by email' off takes the subscribe form off the blog", async () => {
    const send = subscribers.getByRole('checkbox', { name: 'Send new posts by email' });
    await expect(send).toBeChecked();
    // Saved as soon as it is switched: the box follows the server's answer.
    await send.click();
    await expect(send).not.toBeChecked();
    await expect(send).toBeEnabled();
    expect((await reader.reload())?.status()).toBe(200);
    await expect(reader.locator('form.email-subscribe')).toHaveCount(0);
    await page.reload();
    await expect(panel(page).getByRole('checkbox', { name: 'Send new posts by email' })).not.toBeChecked();
  });

  expect(problems).toEqual([]);
});
