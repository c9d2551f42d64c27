//! Themes: the blog's look, seeded by the first migration.

use rusqlite::Connection;
use serde::Serialize;

use crate::error::Error;

/// A theme as the API shows it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Theme {
    /// Theme id.
    pub id: i64,
    /// Display name.
    pub name: String,
}

/// Every theme, in display order.
pub fn list(conn: &Connection) -> Result<Vec<Theme>, Error> {
    let mut stmt = conn.prepare_cached("SELECT id, name FROM themes ORDER BY position, id")?;
    let themes = stmt
        .query_map([], |row| Ok(Theme { id: row.get(0)?, name: row.get(1)? }))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(themes)
}
