//! Themes: the blog's look, seeded by the first migration.

use rusqlite::{Connection, OptionalExtension};
use serde::Serialize;
use ts_rs::TS;

use crate::error::Error;

/// A theme as the API shows it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, TS)]
#[ts(export_to = "themes.ts")]
pub struct Theme {
    /// Theme id.
    pub id: i64,
    /// Display name.
    pub name: String,
}

/// Every theme, in display order.
pub fn list(conn: &Connection) -> Result<Vec<Theme>, Error> {
    let mut stmt = conn.prepare_cached("SELECT id, name FROM themes ORDER BY position, id")?;
    let themes =
        stmt.query_map([], |row| Ok(Theme { id: row.get(0)?, name: row.get(1)? }))?.collect::<rusqlite::Result<_>>()?;
    Ok(themes)
}

/// The id of the theme with `slug` (`default`, `serif`, ...), if there is one.
pub fn id_of_slug(conn: &Connection, slug: &str) -> Result<Option<i64>, Error> {
    Ok(conn.prepare_cached("SELECT id FROM themes WHERE slug = ?1")?.query_row([slug], |row| row.get(0)).optional()?)
}
