// Generated from the server's structs (src/http/api/, src/http/ui.rs) by ts-rs: do not edit.
// Regenerate with `QUIRE_WRITE_API_TYPES=1 cargo test --lib api_types`.

/**
 * A check that passed: where the blog's home page shows the CSS checked, for ten minutes.
 */
export type CssCheckAnswer = { 
/**
 * The live preview's address on the blog's own host (`/css-preview/{token}`).
 */
preview: string, };

/**
 * The blog's custom stylesheet.
 */
export type CustomCssAnswer = { 
/**
 * The CSS exactly as stored ('' for none).
 */
css: string, };
