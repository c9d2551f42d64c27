// Generated from the server's structs (src/http/api/, src/http/ui.rs) by ts-rs: do not edit.
// Regenerate with `QUIRE_WRITE_API_TYPES=1 cargo test --lib api_types`.

/**
 * `{done}`: how many responses a bulk action changed.
 */
export type BulkDone = { done: number, };

/**
 * Who may comment on the blog, and the words that send a comment to Spam.
 */
export type CommentSettings = { 
/**
 * `off` (no comment form), `held` (each waits for approval), `trusted` (held but for
 * commenters approved before).
 */
mode: "off" | "held" | "trusted", blockedWords: Array<string>, };

/**
 * `{comments}`: the blog's comment settings after the call.
 */
export type CommentsAnswer = { comments: CommentSettings, };

/**
 * `{response}`: one, after a change.
 */
export type OneResponse = { response: Response, };

/**
 * `{commentsClosed}`: whether the post's comments are closed now.
 */
export type PostComments = { commentsClosed: boolean, };

/**
 * A fediverse reply, comment or webmention, `<response>` of docs/api.md.
 */
export type Response = { 
/**
 * Its id among the blog's replies (`kind` `reply`: the replies routes act on it), else
 * among its comments and webmentions.
 */
id: number, kind: "reply" | "comment" | "webmention", state: "held" | "approved" | "spam", 
/**
 * The short id of the post it answers.
 */
postId: string, postTitle: string, authorName: string, 
/**
 * A fediverse author's handle (`@bob@peer.example`), else null.
 */
authorHandle: string | null, 
/**
 * The author's website or profile ('' for none).
 */
authorUrl: string, 
/**
 * A webmention's source page, a reply's own page.
 */
sourceUrl: string | null, 
/**
 * A webmention's title ('' for none).
 */
title: string, 
/**
 * A comment's Markdown; a reply's or webmention's plain text.
 */
text: string, 
/**
 * The owner's reply under a comment ('' for none).
 */
ownerReply: string, receivedAt: string, };

/**
 * `{responses}`: one page of them.
 */
export type Responses = { responses: Array<Response>, };
