// The calls behind the Replies screen (docs/api.md, 'Replies from the fediverse'): the blog's held
// and approved replies, approving one, deleting one.
import type { OneReply, Replies, Reply, ReplyState } from '../../api-types/replies';
import { api } from '../../lib/api';

// The answers' types are generated from the server's structs (ui/src/api-types/).
export type { Reply, ReplyState } from '../../api-types/replies';

const repliesPath = (blogId: number) => `/api/my/blogs/${blogId}/replies`;

/** The blog's held or approved replies, newest first. */
export async function fetchReplies(blogId: number, state: ReplyState, signal?: AbortSignal): Promise<Reply[]> {
  const { data } = await api.get<Replies>(repliesPath(blogId), {
    query: { state },
    ...(signal ? { signal } : {}),
  });
  return data.replies;
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
