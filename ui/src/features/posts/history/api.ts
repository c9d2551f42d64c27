// A post's history and the blog's trash (docs/api.md, 8.7.2 and 8.7.3): the revisions, newest
// first and paged, a restore; the deleted posts, a restore and a purge.
import type { ManyRevisions, Revision } from '../../../api-types/revisions';
import type { ManyTrash, TrashEntry } from '../../../api-types/trash';
import type { OnePost } from '../../../api-types/posts';
import { api, paging, type Paging } from '../../../lib/api';
import type { Post } from '../api';

export type { Revision } from '../../../api-types/revisions';
export type { TrashEntry } from '../../../api-types/trash';

/** Revisions per page of the History panel. */
export const REVISIONS_PAGE_SIZE = 20;

const revisionsPath = (blogId: number, shortId: string) =>
  `/api/my/blogs/${blogId}/posts/${encodeURIComponent(shortId)}/revisions`;
const trashPath = (blogId: number) => `/api/my/blogs/${blogId}/trash`;

/** One page of a post's revisions, newest first. */
export async function fetchRevisions(
  blogId: number,
  shortId: string,
  page: number,
  signal?: AbortSignal,
): Promise<{ revisions: Revision[]; paging: Paging }> {
  const { data, headers } = await api.get<ManyRevisions>(revisionsPath(blogId, shortId), {
    query: { page, pageSize: REVISIONS_PAGE_SIZE },
    ...(signal ? { signal } : {}),
  });
  return { revisions: data.revisions, paging: paging(headers) };
}

/** Puts a revision's words back; resolves with the post as it now is. */
export async function restoreRevision(blogId: number, shortId: string, revisionId: number): Promise<Post> {
  const { data } = await api.post<OnePost>(`${revisionsPath(blogId, shortId)}/${revisionId}/restore`, {});
  return data.post;
}

/** The blog's trash, last deleted first, and how many entries it holds. */
export async function fetchTrash(
  blogId: number,
  signal?: AbortSignal,
  pageSize = 100,
): Promise<{ trash: TrashEntry[]; total: number }> {
  const { data } = await api.get<ManyTrash>(trashPath(blogId), {
    query: { pageSize },
    ...(signal ? { signal } : {}),
  });
  return { trash: data.trash, total: data.total };
}

/** Brings a deleted post back; resolves with it. */
export async function restoreFromTrash(blogId: number, trashId: number): Promise<Post> {
  const { data } = await api.post<OnePost>(`${trashPath(blogId)}/${trashId}/restore`, {});
  return data.post;
}

/** Removes a deleted post for good. */
export async function purgeFromTrash(blogId: number, trashId: number): Promise<void> {
  await api.delete(`${trashPath(blogId)}/${trashId}`);
}
