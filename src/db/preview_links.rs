//! Preview links: one secret link per unpublished post, stored as the SHA-256 of its token.

use rusqlite::{Connection, OptionalExtension, params};

use crate::db::posts::{COLUMNS, Post, from_row};
use crate::error::Error;

/// Gives the post (row id `post_id`) a link with this token hash, replacing its old one;
/// returns when it was created.
pub fn replace(conn: &Connection, post_id: i64, token_hash: &[u8]) -> Result<String, Error> {
    Ok(conn
        .prepare_cached(
            "INSERT INTO preview_links (post_id, token_hash) VALUES (?1, ?2)
         ON CONFLICT (post_id) DO UPDATE SET token_hash = excluded.token_hash, created_at = excluded.created_at
         RETURNING created_at",
        )?
        .query_row(params![post_id, token_hash], |r| r.get(0))?)
}

/// When the post's link was created, if it has one.
pub fn created_at(conn: &Connection, post_id: i64) -> Result<Option<String>, Error> {
    Ok(conn
        .prepare_cached("SELECT created_at FROM preview_links WHERE post_id = ?1")?
        .query_row([post_id], |r| r.get(0))
        .optional()?)
}

/// Revokes the post's link; `false` when it had none.
pub fn revoke(conn: &Connection, post_id: i64) -> Result<bool, Error> {
    Ok(conn.execute("DELETE FROM preview_links WHERE post_id = ?1", [post_id])? > 0)
}

/// The post of `blog_id` whose link has this token hash, published or not.
pub fn post_by_token(conn: &Connection, blog_id: i64, token_hash: &[u8]) -> Result<Option<Post>, Error> {
    let columns = COLUMNS.split(", ").map(|c| format!("p.{c}")).collect::<Vec<_>>().join(", ");
    let post = conn
        .prepare_cached(&format!("SELECT {columns} FROM preview_links l JOIN posts p ON p.id = l.post_id WHERE l.token_hash = ?1 AND p.blog_id = ?2"))?.query_row(
            params![token_hash, blog_id],
            from_row,
        )
        .optional()?;
    crate::db::tags::attached(conn, post) // the preview shows its tags as the page will
}
