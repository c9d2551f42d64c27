//! A blog's followers from the fediverse (migration 13, issue 16).

use rusqlite::{Connection, OptionalExtension, params};

use crate::domain::federation::inbound::host_of;
use crate::domain::federation::remote_limits::Held;
use crate::error::Error;

/// A follower as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Follower {
    /// Its row id (the owner's approve/remove calls name it).
    pub id: i64,
    /// The blog followed.
    pub blog_id: i64,
    /// The remote actor's id.
    pub actor_id: String,
    /// Its personal inbox.
    pub inbox: String,
    /// Its server's shared inbox, when it has one.
    pub shared_inbox: Option<String>,
    /// `@bob@example.social`.
    pub handle: String,
    /// The Follow's id (an Accept or Reject names it; nothing else of the Follow is kept).
    pub follow_id: String,
    /// Accepted, or waiting for the owner's approval.
    pub accepted: bool,
    /// When it followed.
    pub created_at: String,
}

/// A Follow to record.
#[derive(Debug, Clone)]
pub struct NewFollower<'a> {
    /// The blog followed.
    pub blog_id: i64,
    /// The remote actor's id.
    pub actor_id: &'a str,
    /// Its personal inbox.
    pub inbox: &'a str,
    /// Its server's shared inbox.
    pub shared_inbox: Option<&'a str>,
    /// `@bob@example.social`.
    pub handle: &'a str,
    /// The Follow's id.
    pub follow_id: &'a str,
    /// Accepted at once (the blog does not ask for approval).
    pub accepted: bool,
}

const COLUMNS: &str = "id, blog_id, actor_id, inbox, shared_inbox, handle, follow_id, state, created_at";

fn from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Follower> {
    Ok(Follower {
        id: row.get(0)?,
        blog_id: row.get(1)?,
        actor_id: row.get(2)?,
        inbox: row.get(3)?,
        shared_inbox: row.get(4)?,
        handle: row.get(5)?,
        follow_id: row.get(6)?,
        accepted: row.get::<_, String>(7)? == "accepted",
        created_at: row.get(8)?,
    })
}

/// Records a Follow; a second Follow from the same actor replaces the first's id and inboxes
/// (a server that lost our Accept follows again) but never turns an accepted follower back
/// into a pending one. Answers the row after.
pub fn upsert(conn: &Connection, new: &NewFollower<'_>) -> Result<Follower, Error> {
    let state = if new.accepted { "accepted" } else { "pending" };
    Ok(conn
        .prepare_cached(&format!(
            "INSERT INTO followers (blog_id, actor_id, inbox, shared_inbox, handle, follow_id, state, actor_host)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
             ON CONFLICT (blog_id, actor_id) DO UPDATE SET inbox = excluded.inbox,
                 shared_inbox = excluded.shared_inbox, handle = excluded.handle, follow_id = excluded.follow_id,
                 state = CASE WHEN followers.state = 'accepted' THEN 'accepted' ELSE excluded.state END
             RETURNING {COLUMNS}"
        ))?
        .query_row(
            params![
                new.blog_id,
                new.actor_id,
                new.inbox,
                new.shared_inbox,
                new.handle,
                new.follow_id,
                state,
                host_of(new.actor_id).unwrap_or_default()
            ],
            from_row,
        )?)
}

/// The follower `id` of the blog.
pub fn get(conn: &Connection, blog_id: i64, id: i64) -> Result<Option<Follower>, Error> {
    Ok(conn
        .prepare_cached(&format!("SELECT {COLUMNS} FROM followers WHERE blog_id = ?1 AND id = ?2"))?
        .query_row([blog_id, id], from_row)
        .optional()?)
}

/// The follower that is `actor_id`, if it follows the blog.
pub fn by_actor(conn: &Connection, blog_id: i64, actor_id: &str) -> Result<Option<Follower>, Error> {
    Ok(conn
        .prepare_cached(&format!("SELECT {COLUMNS} FROM followers WHERE blog_id = ?1 AND actor_id = ?2"))?
        .query_row(params![blog_id, actor_id], from_row)
        .optional()?)
}

/// Notes that an Accept of the follower `id` is queued now, unless one was queued less than
/// `again_after_minutes` ago; answers whether it was noted (and so whether to queue it).
pub fn note_accept_queued(conn: &Connection, id: i64, again_after_minutes: u32) -> Result<bool, Error> {
    Ok(conn.execute(
        &format!(
            "UPDATE followers SET accept_queued_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
             WHERE id = ?1 AND (accept_queued_at IS NULL
                 OR accept_queued_at <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-{again_after_minutes} minutes'))"
        ),
        [id],
    )? == 1)
}

/// Marks a pending follower accepted; false when there was no such pending follower.
pub fn accept(conn: &Connection, blog_id: i64, id: i64) -> Result<bool, Error> {
    Ok(conn.execute(
        "UPDATE followers SET state = 'accepted' WHERE blog_id = ?1 AND id = ?2 AND state = 'pending'",
        [blog_id, id],
    )? == 1)
}

/// Removes `actor_id` from the blog's followers (an Undo of its Follow, a 410 from its inbox);
/// false when it was not one.
pub fn remove(conn: &Connection, blog_id: i64, actor_id: &str) -> Result<bool, Error> {
    Ok(conn.execute("DELETE FROM followers WHERE blog_id = ?1 AND actor_id = ?2", params![blog_id, actor_id])? == 1)
}

/// Removes the blog's followers whose personal inbox is `inbox` and who have no shared inbox
/// (an inbox that answered 410 Gone was theirs alone); answers how many.
pub fn remove_by_inbox(conn: &Connection, blog_id: i64, inbox: &str) -> Result<usize, Error> {
    Ok(conn.execute(
        "DELETE FROM followers WHERE blog_id = ?1 AND inbox = ?2 AND coalesce(shared_inbox, inbox) = inbox",
        params![blog_id, inbox],
    )?)
}

/// Whether the blog's owner approves each follower (`blogs.approve_followers`); false for no blog.
pub fn approve_followers(conn: &Connection, blog_id: i64) -> Result<bool, Error> {
    Ok(conn
        .prepare_cached("SELECT approve_followers FROM blogs WHERE id = ?1")?
        .query_row([blog_id], |row| row.get(0))
        .optional()?
        .unwrap_or(false))
}

/// One page (`limit` after `offset`) of the blog's followers, pending ones too, oldest first.
pub fn list(conn: &Connection, blog_id: i64, offset: u64, limit: u32) -> Result<Vec<Follower>, Error> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM followers WHERE blog_id = ?1 ORDER BY id LIMIT ?2 OFFSET ?3"
    ))?;
    let rows = stmt.query_map(params![blog_id, limit, offset as i64], from_row)?.collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// How many followers the blog has, pending ones too.
pub fn count_all(conn: &Connection, blog_id: i64) -> Result<u64, Error> {
    Ok(conn
        .prepare_cached("SELECT count(*) FROM followers WHERE blog_id = ?1")?
        .query_row([blog_id], |row| row.get(0))?)
}

/// The blog's followers, accepted or waiting: from `host`, and from every host.
pub fn held_in(conn: &Connection, blog_id: i64, host: &str) -> Result<Held, Error> {
    Ok(conn
        .prepare_cached("SELECT count(*) FILTER (WHERE actor_host = ?2), count(*) FROM followers WHERE blog_id = ?1")?
        .query_row(params![blog_id, host], |row| Ok(Held { from_host: row.get(0)?, in_blog: row.get(1)? }))?)
}

/// The followers waiting for the blog owner's approval: from `host`, and from every host.
pub fn pending_in(conn: &Connection, blog_id: i64, host: &str) -> Result<Held, Error> {
    Ok(conn
        .prepare_cached(
            "SELECT count(*) FILTER (WHERE actor_host = ?2), count(*) FROM followers
         WHERE blog_id = ?1 AND state = 'pending'",
        )?
        .query_row(params![blog_id, host], |row| Ok(Held { from_host: row.get(0)?, in_blog: row.get(1)? }))?)
}

/// How many accepted followers the blog has.
pub fn count(conn: &Connection, blog_id: i64) -> Result<i64, Error> {
    Ok(conn
        .prepare_cached("SELECT count(*) FROM followers WHERE blog_id = ?1 AND state = 'accepted'")?
        .query_row([blog_id], |row| row.get(0))?)
}

/// Removes the follower `id` of the blog (the owner's Reject or Remove); answers it, or `None`
/// when the blog has no such follower.
pub fn remove_by_id(conn: &Connection, blog_id: i64, id: i64) -> Result<Option<Follower>, Error> {
    Ok(conn
        .prepare_cached(&format!("DELETE FROM followers WHERE blog_id = ?1 AND id = ?2 RETURNING {COLUMNS}"))?
        .query_row([blog_id, id], from_row)
        .optional()?)
}

/// Removes the followers whose actor is on `domain` or under it (blocked), the blog's or with
/// `None` every blog's; answers how many went.
pub fn remove_on_domain(conn: &Connection, blog_id: Option<i64>, domain: &str) -> Result<usize, Error> {
    Ok(conn.execute(
        &format!("DELETE FROM followers WHERE (?1 IS NULL OR blog_id = ?1) AND {WITHIN_DOMAIN}"),
        params![blog_id, domain],
    )?)
}

/// SQL: `actor_host` is the domain `?2` or under it.
pub const WITHIN_DOMAIN: &str = "(actor_host = ?2 OR substr(actor_host, -length(?2) - 1) = '.' || ?2)";

/// Turns the blog's follower approval on or off (pending followers stay pending).
pub fn set_approve_followers(conn: &Connection, blog_id: i64, required: bool) -> Result<(), Error> {
    conn.execute("UPDATE blogs SET approve_followers = ?2 WHERE id = ?1", params![blog_id, required])?;
    Ok(())
}

/// Where an activity for every accepted follower goes: one inbox per server (its shared inbox,
/// or else each follower's own), sorted.
pub fn delivery_inboxes(conn: &Connection, blog_id: i64) -> Result<Vec<String>, Error> {
    let mut stmt = conn.prepare_cached(
        "SELECT DISTINCT coalesce(shared_inbox, inbox) FROM followers
         WHERE blog_id = ?1 AND state = 'accepted' ORDER BY 1",
    )?;
    let rows = stmt.query_map([blog_id], |row| row.get(0))?.collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::test_support::with_blogs;

    #[test]
    fn an_accept_is_noted_once_then_again_only_after_the_interval() {
        let conn = with_blogs(&["alice"]);
        let follower = upsert(
            &conn,
            &NewFollower {
                blog_id: 1,
                actor_id: "https://p.example/u/bob",
                inbox: "https://p.example/u/bob/inbox",
                shared_inbox: None,
                handle: "@bob@p.example",
                follow_id: "https://p.example/f/1",
                accepted: true,
            },
        )
        .unwrap();
        assert!(note_accept_queued(&conn, follower.id, 60).unwrap(), "the first Accept");
        assert!(!note_accept_queued(&conn, follower.id, 60).unwrap(), "not again within the hour");
        conn.execute(
            "UPDATE followers SET accept_queued_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-61 minutes')",
            [],
        )
        .unwrap();
        assert!(note_accept_queued(&conn, follower.id, 60).unwrap(), "again after it");
    }
}
