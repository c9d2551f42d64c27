// Generated from the server's structs (src/http/api/, src/http/ui.rs) by ts-rs: do not edit.
// Regenerate with `QUIRE_WRITE_API_TYPES=1 cargo test --lib api_types`.
import type { Progress } from "./answers";

/**
 * An import as the API shows it.
 */
export type Import = { id: number, 
/**
 * The export's format, as recognized (`portable::Format::key`).
 */
format: "wordpress" | "ghost" | "writefreely" | "bearblog" | "markdown" | "quire", 
/**
 * The uploaded file's name, as sent.
 */
fileName: string | null, 
/**
 * `queued`, `running`, `done` or `failed`.
 */
state: "queued" | "running" | "done" | "failed", progress: Progress, error: string | null, 
/**
 * What was imported and what was not (the import report), once done.
 */
report: unknown, createdAt: string, startedAt: string | null, finishedAt: string | null, expiresAt: string | null, };

/**
 * `{imports}`, newest first.
 */
export type Imports = { imports: Array<Import>, };

/**
 * `{import}`.
 */
export type OneImport = { import: Import, };
