//! The old addresses of imported posts (`redirects`): written in the import's transaction,
//! looked up by a public blog for a path it has no page of its own at. Keys are made by
//! `domain::old_paths`; a deleted post takes its addresses with it.

use rusqlite::{Connection, OptionalExtension, params};

use crate::error::Error;

/// Records `key` as an old address of the post `post_id` of the blog; false when another post
/// has it already (the first one keeps it).
pub fn add(conn: &Connection, blog_id: i64, key: &str, post_id: i64) -> Result<bool, Error> {
    let added = conn
        .prepare_cached("INSERT INTO redirects (blog_id, path, post_id) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING")?
        .execute(params![blog_id, key, post_id])?;
    Ok(added > 0)
}

/// Where a request for the old address `key` goes: the current path of the published post
/// (`/{slug}-{shortId}`) or page (`/{slug}`) that had it. Drafts and scheduled posts have
/// none, so an old address never tells a reader what is not public yet.
pub fn target(conn: &Connection, blog_id: i64, key: &str) -> Result<Option<String>, Error> {
    let found = conn
        .prepare_cached(
            "SELECT p.slug, p.short_id, pp.post_id IS NOT NULL FROM redirects r JOIN posts p ON p.id = r.post_id
             LEFT JOIN post_pages pp ON pp.post_id = p.id
             WHERE r.blog_id = ?1 AND r.path = ?2 AND p.published_at IS NOT NULL",
        )?
        .query_row(params![blog_id, key], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, bool>(2)?))
        })
        .optional()?;
    Ok(found.map(|(slug, short_id, page)| if page { format!("/{slug}") } else { format!("/{slug}-{short_id}") }))
}

/// The old addresses of a post (keys), in order.
pub fn of_post(conn: &Connection, post_id: i64) -> Result<Vec<String>, Error> {
    let mut stmt = conn.prepare_cached("SELECT path FROM redirects WHERE post_id = ?1 ORDER BY path")?;
    let paths = stmt.query_map([post_id], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?;
    Ok(paths)
}
