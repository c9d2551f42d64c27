//! Who uploaded which image file.

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension, params};

use crate::error::Error;

/// Records that `user_id` uploaded the file with this hash (once per user and file), and its
/// width and height in pixels (`None`: unreadable). False, with nothing recorded, when the user
/// is gone (an account deleted while its import stored images).
pub fn record(
    conn: &Connection,
    user_id: i64,
    hash: &str,
    mime: &str,
    size: usize,
    pixels: Option<(u32, u32)>,
) -> Result<bool, Error> {
    let exists: bool =
        conn.prepare_cached("SELECT EXISTS (SELECT 1 FROM users WHERE id = ?1)")?.query_row([user_id], |r| r.get(0))?;
    if !exists {
        return Ok(false);
    }
    let (width, height) = pixels.unwrap_or((0, 0));
    conn.execute(
        "INSERT OR IGNORE INTO images (user_id, hash, mime, size, width, height) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![user_id, hash, mime, size as i64, width, height],
    )?;
    Ok(true)
}

/// The width and height of the files with these hashes, where known.
pub fn sizes(conn: &Connection, hashes: &[&str]) -> Result<HashMap<String, (u32, u32)>, Error> {
    let mut query =
        conn.prepare_cached("SELECT width, height FROM images WHERE hash = ?1 AND width > 0 AND height > 0 LIMIT 1")?;
    let mut sizes = HashMap::new();
    for hash in hashes {
        if let Some(size) = query.query_row([hash], |r| Ok((r.get(0)?, r.get(1)?))).optional()? {
            sizes.insert((*hash).to_owned(), size);
        }
    }
    Ok(sizes)
}

/// Files whose size was never read (uploaded before sizes were recorded): hash and MIME type.
pub fn without_size(conn: &Connection) -> Result<Vec<(String, String)>, Error> {
    let mut query =
        conn.prepare_cached("SELECT DISTINCT hash, mime FROM images WHERE width IS NULL OR height IS NULL")?;
    let rows = query.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Records the size of the file with this hash (`None`: unreadable, stored as 0).
pub fn set_size(conn: &Connection, hash: &str, pixels: Option<(u32, u32)>) -> Result<(), Error> {
    let (width, height) = pixels.unwrap_or((0, 0));
    conn.execute("UPDATE images SET width = ?2, height = ?3 WHERE hash = ?1", params![hash, width, height])?;
    Ok(())
}

/// Bytes `user_id` would store after adding the file with this hash (`size` bytes): files the
/// user already uploaded count once.
pub fn bytes_after(conn: &Connection, user_id: i64, hash: &str, size: usize) -> Result<u64, Error> {
    let known = conn
        .prepare_cached("SELECT 1 FROM images WHERE user_id = ?1 AND hash = ?2")?
        .query_row(params![user_id, hash], |_| Ok(()))
        .optional()?
        .is_some();
    Ok(bytes_of_user(conn, user_id)? + if known { 0 } else { size as u64 })
}

/// Whether the upload with this hash belongs only to suspended blogs' owners (at least one):
/// its file is served by nobody else's posts, so it answers like their blogs (410).
pub fn only_suspended_owners(conn: &Connection, hash: &str) -> Result<bool, Error> {
    Ok(conn
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM images i JOIN blogs b ON b.user_id = i.user_id
                        WHERE i.hash = ?1 AND b.state = 'suspended')
            AND NOT EXISTS (SELECT 1 FROM images i LEFT JOIN blogs b ON b.user_id = i.user_id
                            WHERE i.hash = ?1 AND (b.state IS NULL OR b.state <> 'suspended'))",
        )?
        .query_row([hash], |r| r.get(0))?)
}

/// Whether any user's upload is the file with this hash.
pub fn is_referenced(conn: &Connection, hash: &str) -> Result<bool, Error> {
    Ok(conn.prepare_cached("SELECT EXISTS (SELECT 1 FROM images WHERE hash = ?1)")?.query_row([hash], |r| r.get(0))?)
}

/// Bytes of images the user stores in all (what their upload quota counts).
pub fn bytes_of_user(conn: &Connection, user_id: i64) -> Result<u64, Error> {
    let stored: i64 = conn
        .prepare_cached("SELECT coalesce(sum(size), 0) FROM images WHERE user_id = ?1")?
        .query_row([user_id], |r| r.get(0))?;
    Ok(stored as u64)
}
