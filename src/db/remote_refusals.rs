//! What the caps on remote servers refused (migration 15, issue 28): per blog and kind, how
//! many, and the last host refused and when. The owner's Fediverse settings show it.

use rusqlite::{Connection, params};

use crate::domain::federation::remote_limits::Capped;
use crate::error::Error;

/// One kind's refusals for a blog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusals {
    /// What was refused.
    pub kind: Capped,
    /// How many, since the blog began.
    pub count: i64,
    /// The host of the last one.
    pub last_host: String,
    /// When the last one came (stored form).
    pub last_at: String,
}

/// Counts one refusal of `kind` from `host` for the blog.
pub fn record(conn: &Connection, blog_id: i64, kind: Capped, host: &str) -> Result<(), Error> {
    conn.execute(
        "INSERT INTO remote_refusals (blog_id, kind, count, last_host) VALUES (?1, ?2, 1, ?3)
         ON CONFLICT (blog_id, kind) DO UPDATE SET count = count + 1, last_host = excluded.last_host,
             last_at = excluded.last_at",
        params![blog_id, kind.name(), host],
    )?;
    Ok(())
}

/// The blog's refusals, by kind.
pub fn list(conn: &Connection, blog_id: i64) -> Result<Vec<Refusals>, Error> {
    let mut stmt =
        conn.prepare("SELECT kind, count, last_host, last_at FROM remote_refusals WHERE blog_id = ?1 ORDER BY kind")?;
    let rows: Vec<(String, i64, String, String)> = stmt
        .query_map([blog_id], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows
        .into_iter()
        .filter_map(|(kind, count, last_host, last_at)| {
            Some(Refusals { kind: Capped::parse(&kind)?, count, last_host, last_at })
        })
        .collect())
}
