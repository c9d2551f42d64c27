// Generated from the server's structs (src/http/api/, src/http/ui.rs) by ts-rs: do not edit.
// Regenerate with `QUIRE_WRITE_API_TYPES=1 cargo test --lib api_types`.

/**
 * `{previewLink}` with its URL, shown only right after it is made (only its hash is kept).
 */
export type CreatedPreviewLink = { previewLink: NewPreviewLink, };

/**
 * A new preview link.
 */
export type NewPreviewLink = { url: string, createdAt: string, };

/**
 * When a post's preview link was made.
 */
export type PreviewLinkSince = { createdAt: string, };

/**
 * `{previewLink}`: since when the post has one (without its URL), or null.
 */
export type PreviewLinkState = { previewLink: PreviewLinkSince | null, };
