//! Pages (`post_pages`): posts shown at `/{slug}` and listed, in the owner's order, in the
//! navigation of every public page, instead of in the index, the feeds and the tag pages.

use rusqlite::{Connection, OptionalExtension, Transaction, params};

use crate::db::posts::{COLUMNS, Post, from_row};
use crate::domain::content::tags::{MAX_PAGES, page_slug_taken, too_many_pages};
use crate::error::Error;

/// Makes the post a page (at the end of the navigation when it was not one) or a post again,
/// inside its write's transaction. A page's address must be free among the blog's pages.
pub fn set(tx: &Transaction, post: &mut Post, page: bool) -> Result<(), Error> {
    if !page {
        tx.execute("DELETE FROM post_pages WHERE post_id = ?1", [post.id])?;
        post.page_position = None;
        return Ok(());
    }
    let taken: bool = tx
        .prepare_cached("SELECT EXISTS (SELECT 1 FROM post_pages WHERE blog_id = ?1 AND slug = ?2 AND post_id != ?3)")?
        .query_row(params![post.blog_id, post.slug, post.id], |r| r.get(0))?;
    if taken {
        return Err(Error::invalid("page", page_slug_taken(&post.slug)));
    }
    let position: Option<i64> = tx
        .prepare_cached("SELECT position FROM post_pages WHERE post_id = ?1")?
        .query_row([post.id], |r| r.get(0))
        .optional()?;
    let position = match position {
        Some(position) => {
            tx.execute("UPDATE post_pages SET slug = ?2 WHERE post_id = ?1", params![post.id, post.slug])?;
            position
        }
        None => {
            let (count, last): (u64, Option<i64>) = tx
                .prepare_cached("SELECT count(*), max(position) FROM post_pages WHERE blog_id = ?1")?
                .query_row([post.blog_id], |r| Ok((r.get(0)?, r.get(1)?)))?;
            if count >= MAX_PAGES {
                return Err(Error::invalid("page", too_many_pages()));
            }
            let position = last.map_or(0, |p| p + 1);
            tx.execute(
                "INSERT INTO post_pages (post_id, blog_id, slug, position) VALUES (?1, ?2, ?3, ?4)",
                params![post.id, post.blog_id, post.slug, position],
            )?;
            position
        }
    };
    post.page_position = Some(position);
    Ok(())
}

/// A page as the owner's list of pages shows it.
#[derive(Debug, Clone)]
pub struct PageEntry {
    /// The post's public id.
    pub short_id: String,
    /// Its title.
    pub title: String,
    /// Its address, `/{slug}`.
    pub slug: String,
    /// Whether readers can see it.
    pub published: bool,
}

/// The blog's pages in navigation order, drafts included.
pub fn list(conn: &Connection, blog_id: i64) -> Result<Vec<PageEntry>, Error> {
    let mut stmt = conn.prepare_cached(
        "SELECT p.short_id, p.title, pp.slug, p.published_at IS NOT NULL FROM post_pages pp JOIN posts p ON p.id = pp.post_id
         WHERE pp.blog_id = ?1 ORDER BY pp.position, pp.post_id",
    )?;
    let pages = stmt
        .query_map([blog_id], |r| {
            Ok(PageEntry { short_id: r.get(0)?, title: r.get(1)?, slug: r.get(2)?, published: r.get(3)? })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(pages)
}

/// Puts the blog's pages in the order of `short_ids`, which must name each of them once.
pub fn reorder(conn: &mut Connection, blog_id: i64, short_ids: &[String]) -> Result<Vec<PageEntry>, Error> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let current = list(&tx, blog_id)?;
    let mut given: Vec<&str> = short_ids.iter().map(String::as_str).collect();
    let mut expected: Vec<&str> = current.iter().map(|p| p.short_id.as_str()).collect();
    given.sort_unstable();
    expected.sort_unstable();
    if given != expected {
        return Err(Error::invalid("pages", "Should list each of the blog's pages once"));
    }
    {
        let mut update = tx.prepare_cached(
            "UPDATE post_pages SET position = ?3 WHERE blog_id = ?1 AND post_id = (SELECT id FROM posts WHERE blog_id = ?1 AND short_id = ?2)",
        )?;
        for (position, short_id) in short_ids.iter().enumerate() {
            update.execute(params![blog_id, short_id, position as i64])?;
        }
    }
    let pages = list(&tx, blog_id)?;
    tx.commit()?;
    Ok(pages)
}

/// A link of the blog's navigation.
#[derive(Debug, Clone)]
pub struct NavLink {
    /// The page's title.
    pub title: String,
    /// Its address, `/{slug}`.
    pub slug: String,
}

/// The blog's published pages in navigation order.
pub fn nav(conn: &Connection, blog_id: i64) -> Result<Vec<NavLink>, Error> {
    let mut stmt = conn.prepare_cached(
        "SELECT p.title, pp.slug FROM post_pages pp JOIN posts p ON p.id = pp.post_id
         WHERE pp.blog_id = ?1 AND p.published_at IS NOT NULL ORDER BY pp.position, pp.post_id",
    )?;
    let links = stmt
        .query_map([blog_id], |r| Ok(NavLink { title: r.get(0)?, slug: r.get(1)? }))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(links)
}

/// The published page at `/{slug}`.
pub fn published_page(conn: &Connection, blog_id: i64, slug: &str) -> Result<Option<Post>, Error> {
    let post = conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM posts WHERE published_at IS NOT NULL
                 AND id = (SELECT post_id FROM post_pages WHERE blog_id = ?1 AND slug = ?2)"
        ))?
        .query_row(params![blog_id, slug], from_row)
        .optional()?;
    crate::db::tags::attached(conn, post)
}
