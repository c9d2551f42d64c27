//! Who uploaded which image file.

use rusqlite::{Connection, params};

use crate::error::Error;

/// Records that `user_id` uploaded the file with this hash (once per user and file).
pub fn record(conn: &Connection, user_id: i64, hash: &str, mime: &str, size: usize) -> Result<(), Error> {
    conn.execute(
        "INSERT OR IGNORE INTO images (user_id, hash, mime, size) VALUES (?1, ?2, ?3, ?4)",
        params![user_id, hash, mime, size as i64],
    )?;
    Ok(())
}
