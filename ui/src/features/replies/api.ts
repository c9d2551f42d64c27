// The calls behind the Replies screen (docs/api.md, 'Replies from the fediverse'): the blog's held
// and approved replies, approving one, deleting one.
import { api } from '../../lib/api';

/** Held for the owner's approval, or shown under the post. */
export type ReplyState = 'held' | 'approved';

/** A reply from the fediverse to one of the blog's posts. */
export interface Reply {
  id: number;
  /** The short id of the post it answers. */
  postId: string;
  postTitle: string;
  authorName: string;
  /** `@bob@peer.example`. */
  authorHandle: string;
  /** The author's profile page. */
  authorUrl: string;
  /** The reply's own page, or null. */
  url: string | null;
  /** Plain text, paragraphs separated by a blank line. */
  text: string;
  publishedAt: string;
  receivedAt: string;
  state: ReplyState;
}

const repliesPath = (blogId: number) => `/api/my/blogs/${blogId}/replies`;

/** The blog's held or approved replies, newest first. */
export async function fetchReplies(blogId: number, state: ReplyState, signal?: AbortSignal): Promise<Reply[]> {
  const { data } = await api.get<{ replies: Reply[] }>(repliesPath(blogId), {
    query: { state },
    ...(signal ? { signal } : {}),
  });
  return data.replies;
}

/** Approves a held reply: the post's public page shows it. */
export async function approveReply(blogId: number, replyId: number): Promise<Reply> {
  const { data } = await api.post<{ reply: Reply }>(`${repliesPath(blogId)}/${replyId}/approve`, {});
  return data.reply;
}

/** Deletes a reply, held or shown. */
export async function deleteReply(blogId: number, replyId: number): Promise<void> {
  await api.delete(`${repliesPath(blogId)}/${replyId}`);
}
