// Edit conflicts and local drafts (issue 32, docs/edit-conflicts.md) in a real browser against
// the real server. The same blogger signed in twice (a laptop and a phone, two browser contexts)
// opens one post: the laptop saves, the phone's save gets the conflict screen with both texts,
// the blogger keeps both paragraphs and saves, and the post then holds both. Then a local draft
// of an existing post survives a closed page and is restored. With QUIRE_E2E_SHOTS=DIR, the
// conflict screen is photographed at 1280 and 390 px wide.
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { keepTrafficLocal, watchForErrors } from './support/browser';
import { createBlog, signInWithLocalIssuer } from './support/flows';

const EMAIL = 'twotabs@example.com';

/** A call to the owner API with the page's cookies and CSRF token; answers the status and body. */
async function call(page: Page, method: string, url: string, data?: unknown): Promise<[number, any]> {
  const csrf = (await page.context().cookies()).find((c) => c.name === 'csrf_token')?.value ?? '';
  const response = await page.request.fetch(url, { method, data, headers: { 'CSRF-Token': csrf } });
  return [response.status(), await response.json()];
}

/** The blog id of the signed-in page (its cookie). */
async function blogIdOf(page: Page): Promise<string> {
  return (await page.context().cookies()).find((c) => c.name === 'blog_id')?.value ?? '';
}

const paragraph = (page: Page, n: number) =>
  page.getByRole('group', { name: `Block ${n}: Paragraph` }).getByRole('textbox', { name: 'Paragraph' });

test('two devices editing one post: the second save shows both versions and a block-by-block merge keeps both', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await keepTrafficLocal(page.context());
  await page.goto('/signup');
  await signInWithLocalIssuer(page, 'Signup with Local', EMAIL);
  await createBlog(page, 'twotabs');
  const blogId = await blogIdOf(page);
  const body = {
    type: 'root',
    children: [
      { type: 'heading', value: { text: 'Field notes' } },
      { type: 'paragraph', value: { text: 'The first draft.' } },
    ],
  };
  const [created, answer] = await call(page, 'POST', `${baseURL}/api/my/blogs/${blogId}/posts`, { body, draft: false });
  expect(created).toBe(201);
  const shortId: string = answer.post.shortId;
  const postApi = `/api/my/blogs/${blogId}/posts/${shortId}`;
  const problems = watchForErrors(page);

  // The same blogger on a second device.
  const phoneContext = await browser.newContext();
  await keepTrafficLocal(phoneContext);
  const phone = await phoneContext.newPage();
  const phoneProblems = watchForErrors(phone, [{ status: 409, path: postApi }]);
  await phone.goto('/');
  await signInWithLocalIssuer(phone, 'Login with Local', EMAIL);
  await expect(phone).toHaveURL(/\/d\/posts$/);

  // Both open the post; the laptop saves first.
  await page.goto(`/d/posts/${shortId}/edit`);
  await phone.goto(`/d/posts/${shortId}/edit`);
  await paragraph(page, 2).fill('Written on the laptop.');
  await paragraph(phone, 2).fill('Written on the phone.');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page).toHaveURL(/\/d\/posts$/);

  // The phone's save is refused: the conflict screen shows both texts side by side.
  await phone.getByRole('button', { name: 'Save', exact: true }).click();
  const screen = phone.getByRole('region', { name: 'This post was changed elsewhere' });
  await expect(screen).toBeVisible();
  await expect(screen.getByText('Written on the laptop.')).toBeVisible();
  await expect(screen.getByText('Written on the phone.')).toBeVisible();
  await expect(screen.getByText('Block 1: the same on both sides')).toBeVisible();

  const shots = process.env.QUIRE_E2E_SHOTS;
  if (shots) {
    await phone.setViewportSize({ width: 1280, height: 800 });
    await phone.screenshot({ path: path.join(shots, 'conflict-desktop.png'), fullPage: true });
    await phone.setViewportSize({ width: 390, height: 844 });
    await expect(screen).toBeVisible();
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, 'nothing wider than a phone').toBeLessThanOrEqual(0);
    await phone.screenshot({ path: path.join(shots, 'conflict-phone.png'), fullPage: true });
    await phone.setViewportSize({ width: 1280, height: 800 });
  }

  // Cancel goes back to the editor with the phone's text intact; saving again comes back here.
  await screen.getByRole('button', { name: 'Cancel' }).click();
  await expect(paragraph(phone, 2)).toHaveValue('Written on the phone.');
  await phone.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(screen).toBeVisible();

  // Merge block by block: keep both paragraphs, then save.
  await screen.getByRole('group', { name: 'Keep for block 2' }).getByRole('radio', { name: 'Both' }).check();
  await screen.getByRole('button', { name: 'Save' }).click();
  await expect(phone).toHaveURL(/\/d\/posts$/);

  const [status, read] = await call(page, 'GET', `${baseURL}${postApi}`);
  expect(status).toBe(200);
  const texts = read.post.body.children.map((block: { value: { text?: string } }) => block.value.text);
  expect(texts).toEqual(['Field notes', 'Written on the phone.', 'Written on the laptop.']);
  expect(read.post.version).toBe(3);
  expect(problems).toEqual([]);
  expect(phoneProblems).toEqual([]);
  await phoneContext.close();
});

test('a local draft of an existing post survives a closed page and is restored', async ({ page, baseURL }) => {
  test.setTimeout(60_000);
  await keepTrafficLocal(page.context());
  const problems = watchForErrors(page);
  await page.goto('/signup');
  await signInWithLocalIssuer(page, 'Signup with Local', 'drafts@example.com');
  await createBlog(page, 'drafts');
  const blogId = await blogIdOf(page);
  const body = {
    type: 'root',
    children: [
      { type: 'heading', value: { text: 'Kept safe' } },
      { type: 'paragraph', value: { text: 'As saved.' } },
    ],
  };
  const [, answer] = await call(page, 'POST', `${baseURL}/api/my/blogs/${blogId}/posts`, { body, draft: false });
  const editUrl = `/d/posts/${answer.post.shortId}/edit`;

  await page.goto(editUrl);
  await paragraph(page, 2).fill('Typed, never saved.');
  // Written once typing pauses.
  const key = `quire.draft.${blogId}.${answer.post.shortId}`;
  await expect.poll(() => page.evaluate((k) => localStorage.getItem(k), key)).toContain('Typed, never saved.');
  const context = page.context();
  page.removeAllListeners('dialog');
  page.on('dialog', (dialog) => void dialog.accept()); // the leave-page warning
  await page.close({ runBeforeUnload: true });

  const again = await context.newPage();
  const againProblems = watchForErrors(again);
  await again.goto(editUrl);
  await expect(again.getByText(/You have unsaved changes from/)).toBeVisible();
  await expect(paragraph(again, 2)).toHaveValue('As saved.');
  await again.getByRole('button', { name: 'Restore' }).click();
  await expect(paragraph(again, 2)).toHaveValue('Typed, never saved.');
  await again.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(again).toHaveURL(/\/d\/posts$/);
  expect(await again.evaluate((k) => localStorage.getItem(k), key)).toBeNull();
  await again.goto(editUrl);
  await expect(paragraph(again, 2)).toHaveValue('Typed, never saved.');
  await expect(again.getByText(/You have unsaved changes from/)).toHaveCount(0);
  expect(problems).toEqual([]);
  expect(againProblems).toEqual([]);
});
