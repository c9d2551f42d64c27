//! Favicons: the Unicode emoji set, in Unicode's order, seeded by the first migration.

use rusqlite::{Connection, Transaction, params};
use serde::Serialize;

use crate::error::Error;

/// A favicon as the API shows it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Favicon {
    /// Favicon id.
    pub id: i64,
    /// Twemoji-style code: lowercase hex code points joined by `-`.
    pub code: String,
}

/// Number of favicons.
pub fn count(conn: &Connection) -> Result<u64, Error> {
    Ok(conn.query_row("SELECT count(*) FROM favicons", [], |row| row.get(0))?)
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

/// The twemoji file name of an emoji: its code points in lowercase hex joined by `-`,
/// without U+FE0F unless the sequence has a zero-width joiner.
pub fn twemoji_code(emoji: &str) -> String {
    let keep_fe0f = emoji.contains('\u{200D}');
    emoji
        .chars()
        .filter(|&c| keep_fe0f || c != '\u{FE0F}')
        .map(|c| format!("{:x}", c as u32))
        .collect::<Vec<_>>()
        .join("-")
}

/// Inserts every emoji (skin-tone variants after their base) in Unicode order.
pub fn seed(tx: &Transaction) -> rusqlite::Result<()> {
    let mut insert = tx.prepare(
        "INSERT OR IGNORE INTO favicons (code, emoji, name, emoji_group) VALUES (?1, ?2, ?3, ?4)",
    )?;
    for base in emojis::iter() {
        let variants: Vec<&emojis::Emoji> = match base.skin_tones() {
            Some(tones) => tones.collect(),
            None => vec![base],
        };
        for emoji in variants {
            let group = format!("{:?}", emoji.group());
            insert.execute(params![twemoji_code(emoji.as_str()), emoji.as_str(), emoji.name(), group])?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::twemoji_code;

    #[test]
    fn codes_follow_twemoji_file_names() {
        assert_eq!(twemoji_code("😀"), "1f600");
        assert_eq!(twemoji_code("❤️"), "2764");
        assert_eq!(twemoji_code("👍🏽"), "1f44d-1f3fd");
        assert_eq!(twemoji_code("🏳️‍🌈"), "1f3f3-fe0f-200d-1f308");
    }
}
