//! Who uploaded which image file.

use rusqlite::{Connection, OptionalExtension, params};

use crate::error::Error;

/// Records that `user_id` uploaded the file with this hash (once per user and file).
pub fn record(conn: &Connection, user_id: i64, hash: &str, mime: &str, size: usize) -> Result<(), Error> {
    conn.execute(
        "INSERT OR IGNORE INTO images (user_id, hash, mime, size) VALUES (?1, ?2, ?3, ?4)",
        params![user_id, hash, mime, size as i64],
    )?;
    Ok(())
}

/// Bytes `user_id` would store after adding the file with this hash (`size` bytes): files the
/// user already uploaded count once.
pub fn bytes_after(conn: &Connection, user_id: i64, hash: &str, size: usize) -> Result<u64, Error> {
    let known = conn
        .query_row("SELECT 1 FROM images WHERE user_id = ?1 AND hash = ?2", params![user_id, hash], |_| Ok(()))
        .optional()?
        .is_some();
    let stored: i64 = conn.query_row("SELECT coalesce(sum(size), 0) FROM images WHERE user_id = ?1", [user_id], |r| r.get(0))?;
    Ok(stored as u64 + if known { 0 } else { size as u64 })
}
