// Generated from the server's structs (src/http/api/, src/http/ui.rs) by ts-rs: do not edit.
// Regenerate with `QUIRE_WRITE_API_TYPES=1 cargo test --lib api_types`.

/**
 * A theme as the API shows it.
 */
export type Theme = { 
/**
 * Theme id.
 */
id: number, 
/**
 * Display name.
 */
name: string, };

/**
 * `{themes}`, in display order.
 */
export type Themes = { themes: Array<Theme>, };
