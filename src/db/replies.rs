//! Replies from the fediverse to a blog's posts (migration 13, issue 16): held until the owner
//! approves them, then shown under the post. `text` is plain text (the Note's HTML is never kept).

use rusqlite::{Connection, OptionalExtension, params};

use crate::db::responses::ResponseState;
use crate::domain::federation::inbound::host_of;
use crate::domain::federation::remote_limits::Held;
use crate::error::Error;

/// A reply as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// Its row id (the owner's calls name it).
    pub id: i64,
    /// The Note's id.
    pub note_id: String,
    /// The post it answers (row id).
    pub post_id: i64,
    /// The author's actor id.
    pub actor_id: String,
    /// The author's display name (or its handle when it has none).
    pub author_name: String,
    /// `@bob@example.social`.
    pub author_handle: String,
    /// The author's profile page.
    pub author_url: String,
    /// The Note's own page, if it has one.
    pub url: Option<String>,
    /// The text, plain, paragraphs separated by blank lines.
    pub text: String,
    /// When it was written, as stored (UTC, ms, Z).
    pub published_at: String,
    /// Held for the owner, shown under the post, or put in Spam.
    pub state: ResponseState,
    /// When Quire received it.
    pub received_at: String,
}

/// A reply to store, held.
#[derive(Debug, Clone)]
pub struct NewReply<'a> {
    /// The Note's id.
    pub note_id: &'a str,
    /// The post it answers (row id).
    pub post_id: i64,
    /// The author's actor id (verified: it signed the request).
    pub actor_id: &'a str,
    /// The author's display name.
    pub author_name: &'a str,
    /// `@bob@example.social`.
    pub author_handle: &'a str,
    /// The author's profile page.
    pub author_url: &'a str,
    /// The Note's own page.
    pub url: Option<&'a str>,
    /// The text, plain.
    pub text: &'a str,
    /// When it was written, stored form.
    pub published_at: &'a str,
}

const COLUMNS: &str =
    "r.id, r.note_id, r.post_id, r.actor_id, r.author_name, r.author_handle, r.author_url, r.url, r.text,
     r.published_at, r.state, r.received_at";

fn from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Reply> {
    Ok(Reply {
        id: row.get(0)?,
        note_id: row.get(1)?,
        post_id: row.get(2)?,
        actor_id: row.get(3)?,
        author_name: row.get(4)?,
        author_handle: row.get(5)?,
        author_url: row.get(6)?,
        url: row.get(7)?,
        text: row.get(8)?,
        published_at: row.get(9)?,
        state: ResponseState::parse(&row.get::<_, String>(10)?).unwrap_or(ResponseState::Held),
        received_at: row.get(11)?,
    })
}

/// Stores a held reply; the same Note again (a retried delivery) changes nothing. False when
/// nothing was added.
pub fn insert_held(conn: &Connection, new: &NewReply<'_>) -> Result<bool, Error> {
    Ok(conn.execute(
        "INSERT OR IGNORE INTO replies (note_id, post_id, actor_id, author_name, author_handle, author_url, url, text,
             published_at, state, actor_host)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 'held', ?10)",
        params![
            new.note_id,
            new.post_id,
            new.actor_id,
            new.author_name,
            new.author_handle,
            new.author_url,
            new.url,
            new.text,
            new.published_at,
            host_of(new.actor_id).unwrap_or_default()
        ],
    )? == 1)
}

/// Whether the Note `note_id` is stored already (a retried delivery adds nothing).
pub fn exists(conn: &Connection, note_id: &str) -> Result<bool, Error> {
    Ok(conn
        .prepare_cached("SELECT EXISTS (SELECT 1 FROM replies WHERE note_id = ?1)")?
        .query_row([note_id], |row| row.get(0))?)
}

/// The replies held for the blog's owner: from `host`, and from every host.
pub fn held_in(conn: &Connection, blog_id: i64, host: &str) -> Result<Held, Error> {
    Ok(conn
        .prepare_cached(
            "SELECT count(*) FILTER (WHERE r.actor_host = ?2), count(*) FROM replies r
         WHERE r.state = 'held' AND r.post_id IN (SELECT id FROM posts WHERE blog_id = ?1)",
        )?
        .query_row(params![blog_id, host], |row| Ok(Held { from_host: row.get(0)?, in_blog: row.get(1)? }))?)
}

/// Deletes the replies held longer than `days` (never approved); answers how many went.
pub fn expire_held(conn: &Connection, days: u32) -> Result<usize, Error> {
    Ok(conn.execute(
        "DELETE FROM replies WHERE state = 'held'
             AND received_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', printf('-%d days', ?1))",
        [days],
    )?)
}

/// The reply `id` of one of the blog's posts.
pub fn get(conn: &Connection, blog_id: i64, id: i64) -> Result<Option<Reply>, Error> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM replies r JOIN posts p ON p.id = r.post_id WHERE p.blog_id = ?1 AND r.id = ?2"
        ))?
        .query_row([blog_id, id], from_row)
        .optional()?)
}

/// How many replies in `state` the blog has.
pub fn count_in(conn: &Connection, blog_id: i64, state: ResponseState) -> Result<u64, Error> {
    Ok(conn
        .prepare_cached(
            "SELECT count(*) FROM replies r JOIN posts p ON p.id = r.post_id WHERE p.blog_id = ?1 AND r.state = ?2",
        )?
        .query_row(params![blog_id, state.as_str()], |row| row.get(0))?)
}

/// One page (`limit` after `offset`) of the blog's replies in `state`, newest first, with the
/// short id and title of the post each answers.
pub fn list(
    conn: &Connection,
    blog_id: i64,
    state: ResponseState,
    offset: u64,
    limit: u32,
) -> Result<Vec<(Reply, String, String)>, Error> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS}, p.short_id, p.title FROM replies r JOIN posts p ON p.id = r.post_id
         WHERE p.blog_id = ?1 AND r.state = ?2 ORDER BY r.received_at DESC, r.id DESC LIMIT ?3 OFFSET ?4"
    ))?;
    let rows = stmt
        .query_map(params![blog_id, state.as_str(), limit, offset as i64], |row| {
            Ok((from_row(row)?, row.get(12)?, row.get(13)?))
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// The approved replies of a post (row id), oldest first: what its public page shows.
pub fn approved_for_post(conn: &Connection, post_id: i64) -> Result<Vec<Reply>, Error> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM replies r WHERE r.post_id = ?1 AND r.state = 'approved' ORDER BY r.published_at, r.id"
    ))?;
    let rows = stmt.query_map([post_id], from_row)?.collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// Moves the reply `id` of one of the blog's posts to `state` (approved: shown under the post);
/// answers the state it was in, or `None` when the blog has no such reply.
pub fn set_state(
    conn: &Connection,
    blog_id: i64,
    id: i64,
    state: ResponseState,
) -> Result<Option<ResponseState>, Error> {
    let before: Option<String> = conn
        .prepare_cached(
            "SELECT state FROM replies WHERE id = ?2 AND post_id IN (SELECT id FROM posts WHERE blog_id = ?1)",
        )?
        .query_row([blog_id, id], |row| row.get(0))
        .optional()?;
    let Some(before) = before else { return Ok(None) };
    conn.execute("UPDATE replies SET state = ?2 WHERE id = ?1", params![id, state.as_str()])?;
    Ok(Some(ResponseState::parse(&before).unwrap_or(ResponseState::Held)))
}

/// Deletes the reply `id` of one of the blog's posts (the owner's choice); answers whether it
/// was approved (a public page changes), or `None` when there was no such reply.
pub fn delete(conn: &Connection, blog_id: i64, id: i64) -> Result<Option<bool>, Error> {
    Ok(conn
        .prepare_cached(
            "DELETE FROM replies WHERE id = ?2 AND post_id IN (SELECT id FROM posts WHERE blog_id = ?1)
             RETURNING state = 'approved'",
        )?
        .query_row([blog_id, id], |row| row.get(0))
        .optional()?)
}

/// Deletes the Note `note_id` if `actor_id` wrote it (its author's Delete); answers the post's
/// row id and whether the reply was approved, or `None` when there was none.
pub fn delete_by_note(conn: &Connection, note_id: &str, actor_id: &str) -> Result<Option<(i64, bool)>, Error> {
    Ok(conn
        .prepare_cached(
            "DELETE FROM replies WHERE note_id = ?1 AND actor_id = ?2 RETURNING post_id, state = 'approved'",
        )?
        .query_row(params![note_id, actor_id], |row| Ok((row.get(0)?, row.get(1)?)))
        .optional()?)
}

/// How many replies (held and approved, not spam) the post (row id) has.
pub fn count(conn: &Connection, post_id: i64) -> Result<i64, Error> {
    Ok(conn
        .prepare_cached("SELECT count(*) FROM replies WHERE post_id = ?1 AND state <> 'spam'")?
        .query_row([post_id], |row| row.get(0))?)
}

/// How many replies (held and approved, not spam) each of the posts (row ids) that has any has, in one query.
pub fn counts_of(conn: &Connection, post_ids: &[i64]) -> Result<std::collections::HashMap<i64, i64>, Error> {
    let ids = serde_json::to_string(post_ids).map_err(|err| Error::Internal(err.into()))?;
    let mut stmt = conn.prepare_cached(
        "SELECT post_id, count(*) FROM replies WHERE post_id IN (SELECT value FROM json_each(?1)) AND state <> 'spam'
         GROUP BY post_id",
    )?;
    let rows = stmt.query_map([ids], |row| Ok((row.get(0)?, row.get(1)?)))?.collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// The reply `id` of one of the blog's posts, with the short id and title of that post.
pub fn get_with_post(conn: &Connection, blog_id: i64, id: i64) -> Result<Option<(Reply, String, String)>, Error> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS}, p.short_id, p.title FROM replies r JOIN posts p ON p.id = r.post_id
                 WHERE p.blog_id = ?1 AND r.id = ?2"
        ))?
        .query_row([blog_id, id], |row| Ok((from_row(row)?, row.get(12)?, row.get(13)?)))
        .optional()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::followers::{self, NewFollower};
    use crate::db::reactions::{self, Kind};
    use crate::db::test_support;

    fn migrated() -> Connection {
        let conn = test_support::with_blogs(&["alice", "bob"]);
        conn.execute_batch(
            "INSERT INTO posts (id, blog_id, short_id, slug, title, body) VALUES (10, 1, 'p1', 'hi', 'Hi', '{}');",
        )
        .unwrap();
        conn
    }

    fn reply<'a>(note_id: &'a str, actor_id: &'a str) -> NewReply<'a> {
        NewReply {
            note_id,
            post_id: 10,
            actor_id,
            author_name: "Carol",
            author_handle: "@carol@peer.example",
            author_url: "https://peer.example/@carol",
            url: None,
            text: "Nice post",
            published_at: "2026-11-24T10:00:00.000Z",
        }
    }

    #[test]
    fn a_reply_is_held_then_approved_and_only_its_author_or_the_blogs_owner_removes_it() {
        let conn = migrated();
        assert!(insert_held(&conn, &reply("https://peer.example/n/1", "https://peer.example/u/carol")).unwrap());
        assert!(!insert_held(&conn, &reply("https://peer.example/n/1", "https://peer.example/u/carol")).unwrap());
        assert!(insert_held(&conn, &reply("https://peer.example/n/2", "https://peer.example/u/carol")).unwrap());
        assert!(approved_for_post(&conn, 10).unwrap().is_empty(), "held replies are not shown");
        let held = list(&conn, 1, ResponseState::Held, 0, 10).unwrap();
        assert_eq!(held.len(), 2);
        assert_eq!(count_in(&conn, 1, ResponseState::Held).unwrap(), 2);
        assert_eq!(list(&conn, 1, ResponseState::Held, 1, 10).unwrap(), held[1..], "the second page of one");
        assert_eq!(held_in(&conn, 1, "peer.example").unwrap(), Held { from_host: 2, in_blog: 2 });
        assert_eq!(held_in(&conn, 1, "other.example").unwrap(), Held { from_host: 0, in_blog: 2 });
        assert!(exists(&conn, "https://peer.example/n/1").unwrap());
        assert_eq!((held[0].1.as_str(), held[0].2.as_str()), ("p1", "Hi"));
        let first = held.iter().find(|(r, ..)| r.note_id.ends_with("/1")).unwrap().0.id;
        let approved = ResponseState::Approved;
        assert_eq!(set_state(&conn, 2, first, approved).unwrap(), None, "another blog's owner cannot approve it");
        assert_eq!(set_state(&conn, 1, first, approved).unwrap(), Some(ResponseState::Held));
        assert_eq!(approved_for_post(&conn, 10).unwrap()[0].text, "Nice post");
        assert_eq!(count(&conn, 10).unwrap(), 2);
        let second = held.iter().find(|(r, ..)| r.note_id.ends_with("/2")).unwrap().0.id;
        assert_eq!(set_state(&conn, 1, second, ResponseState::Spam).unwrap(), Some(ResponseState::Held));
        assert_eq!(count(&conn, 10).unwrap(), 1, "a reply in spam is not counted");
        assert_eq!(counts_of(&conn, &[10]).unwrap()[&10], 1);
        assert_eq!(list(&conn, 1, ResponseState::Spam, 0, 10).unwrap().len(), 1);
        assert_eq!(approved_for_post(&conn, 10).unwrap().len(), 1, "nor shown");
        let note = "https://peer.example/n/1";
        assert_eq!(delete_by_note(&conn, note, "https://evil.example/u/mallory").unwrap(), None, "not its author");
        assert_eq!(delete_by_note(&conn, note, "https://peer.example/u/carol").unwrap(), Some((10, true)));
        let second = get(&conn, 1, second).unwrap().unwrap();
        assert_eq!(delete(&conn, 2, second.id).unwrap(), None);
        assert_eq!(delete(&conn, 1, second.id).unwrap(), Some(false));
        assert_eq!(count(&conn, 10).unwrap(), 0);
    }

    #[test]
    fn reactions_count_once_per_actor_and_kind_and_followers_give_one_inbox_per_server() {
        let conn = migrated();
        assert!(reactions::add(&conn, "https://p.example/l/1", 10, "https://p.example/u/a", Kind::Like).unwrap());
        assert!(!reactions::add(&conn, "https://p.example/l/2", 10, "https://p.example/u/a", Kind::Like).unwrap());
        assert!(reactions::add(&conn, "https://p.example/b/1", 10, "https://p.example/u/a", Kind::Announce).unwrap());
        assert_eq!(reactions::counts(&conn, 10).unwrap(), reactions::Counts { likes: 1, boosts: 1 });
        assert!(!reactions::remove(&conn, "https://p.example/l/1", "https://p.example/u/b").unwrap());
        assert!(reactions::remove(&conn, "https://p.example/l/1", "https://p.example/u/a").unwrap());
        assert_eq!(reactions::counts(&conn, 10).unwrap().likes, 0);

        let follow = |actor: &'static str, shared: Option<&'static str>, accepted| NewFollower {
            blog_id: 1,
            actor_id: actor,
            inbox: actor,
            shared_inbox: shared,
            handle: "@x@p.example",
            follow_id: "f",
            accepted,
        };
        let shared = Some("https://p.example/inbox");
        followers::upsert(&conn, &follow("https://p.example/u/a", shared, true)).unwrap();
        followers::upsert(&conn, &follow("https://p.example/u/b", shared, true)).unwrap();
        followers::upsert(&conn, &follow("https://q.example/u/c", None, true)).unwrap();
        let pending = followers::upsert(&conn, &follow("https://r.example/u/d", None, false)).unwrap();
        let inboxes = followers::delivery_inboxes(&conn, 1).unwrap();
        assert_eq!(inboxes, ["https://p.example/inbox", "https://q.example/u/c"], "one per server, pending left out");
        assert_eq!(followers::count(&conn, 1).unwrap(), 3);
        assert!(followers::accept(&conn, 1, pending.id).unwrap());
        assert_eq!(followers::count(&conn, 1).unwrap(), 4);
        let again = followers::upsert(&conn, &follow("https://r.example/u/d", None, false)).unwrap();
        assert!(again.accepted, "following again never makes an accepted follower pending");
        assert!(followers::remove(&conn, 1, "https://q.example/u/c").unwrap());
        assert_eq!(
            followers::delivery_inboxes(&conn, 1).unwrap(),
            ["https://p.example/inbox", "https://r.example/u/d"]
        );
    }
}
