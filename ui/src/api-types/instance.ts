// Generated from the server's structs (src/http/api/, src/http/ui.rs) by ts-rs: do not edit.
// Regenerate with `QUIRE_WRITE_API_TYPES=1 cargo test --lib api_types`.

/**
 * A post on the landing page.
 */
export type FrontPost = { title: string, 
/**
 * Its public address (on its blog's custom domain when it has one).
 */
url: string, 
/**
 * When it was published (ISO 8601, UTC).
 */
publishedAt: string, blogName: string, 
/**
 * Its blog's public address.
 */
blogUrl: string, };

/**
 * `{description, posts}`.
 */
export type InstanceAnswer = { 
/**
 * The operator's description as HTML, through the posts' Markdown renderer (raw HTML is
 * shown as text); '' when there is none.
 */
description: string, 
/**
 * The newest posts of the listed blogs, newest first.
 */
posts: Array<FrontPost>, };
