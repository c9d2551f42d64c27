import { expect, test, type Page } from '@playwright/test';
import { keepTrafficLocal, watchForErrors } from './support/browser';
import { createBlog, signInWithLocalIssuer, SUBDOMAIN_REFUSED } from './support/flows';

test.beforeEach(async ({ context }) => {
  await keepTrafficLocal(context);
});

// includeHidden: on a phone the closed menu is visibility: hidden, which is what the tests check.
const menu = (page: Page) => page.getByRole('navigation', { name: 'Menu', includeHidden: true });

test('signing up with the local issuer, creating a blog, signing out and logging in again', async ({
  page,
  baseURL,
}) => {
  const problems = watchForErrors(page, [SUBDOMAIN_REFUSED]);
  const host = new URL(baseURL ?? '').host;
  const email = 'alice@example.com';

  await test.step('the signup notice and the popup', async () => {
    await page.goto('/');
    await expect(page.getByText('is a free blogging platform')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Login with Local' })).toBeEnabled();
    await page.getByRole('button', { name: 'or Signup' }).click();
    const dialog = page.getByRole('dialog', { name: 'Signup' });
    await expect(dialog.getByRole('listitem')).toHaveText([
      'Quire is a hobby project.',
      'Cookies are used to authenticate and identify users.',
      'If signup fails, change browser and try again.',
    ]);
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeEnabled();

    const popupOpened = page.waitForEvent('popup');
    await dialog.getByRole('button', { name: 'Signup with Local' }).click();
    const popup = await popupOpened;
    // While the popup is up, nothing else can be started.
    await expect(dialog.getByRole('button', { name: 'Signup with Local' })).toBeDisabled();
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    const closed = popup.waitForEvent('close');
    await popup.getByLabel('E-mail address').fill(email);
    await popup.getByRole('button', { name: 'Sign in' }).click();
    await closed;
    await expect(page).toHaveURL('/d/posts');
  });

  await test.step('the blog-creation screen shows each server message, then creates the blog', async () => {
    await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();
    await expect(page.getByText(`.${host}`, { exact: true })).toBeVisible();
    const input = page.getByRole('textbox', { name: 'Preferred subdomain' });
    const signup = page.getByRole('button', { name: 'Signup' });
    const message = page.getByRole('alert');
    const refused: [string, string][] = [
      ['ab', 'Should be 3 to 63 characters long'],
      ['www', 'This subdomain is reserved'],
      ['Bad_Name', 'Use only lowercase letters a-z, digits and hyphens'],
      ['-x-', "Can't start or end with a hyphen"],
    ];
    for (const [subdomain, text] of refused) {
      await input.fill(subdomain);
      await signup.click();
      await expect(message).toHaveText(text);
      await expect(input).toHaveAttribute('aria-invalid', 'true');
      await input.press('End');
      await input.pressSequentially('q');
      await expect(message).toHaveCount(0);
    }
    await input.fill('alice');
    await signup.click();
    // The page reloads into the owner area.
    await expect(menu(page)).toBeVisible();
    await expect(page).toHaveURL('/d/posts');
    await expect(page.getByRole('heading', { level: 1, name: 'Posts' })).toBeVisible();
  });

  await test.step('the owner shell', async () => {
    const links = menu(page).getByRole('link');
    await expect(links).toHaveText(['Posts', 'Responses', 'Settings', 'Open blog', 'Signout']);
    await expect(menu(page).getByRole('link', { name: 'Posts' })).toHaveAttribute('href', '/d/posts');
    await expect(menu(page).getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/d/settings');
    const openBlog = menu(page).getByRole('link', { name: 'Open blog' });
    await expect(openBlog).toHaveAttribute('href', `http://alice.${host}`);
    await expect(openBlog).toHaveAttribute('target', '_blank');
    await expect(openBlog).toHaveAttribute('rel', /noopener/);
    await expect(menu(page).getByRole('link', { name: 'Signout' })).toHaveAttribute('href', '/signout');
    await expect(menu(page).getByRole('link', { name: 'Posts' })).toHaveAttribute('aria-current', 'page');

    await menu(page).getByRole('link', { name: 'Settings' }).click();
    await expect(page).toHaveURL('/d/settings');
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    await expect(
      page.getByRole('region', { name: 'Blog', exact: true }).getByRole('textbox', { name: 'Name', exact: true }),
    ).toHaveValue('alice');
    await expect(menu(page).getByRole('link', { name: 'Settings' })).toHaveAttribute('aria-current', 'page');
    await expect(menu(page).getByRole('link', { name: 'Posts' })).not.toHaveAttribute('aria-current');

    // Clicking the current entry mounts the screen again, in place.
    await menu(page).getByRole('link', { name: 'Settings' }).click();
    await expect(page).toHaveURL('/d/settings');
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  });

  await test.step('signing out and logging in again', async () => {
    await menu(page).getByRole('link', { name: 'Signout' }).click();
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('button', { name: 'Login with Local' })).toBeEnabled();
    const cookies = await page.context().cookies();
    expect(cookies.map((cookie) => cookie.name)).not.toContain('session');
    expect(cookies.map((cookie) => cookie.name)).not.toContain('blog_id');

    await signInWithLocalIssuer(page, 'Login with Local', email);
    await expect(page).toHaveURL('/d/posts');
    await expect(menu(page).getByRole('link', { name: 'Open blog' })).toHaveAttribute('href', `http://alice.${host}`);

    // Signed in, the landing page sends the owner on.
    await page.goto('/');
    await expect(page).toHaveURL('/d/posts');
    await expect(page.getByRole('heading', { level: 1, name: 'Posts' })).toBeVisible();
  });

  expect(problems).toEqual([]);
});

test('another site sending the browser to /signout does not sign the owner out; the button does', async ({
  page,
  baseURL,
}) => {
  const problems = watchForErrors(page);
  // What the server says about this browser's session (the request carries the page's cookies).
  const session = async () => {
    const body = (await (await page.request.get('/api/session')).json()) as {
      session: { user: { email: string } } | null;
    };
    return body.session;
  };
  await page.goto('/signup');
  await signInWithLocalIssuer(page, 'Signup with Local', 'lured@example.com');
  await createBlog(page, 'lured');
  expect((await session())?.user.email).toBe('lured@example.com');

  // A page of another site that sends its visitor to /signout as soon as it loads.
  const elsewhere = 'http://elsewhere.example/';
  await page.route(elsewhere, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>Elsewhere</title><script>location.href = ${JSON.stringify(`${baseURL}/signout`)};</script>`,
    }),
  );
  await page.goto(elsewhere);
  await expect(page).toHaveURL('/signout');
  await expect(page.getByRole('heading', { level: 1, name: 'Sign out of Quire?' })).toBeVisible();
  expect((await session())?.user.email).toBe('lured@example.com');

  await page.getByRole('button', { name: 'Signout' }).click();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('button', { name: 'Login with Local' })).toBeEnabled();
  expect(await session()).toBeNull();
  expect(problems).toEqual([]);
});

test('a signed-out visit to the owner area goes to the landing page, and signing in comes back', async ({ page }) => {
  const problems = watchForErrors(page);
  await page.goto('/d/settings');
  await expect(page).toHaveURL('/?next=%2Fd%2Fsettings');
  await expect(page.getByRole('button', { name: 'Login with Local' })).toBeVisible();
  await signInWithLocalIssuer(page, 'Login with Local', 'returning@example.com');
  await expect(page).toHaveURL('/d/settings');
  expect(problems).toEqual([]);
});

test('closing the popup without signing in gives the buttons back', async ({ page }) => {
  const problems = watchForErrors(page);
  await page.goto('/');
  const login = page.getByRole('button', { name: 'Login with Local' });
  const popupOpened = page.waitForEvent('popup');
  await login.click();
  const popup = await popupOpened;
  await expect(popup.getByLabel('E-mail address')).toBeVisible();
  await expect(login).toBeDisabled();
  await expect(page.getByRole('button', { name: 'or Signup' })).toBeDisabled();
  await popup.close();
  await expect(login).toBeEnabled();
  await expect(page.getByRole('button', { name: 'or Signup' })).toBeEnabled();
  await expect(page).toHaveURL('/');
  expect(problems).toEqual([]);
});

test('the owner menu on a phone and on a desktop', async ({ page }) => {
  const problems = watchForErrors(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/signup');
  await signInWithLocalIssuer(page, 'Signup with Local', 'phone@example.com');
  await createBlog(page, 'phone-owner');

  const toggle = page.getByRole('button', { name: 'Menu', exact: true });
  const posts = menu(page).getByRole('link', { name: 'Posts', includeHidden: true });

  await test.step('phone: the hamburger opens a slide-in menu', async () => {
    await expect(toggle).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(menu(page)).toBeHidden();
    await expect(posts).toBeHidden();
    const parked = await menu(page).boundingBox();
    expect(parked && parked.x + parked.width).toBeLessThanOrEqual(0); // waiting off-screen, left

    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(menu(page)).toBeVisible();
    await expect.poll(async () => (await menu(page).boundingBox())?.x).toBe(0); // slid in
    await expect(posts).toBeFocused();

    await menu(page).getByRole('link', { name: 'Settings' }).click();
    await expect(page).toHaveURL('/d/settings');
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    await expect(menu(page)).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');

    await toggle.click();
    await expect(menu(page)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(menu(page)).toBeHidden();
    await expect(toggle).toBeFocused();

    await toggle.click();
    await expect(menu(page)).toBeVisible();
    await page.mouse.click(380, 400); // the backdrop, right of the menu
    await expect(menu(page)).toBeHidden();

    // The menu's own close button, for those who do not think of the backdrop.
    await toggle.click();
    await expect(menu(page)).toBeVisible();
    const close = menu(page).getByRole('button', { name: 'Close menu' });
    await expect(close).toBeVisible();
    const closeBox = await close.boundingBox();
    expect(closeBox && closeBox.width >= 40 && closeBox.height >= 40).toBe(true); // a thumb-sized target
    await close.click();
    await expect(menu(page)).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toBeFocused();

    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
  });

  await test.step('desktop: the menu is always there', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(toggle).toBeHidden();
    await expect(menu(page)).toBeVisible();
    await expect(menu(page).getByRole('button', { name: 'Close menu', includeHidden: true })).toBeHidden();
    const box = await menu(page).boundingBox();
    expect(box?.x).toBe(0);
    await posts.click();
    await expect(page).toHaveURL('/d/posts');
    await expect(menu(page)).toBeVisible();
    await expect(posts).toHaveAttribute('aria-current', 'page');
  });

  await test.step('back to phone width: the menu is put away at once, never seen sliding out', async () => {
    // Every frame for a while, wherever the window is phone-sized: is any of the menu on screen?
    await page.evaluate(() => {
      const nav = document.querySelector('nav[aria-label="Menu"]');
      const seen: string[] = [];
      (window as unknown as { menuSeen: string[] }).menuSeen = seen;
      const start = performance.now();
      const sample = () => {
        const right = nav?.getBoundingClientRect().right ?? 0;
        const shown = nav !== null && getComputedStyle(nav).visibility !== 'hidden' && right > 0;
        if (window.innerWidth < 768 && shown)
          seen.push(`${Math.round(performance.now() - start)} ms: right edge at ${right}px`);
        if (performance.now() - start < 1500) requestAnimationFrame(sample);
      };
      requestAnimationFrame(sample);
    });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(1600);
    expect(await page.evaluate(() => (window as unknown as { menuSeen: string[] }).menuSeen)).toEqual([]);
    await expect(toggle).toBeVisible();
    await expect(menu(page)).toBeHidden();
  });

  expect(problems).toEqual([]);
});

test('the Welcome screen says who is signed in, lines up, marks the whole address as wrong and fits a phone', async ({
  page,
}) => {
  const problems = watchForErrors(page, [SUBDOMAIN_REFUSED]);
  await page.goto('/signup');
  await signInWithLocalIssuer(page, 'Signup with Local', 'wrong-account@example.com');
  const heading = page.getByRole('heading', { level: 1, name: 'Welcome' });
  await expect(heading).toBeVisible();
  await expect(page.getByText('Signed in as wrong-account@example.com')).toBeVisible();

  const input = page.getByRole('textbox', { name: 'Preferred subdomain' });
  const suffix = page.getByText(/^\.localhost:\d+$/);
  const intro = page.getByText('Choose the subdomain');
  const box = async (locator: typeof input) => {
    const found = await locator.boundingBox();
    if (!found) throw new Error('not visible');
    return found;
  };
  const borderColor = (locator: typeof input) =>
    locator.evaluate((element) => getComputedStyle(element).borderTopColor);

  for (const size of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    // Title, text and form start at the same left edge.
    const left = (await box(input)).x;
    expect(Math.abs((await box(heading)).x - left), `${size.width}`).toBeLessThan(2);
    expect(Math.abs((await box(intro)).x - left), `${size.width}`).toBeLessThan(2);
    // The suffix stays beside the input, on the same line.
    expect(Math.abs((await box(suffix)).y - (await box(input)).y), `${size.width}`).toBeLessThan(2);
    expect((await box(suffix)).x, `${size.width}`).toBeGreaterThan((await box(input)).x + 60);

    await input.fill('ab');
    await page.getByRole('button', { name: 'Signup' }).click();
    await expect(page.getByRole('alert')).toHaveText('Should be 3 to 63 characters long');
    await page.getByRole('heading', { level: 1 }).click(); // focus off the input: its own focus ring aside
    expect(await borderColor(suffix), `${size.width}`).toBe(await borderColor(input));
    await input.fill('');
  }

  await page.getByRole('button', { name: 'Signout' }).click();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('button', { name: 'Login with Local' })).toBeEnabled();
  expect(problems).toEqual([]);
});
