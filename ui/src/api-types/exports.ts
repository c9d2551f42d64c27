// Generated from the server's structs (src/http/api/, src/http/ui.rs) by ts-rs: do not edit.
// Regenerate with `QUIRE_WRITE_API_TYPES=1 cargo test --lib api_types`.
import type { Progress } from "./answers";

/**
 * An export as the API shows it.
 */
export type Export = { id: number, 
/**
 * `archive`, `markdown` or `site`.
 */
format: "archive" | "markdown" | "site", 
/**
 * `queued`, `running`, `done` or `failed`.
 */
state: "queued" | "running" | "done" | "failed", progress: Progress, 
/**
 * The file's size in bytes, once done.
 */
size: number | null, 
/**
 * The name the file is offered under.
 */
fileName: string, 
/**
 * Where to download it, once done.
 */
downloadUrl: string | null, error: string | null, createdAt: string, startedAt: string | null, finishedAt: string | null, expiresAt: string | null, };

/**
 * `{exports}`, newest first.
 */
export type Exports = { exports: Array<Export>, };

/**
 * `{export}`.
 */
export type OneExport = { export: Export, };
