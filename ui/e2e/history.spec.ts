// Revisions and the trash in a real browser against the real binary (issue 32, docs/revisions.md).
// A post is edited three times in the editor; its History lists the versions, shows one against the
// current version with the words marked (<del>/<ins>), restores it after asking, and the restore is
// undone by restoring the newest revision. Then the Trash: the post is deleted, listed in the Trash
// (linked from the post list), restored (back in the list and at its public address), deleted again
// and deleted forever. Also takes the History panel's screenshots on a desktop and a phone
// (into the directory QUIRE_E2E_SHOTS names).
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { signedOutContext, watchForErrors } from './support/browser';
import { createBlog, publishPost, signInWithLocalIssuer } from './support/flows';
import { ownQuire } from './support/own-quire';
import { shotsDir } from './support/server-db';

const app = ownQuire();
const SUBDOMAIN = 'history-notes';

const block = (page: Page, n: number) => page.getByRole('group', { name: new RegExp(`^Block ${n}: `) });

/** Opens the post's editor from the list, writes `text` as its paragraph and saves. */
async function edit(page: Page, title: string, text: string): Promise<void> {
  await page.getByRole('link', { name: title }).first().click();
  await block(page, 2).getByRole('textbox', { name: 'Paragraph' }).fill(text);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page).toHaveURL(`${app().baseUrl}/d/posts`);
}

test('History shows a diff, restores an older version and undoes it; the Trash restores and purges', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const server = app();
  const problems = watchForErrors(page);
  const asked: string[] = [];
  page.on('dialog', (dialog) => {
    asked.push(dialog.message());
    void dialog.accept();
  });
  await page.goto(`${server.baseUrl}/signup`);
  await signInWithLocalIssuer(page, 'Signup with Local', 'history@example.com');
  await createBlog(page, SUBDOMAIN);
  await publishPost(page, server.baseUrl, 'Harbour', 'The quick boats leave at dawn.');
  await page.goto(`${server.baseUrl}/d/posts`);

  await test.step('three edits, then the History with the words marked', async () => {
    await edit(page, 'Harbour', 'The slow boats leave at dawn.');
    await edit(page, 'Harbour', 'The slow boats leave at noon.');
    await edit(page, 'Harbour', 'The slow red boats leave at noon, mostly.');
    await page.getByRole('link', { name: 'Harbour' }).first().click();
    await page.getByRole('button', { name: 'More' }).click();
    await page.getByRole('button', { name: 'History' }).click();
    const dialog = page.getByRole('dialog', { name: 'History' });
    const versions = dialog.getByRole('list', { name: 'Earlier versions' }).getByRole('button');
    await expect(versions).toHaveCount(3);
    await expect(versions.first()).toContainText('Saved by history');
    await versions.last().click(); // the first version
    const compared = dialog.getByRole('list', { name: 'Blocks compared' });
    await expect(compared.locator('del').first()).toHaveText(/quick/);
    await expect(compared.locator('ins')).toContainText(['slow']);
    await expect(compared.locator('del')).toContainText(['quick', 'dawn']);

    const shots = shotsDir();
    if (shots) {
      await page.setViewportSize({ width: 1280, height: 800 });
      await dialog.screenshot({ path: path.join(shots, 'history-desktop.png') });
      await page.setViewportSize({ width: 390, height: 844 });
      await dialog.screenshot({ path: path.join(shots, 'history-phone.png') });
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  await test.step('restore the first version, then undo the restore', async () => {
    const dialog = page.getByRole('dialog', { name: 'History' });
    await dialog.getByRole('button', { name: 'Restore this version' }).click();
    expect(asked.at(-1)).toMatch(/^Restore this version\?/);
    await expect(dialog).toHaveCount(0);
    await expect(block(page, 2).getByRole('textbox', { name: 'Paragraph' })).toHaveValue(
      'The quick boats leave at dawn.',
    );

    await page.getByRole('button', { name: 'More' }).click();
    await page.getByRole('button', { name: 'History' }).click();
    const versions = dialog.getByRole('list', { name: 'Earlier versions' }).getByRole('button');
    await expect(versions).toHaveCount(4);
    await expect(versions.first()).toContainText('Restored over');
    await versions.first().click();
    await dialog.getByRole('button', { name: 'Restore this version' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(block(page, 2).getByRole('textbox', { name: 'Paragraph' })).toHaveValue(
      'The slow red boats leave at noon, mostly.',
    );
  });

  await test.step('delete, find it in the Trash, restore it, delete it again and forever', async () => {
    await page.getByRole('button', { name: 'More' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(page).toHaveURL(`${server.baseUrl}/d/posts`);
    await page.getByRole('link', { name: 'Trash (1)' }).click();
    const deleted = page.getByRole('list', { name: 'Deleted posts' }).getByRole('listitem');
    await expect(deleted).toHaveCount(1);
    await expect(deleted.first()).toContainText('Harbour');
    await expect(deleted.first()).toContainText('removed for good');
    await deleted.first().getByRole('button', { name: 'Restore' }).click();
    await expect(page.getByText('"Harbour" is back among your posts.')).toBeVisible();
    await expect(page.getByText('The trash is empty.')).toBeVisible();

    await page.getByRole('link', { name: 'Back to your posts' }).click();
    await expect(page.getByRole('link', { name: 'Harbour' }).first()).toBeVisible();
    const readers = await signedOutContext(browser);
    const reader = await readers.newPage();
    const permalink = await page.getByRole('link', { name: 'Read' }).first().getAttribute('href');
    const publicPage = await reader.goto(permalink!);
    expect(publicPage?.status()).toBe(200);
    await expect(reader.getByText('The slow red boats leave at noon, mostly.')).toBeVisible();

    await page.getByRole('link', { name: 'Harbour' }).first().click();
    await page.getByRole('button', { name: 'More' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(page).toHaveURL(`${server.baseUrl}/d/posts`);
    await page.getByRole('link', { name: 'Trash (1)' }).click();
    await page.getByRole('button', { name: 'Delete forever' }).click();
    expect(asked.at(-1)).toBe('Delete this post forever? It cannot be brought back.');
    await expect(page.getByText('The trash is empty.')).toBeVisible();
    expect((await reader.goto(permalink!))?.status()).toBe(404);
    await readers.close();
  });

  expect(problems).toEqual([]);
});
