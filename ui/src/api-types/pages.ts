// Generated from the server's structs (src/http/api/, src/http/ui.rs) by ts-rs: do not edit.
// Regenerate with `QUIRE_WRITE_API_TYPES=1 cargo test --lib api_types`.

/**
 * A page in the blog's navigation.
 */
export type Page = { shortId: string, title: string, 
/**
 * `/{slug}`.
 */
path: string, published: boolean, };

/**
 * `{pages}`, in navigation order.
 */
export type Pages = { pages: Array<Page>, };
