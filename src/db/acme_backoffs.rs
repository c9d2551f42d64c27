//! What the ACME manager keeps across restarts about new certificate orders (migration 17):
//! the pause of each registered domain, and the new orders of the last day.

use rusqlite::{Connection, params};

use crate::error::Error;

/// A registered domain's pause of new orders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackoffRow {
    /// The registered domain (`example.co.uk`).
    pub registered_domain: String,
    /// Failed orders in a row.
    pub failures: u32,
    /// No new order before this (unix seconds).
    pub retry_at: i64,
    /// The last failure, for people.
    pub error: String,
}

/// Every stored pause.
pub fn all(conn: &Connection) -> Result<Vec<BackoffRow>, Error> {
    let mut stmt = conn.prepare_cached("SELECT registered_domain, failures, retry_at, error FROM acme_backoffs")?;
    let rows = stmt.query_map([], |r| {
        Ok(BackoffRow { registered_domain: r.get(0)?, failures: r.get(1)?, retry_at: r.get(2)?, error: r.get(3)? })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Stores `row`, replacing the domain's earlier pause.
pub fn put(conn: &Connection, row: &BackoffRow) -> Result<(), Error> {
    conn.execute(
        "INSERT OR REPLACE INTO acme_backoffs (registered_domain, failures, retry_at, error) VALUES (?1, ?2, ?3, ?4)",
        params![row.registered_domain, row.failures, row.retry_at, row.error],
    )?;
    Ok(())
}

/// Forgets the pause of `registered_domain` (a new order under it succeeded).
pub fn clear(conn: &Connection, registered_domain: &str) -> Result<(), Error> {
    conn.execute("DELETE FROM acme_backoffs WHERE registered_domain = ?1", [registered_domain])?;
    Ok(())
}

/// When each new order since `since` (unix seconds) started, oldest first.
pub fn new_orders_since(conn: &Connection, since: i64) -> Result<Vec<i64>, Error> {
    let mut stmt =
        conn.prepare_cached("SELECT started_at FROM acme_new_orders WHERE started_at >= ?1 ORDER BY started_at")?;
    Ok(stmt.query_map([since], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?)
}

/// Records a new order of `name` at `at` (unix seconds), deleting those a day older.
pub fn record_new_order(conn: &Connection, name: &str, at: i64) -> Result<(), Error> {
    conn.execute("DELETE FROM acme_new_orders WHERE started_at < ?1", [at - 86400])?;
    conn.execute("INSERT INTO acme_new_orders (name, started_at) VALUES (?1, ?2)", params![name, at])?;
    Ok(())
}
