// Generated from the server's structs (src/http/api/, src/http/ui.rs) by ts-rs: do not edit.
// Regenerate with `QUIRE_WRITE_API_TYPES=1 cargo test --lib api_types`.

/**
 * `{}`: the answer of a delete or sign-out that has nothing to show.
 */
export type Empty = Record<symbol, never>;

/**
 * How far an export or import has got: `done` of `total` steps.
 */
export type Progress = { 
/**
 * Work done so far (0 while unknown).
 */
done: number, 
/**
 * Work to do.
 */
total: number, };
