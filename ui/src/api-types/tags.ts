// Generated from the server's structs (src/http/api/, src/http/ui.rs) by ts-rs: do not edit.
// Regenerate with `QUIRE_WRITE_API_TYPES=1 cargo test --lib api_types`.

/**
 * A tag and how many of the blog's posts have it.
 */
export type Tag = { name: string, posts: number, };

/**
 * `{tags}`, most used first.
 */
export type Tags = { tags: Array<Tag>, };
