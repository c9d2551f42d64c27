// The owner's blog: its shape as the server answers it and the call that creates it (docs/api.md,
// 'The blog').
import { api, ApiError } from '../../lib/api';

/** A theme of the public blog. */
export interface Theme {
  id: number;
  name: string;
}

/** The tab icon: `code` is the emoji's code points, e.g. `1f4dd`. */
export interface Favicon {
  id: number;
  code: string;
}

/** A sign-in account connected to the blog's owner. */
export interface SocialAccount {
  id: number;
  provider: string;
  email: string;
  createdAt: string;
}

/** The owner's blog, as `GET /api/my/blogs/{blogId}` answers it. */
export interface Blog {
  id: number;
  /** The public address, e.g. `http://alice.localhost:8080`. */
  url: string;
  subdomain: string;
  name: string;
  theme: Theme;
  favicon: Favicon;
  /** The IANA zone its public pages show dates in, e.g. `Europe/Paris`. */
  timeZone: string;
  socialAccounts: SocialAccount[];
}

/** Loads the signed-in owner's blog. */
export async function fetchBlog(blogId: number, signal?: AbortSignal): Promise<Blog> {
  const { data } = await api.get<{ blog: Blog }>(`/api/my/blogs/${blogId}`, signal ? { signal } : {});
  return data.blog;
}

/** The browser's IANA time zone (`Europe/Paris`), or undefined when it does not say. */
export function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

async function postBlog(subdomain: string, timeZone: string | undefined): Promise<Blog> {
  const { data } = await api.post<{ blog: Blog }>('/api/my/blogs', timeZone ? { subdomain, timeZone } : { subdomain });
  return data.blog;
}

/**
 * Creates the owner's one blog, showing its dates in the browser's time zone (so the public blog
 * and the owner's post list agree on the day); the server also sets the `blog_id` cookie. A zone the
 * server does not know must not stop the signup: the blog is then made in UTC, changeable in Settings.
 */
export async function createBlog(subdomain: string): Promise<Blog> {
  const timeZone = browserTimeZone();
  try {
    return await postBlog(subdomain, timeZone);
  } catch (failure) {
    const zoneRefused = failure instanceof ApiError && failure.messagesFor('timeZone').length > 0;
    if (timeZone === undefined || !zoneRefused) throw failure;
    return postBlog(subdomain, undefined);
  }
}
