import { expect, test, type Page } from '@playwright/test';
import { CATALOG_DEMO_LINKS as demos } from '../src/test/catalog-demos';
import { watchForErrors } from './support/browser';

const nav = (page: Page) => page.getByRole('navigation', { name: 'Component demos' });

async function openDemo(page: Page, label: string, path: string) {
  await nav(page).getByRole('link', { name: label, exact: true }).click();
  await expect(page).toHaveURL(path);
  await expect(page.getByRole('heading', { level: 1, name: label, exact: true })).toBeVisible();
  await expect(nav(page).getByRole('link', { name: label, exact: true })).toHaveAttribute('aria-current', 'page');
}

test('the catalog navigation leads to every demo and each demo works', async ({ page, baseURL }) => {
  const problems = watchForErrors(page);
  await page.goto('/catalog');

  await test.step('index and side navigation', async () => {
    await expect(page.getByRole('heading', { level: 1, name: 'Component catalog' })).toBeVisible();
    const links = nav(page).getByRole('link');
    await expect(links).toHaveText(demos.map(([label]) => label));
    for (const [label, path] of demos) {
      await expect(nav(page).getByRole('link', { name: label, exact: true })).toHaveAttribute('href', path);
    }
    await expect(nav(page).locator('[aria-current="page"]')).toHaveCount(0);
    // The server injected its config into index.html in place of the marker.
    const config = JSON.parse((await page.locator('script#quire-config').textContent()) ?? '{}') as { host?: string };
    expect(config.host).toBe(new URL(baseURL ?? '').host);
  });

  await test.step('Button', async () => {
    await openDemo(page, 'Button', '/catalog/button');
    const variants = page.getByRole('region', { name: 'Variants' });
    for (const label of ['Primary', 'Secondary', 'Danger', 'Link']) {
      await variants.getByRole('button', { name: label }).click();
      await expect(variants.getByRole('status')).toHaveText(`Last clicked: ${label}`);
    }
    const disabled = page.getByRole('region', { name: 'Disabled' }).getByRole('button');
    await expect(disabled).toHaveCount(4);
    for (const button of await disabled.all()) await expect(button).toBeDisabled();

    const loading = page.getByRole('region', { name: 'Loading' });
    const save = loading.getByRole('button', { name: 'Save' });
    await save.click();
    await expect(save).toBeDisabled();
    await expect(save).toHaveAttribute('aria-busy', 'true');
    await expect(loading.locator('.q-spinner')).toHaveCount(2);
    await expect(loading.getByRole('status')).toHaveText('Loading: yes');
    await loading.getByRole('button', { name: 'Stop loading' }).click();
    await expect(save).toBeEnabled();
    await expect(loading.locator('.q-spinner')).toHaveCount(0);

    const submit = page.getByRole('region', { name: 'Submit button' });
    await submit.getByRole('button', { name: 'Submit form' }).click();
    await expect(submit.getByRole('status')).toHaveText('Submitted: 1 time');
    await expect(page).toHaveURL('/catalog/button');
  });

  await test.step('TextInput', async () => {
    await openDemo(page, 'TextInput', '/catalog/textinput');
    const validated = page.getByRole('region', { name: 'Validated' });
    const input = validated.getByRole('textbox', { name: 'Username' });
    const message = validated.getByRole('alert');
    await expect(message).toHaveCount(0);

    await input.fill('ab');
    await expect(message).toHaveText('Too short: use at least 3 characters (now 2).');
    await expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(await input.evaluate((el: HTMLInputElement) => el.validity.tooShort)).toBe(true); // the browser agrees

    await input.fill('Hello!');
    await expect(message).toHaveText('Use only lowercase letters (a–z) and digits (0–9).');
    expect(await input.evaluate((el: HTMLInputElement) => el.validity.patternMismatch)).toBe(true);

    await input.fill('');
    await input.pressSequentially('abcdefghijklmn');
    await expect(input).toHaveValue('abcdefghij'); // maxlength 10 stops typing
    await expect(message).toHaveCount(0);

    await input.fill('alice42');
    await expect(message).toHaveCount(0);
    await expect(input).not.toHaveAttribute('aria-invalid');

    const beside = page.getByRole('region', { name: 'With text beside it' });
    await expect(beside.getByText(`.${new URL(baseURL ?? '').host}`, { exact: true })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Disabled input' })).toBeDisabled();
  });

  await test.step('TextArea', async () => {
    await openDemo(page, 'TextArea', '/catalog/textarea');
    const validated = page.getByRole('region', { name: 'Validated' });
    const note = validated.getByRole('textbox', { name: 'Note' });
    const message = validated.getByRole('alert');
    await note.fill('x');
    await expect(message).toContainText('at least 3 characters');
    await note.fill('no way');
    await expect(message).toHaveText('Use only lowercase letters (a–z) and digits (0–9).');
    await note.fill('notes2025');
    await expect(message).toHaveCount(0);
    await expect(page.getByRole('textbox', { name: 'Paragraph' })).toHaveAttribute('rows', '8');
  });

  await test.step('Select', async () => {
    await openDemo(page, 'Select', '/catalog/select');
    const basic = page.getByRole('region', { name: 'Basic' });
    await expect(basic.getByRole('status')).toHaveText('Selected: Default');
    await basic.getByRole('combobox', { name: 'Theme' }).selectOption({ label: 'Serif' });
    await expect(basic.getByRole('status')).toHaveText('Selected: Serif');
    await basic.getByRole('combobox', { name: 'Theme' }).selectOption({ label: 'Dark' });
    await expect(basic.getByRole('status')).toHaveText('Selected: Dark');
    await expect(page.getByRole('combobox', { name: 'Disabled select' })).toBeDisabled();
  });

  await test.step('Checkbox', async () => {
    await openDemo(page, 'Checkbox', '/catalog/checkbox');
    const basic = page.getByRole('region', { name: 'Basic' });
    const box = basic.getByRole('checkbox', { name: "I understand what I'm going to do." });
    const remove = basic.getByRole('button', { name: 'Delete Account' });
    await expect(box).not.toBeChecked();
    await expect(remove).toBeDisabled();
    await box.check();
    await expect(basic.getByRole('status')).toHaveText('Checked: yes');
    await expect(remove).toBeEnabled();
    await basic.getByText("I understand what I'm going to do.").click(); // the label toggles too
    await expect(box).not.toBeChecked();
    await expect(basic.getByRole('status')).toHaveText('Checked: no');
  });

  await test.step('Panel', async () => {
    await openDemo(page, 'Panel', '/catalog/panel');
    await expect(page.getByText('A plain panel always shows its content.')).toBeVisible();

    const open = page.getByRole('button', { name: 'Social Accounts' });
    const openText = page.getByText('Click the title to fold this panel away.');
    await expect(open).toHaveAttribute('aria-expanded', 'true');
    await expect(openText).toBeVisible();
    await open.click();
    await expect(open).toHaveAttribute('aria-expanded', 'false');
    await expect(openText).toBeHidden();
    await open.click();
    await expect(openText).toBeVisible();

    const danger = page.getByRole('button', { name: 'Danger Zone!' });
    const dangerText = page.getByText('This content stays hidden until the title is clicked.');
    await expect(danger).toHaveAttribute('aria-expanded', 'false');
    await expect(dangerText).toBeHidden();
    await danger.click();
    await expect(dangerText).toBeVisible();
    await danger.click();
    await expect(dangerText).toBeHidden();
  });

  await test.step('Modal', async () => {
    await openDemo(page, 'Modal', '/catalog/modal');
    const opener = page.getByRole('button', { name: 'Open modal' });
    const dialog = page.getByRole('dialog', { name: 'Name your blog' });

    await opener.click();
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('textbox', { name: 'Blog name' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
    await expect(page.getByText('Last result: closed')).toBeVisible();

    await opener.click();
    await dialog.getByRole('textbox', { name: 'Blog name' }).fill('Notes');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Last result: saved "Notes"')).toBeVisible();

    await opener.click();
    await page.mouse.click(5, 5); // the backdrop
    await expect(dialog).toBeHidden();

    const remove = page.getByRole('button', { name: 'Remove block' });
    await remove.click();
    const confirm = page.getByRole('dialog', { name: 'Remove block' });
    await expect(confirm).toContainText('Are you sure you want to remove this block?');
    await page.keyboard.press('Escape');
    await expect(confirm).toBeHidden();
    await expect(remove).toBeFocused();
  });

  expect(problems).toEqual([]);
});

test('a reload of a demo is served the app again (SPA fallback)', async ({ page }) => {
  const problems = watchForErrors(page);
  await page.goto('/catalog');
  await nav(page).getByRole('link', { name: 'Select', exact: true }).click();
  await expect(page).toHaveURL('/catalog/select');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Select' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Basic' }).getByRole('status')).toHaveText('Selected: Default');
  await expect(nav(page).getByRole('link', { name: 'Select', exact: true })).toHaveAttribute('aria-current', 'page');

  const direct = await page.request.get('/catalog/select');
  expect(direct.status()).toBe(200);
  expect(await direct.text()).toContain('<div id="root">');
  expect(problems).toEqual([]);
});

test('the landing page and an unknown app path', async ({ page, context, baseURL }) => {
  // Nobody is signed in: the landing page's session check is answered 401.
  const problems = watchForErrors(page);
  await page.goto('/');
  await expect(page.getByRole('img', { name: 'Quire' })).toBeVisible();
  await expect(page.getByText('is a free blogging platform')).toBeVisible();
  const cookies = await context.cookies(baseURL);
  expect(cookies.find((cookie) => cookie.name === 'csrf_token')?.value).toBeTruthy();

  await page.goto('/catalog/nothing-here-yet');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to the home page' }).click();
  await expect(page).toHaveURL('/');
  expect(problems).toEqual([]);
});

test('the catalog is usable on a phone-sized screen', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/catalog/textinput');
  const link = nav(page).getByRole('link', { name: 'Modal', exact: true });
  await link.scrollIntoViewIfNeeded();
  await link.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Modal' })).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(375);
});

test('on a phone the catalog navigation shows that it scrolls, on the side where more links are', async ({ page }) => {
  const problems = watchForErrors(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/catalog');
  const strip = nav(page);
  // The edge a link hides behind fades out (a CSS mask); the ends of the strip do not.
  const fades = () =>
    strip.evaluate((element) => getComputedStyle(element).maskImage || getComputedStyle(element).webkitMaskImage);
  await expect.poll(fades).toMatch(/linear-gradient/);
  const atStart = await fades();
  await strip.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
  await expect.poll(fades).not.toBe(atStart);
  await expect.poll(fades).toMatch(/linear-gradient/);

  await page.setViewportSize({ width: 1280, height: 800 });
  await expect.poll(fades).toBe('none');
  expect(problems).toEqual([]);
});
