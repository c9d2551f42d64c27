// The calls behind the Responses screen and the Comments panel (docs/api.md 6.11 and 6.13): the
// blog's one queue of fediverse replies, comments and webmentions a page at a time, acting on one
// or several, the owner's reply under a comment, who may comment, and closing a post's comments.
import type { OneReply } from '../../api-types/replies';
import type {
  BulkDone,
  CommentSettings,
  CommentsAnswer,
  OneResponse,
  PostComments,
  Response,
  Responses,
} from '../../api-types/responses';
import { api, paging, type Paging } from '../../lib/api';

// The answers' types are generated from the server's structs (ui/src/api-types/).
export type { CommentSettings, Response } from '../../api-types/responses';

/** Where a response stands: a tab of the screen. */
export type ResponseState = Response['state'];
/** What the owner can do to one response. */
export type Action = 'approve' | 'spam' | 'block';
/** What the owner can do to several at once. */
export type BulkAction = 'approve' | 'spam' | 'delete';

const blogPath = (blogId: number) => `/api/my/blogs/${blogId}`;

/** The route of one response: a fediverse reply keeps its own (6.11). */
const onePath = (blogId: number, response: Response) =>
  `${blogPath(blogId)}/${response.kind === 'reply' ? 'replies' : 'responses'}/${response.id}`;

/** Responses on one page of the list. */
export const RESPONSES_PAGE_SIZE = 20;

/** One page of the list, and where it is in the whole. */
export interface ResponsesPage {
  responses: Response[];
  paging: Paging;
}

/** One page of the blog's responses in `state`, newest first. */
export async function fetchResponses(
  blogId: number,
  state: ResponseState,
  page: number,
  signal?: AbortSignal,
): Promise<ResponsesPage> {
  const { data, headers } = await api.get<Responses>(`${blogPath(blogId)}/responses`, {
    query: { state, page, pageSize: RESPONSES_PAGE_SIZE },
    ...(signal ? { signal } : {}),
  });
  return { responses: data.responses, paging: paging(headers) };
}

/** Approves one response, puts it in Spam, or (a comment) blocks its address too; answers its new state. */
export async function actOn(blogId: number, response: Response, action: Action): Promise<ResponseState> {
  const path = `${onePath(blogId, response)}/${action}`;
  if (response.kind === 'reply') {
    const { data } = await api.post<OneReply>(path, {});
    return data.reply.state;
  }
  const { data } = await api.post<OneResponse>(path, {});
  return data.response.state;
}

/** Deletes one response (off the post's page if it was shown). */
export async function deleteResponse(blogId: number, response: Response): Promise<void> {
  await api.delete(onePath(blogId, response));
}

/** Sets the owner's reply under a comment ('' removes it). */
export async function replyTo(blogId: number, response: Response, text: string): Promise<Response> {
  const { data } = await api.put<OneResponse>(`${onePath(blogId, response)}/reply`, { text });
  return data.response;
}

/** Approves, marks as spam or deletes several responses in one go; answers how many changed. */
export async function actOnMany(blogId: number, responses: Response[], action: BulkAction): Promise<number> {
  const ids = responses.filter((r) => r.kind !== 'reply').map((r) => r.id);
  const replyIds = responses.filter((r) => r.kind === 'reply').map((r) => r.id);
  const { data } = await api.post<BulkDone>(`${blogPath(blogId)}/responses/bulk`, { ids, replyIds, action });
  return data.done;
}

/** Who may comment on the blog, and its blocked words. */
export async function fetchCommentSettings(blogId: number, signal?: AbortSignal): Promise<CommentSettings> {
  const { data } = await api.get<CommentsAnswer>(`${blogPath(blogId)}/comments`, signal ? { signal } : {});
  return data.comments;
}

/** Saves who may comment and the blocked words; answers them as stored. */
export async function saveCommentSettings(blogId: number, settings: CommentSettings): Promise<CommentSettings> {
  const { data } = await api.put<CommentsAnswer>(`${blogPath(blogId)}/comments`, settings);
  return data.comments;
}

/** Closes (or opens again) one post's comments; answers whether they are closed now. */
export async function setCommentsClosed(blogId: number, postId: string, closed: boolean): Promise<boolean> {
  const { data } = await api.put<PostComments>(`${blogPath(blogId)}/posts/${postId}/comments`, { closed });
  return data.commentsClosed;
}
