//! Writing imported posts (blogs/imports/): a batch of posts in one transaction, each with
//! its own dates, slug, tags, page place, the `imported_items` row that remembers which
//! export item it came from, and its old addresses (`redirects`). A batch is written whole or
//! not at all, so a crash never leaves half a post.

use std::collections::HashSet;

use rusqlite::{Connection, OptionalExtension, Transaction, params};

use crate::db::posts::{self, COLUMNS, Post, from_row};
use crate::db::{redirects, tags};
use crate::domain::blog::old_paths;
use crate::domain::blog::post_address::is_short_id;
use crate::domain::content::tags::{MAX_PAGES, free_page_address, is_reserved};
use crate::domain::federation::inbound::host_of;
use crate::domain::limits::MAX_POSTS_PER_BLOG;
use crate::error::Error;
use crate::portable::model::MovedResponse;

/// One imported post, checked and ready to store.
#[derive(Debug, Clone)]
pub struct ImportWrite {
    /// The key of the export item it comes from (`portable::normalize::source_key`).
    pub source_key: String,
    /// A Quire archive's own short id: kept when no post has it, else the archive's permalink
    /// (`/{slug}-{shortId}`) becomes an old address of the post.
    pub short_id: Option<String>,
    /// Its slug (a page's wanted address).
    pub slug: String,
    /// Title derived from the body.
    pub title: String,
    /// The validated body as JSON.
    pub body_json: String,
    /// Whether it is a page.
    pub page: bool,
    /// A page's place in the navigation; `None` puts it last.
    pub page_position: Option<i64>,
    /// Its tags, checked and normalized.
    pub tags: Vec<String>,
    /// Stored times (`domain::schedule::stored`).
    pub created_at: String,
    /// Last change.
    pub updated_at: String,
    /// When it was published; `None` for drafts and scheduled posts.
    pub published_at: Option<String>,
    /// When it is to be published; `None` unless scheduled.
    pub scheduled_at: Option<String>,
    /// Its old addresses, as `domain::old_paths` keys.
    pub old_paths: Vec<String>,
    /// Whether its comments are closed.
    pub comments_closed: bool,
    /// Whether it is unlisted (docs/unlisted.md).
    pub unlisted: bool,
    /// Its comments and webmentions (a Quire archive's), added with it.
    pub responses: Vec<MovedResponse>,
    /// Its revisions (a Quire archive's: docs/revisions.md), added with it.
    pub revisions: Vec<super::revisions::Kept>,
}

/// What became of one [`ImportWrite`].
#[derive(Debug, Clone)]
pub enum Outcome {
    /// Written: the post (tags and page place filled in), what was changed on the way, and
    /// how many old addresses now lead to it.
    Written {
        /// The stored post.
        post: Box<Post>,
        /// Changes made while writing it (a page's address taken, the pages full, an old
        /// address that leads to another post), one sentence each.
        changes: Vec<String>,
        /// Old addresses recorded.
        redirects: u64,
        /// Comments and webmentions added with it.
        responses: u64,
    },
    /// An earlier import wrote it (its post is still there).
    AlreadyImported,
    /// The blog holds [`MAX_POSTS_PER_BLOG`] posts.
    BlogFull,
}

/// What became of each write of a batch, and the new change counter (`None` when nothing was
/// written).
pub type BatchWritten = (Vec<Outcome>, Option<i64>);

/// The keys among `keys` whose items are already imported into the blog.
pub fn imported(conn: &Connection, blog_id: i64, keys: &[String]) -> Result<HashSet<String>, Error> {
    let mut stmt = conn.prepare_cached("SELECT 1 FROM imported_items WHERE blog_id = ?1 AND source_key = ?2")?;
    let mut found = HashSet::new();
    for key in keys {
        if stmt.query_row(params![blog_id, key], |_| Ok(())).optional()?.is_some() {
            found.insert(key.clone());
        }
    }
    Ok(found)
}

/// Writes `writes` into the blog in one transaction, in order; returns what became of each
/// and the new change counter (`None` when nothing was written). Once the blog is full,
/// every later item is [`Outcome::BlogFull`].
pub fn write_batch(conn: &mut Connection, blog_id: i64, writes: &[ImportWrite]) -> Result<BatchWritten, Error> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let mut count = posts::count(&tx, blog_id)?;
    let mut outcomes = Vec::with_capacity(writes.len());
    for write in writes {
        let done: bool = tx
            .prepare_cached("SELECT EXISTS (SELECT 1 FROM imported_items WHERE blog_id = ?1 AND source_key = ?2)")?
            .query_row(params![blog_id, write.source_key], |r| r.get(0))?;
        if done {
            outcomes.push(Outcome::AlreadyImported);
        } else if count >= MAX_POSTS_PER_BLOG {
            outcomes.push(Outcome::BlogFull);
        } else {
            outcomes.push(write_one(&tx, blog_id, write)?);
            count += 1;
        }
    }
    let written = outcomes.iter().any(|o| matches!(o, Outcome::Written { .. }));
    let seq = if written { Some(posts::bump_seq(&tx)?) } else { None };
    tx.commit()?;
    Ok((outcomes, seq))
}

fn write_one(tx: &Transaction, blog_id: i64, write: &ImportWrite) -> Result<Outcome, Error> {
    let mut changes = Vec::new();
    let mut slug = write.slug.clone();
    let mut position = None;
    if write.page {
        let (taken, last): (Vec<String>, Option<i64>) = {
            let mut stmt = tx.prepare_cached("SELECT slug, position FROM post_pages WHERE blog_id = ?1")?;
            let rows: Vec<(String, i64)> =
                stmt.query_map([blog_id], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<rusqlite::Result<_>>()?;
            let last = rows.iter().map(|(_, p)| *p).max();
            (rows.into_iter().map(|(s, _)| s).collect(), last)
        };
        if taken.len() as u64 >= MAX_PAGES {
            changes.push(format!("the blog has {MAX_PAGES} pages already: imported as a post"));
        } else {
            let address = free_page_address(&slug, |s| taken.iter().any(|t| t == s));
            if address != slug {
                changes.push(if is_reserved(&slug) {
                    format!("the address /{slug} belongs to the blog itself: the page is at /{address}")
                } else {
                    format!("another page has the address /{slug}: this one is at /{address}")
                });
                slug = address;
            }
            position = Some(write.page_position.unwrap_or_else(|| last.map_or(0, |p| p + 1)));
        }
    }
    let kept =
        write.short_id.as_deref().filter(|id| is_short_id(id)).map(|id| short_id_free(tx, id)).transpose()?.flatten();
    let mut insert = tx.prepare_cached(
        "INSERT INTO posts (blog_id, short_id, slug, title, body, published_at, scheduled_at, created_at, updated_at,
             unlisted)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?;
    let mut insert_as = |short_id: &str| {
        let w = write;
        let times = (&w.published_at, &w.scheduled_at, &w.created_at, &w.updated_at);
        insert.execute(params![
            blog_id,
            short_id,
            slug,
            w.title,
            w.body_json,
            times.0,
            times.1,
            times.2,
            times.3,
            w.unlisted
        ])
    };
    let id = match &kept {
        Some(short_id) => {
            insert_as(short_id)?;
            tx.last_insert_rowid()
        }
        None => posts::with_fresh_short_id(tx, insert_as)?,
    };
    let mut post =
        tx.prepare_cached(&format!("SELECT {COLUMNS} FROM posts WHERE id = ?1"))?.query_row([id], from_row)?;
    tags::write(tx, &mut post, &write.tags)?;
    if let Some(position) = position {
        tx.prepare_cached("INSERT INTO post_pages (post_id, blog_id, slug, position) VALUES (?1, ?2, ?3, ?4)")?
            .execute(params![post.id, blog_id, slug, position])?;
        post.page_position = Some(position);
    }
    tx.prepare_cached("INSERT INTO imported_items (blog_id, source_key, post_id) VALUES (?1, ?2, ?3)")?
        .execute(params![blog_id, write.source_key, post.id])?;
    let mut keys = write.old_paths.clone();
    if let Some(old) = write.short_id.as_deref().filter(|_| kept.is_none()) {
        keys.extend(old_paths::key(&format!("/{}-{old}", write.slug)));
    }
    let mut recorded = 0;
    for key in &keys {
        if redirects::add(tx, blog_id, key, post.id)? {
            recorded += 1;
        } else {
            changes.push(format!("the old address {key} already leads to another post: not redirected here"));
        }
    }
    let responses = add_moved_responses(tx, blog_id, post.id, write.comments_closed, &write.responses)?;
    super::revisions::put_back(tx, post.id, &write.revisions)?;
    Ok(Outcome::Written { post: Box::new(post), changes, redirects: recorded, responses })
}

/// `short_id` when no post (of any blog) has it.
fn short_id_free(conn: &Connection, short_id: &str) -> Result<Option<String>, Error> {
    let taken: bool = conn
        .prepare_cached("SELECT EXISTS (SELECT 1 FROM posts WHERE short_id = ?1)")?
        .query_row([short_id], |r| r.get(0))?;
    Ok((!taken).then(|| short_id.to_owned()))
}

/// In an import batch's transaction, for a post it wrote: closes its comments when the export
/// says so and adds its comments, webmentions and fediverse replies as the export has them
/// (state, author, text, the owner's reply, when each came); answers how many were added (a
/// second webmention from the same source is one, a Note this server holds already is left out).
pub fn add_moved_responses(
    conn: &Connection,
    blog_id: i64,
    post_id: i64,
    comments_closed: bool,
    responses: &[MovedResponse],
) -> Result<u64, Error> {
    if comments_closed {
        crate::db::responses::set_post_closed(conn, post_id, true)?;
    }
    let mut insert = conn.prepare_cached(
        "INSERT OR IGNORE INTO responses (blog_id, post_id, kind, state, author_name, author_url, source_url,
                                          title, text, owner_reply, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?11)",
    )?;
    let mut reply = conn.prepare_cached(
        "INSERT OR IGNORE INTO replies (note_id, post_id, actor_id, author_name, author_handle, author_url, url, text,
                                        published_at, state, received_at, actor_host)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
    )?;
    let mut added = 0;
    for r in responses {
        if let (Some(note_id), Some(actor_id)) = (&r.note_id, &r.actor_id)
            && r.kind == "reply"
        {
            added += reply.execute(params![
                note_id,
                post_id,
                actor_id,
                r.author_name,
                r.author_handle.as_deref().unwrap_or_default(),
                r.author_url,
                r.source_url,
                r.text,
                r.published_at.as_deref().unwrap_or(&r.received_at),
                r.state,
                r.received_at,
                host_of(actor_id).unwrap_or_default()
            ])? as u64;
            continue;
        }
        added += insert.execute(params![
            blog_id,
            post_id,
            r.kind,
            r.state,
            r.author_name,
            r.author_url,
            r.source_url,
            r.title,
            r.text,
            r.owner_reply,
            r.received_at
        ])? as u64;
    }
    Ok(added)
}
