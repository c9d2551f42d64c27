// Generated from the server's structs (src/http/api/, src/http/ui.rs) by ts-rs: do not edit.
// Regenerate with `QUIRE_WRITE_API_TYPES=1 cargo test --lib api_types`.

/**
 * `{trash, total}`: a page of the blog's trash, last deleted first.
 */
export type ManyTrash = { trash: Array<TrashEntry>, 
/**
 * Entries in all.
 */
total: number, };

/**
 * One deleted post in the trash.
 */
export type TrashEntry = { id: number, title: string, 
/**
 * When it was deleted.
 */
deletedAt: string, 
/**
 * When it is removed for good (30 days after its deletion).
 */
expiresAt: string, 
/**
 * Whether it was published when deleted.
 */
published: boolean, 
/**
 * Whether it was a page.
 */
page: boolean, 
/**
 * Revisions kept with it.
 */
revisions: number, };
