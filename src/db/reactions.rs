//! Likes and boosts of a blog's posts from the fediverse (migration 13, issue 16).

use rusqlite::{Connection, params};

use crate::domain::federation::inbound::host_of;
use crate::domain::federation::remote_limits::Held;
use crate::error::Error;

/// What a reaction is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A `Like`.
    Like,
    /// An `Announce` (a boost).
    Announce,
}

impl Kind {
    fn stored(self) -> &'static str {
        match self {
            Kind::Like => "like",
            Kind::Announce => "announce",
        }
    }
}

/// Records `actor_id`'s reaction `activity_id` to the post (row id); a second one of the same
/// kind by the same actor, or the same activity again, changes nothing. False when nothing was
/// added.
pub fn add(conn: &Connection, activity_id: &str, post_id: i64, actor_id: &str, kind: Kind) -> Result<bool, Error> {
    Ok(conn.execute(
        "INSERT OR IGNORE INTO reactions (activity_id, post_id, actor_id, kind, actor_host) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![activity_id, post_id, actor_id, kind.stored(), host_of(actor_id).unwrap_or_default()],
    )? == 1)
}

/// Whether [`add`] would change nothing: the activity, or the actor's reaction of that kind to
/// the post, is stored already.
pub fn exists(conn: &Connection, activity_id: &str, post_id: i64, actor_id: &str, kind: Kind) -> Result<bool, Error> {
    Ok(conn
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM reactions WHERE activity_id = ?1)
             OR EXISTS (SELECT 1 FROM reactions WHERE post_id = ?2 AND actor_id = ?3 AND kind = ?4)",
        )?
        .query_row(params![activity_id, post_id, actor_id, kind.stored()], |row| row.get(0))?)
}

/// The likes and boosts of the blog's posts: from `host`, and from every host.
pub fn held_in(conn: &Connection, blog_id: i64, host: &str) -> Result<Held, Error> {
    Ok(conn
        .prepare_cached(
            "SELECT count(*) FILTER (WHERE actor_host = ?2), count(*) FROM reactions
         WHERE post_id IN (SELECT id FROM posts WHERE blog_id = ?1)",
        )?
        .query_row(params![blog_id, host], |row| Ok(Held { from_host: row.get(0)?, in_blog: row.get(1)? }))?)
}

/// Removes the reaction `activity_id` if `actor_id` made it (an Undo); false when there was none.
pub fn remove(conn: &Connection, activity_id: &str, actor_id: &str) -> Result<bool, Error> {
    Ok(conn
        .execute("DELETE FROM reactions WHERE activity_id = ?1 AND actor_id = ?2", params![activity_id, actor_id])?
        == 1)
}

/// Likes and boosts of a post (row id).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Likes.
    pub likes: i64,
    /// Boosts.
    pub boosts: i64,
}

/// The counts of the post (row id).
pub fn counts(conn: &Connection, post_id: i64) -> Result<Counts, Error> {
    Ok(conn
        .prepare_cached(
            "SELECT count(*) FILTER (WHERE kind = 'like'), count(*) FILTER (WHERE kind = 'announce')
         FROM reactions WHERE post_id = ?1",
        )?
        .query_row([post_id], |row| Ok(Counts { likes: row.get(0)?, boosts: row.get(1)? }))?)
}

/// The counts of each of the posts (row ids) that has any, in one query.
pub fn counts_of(conn: &Connection, post_ids: &[i64]) -> Result<std::collections::HashMap<i64, Counts>, Error> {
    let ids = serde_json::to_string(post_ids).map_err(|err| Error::Internal(err.into()))?;
    let mut stmt = conn.prepare_cached(
        "SELECT post_id, count(*) FILTER (WHERE kind = 'like'), count(*) FILTER (WHERE kind = 'announce')
         FROM reactions WHERE post_id IN (SELECT value FROM json_each(?1)) GROUP BY post_id",
    )?;
    let rows = stmt
        .query_map([ids], |row| Ok((row.get(0)?, Counts { likes: row.get(1)?, boosts: row.get(2)? })))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}
