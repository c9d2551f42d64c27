// The blog is loaded once, by the owner area, and every screen shows that copy. A screen that
// changed the blog on the server refreshes it by key (`lib/refresh.ts`), so the owner area (its menu,
// its 'Open blog' link) and every panel showing the blog follow, with no callback handed down.
import { refresh } from '../../lib/refresh';

/** The `refreshKey` the owner area loads the blog under. */
export const BLOG_REFRESH_KEY = 'blog';

/** Loads the blog again wherever it is shown; resolves once it is in, and rejects when that failed. */
export function refreshBlog(): Promise<void> {
  return refresh(BLOG_REFRESH_KEY);
}

/** `refreshBlog` in the background: a failure changes nothing on the screen and is only logged. */
export function refreshBlogInBackground(): void {
  refreshBlog().catch((error: unknown) => console.warn('quire: reloading the blog failed', error));
}
