//! Posts. Every write bumps `search_state.posts_seq` in the same transaction (see
//! blogs/index.rs).

use rusqlite::{Connection, ErrorCode, OptionalExtension, Transaction, params};

use crate::domain::blog::post_address::new_short_id;
use crate::error::Error;

/// A stored post.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Post {
    /// Row id.
    pub id: i64,
    /// Its blog.
    pub blog_id: i64,
    /// Public id in URLs.
    pub short_id: String,
    /// URL slug from the title.
    pub slug: String,
    /// Title derived from the body.
    pub title: String,
    /// The body as stored JSON (`{"type":"root","children":[...]}`).
    pub body_json: String,
    /// When it was first published; `None` for a draft.
    pub published_at: Option<String>,
    /// Creation time.
    pub created_at: String,
    /// Last change.
    pub updated_at: String,
    /// Its tags, in the order given (filled by [`super::tags::attach`]).
    pub tags: Vec<String>,
    /// Its place in the blog's navigation when it is a page (filled by [`super::tags::attach`]).
    pub page_position: Option<i64>,
    /// When an unpublished post is to be published (see db/schedule.rs); `None` otherwise.
    pub scheduled_at: Option<String>,
    /// Whether its owner closed its comments (issue 31).
    pub comments_closed: bool,
    /// Whether it is unlisted (issue 32, docs/unlisted.md): reachable by its permalink only, in
    /// no public list, feed or search, never federated or mailed. Never set on a page.
    pub unlisted: bool,
    /// Its version (issue 32, docs/edit-conflicts.md): 1 when created, raised by one by every
    /// change of what its editor shows (an update, a scheduled publication).
    pub version: i64,
}

impl Post {
    /// Whether it is announced to the blog's followers and listed: published, not a page, not
    /// unlisted.
    pub fn federates(&self) -> bool {
        self.published_at.is_some() && self.page_position.is_none() && !self.unlisted
    }

    /// Whether it is a published post, listed or not (not a page): it takes comments and
    /// webmentions.
    pub fn is_published_post(&self) -> bool {
        self.published_at.is_some() && self.page_position.is_none()
    }

    /// Whether it is published but unlisted: reachable by its permalink only.
    pub fn is_unlisted_live(&self) -> bool {
        self.published_at.is_some() && self.unlisted
    }

    /// Its public path: `/{slug}` for a page, `/{slug}-{shortId}` for a post.
    pub fn path(&self) -> String {
        match self.page_position {
            Some(_) => format!("/{}", self.slug),
            None => format!("/{}-{}", self.slug, self.short_id),
        }
    }
}

/// What a create or update writes.
#[derive(Debug, Clone)]
pub struct PostWrite {
    /// Title derived from the body.
    pub title: String,
    /// Slug derived from the title.
    pub slug: String,
    /// The validated body as JSON.
    pub body_json: String,
    /// Publish now if not yet published (the draft flag is off).
    pub publish: bool,
    /// Its tags, checked and normalized.
    pub tags: Vec<String>,
    /// Whether it is a page (shown at `/{slug}` and in the navigation).
    pub page: bool,
    /// With `publish`: publish at this stored time instead of now.
    pub publish_at: Option<String>,
    /// Whether it is unlisted (false for a page).
    pub unlisted: bool,
}

/// The columns [`from_row`] reads, in order.
pub(crate) const COLUMNS: &str = "id, blog_id, short_id, slug, title, body, published_at, created_at, updated_at, scheduled_at, comments_closed, unlisted, version";
const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/// A post from a row of [`COLUMNS`].
pub(crate) fn from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Post> {
    Ok(Post {
        id: row.get(0)?,
        blog_id: row.get(1)?,
        short_id: row.get(2)?,
        slug: row.get(3)?,
        title: row.get(4)?,
        body_json: row.get(5)?,
        published_at: row.get(6)?,
        created_at: row.get(7)?,
        updated_at: row.get(8)?,
        tags: Vec::new(),
        page_position: None,
        scheduled_at: row.get(9)?,
        comments_closed: row.get(10)?,
        unlisted: row.get(11)?,
        version: row.get(12)?,
    })
}

/// Bumps and returns the post change counter.
pub fn bump_seq(tx: &Transaction) -> Result<i64, Error> {
    Ok(tx
        .prepare_cached("UPDATE search_state SET posts_seq = posts_seq + 1 WHERE id = 1 RETURNING posts_seq")?
        .query_row([], |r| r.get(0))?)
}

/// The post change counter.
pub fn seq(conn: &Connection) -> Result<i64, Error> {
    Ok(conn.prepare_cached("SELECT posts_seq FROM search_state WHERE id = 1")?.query_row([], |r| r.get(0))?)
}

/// Creates a post with a fresh short id; returns it and the new change counter.
///
/// `federate` runs inside the transaction with the post as written and whether it was public
/// before (never, for a new post): federation's activities are queued with the change itself.
pub fn create(
    conn: &mut Connection,
    blog_id: i64,
    write: &PostWrite,
    federate: impl FnOnce(&Connection, &Post, bool) -> Result<(), Error>,
) -> Result<(Post, i64), Error> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let id = with_fresh_short_id(&tx, |short_id| {
        tx.execute(
            &format!(
                "INSERT INTO posts (blog_id, short_id, slug, title, body, published_at, scheduled_at, unlisted)
                 VALUES (?1, ?2, ?3, ?4, ?5, CASE WHEN ?6 AND ?7 IS NULL THEN {NOW} END, CASE WHEN ?6 THEN ?7 END, ?8)"
            ),
            bound(&blog_id, &short_id, write).as_slice(),
        )
    })?;
    let seq = bump_seq(&tx)?;
    let mut post =
        tx.prepare_cached(&format!("SELECT {COLUMNS} FROM posts WHERE id = ?1"))?.query_row([id], from_row)?;
    super::tags::write(&tx, &mut post, &write.tags)?;
    super::pages::set(&tx, &mut post, write.page)?;
    federate(&tx, &post, false)?;
    tx.commit()?;
    Ok((post, seq))
}

/// The parameters of a create's INSERT and an update's UPDATE, in their order (?1 to ?8).
fn bound<'a>(blog_id: &'a i64, short_id: &'a &'a str, write: &'a PostWrite) -> [&'a dyn rusqlite::ToSql; 8] {
    [blog_id, short_id, &write.slug, &write.title, &write.body_json, &write.publish, &write.publish_at, &write.unlisted]
}

/// Runs `insert` (a post's INSERT) with a new random short id, again with another while the
/// id is taken (a few times: a clash is one in trillions); returns the new row's id.
pub(crate) fn with_fresh_short_id(
    conn: &Connection,
    mut insert: impl FnMut(&str) -> rusqlite::Result<usize>,
) -> Result<i64, Error> {
    let mut attempts = 0;
    loop {
        match insert(&new_short_id()) {
            Ok(_) => return Ok(conn.last_insert_rowid()),
            Err(rusqlite::Error::SqliteFailure(err, _))
                if err.code == ErrorCode::ConstraintViolation && attempts < 5 =>
            {
                attempts += 1;
            }
            Err(err) => return Err(err.into()),
        }
    }
}

/// What an update did: saved the post (with the new change counter), or refused it because
/// the post is no longer at the version the update was based on (with the post as it is).
#[derive(Debug)]
pub enum Updated {
    /// Written: the post as written and the new change counter.
    Saved(Post, i64),
    /// Nothing written: the post moved on since `expected` (docs/edit-conflicts.md).
    Stale(Post),
}

/// Replaces a post's body and raises its version; a first publish sets `published_at` once, or
/// with a `publish_at` schedules it (the draft flag on drops a schedule). With `expected`, only
/// when the post is still at that version (checked in the write's transaction, so of two saves
/// based on one version exactly one is written). `None` when the blog has no such post.
/// `federate` as for [`create`], with whether the post was public before this write.
pub fn update(
    conn: &mut Connection,
    blog_id: i64,
    short_id: &str,
    write: &PostWrite,
    expected: Option<i64>,
    federate: impl FnOnce(&Connection, &Post, bool) -> Result<(), Error>,
) -> Result<Option<Updated>, Error> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    if let Some(current) = expected.map(|_| get(&tx, blog_id, short_id)).transpose()?.flatten()
        && Some(current.version) != expected
    {
        return Ok(Some(Updated::Stale(current)));
    }
    let was_public = is_public(&tx, blog_id, short_id)?;
    let post = tx
        .prepare_cached(
            &format!(
                "UPDATE posts SET slug = ?3, title = ?4, body = ?5, updated_at = {NOW}, version = version + 1,
                     published_at = CASE WHEN published_at IS NULL AND ?6 AND ?7 IS NULL THEN {NOW} ELSE published_at END,
                     scheduled_at = CASE WHEN published_at IS NULL AND ?6 THEN ?7 END,
                     unlisted = ?8
                 WHERE blog_id = ?1 AND short_id = ?2 RETURNING {COLUMNS}"
            ))?.query_row(
            bound(&blog_id, &short_id, write).as_slice(),
            from_row,
        )
        .optional()?;
    let Some(mut post) = post else { return Ok(None) };
    let seq = bump_seq(&tx)?;
    super::tags::write(&tx, &mut post, &write.tags)?;
    super::pages::set(&tx, &mut post, write.page)?;
    federate(&tx, &post, was_public)?;
    tx.commit()?;
    Ok(Some(Updated::Saved(post, seq)))
}

/// Takes a published or scheduled post back to a draft (`published_at` and `scheduled_at`
/// cleared, the version raised), calling `federate` in the transaction with whether it was
/// public. A post already a draft is answered as it is, with no change counter (`None`);
/// `Ok(None)` when it is not in the blog.
pub fn unpublish(
    conn: &mut Connection,
    blog_id: i64,
    short_id: &str,
    federate: impl FnOnce(&Connection, &Post, bool) -> Result<(), Error>,
) -> Result<Option<(Post, Option<i64>)>, Error> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let Some(before) = get(&tx, blog_id, short_id)? else { return Ok(None) };
    if before.published_at.is_none() && before.scheduled_at.is_none() {
        return Ok(Some((before, None)));
    }
    let was_public = is_public(&tx, blog_id, short_id)?;
    let post = tx
        .prepare_cached(&format!(
            "UPDATE posts SET published_at = NULL, scheduled_at = NULL, updated_at = {NOW}, version = version + 1
             WHERE blog_id = ?1 AND short_id = ?2 RETURNING {COLUMNS}"
        ))?
        .query_row(params![blog_id, short_id], from_row)?;
    let Some(post) = super::tags::attached(&tx, Some(post))? else { return Ok(None) };
    let seq = bump_seq(&tx)?;
    federate(&tx, &post, was_public)?;
    tx.commit()?;
    Ok(Some((post, Some(seq))))
}

/// Whether the post is public as a post (published, listed, not a page): what federates.
fn is_public(conn: &Connection, blog_id: i64, short_id: &str) -> Result<bool, Error> {
    Ok(conn
        .prepare_cached(
            "SELECT published_at IS NOT NULL AND NOT unlisted AND NOT EXISTS (SELECT 1 FROM post_pages WHERE post_id = posts.id)
             FROM posts WHERE blog_id = ?1 AND short_id = ?2")?.query_row(
            params![blog_id, short_id],
            |r| r.get(0),
        )
        .optional()?
        .unwrap_or(false))
}

/// Deletes a post; returns its row id and the new change counter, `None` when not found.
/// `before` runs in the transaction while the post's row is still there; `federate` runs in it
/// after, when the post was public (published, not a page).
pub fn delete(
    conn: &mut Connection,
    blog_id: i64,
    short_id: &str,
    before: impl FnOnce(&Connection, &Post) -> Result<(), Error>,
    federate: impl FnOnce(&Connection) -> Result<(), Error>,
) -> Result<Option<(i64, i64)>, Error> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let was_public = is_public(&tx, blog_id, short_id)?;
    let Some(post) = get(&tx, blog_id, short_id)? else { return Ok(None) };
    before(&tx, &post)?;
    let id: Option<i64> = tx
        .prepare_cached("DELETE FROM posts WHERE blog_id = ?1 AND short_id = ?2 RETURNING id")?
        .query_row(params![blog_id, short_id], |r| r.get(0))
        .optional()?;
    let Some(id) = id else { return Ok(None) };
    let seq = bump_seq(&tx)?;
    if was_public {
        federate(&tx)?;
    }
    tx.commit()?;
    Ok(Some((id, seq)))
}

/// One post of a blog.
pub fn get(conn: &Connection, blog_id: i64, short_id: &str) -> Result<Option<Post>, Error> {
    let post = conn
        .prepare_cached(&format!("SELECT {COLUMNS} FROM posts WHERE blog_id = ?1 AND short_id = ?2"))?
        .query_row(params![blog_id, short_id], from_row)
        .optional()?;
    super::tags::attached(conn, post)
}

/// Number of posts (drafts included) of a blog.
pub fn count(conn: &Connection, blog_id: i64) -> Result<u64, Error> {
    Ok(conn.prepare_cached("SELECT count(*) FROM posts WHERE blog_id = ?1")?.query_row([blog_id], |r| r.get(0))?)
}

/// A page of a blog's posts, newest first (drafts included).
pub fn page(conn: &Connection, blog_id: i64, offset: u64, limit: u32) -> Result<Vec<Post>, Error> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM posts WHERE blog_id = ?1 ORDER BY created_at DESC, id DESC LIMIT ?2 OFFSET ?3"
    ))?;
    let mut posts: Vec<Post> =
        stmt.query_map(params![blog_id, limit, offset], from_row)?.collect::<rusqlite::Result<_>>()?;
    super::tags::attach(conn, &mut posts)?;
    Ok(posts)
}

/// The blog's posts with these row ids, in the order of `ids` (missing ones skipped).
pub fn by_ids(conn: &Connection, blog_id: i64, ids: &[i64]) -> Result<Vec<Post>, Error> {
    let mut stmt = conn.prepare_cached(&format!("SELECT {COLUMNS} FROM posts WHERE id = ?1 AND blog_id = ?2"))?;
    let mut posts = Vec::with_capacity(ids.len());
    for id in ids {
        if let Some(post) = stmt.query_row(params![id, blog_id], from_row).optional()? {
            posts.push(post);
        }
    }
    super::tags::attach(conn, &mut posts)?;
    Ok(posts)
}

/// Number of posts in all blogs.
pub fn count_all(conn: &Connection) -> Result<u64, Error> {
    Ok(conn.prepare_cached("SELECT count(*) FROM posts")?.query_row([], |r| r.get(0))?)
}

/// Calls `each` with every post, in id order.
pub fn for_each(conn: &Connection, mut each: impl FnMut(Post) -> anyhow::Result<()>) -> anyhow::Result<()> {
    let mut stmt = conn.prepare_cached(&format!("SELECT {COLUMNS} FROM posts ORDER BY id"))?;
    let mut rows = stmt.query([])?;
    while let Some(row) = rows.next()? {
        let mut post = [from_row(row)?];
        super::tags::attach(conn, &mut post)?;
        let [post] = post;
        each(post)?;
    }
    Ok(())
}

/// Total page views of each of these posts (posts never viewed are absent).
pub fn views(conn: &Connection, ids: &[i64]) -> Result<std::collections::HashMap<i64, i64>, Error> {
    let mut stmt = conn.prepare_cached("SELECT coalesce(sum(views), 0) FROM page_views WHERE post_id = ?1")?;
    let mut out = std::collections::HashMap::new();
    for id in ids {
        let total: i64 = stmt.query_row([id], |r| r.get(0))?;
        if total > 0 {
            out.insert(*id, total);
        }
    }
    Ok(out)
}
