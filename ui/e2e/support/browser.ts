// What every end-to-end test wants from the browser: no traffic off this machine, and a failure
// for any script error, console error or Content-Security-Policy violation in the app's pages.
import type { Browser, BrowserContext, Page } from '@playwright/test';

const LOOPBACK = /^(localhost|127\.0\.0\.1|\[::1\]|[a-z0-9-]+\.localhost)$/i;

/**
 * Aborts every request that would leave the machine (e.g. web fonts a third-party page imports).
 * `mapped` names hosts the browser itself resolves to loopback (its --host-resolver-rules).
 */
export async function keepTrafficLocal(context: BrowserContext, mapped: string[] = []): Promise<void> {
  await context.route(
    (url) =>
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      !LOOPBACK.test(url.hostname) &&
      !mapped.includes(url.hostname),
    (route) => route.abort('blockedbyclient'),
  );
}

/** A failed response a test causes on purpose, e.g. a 422 for a rejected subdomain. */
export interface ExpectedStatus {
  status: number;
  /** The request's path, e.g. `/api/my/blogs`. */
  path: string;
}

const FAILED_RESOURCE = /^Failed to load resource: the server responded with a status of (\d+)/;

/**
 * Collects script errors and console errors (CSP violations show up there) of `page` and of the
 * popups it opens, while they show the app's origin. Chromium logs every failed response as a
 * console error; those listed in `expected` are not problems (the app has its icon, so a 404
 * /favicon.ico is one).
 */
export function watchForErrors(page: Page, expected: ExpectedStatus[] = []): string[] {
  const problems: string[] = [];
  const originOf = (target: Page) => URL.parse(target.url())?.origin ?? '';
  const watch = (target: Page) => {
    // A popup counts while it shows one of the app's pages, not while it is at the provider.
    const isApp = () => target === page || originOf(target) === originOf(page);
    target.on('pageerror', (error) => {
      if (isApp()) problems.push(`page error at ${target.url()}: ${error.message}`);
    });
    target.on('console', (message) => {
      if (message.type() !== 'error' || !isApp()) return;
      const url = message.location().url;
      const path = URL.parse(url)?.pathname ?? '';
      const failed = FAILED_RESOURCE.exec(message.text());
      if (failed && expected.some((e) => e.status === Number(failed[1]) && e.path === path)) return;
      problems.push(`console error at ${target.url()}: ${message.text()} (${url})`);
    });
  };
  watch(page);
  page.context().on('page', (popup) => {
    if (popup !== page) watch(popup);
  });
  return problems;
}

/** A fresh, signed-out browser context (a reader's) whose traffic stays on this machine. */
export async function signedOutContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext();
  await keepTrafficLocal(context);
  return context;
}

/** `at` as an `<input type="datetime-local">` value in the time zone of `page`, to the second. */
export function localDateTime(page: Page, at: Date): Promise<string> {
  return page.evaluate((ms) => {
    const d = new Date(ms);
    const p = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
  }, at.getTime());
}
