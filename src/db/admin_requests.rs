//! `quire blogs approve|silence|suspend|unsuspend|delete` while `quire serve` runs: the command
//! writes a request here and waits; the server performs each waiting request through the one
//! write path (blogs/review.rs) and records its outcome.

use rusqlite::{Connection, OptionalExtension, params};

use crate::error::Error;

/// A request the server has not performed yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// Row id.
    pub id: i64,
    /// `approve`, `silence`, `suspend`, `unsuspend` or `delete`.
    pub action: String,
    /// The blog's subdomain.
    pub subdomain: String,
    /// The reason given ('' when none).
    pub reason: String,
}

/// Queues a request; answers its id.
pub fn add(conn: &Connection, action: &str, subdomain: &str, reason: &str) -> Result<i64, Error> {
    conn.execute(
        "INSERT INTO admin_requests (action, subdomain, reason) VALUES (?1, ?2, ?3)",
        params![action, subdomain, reason],
    )?;
    Ok(conn.last_insert_rowid())
}

/// Whether any request waits (the server's cheap poll).
pub fn any_waiting(conn: &Connection) -> Result<bool, Error> {
    Ok(conn
        .prepare_cached("SELECT EXISTS (SELECT 1 FROM admin_requests WHERE done IS NULL)")?
        .query_row([], |r| r.get(0))?)
}

/// The waiting requests, oldest first (at most `limit`).
pub fn waiting(conn: &Connection, limit: u32) -> Result<Vec<Request>, Error> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, action, subdomain, reason FROM admin_requests WHERE done IS NULL ORDER BY id LIMIT ?1",
    )?;
    let rows = stmt.query_map([limit], |row| {
        Ok(Request { id: row.get(0)?, action: row.get(1)?, subdomain: row.get(2)?, reason: row.get(3)? })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Records a request's outcome (`ok`, and the line the command prints).
pub fn finish(conn: &Connection, id: i64, ok: bool, outcome: &str) -> Result<(), Error> {
    conn.execute(
        "UPDATE admin_requests SET done = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ok = ?2, outcome = ?3
         WHERE id = ?1 AND done IS NULL",
        params![id, ok, outcome],
    )?;
    Ok(())
}

/// A performed request's outcome; None while it waits (or when there is no such request).
pub fn outcome(conn: &Connection, id: i64) -> Result<Option<(bool, String)>, Error> {
    Ok(conn
        .prepare_cached("SELECT ok, outcome FROM admin_requests WHERE id = ?1 AND done IS NOT NULL")?
        .query_row([id], |row| Ok((row.get(0)?, row.get(1)?)))
        .optional()?)
}

/// Takes back a request the server has not performed; false when it was performed meanwhile.
pub fn withdraw(conn: &Connection, id: i64) -> Result<bool, Error> {
    Ok(conn.execute("DELETE FROM admin_requests WHERE id = ?1 AND done IS NULL", [id])? > 0)
}
