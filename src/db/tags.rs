//! A post's tags (`post_tags`), written in the post's own transaction, and the lists tags
//! make: a blog's tags, its posts with one tag (the owner's, drafts included, and the
//! public one: published posts, never pages).

use rusqlite::{Connection, Transaction, params};

use crate::db::posts::{COLUMNS, Post, from_row};
use crate::error::Error;

/// What every public list of a tag's posts requires of a post: published, listed (not unlisted),
/// and not a page.
const PUBLIC_POST: &str = "p.published_at IS NOT NULL AND NOT p.unlisted AND NOT EXISTS (SELECT 1 FROM post_pages pp WHERE pp.post_id = p.id)";

/// Fills in the tags and the page place of each post.
pub fn attach(conn: &Connection, posts: &mut [Post]) -> Result<(), Error> {
    let mut tags = conn.prepare_cached("SELECT tag FROM post_tags WHERE post_id = ?1 ORDER BY position")?;
    let mut page = conn.prepare_cached("SELECT position FROM post_pages WHERE post_id = ?1")?;
    for post in posts {
        post.tags = tags.query_map([post.id], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?;
        post.page_position = page.query_map([post.id], |r| r.get(0))?.next().transpose()?;
    }
    Ok(())
}

/// [`attach`] for one post, if there is one.
pub fn attached(conn: &Connection, post: Option<Post>) -> Result<Option<Post>, Error> {
    let Some(post) = post else { return Ok(None) };
    let mut one = [post];
    attach(conn, &mut one)?;
    let [post] = one;
    Ok(Some(post))
}

/// Replaces the post's tags (already checked) inside its write's transaction.
pub fn write(tx: &Transaction, post: &mut Post, tags: &[String]) -> Result<(), Error> {
    tx.execute("DELETE FROM post_tags WHERE post_id = ?1", [post.id])?;
    let mut insert =
        tx.prepare_cached("INSERT INTO post_tags (post_id, blog_id, tag, position) VALUES (?1, ?2, ?3, ?4)")?;
    for (position, tag) in tags.iter().enumerate() {
        insert.execute(params![post.id, post.blog_id, tag, position as i64])?;
    }
    post.tags = tags.to_vec();
    Ok(())
}

/// A tag and how many posts carry it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TagCount {
    /// The tag.
    pub tag: String,
    /// Its posts (drafts and pages included).
    pub posts: u64,
}

/// Every tag of a blog's posts, drafts included, most used first.
pub fn of_blog(conn: &Connection, blog_id: i64) -> Result<Vec<TagCount>, Error> {
    let mut stmt = conn.prepare_cached(
        "SELECT tag, count(*) AS n FROM post_tags WHERE blog_id = ?1 GROUP BY tag ORDER BY n DESC, tag",
    )?;
    let tags = stmt
        .query_map([blog_id], |r| Ok(TagCount { tag: r.get(0)?, posts: r.get(1)? }))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(tags)
}

/// Number of the blog's posts with `tag`, drafts included.
pub fn count_with_tag(conn: &Connection, blog_id: i64, tag: &str) -> Result<u64, Error> {
    Ok(conn
        .prepare_cached("SELECT count(*) FROM post_tags WHERE blog_id = ?1 AND tag = ?2")?
        .query_row(params![blog_id, tag], |r| r.get(0))?)
}

/// A page of the blog's posts with `tag`, newest first, drafts included (the owner's list).
pub fn page_with_tag(conn: &Connection, blog_id: i64, tag: &str, offset: u64, limit: u32) -> Result<Vec<Post>, Error> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM posts WHERE id IN (SELECT post_id FROM post_tags WHERE blog_id = ?1 AND tag = ?2)
         ORDER BY created_at DESC, id DESC LIMIT ?3 OFFSET ?4"
    ))?;
    let mut posts: Vec<Post> =
        stmt.query_map(params![blog_id, tag, limit, offset], from_row)?.collect::<rusqlite::Result<_>>()?;
    attach(conn, &mut posts)?;
    Ok(posts)
}

/// Number of published posts (not pages) with `tag`.
pub fn count_published(conn: &Connection, blog_id: i64, tag: &str) -> Result<u64, Error> {
    Ok(conn.prepare_cached(&format!("SELECT count(*) FROM post_tags t JOIN posts p ON p.id = t.post_id WHERE t.blog_id = ?1 AND t.tag = ?2 AND {PUBLIC_POST}"))?.query_row(
        params![blog_id, tag],
        |r| r.get(0),
    )?)
}

/// Published posts (not pages) with `tag`, newest first.
pub fn published(conn: &Connection, blog_id: i64, tag: &str, offset: u64, limit: u32) -> Result<Vec<Post>, Error> {
    let columns: Vec<String> = COLUMNS.split(", ").map(|c| format!("p.{c}")).collect();
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {} FROM post_tags t JOIN posts p ON p.id = t.post_id WHERE t.blog_id = ?1 AND t.tag = ?2 AND {PUBLIC_POST}
         ORDER BY p.published_at DESC, p.id DESC LIMIT ?3 OFFSET ?4",
        columns.join(", ")
    ))?;
    let mut posts: Vec<Post> =
        stmt.query_map(params![blog_id, tag, limit, offset], from_row)?.collect::<rusqlite::Result<_>>()?;
    attach(conn, &mut posts)?;
    Ok(posts)
}

/// A tag with a public page, and the last change of its posts.
#[derive(Debug, Clone)]
pub struct PublicTag {
    /// The tag.
    pub tag: String,
    /// Newest `updated_at` of its published posts.
    pub updated_at: String,
}

/// The tags of a blog's published posts (pages left out), by name, for the sitemap.
pub fn published_tags(conn: &Connection, blog_id: i64, limit: u64) -> Result<Vec<PublicTag>, Error> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT t.tag, max(p.updated_at) FROM post_tags t JOIN posts p ON p.id = t.post_id
         WHERE t.blog_id = ?1 AND {PUBLIC_POST} GROUP BY t.tag ORDER BY t.tag LIMIT ?2"
    ))?;
    let tags = stmt
        .query_map(params![blog_id, limit as i64], |r| Ok(PublicTag { tag: r.get(0)?, updated_at: r.get(1)? }))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(tags)
}
