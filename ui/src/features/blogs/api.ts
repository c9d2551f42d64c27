// The owner's blog: its shape as the server answers it and the call that creates it (docs/api.md,
// 'The blog').
import type { Blog, BlogAnswer } from '../../api-types/blogs';
import { api, ApiError } from '../../lib/api';

// The answers' types are generated from the server's structs (ui/src/api-types/).
export type { Blog } from '../../api-types/blogs';
export type { Favicon } from '../../api-types/favicons';
export type { SocialAccount } from '../../api-types/social-accounts';
export type { Theme } from '../../api-types/themes';

/** Loads the signed-in owner's blog. */
export async function fetchBlog(blogId: number, signal?: AbortSignal): Promise<Blog> {
  const { data } = await api.get<BlogAnswer>(`/api/my/blogs/${blogId}`, signal ? { signal } : {});
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

async function postBlog(subdomain: string, timeZone: string | undefined, invite: string | undefined): Promise<Blog> {
  const body: Record<string, string> = { subdomain };
  if (timeZone) body.timeZone = timeZone;
  if (invite) body.invite = invite;
  const { data } = await api.post<BlogAnswer>('/api/my/blogs', body);
  return data.blog;
}

/**
 * Creates the owner's one blog, showing its dates in the browser's time zone (so the public blog
 * and the owner's post list agree on the day), with `invite` when the instance is by invitation;
 * the server also sets the `blog_id` cookie. A zone the server does not know must not stop the
 * signup: the blog is then made in UTC, changeable in Settings.
 */
export async function createBlog(subdomain: string, invite?: string): Promise<Blog> {
  const timeZone = browserTimeZone();
  try {
    return await postBlog(subdomain, timeZone, invite);
  } catch (failure) {
    const zoneRefused = failure instanceof ApiError && failure.messagesFor('timeZone').length > 0;
    if (timeZone === undefined || !zoneRefused) throw failure;
    return postBlog(subdomain, undefined, invite);
  }
}
