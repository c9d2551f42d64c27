// API tokens (issue 37; docs/api.md section 16): the owner makes a token in Settings → API tokens,
// copies it from the one place it is shown, an app publishes with it through Micropub, the list
// shows its last use, and once revoked the app is refused.
import { expect, test } from '@playwright/test';
import { signedOutContext, watchForErrors } from './support/browser';
import { signUpWithBlog } from './support/flows';
import { ownQuire } from './support/own-quire';
import { startQuire } from './support/quire';

const app = ownQuire(() => startQuire());

test('a token made in Settings publishes through Micropub until it is revoked', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const problems = watchForErrors(page);
  const { baseUrl, port } = app();
  await signUpWithBlog(page, baseUrl, 'tess@example.com', 'tess');
  await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Settings' }).click();
  const panel = page.getByRole('region', { name: 'API tokens', exact: true });
  await expect(panel.getByText(`${baseUrl}/micropub`)).toBeVisible();
  await expect(panel.getByText('No tokens yet.')).toBeVisible();

  await panel.getByRole('textbox', { name: 'Name' }).fill('Hill notes script');
  await expect(panel.getByRole('checkbox', { name: 'Create posts' })).toBeChecked();
  await panel.getByRole('button', { name: 'Create token' }).click();
  const shown = panel.getByRole('textbox', { name: 'Token “Hill notes script”' });
  await expect(shown).toHaveValue(/^quire_[0-9a-f]{64}$/);
  const token = await shown.inputValue();
  await expect(panel.getByText('Copy this token now: it will not be shown again.')).toBeVisible();
  await panel.getByRole('button', { name: 'Done' }).click();
  await expect(shown).toHaveCount(0);
  const row = panel
    .getByRole('list', { name: 'Your tokens' })
    .getByRole('listitem')
    .filter({ hasText: 'Hill notes script' });
  await expect(row).toContainText(`…${token.slice(-4)}`);
  await expect(row).toContainText('Never used');

  // An app (here the test's own HTTP client, with no cookie of the owner's) publishes with it.
  const appClient = await signedOutContext(browser);
  const created = await appClient.request.post(`${baseUrl}/micropub`, {
    headers: { Authorization: `Bearer ${token}` },
    form: { h: 'entry', name: 'Up the hill', content: 'It was *cold* at the top.', category: 'walks' },
  });
  expect(created.status()).toBe(201);
  const location = created.headers()['location'] ?? '';
  expect(location).toMatch(new RegExp(`^http://tess\\.localhost:${port}/up-the-hill-`));
  const reader = await appClient.newPage();
  await reader.goto(location);
  await expect(reader.getByRole('heading', { level: 1, name: 'Up the hill' })).toBeVisible();
  await expect(reader.locator('em', { hasText: 'cold' })).toBeVisible();

  await page.reload();
  await expect(row).toContainText('Last used');

  // Revoked after the confirmation: the app is refused at once.
  page.once('dialog', (dialog) => dialog.accept());
  await row.getByRole('button', { name: 'Revoke Hill notes script' }).click();
  await expect(row).toHaveCount(0);
  await expect(panel.getByText('No tokens yet.')).toBeVisible();
  const refused = await appClient.request.post(`${baseUrl}/micropub`, {
    headers: { Authorization: `Bearer ${token}` },
    form: { h: 'entry', content: 'Too late' },
  });
  expect(refused.status()).toBe(401);
  expect((await refused.json()).error).toBe('unauthorized');
  expect(problems).toEqual([]);
  await appClient.close();
});
