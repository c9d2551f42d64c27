// Generated from the server's structs (src/http/api/, src/http/ui.rs) by ts-rs: do not edit.
// Regenerate with `QUIRE_WRITE_API_TYPES=1 cargo test --lib api_types`.

/**
 * `{timeZones}`: IANA names, sorted.
 */
export type TimeZones = { timeZones: Array<string>, };
