//! The instance's front page (its landing page, issue 33): the newest posts of the approved
//! blogs whose owners listed them.

use rusqlite::{Connection, params};

use crate::domain::blog::address::BlogAddress;
use crate::error::Error;

/// A post on the landing page, with what its card shows of its blog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrontPost {
    /// The post's title.
    pub title: String,
    /// Its public path on its blog (`/{slug}-{shortId}`).
    pub path: String,
    /// When it was published.
    pub published_at: String,
    /// Its blog's name.
    pub blog_name: String,
    /// Where its blog answers.
    pub address: BlogAddress,
}

/// The newest `limit` posts of the listed blogs, newest first: blogs approved and not waiting
/// for review (not new, silenced, suspended or flagged), posts published and listed (not
/// drafts, scheduled, unlisted or pages). One query.
pub fn newest(conn: &Connection, limit: u32) -> Result<Vec<FrontPost>, Error> {
    let mut stmt = conn.prepare_cached(
        "SELECT p.title, p.slug, p.short_id, p.published_at, b.name, b.subdomain, d.name
         FROM blogs b
         JOIN posts p ON p.blog_id = b.id
         LEFT JOIN custom_domains d ON d.blog_id = b.id AND d.state = 'verified'
         WHERE b.listed AND b.state = 'approved' AND b.flagged_at IS NULL
           AND p.published_at IS NOT NULL AND NOT p.unlisted
           AND NOT EXISTS (SELECT 1 FROM post_pages pp WHERE pp.post_id = p.id)
         ORDER BY p.published_at DESC, p.id DESC
         LIMIT ?1",
    )?;
    let rows = stmt.query_map(params![limit], |row| {
        Ok(FrontPost {
            title: row.get(0)?,
            path: format!("/{}-{}", row.get::<_, String>(1)?, row.get::<_, String>(2)?),
            published_at: row.get(3)?,
            blog_name: row.get(4)?,
            address: BlogAddress { subdomain: row.get(5)?, domain: row.get(6)? },
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
