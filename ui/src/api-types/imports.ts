// Generated from the API's answer structs (src/http/api/) by ts-rs: do not edit.
// Regenerate with `QUIRE_WRITE_API_TYPES=1 cargo test --lib api_types`.
import type { Progress } from "./answers";

/**
 * An import as the API shows it.
 */
export type Import = { id: number, 
/**
 * The export's format, as recognized.
 */
format: string, 
/**
 * The uploaded file's name, as sent.
 */
fileName: string | null, 
/**
 * `queued`, `running`, `done` or `failed`.
 */
state: string, progress: Progress, error: string | null, 
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
