// Issue 29's trust states as the owner sees them, against the real binary: a blog created under
// --review-new-blogs waits for review, then (its state changed in its SQLite file while the server
// is stopped, as before the Admin screen exists; states load at start) it is silenced, then
// suspended, each with its line in the owner area, and a suspended owner's change is refused.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { keepTrafficLocal, watchForErrors } from './support/browser';
import { createBlog, signInWithLocalIssuer } from './support/flows';
import { freePort, startQuire, type QuireServer } from './support/quire';

let quire: QuireServer | undefined;
let dataDir: string | undefined;

test.afterEach(async () => {
  await quire?.stop();
  quire = undefined;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

/** Puts every blog of the stopped server's database in `state`, with `reason`. */
function setState(dir: string, state: string, reason: string): void {
  const db = path.join(dir, 'data', 'quire.db');
  execFileSync('sqlite3', [db, `UPDATE blogs SET state = '${state}', state_reason = '${reason}'`]);
}

const notice = (page: Page) => page.getByTestId('blog-state');

test('the owner sees what each trust state of the blog means', async ({ page, context }) => {
  test.setTimeout(120_000);
  await keepTrafficLocal(context);
  dataDir = mkdtempSync(path.join(tmpdir(), 'quire-e2e-states-'));
  const port = await freePort();
  const start = () => startQuire({ dataDir, port, args: ['--review-new-blogs'] });
  quire = await start();
  const problems = watchForErrors(page, [{ status: 403, path: '/api/my/blogs/1' }]);

  await page.goto(`${quire.baseUrl}/signup`);
  await signInWithLocalIssuer(page, 'Signup with Local', 'nina@example.com');
  await createBlog(page, 'nina');
  await expect(notice(page)).toContainText('Your blog is waiting for review.');
  await expect(notice(page)).toContainText('not sent to the fediverse');
  await page.waitForLoadState('networkidle');

  for (const [state, reason, line] of [
    ['silenced', 'Too many links', 'Your blog has been silenced.'],
    ['suspended', 'Phishing pages', 'Your blog has been suspended.'],
  ] as const) {
    await quire.stop();
    setState(dataDir, state, reason);
    quire = await start();
    await page.goto(`${quire.baseUrl}/d`);
    await expect(notice(page)).toContainText(line);
    await expect(notice(page)).toContainText(`Reason given: ${reason}`);
    await page.waitForLoadState('networkidle');
  }
  await expect(notice(page)).toContainText('You can still export your blog and delete your account');

  // A change is refused with the reason, in the panel that tried it.
  await page.goto(`${quire.baseUrl}/d/settings`);
  const blogPanel = page.getByRole('region', { name: 'Blog', exact: true });
  await blogPanel.getByRole('textbox', { name: 'Name' }).fill('Renamed');
  await blogPanel.getByRole('button', { name: 'Save' }).first().click();
  await expect(blogPanel.getByText('This blog is suspended: Phishing pages')).toBeVisible();
  await expect(blogPanel.getByTestId('upload-use')).toHaveText('Uploads: 0 MB of 1 GB');
  await page.waitForLoadState('networkidle');
  expect(problems).toEqual([]);
});
