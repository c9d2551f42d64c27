// The call behind the Account panel (docs/api.md, 'The blog'): deleting the account.
import { api } from '../../lib/api';

/**
 * Deletes the account: the blog, its posts and images, the user and their sessions. The server
 * clears the session and blog_id cookies; the subdomain is never handed out again.
 */
export async function deleteAccount(blogId: number): Promise<void> {
  await api.delete(`/api/my/blogs/${blogId}`);
}
