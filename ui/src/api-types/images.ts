// Generated from the server's structs (src/http/api/, src/http/ui.rs) by ts-rs: do not edit.
// Regenerate with `QUIRE_WRITE_API_TYPES=1 cargo test --lib api_types`.

/**
 * Where an uploaded image is served.
 */
export type ImageLink = { link: string, };

/**
 * `{data: {link}}`: Imgur's answer to an upload, which the editor reads from either host.
 */
export type Uploaded = { data: ImageLink, };
