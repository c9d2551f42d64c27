// The owner's blog: its shape as the server answers it and the call that creates it (docs/api.md,
// 'The blog').
import { api } from '../../lib/api';

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
  socialAccounts: SocialAccount[];
}

/** Loads the signed-in owner's blog. */
export async function fetchBlog(blogId: number, signal?: AbortSignal): Promise<Blog> {
  const { data } = await api.get<{ blog: Blog }>(`/api/my/blogs/${blogId}`, signal ? { signal } : {});
  return data.blog;
}

/** Creates the owner's one blog; the server also sets the `blog_id` cookie. */
export async function createBlog(subdomain: string): Promise<Blog> {
  const { data } = await api.post<{ blog: Blog }>('/api/my/blogs', { subdomain });
  return data.blog;
}
