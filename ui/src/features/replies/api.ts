// The calls behind the Replies screen (docs/api.md, 'Replies from the fediverse'): the blog's held
// and approved replies a page at a time, approving one, deleting one.
import type { OneReply, Replies, Reply, ReplyState } from '../../api-types/replies';
import { api, paging, type Paging } from '../../lib/api';

// The answers' types are generated from the server's structs (ui/src/api-types/).
export type { Reply, ReplyState } from '../../api-types/replies';

const repliesPath = (blogId: number) => `/api/my/blogs/${blogId}/replies`;

/** Replies on one page of the list. */
export const REPLIES_PAGE_SIZE = 20;

/** One page of the list, and where it is in the whole. */
export interface RepliesPage {
  replies: Reply[];
  paging: Paging;
}

/** One page of the blog's held or approved replies, newest first. */
export async function fetchReplies(
  blogId: number,
  state: ReplyState,
  page: number,
  signal?: AbortSignal,
): Promise<RepliesPage> {
  const { data, headers } = await api.get<Replies>(repliesPath(blogId), {
    query: { state, page, pageSize: REPLIES_PAGE_SIZE },
    ...(signal ? { signal } : {}),
  });
  return { replies: data.replies, paging: paging(headers) };
}

/** Approves a held reply: the post's public page shows it. */
export async function approveReply(blogId: number, replyId: number): Promise<Reply> {
  const { data } = await api.post<OneReply>(`${repliesPath(blogId)}/${replyId}/approve`, {});
  return data.reply;
}

/** Deletes a reply, held or shown. */
export async function deleteReply(blogId: number, replyId: number): Promise<void> {
  await api.delete(`${repliesPath(blogId)}/${replyId}`);
}
