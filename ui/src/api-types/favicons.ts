// Generated from the server's structs (src/http/api/, src/http/ui.rs) by ts-rs: do not edit.
// Regenerate with `QUIRE_WRITE_API_TYPES=1 cargo test --lib api_types`.

/**
 * A favicon as the API shows it.
 */
export type Favicon = { 
/**
 * Favicon id.
 */
id: number, 
/**
 * Twemoji-style code: lowercase hex code points joined by `-`.
 */
code: string, };

/**
 * `{favicons}`: one page of them.
 */
export type Favicons = { favicons: Array<Favicon>, };
