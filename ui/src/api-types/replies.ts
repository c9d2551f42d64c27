// Generated from the server's structs (src/http/api/, src/http/ui.rs) by ts-rs: do not edit.
// Regenerate with `QUIRE_WRITE_API_TYPES=1 cargo test --lib api_types`.

/**
 * `{reply}`.
 */
export type OneReply = { reply: Reply, };

/**
 * `{replies}`, newest first.
 */
export type Replies = { replies: Array<Reply>, };

/**
 * A reply from the fediverse to one of the blog's posts, `<reply>` of docs/api.md.
 */
export type Reply = { id: number, 
/**
 * The short id of the post it answers.
 */
postId: string, postTitle: string, authorName: string, 
/**
 * `@bob@peer.example`.
 */
authorHandle: string, 
/**
 * The author's profile page.
 */
authorUrl: string, 
/**
 * The reply's own page, or null.
 */
url: string | null, 
/**
 * Plain text, paragraphs separated by a blank line.
 */
text: string, publishedAt: string, receivedAt: string, 
/**
 * Held for the owner's approval, shown under the post, or in spam.
 */
state: "held" | "approved" | "spam", };
