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
 * A comment or webmention, `<response>` of docs/api.md.
 */
export type Response = { id: number, 
/**
 * `comment` or `webmention`.
 */
kind: "comment" | "webmention", state: "held" | "approved" | "spam", 
/**
 * The short id of the post it answers.
 */
postId: string, postTitle: string, authorName: string, 
/**
 * The author's website ('' for none).
 */
authorUrl: string, 
/**
 * A webmention's source page.
 */
sourceUrl: string | null, 
/**
 * A comment's Markdown; a webmention's excerpt, plain text.
 */
text: string, 
/**
 * The owner's reply ('' for none).
 */
ownerReply: string, receivedAt: string, };

/**
 * `{responses}`: one page of them.
 */
export type Responses = { responses: Array<Response>, };
