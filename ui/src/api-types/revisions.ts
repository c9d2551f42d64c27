// Generated from the server's structs (src/http/api/, src/http/ui.rs) by ts-rs: do not edit.
// Regenerate with `QUIRE_WRITE_API_TYPES=1 cargo test --lib api_types`.
import type { PostBody } from "./posts";

/**
 * `{revisions, total}`: a page of a post's history, newest first.
 */
export type ManyRevisions = { revisions: Array<Revision>, 
/**
 * Revisions of the post in all.
 */
total: number, };

/**
 * One revision: when, who, which write replaced it, the state and the full words it holds.
 */
export type Revision = { id: number, 
/**
 * When the version it holds was replaced.
 */
createdAt: string, 
/**
 * The user who replaced it (name, or email when they have none).
 */
author: string, kind: "save" | "autosave" | "restore", state: RevisionState, title: string, slug: string, body: PostBody, tags: Array<string>, };

/**
 * A post's state as a revision recorded it.
 */
export type RevisionState = { 
/**
 * `draft`, `scheduled` or `published`.
 */
status: "draft" | "scheduled" | "published", publishedAt: string | null, scheduledAt: string | null, visibility: "public" | "unlisted", 
/**
 * Whether it was a page.
 */
page: boolean, };
