//! Favicons: the Unicode emoji set, in Unicode's order, seeded by the first migration.

use rusqlite::{Connection, OptionalExtension, Transaction, params};
use serde::Serialize;
use ts_rs::TS;

use crate::domain::content::emoji;
use crate::error::Error;

/// A favicon as the API shows it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, TS)]
#[ts(export_to = "favicons.ts")]
pub struct Favicon {
    /// Favicon id.
    pub id: i64,
    /// Twemoji-style code: lowercase hex code points joined by `-`.
    pub code: String,
}

/// Number of favicons.
pub fn count(conn: &Connection) -> Result<u64, Error> {
    Ok(conn.prepare_cached("SELECT count(*) FROM favicons")?.query_row([], |row| row.get(0))?)
}

/// The id of the favicon with `code`, if there is one.
pub fn id_of_code(conn: &Connection, code: &str) -> Result<Option<i64>, Error> {
    Ok(conn
        .prepare_cached("SELECT id FROM favicons WHERE code = ?1")?
        .query_row([code], |row| row.get(0))
        .optional()?)
}

/// One page of favicons in Unicode order.
pub fn page(conn: &Connection, offset: u64, limit: u32) -> Result<Vec<Favicon>, Error> {
    let mut stmt = conn.prepare_cached("SELECT id, code FROM favicons ORDER BY id LIMIT ?1 OFFSET ?2")?;
    let favicons = stmt
        .query_map(params![limit, offset], |row| Ok(Favicon { id: row.get(0)?, code: row.get(1)? }))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(favicons)
}

/// Every favicon with its English name, in Unicode order.
pub fn all_named(conn: &Connection) -> Result<Vec<(Favicon, String)>, Error> {
    let mut stmt = conn.prepare_cached("SELECT id, code, name FROM favicons ORDER BY id")?;
    let favicons = stmt
        .query_map([], |row| Ok((Favicon { id: row.get(0)?, code: row.get(1)? }, row.get(2)?)))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(favicons)
}

/// Inserts every emoji (skin-tone variants after their base) in Unicode order.
pub fn seed(tx: &Transaction) -> rusqlite::Result<()> {
    let mut insert =
        tx.prepare_cached("INSERT OR IGNORE INTO favicons (code, emoji, name, emoji_group) VALUES (?1, ?2, ?3, ?4)")?;
    for emoji in emoji::all() {
        let group = format!("{:?}", emoji.group());
        insert.execute(params![emoji::code_of(emoji.as_str()), emoji.as_str(), emoji.name(), group])?;
    }
    Ok(())
}
