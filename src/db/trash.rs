//! The trash (`trash`, issue 32, docs/revisions.md): a deleted post's content, state and
//! revisions, kept for [`TRASH_DAYS`] days, restorable as it was (its short id, so its address,
//! when still free), then removed by the periodic sweep; a blog's deletion removes its trash.

use rusqlite::{Connection, ErrorCode, OptionalExtension, Transaction, params};
use serde::{Deserialize, Serialize};

use super::posts::{COLUMNS, Post, from_row, with_fresh_short_id};
use super::revisions::{self, Kept, version_of};
use crate::domain::content::revisions::TRASH_DAYS;
pub use crate::domain::content::revisions::{Trashed, TrashedPost};
use crate::error::Error;

/// One entry of a blog's trash as the owner's list shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrashEntry {
    /// Row id.
    pub id: i64,
    /// The post's title.
    pub title: String,
    /// When it was deleted.
    pub deleted_at: String,
    /// When the sweep removes it for good.
    pub expires_at: String,
    /// What was kept.
    pub post: TrashedPost,
    /// How many revisions were kept with it.
    pub revisions: usize,
}

fn json<T: Serialize>(value: &T) -> Result<String, Error> {
    serde_json::to_string(value).map_err(|err| Error::Internal(err.into()))
}

fn parsed<T: for<'de> Deserialize<'de>>(raw: &str) -> Result<T, Error> {
    serde_json::from_str(raw).map_err(|err| Error::Internal(err.into()))
}

/// Puts the post, with its revisions, in its blog's trash, inside its deletion's transaction
/// (before the post's row goes, taking its revisions with it).
pub fn keep(tx: &Connection, post: &Post) -> Result<(), Error> {
    let trashed = TrashedPost {
        short_id: post.short_id.clone(),
        created_at: post.created_at.clone(),
        updated_at: post.updated_at.clone(),
        comments_closed: post.comments_closed,
        version: version_of(post),
    };
    let kept = revisions::all_kept(tx, post.id)?;
    tx.execute(
        "INSERT INTO trash (blog_id, title, post, revisions) VALUES (?1, ?2, ?3, ?4)",
        params![post.blog_id, post.title, json(&trashed)?, json(&kept)?],
    )?;
    Ok(())
}

/// The newest trash entry of the blog's post `short_id` (Micropub's undelete names a post by
/// its address), if it is in the trash.
pub fn id_of_post(conn: &Connection, blog_id: i64, short_id: &str) -> Result<Option<i64>, Error> {
    Ok(conn
        .prepare_cached(
            "SELECT id FROM trash WHERE blog_id = ?1 AND json_extract(post, '$.shortId') = ?2
             ORDER BY deleted_at DESC, id DESC LIMIT 1",
        )?
        .query_row(params![blog_id, short_id], |r| r.get(0))
        .optional()?)
}

/// Puts an archive's trash entry in the blog's trash, with its own deletion time, unless the
/// blog's trash holds the same post deleted at the same time; answers whether it was added.
pub fn put(tx: &Connection, blog_id: i64, entry: &Trashed) -> Result<bool, Error> {
    let added = tx.execute(
        "INSERT INTO trash (blog_id, title, post, revisions, deleted_at)
         SELECT ?1, ?2, ?3, ?4, ?5 WHERE NOT EXISTS (
             SELECT 1 FROM trash WHERE blog_id = ?1 AND deleted_at = ?5 AND json_extract(post, '$.shortId') = ?6)",
        params![
            blog_id,
            entry.post.version.title,
            json(&entry.post)?,
            json(&entry.revisions)?,
            entry.deleted_at,
            entry.post.short_id
        ],
    )?;
    Ok(added > 0)
}

/// Number of entries in the blog's trash.
pub fn count(conn: &Connection, blog_id: i64) -> Result<u64, Error> {
    Ok(conn.prepare_cached("SELECT count(*) FROM trash WHERE blog_id = ?1")?.query_row([blog_id], |r| r.get(0))?)
}

/// A page of the blog's trash, last deleted first.
pub fn page(conn: &Connection, blog_id: i64, offset: u64, limit: u32) -> Result<Vec<TrashEntry>, Error> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT id, title, deleted_at,
             strftime('%Y-%m-%dT%H:%M:%fZ', deleted_at, '+{TRASH_DAYS} days'), post, json_array_length(revisions)
         FROM trash WHERE blog_id = ?1 ORDER BY deleted_at DESC, id DESC LIMIT ?2 OFFSET ?3"
    ))?;
    let rows: Vec<(i64, String, String, String, String, i64)> = stmt
        .query_map(params![blog_id, limit, offset], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?))
        })?
        .collect::<rusqlite::Result<_>>()?;
    rows.into_iter()
        .map(|(id, title, deleted_at, expires_at, post, revisions)| {
            Ok(TrashEntry { id, title, deleted_at, expires_at, post: parsed(&post)?, revisions: revisions as usize })
        })
        .collect()
}

/// Every entry of the blog's trash with what it keeps, oldest first (the Quire archive).
pub fn all(conn: &Connection, blog_id: i64) -> Result<Vec<Trashed>, Error> {
    let mut stmt = conn
        .prepare_cached("SELECT deleted_at, post, revisions FROM trash WHERE blog_id = ?1 ORDER BY deleted_at, id")?;
    let rows: Vec<(String, String, String)> =
        stmt.query_map([blog_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?.collect::<rusqlite::Result<_>>()?;
    rows.into_iter()
        .map(|(deleted_at, post, revisions)| {
            let mut revisions: Vec<Kept> = parsed(&revisions)?;
            revisions.iter_mut().for_each(|r| r.user_id = None);
            Ok(Trashed { deleted_at, post: parsed(&post)?, revisions })
        })
        .collect()
}

/// Takes the entry `id` out of the blog's trash; `None` when the blog has no such entry.
pub fn take(tx: &Transaction, blog_id: i64, id: i64) -> Result<Option<Trashed>, Error> {
    let row: Option<(String, String, String)> = tx
        .prepare_cached("DELETE FROM trash WHERE blog_id = ?1 AND id = ?2 RETURNING deleted_at, post, revisions")?
        .query_row(params![blog_id, id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .optional()?;
    row.map(|(deleted_at, post, revisions)| {
        Ok(Trashed { deleted_at, post: parsed(&post)?, revisions: parsed(&revisions)? })
    })
    .transpose()
}

/// Writes a trashed post back as a post of the blog, under its old short id when free (a fresh
/// one otherwise), with its tags and revisions; its page place is the caller's (`pages::set`).
pub fn restore_post(tx: &Transaction, blog_id: i64, trashed: &Trashed) -> Result<Post, Error> {
    let (post, v) = (&trashed.post, &trashed.post.version);
    let insert = |short_id: &str| {
        tx.execute(
            "INSERT INTO posts (blog_id, short_id, slug, title, body, published_at, scheduled_at, created_at, updated_at,
                 unlisted, comments_closed)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
            params![
                blog_id,
                short_id,
                v.slug,
                v.title,
                v.body,
                v.published_at,
                v.scheduled_at,
                post.created_at,
                post.updated_at,
                v.unlisted && !v.page,
                post.comments_closed
            ],
        )
    };
    let id = match insert(&post.short_id) {
        Ok(_) => tx.last_insert_rowid(),
        Err(rusqlite::Error::SqliteFailure(err, _)) if err.code == ErrorCode::ConstraintViolation => {
            with_fresh_short_id(tx, insert)?
        }
        Err(err) => return Err(err.into()),
    };
    let mut restored =
        tx.prepare_cached(&format!("SELECT {COLUMNS} FROM posts WHERE id = ?1"))?.query_row([id], from_row)?;
    super::tags::write(tx, &mut restored, &v.tags)?;
    revisions::put_back(tx, id, &trashed.revisions)?;
    Ok(restored)
}

/// Removes the entry `id` from the blog's trash for good; whether there was one.
pub fn purge(conn: &Connection, blog_id: i64, id: i64) -> Result<bool, Error> {
    Ok(conn.execute("DELETE FROM trash WHERE blog_id = ?1 AND id = ?2", params![blog_id, id])? > 0)
}

/// Removes every entry deleted more than [`TRASH_DAYS`] days ago; answers how many.
pub fn delete_expired(conn: &Connection) -> Result<usize, Error> {
    Ok(conn.execute(
        &format!("DELETE FROM trash WHERE deleted_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-{TRASH_DAYS} days')"),
        [],
    )?)
}

/// Restores the entry `id` of the blog's trash as a post, in one transaction: `check` reads
/// what was kept first (its refusal leaves the entry in the trash); the post takes its old page
/// place if it was a page (`pages::set`). Answers the post, the new change counter and what
/// `check` answered; `None` when the blog has no such entry.
pub fn restore<T>(
    conn: &mut Connection,
    blog_id: i64,
    id: i64,
    check: impl FnOnce(&Trashed) -> Result<T, Error>,
) -> Result<Option<(Post, i64, T)>, Error> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let Some(trashed) = take(&tx, blog_id, id)? else { return Ok(None) };
    let checked = check(&trashed)?;
    let mut post = restore_post(&tx, blog_id, &trashed)?;
    super::pages::set(&tx, &mut post, trashed.post.version.page)?;
    let seq = super::posts::bump_seq(&tx)?;
    tx.commit()?;
    Ok(Some((post, seq, checked)))
}
