// The running server's SQLite database, for tests that write what a remote server would have made
// it store (a follower, a reply, a webmention) or read what a step changed.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** Runs SQL on the database of the server started with `dataDir`, with the sqlite3 command; gives what it printed. */
export function sqlite(dataDir: string): (statements: string) => string {
  const db = path.join(dataDir, 'data', 'quire.db');
  return (statements) =>
    execFileSync('sqlite3', ['-cmd', '.timeout 5000', db, statements], { encoding: 'utf8' }).trim();
}

/** SQL's quoting of a text value. */
export const sqlText = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** Where screenshots go: the directory in QUIRE_E2E_SHOTS, or nowhere. */
export function shotsDir(): string | null {
  return process.env.QUIRE_E2E_SHOTS || null;
}
