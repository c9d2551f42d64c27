//! Addons and which blogs have them installed.

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use ts_rs::TS;

use crate::error::Error;

/// An addon as the API shows it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, TS)]
#[ts(export_to = "addons.ts")]
pub struct Addon {
    /// Addon id.
    pub id: i64,
    /// Stable name used by the public pages.
    pub slug: String,
    /// Display name.
    pub name: String,
    /// What it does.
    pub description: String,
}

fn from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Addon> {
    Ok(Addon { id: row.get(0)?, slug: row.get(1)?, name: row.get(2)?, description: row.get(3)? })
}

/// The blog's installed (`true`) or not installed (`false`) addons, in display order.
pub fn list(conn: &Connection, blog_id: i64, installed: bool) -> Result<Vec<Addon>, Error> {
    let condition = if installed { "EXISTS" } else { "NOT EXISTS" };
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT a.id, a.slug, a.name, a.description FROM addons a
         WHERE {condition} (SELECT 1 FROM installations i WHERE i.blog_id = ?1 AND i.addon_id = a.id)
         ORDER BY a.position, a.id"
    ))?;
    let addons = stmt.query_map([blog_id], from_row)?.collect::<rusqlite::Result<_>>()?;
    Ok(addons)
}

/// The slugs of the blog's installed addons, in display order.
pub fn installed_slugs(conn: &Connection, blog_id: i64) -> Result<Vec<String>, Error> {
    let mut stmt = conn.prepare_cached(
        "SELECT a.slug FROM installations i JOIN addons a ON a.id = i.addon_id WHERE i.blog_id = ?1 ORDER BY a.position, a.id",
    )?;
    let slugs = stmt.query_map([blog_id], |row| row.get(0))?.collect::<rusqlite::Result<_>>()?;
    Ok(slugs)
}

/// One addon.
pub fn get(conn: &Connection, addon_id: i64) -> Result<Option<Addon>, Error> {
    Ok(conn
        .prepare_cached("SELECT id, slug, name, description FROM addons WHERE id = ?1")?
        .query_row([addon_id], from_row)
        .optional()?)
}

/// Installs an addon; installing it again changes nothing.
pub fn install(conn: &Connection, blog_id: i64, addon_id: i64) -> Result<(), Error> {
    let added = conn.execute(
        "INSERT OR IGNORE INTO installations (blog_id, addon_id) VALUES (?1, ?2)",
        params![blog_id, addon_id],
    )?;
    if added > 0 {
        super::blogs::touch(conn, blog_id)?;
    }
    Ok(())
}

/// Uninstalls an addon; uninstalling one not installed changes nothing.
pub fn uninstall(conn: &Connection, blog_id: i64, addon_id: i64) -> Result<(), Error> {
    let removed =
        conn.execute("DELETE FROM installations WHERE blog_id = ?1 AND addon_id = ?2", params![blog_id, addon_id])?;
    if removed > 0 {
        super::blogs::touch(conn, blog_id)?;
    }
    Ok(())
}
