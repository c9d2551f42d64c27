//! Remote actors whose keys verified a request (migration 13, issue 16): the inbox's key cache
//! that survives restarts (`blogs::federation::remote_keys` keeps it in memory too), and what the inbox
//! needs to know about the blogs an activity names. Also what goes when an actor is deleted.

use rusqlite::{Connection, OptionalExtension, params};

use crate::db::followers::WITHIN_DOMAIN;
use crate::domain::federation::inbound::host_of;
use crate::error::Error;

/// A remote actor as cached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteActor {
    /// Its id.
    pub actor_id: String,
    /// The id of the key that verified it.
    pub key_id: String,
    /// That key.
    pub public_pem: String,
    /// Its personal inbox.
    pub inbox: String,
    /// Its server's shared inbox.
    pub shared_inbox: Option<String>,
    /// `@bob@example.social`.
    pub handle: String,
    /// Its display name.
    pub name: String,
    /// Its profile page.
    pub url: Option<String>,
    /// When its document was fetched (stored form); set by [`upsert`].
    pub fetched_at: String,
}

const COLUMNS: &str = "actor_id, key_id, public_pem, inbox, shared_inbox, handle, name, url, fetched_at";

fn from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<RemoteActor> {
    Ok(RemoteActor {
        actor_id: row.get(0)?,
        key_id: row.get(1)?,
        public_pem: row.get(2)?,
        inbox: row.get(3)?,
        shared_inbox: row.get(4)?,
        handle: row.get(5)?,
        name: row.get(6)?,
        url: row.get(7)?,
        fetched_at: row.get(8)?,
    })
}

/// The actor whose key is `key_id` (the latest fetched, should two claim it).
pub fn by_key(conn: &Connection, key_id: &str) -> Result<Option<RemoteActor>, Error> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM remote_actors WHERE key_id = ?1 ORDER BY fetched_at DESC LIMIT 1"
        ))?
        .query_row([key_id], from_row)
        .optional()?)
}

/// The actor `actor_id`.
pub fn get(conn: &Connection, actor_id: &str) -> Result<Option<RemoteActor>, Error> {
    Ok(conn
        .prepare_cached(&format!("SELECT {COLUMNS} FROM remote_actors WHERE actor_id = ?1"))?
        .query_row([actor_id], from_row)
        .optional()?)
}

/// SQL: the remote actor `a` is referred to by nothing stored (no follow, reply or reaction).
const UNREFERENCED: &str = "NOT EXISTS (SELECT 1 FROM followers f WHERE f.actor_id = a.actor_id)
     AND NOT EXISTS (SELECT 1 FROM replies r WHERE r.actor_id = a.actor_id)
     AND NOT EXISTS (SELECT 1 FROM reactions x WHERE x.actor_id = a.actor_id)";

/// Stores a freshly fetched actor (its `fetched_at` becomes now) and answers it as stored. A new
/// actor of a host that has `per_host` cached already makes room: the host's least recently
/// fetched actors that nothing refers to go (so outsiders cannot grow the cache without bound).
pub fn upsert(conn: &Connection, actor: &RemoteActor, per_host: u64) -> Result<RemoteActor, Error> {
    let host = host_of(&actor.actor_id).unwrap_or_default();
    if get(conn, &actor.actor_id)?.is_none() {
        conn.execute(
            &format!(
                "DELETE FROM remote_actors WHERE actor_id IN (
                     SELECT actor_id FROM remote_actors a WHERE actor_host = ?1 AND {UNREFERENCED}
                     ORDER BY fetched_at LIMIT max(0, (SELECT count(*) FROM remote_actors WHERE actor_host = ?1) - ?2 + 1))"
            ),
            params![host, per_host.min(i64::MAX as u64) as i64],
        )?;
    }
    Ok(conn.prepare_cached(
        &format!(
            "INSERT INTO remote_actors (actor_id, key_id, public_pem, inbox, shared_inbox, handle, name, url, fetched_at,
                 actor_host)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?9)
             ON CONFLICT (actor_id) DO UPDATE SET key_id = excluded.key_id, public_pem = excluded.public_pem,
                 inbox = excluded.inbox, shared_inbox = excluded.shared_inbox, handle = excluded.handle,
                 name = excluded.name, url = excluded.url, fetched_at = excluded.fetched_at
             RETURNING {COLUMNS}"
        ))?.query_row(
        params![
            actor.actor_id,
            actor.key_id,
            actor.public_pem,
            actor.inbox,
            actor.shared_inbox,
            actor.handle,
            actor.name,
            actor.url,
            host
        ],
        from_row,
    )?)
}

/// Deletes the cached actors not fetched for `days` that nothing refers to; answers how many.
pub fn expire_unreferenced(conn: &Connection, days: u32) -> Result<usize, Error> {
    Ok(conn.execute(
        &format!(
            "DELETE FROM remote_actors AS a WHERE {UNREFERENCED}
                 AND fetched_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', printf('-%d days', ?1))"
        ),
        [days],
    )?)
}

/// Deletes the cached actors on `domain` or under it (blocked): all of them with `all`, else
/// those nothing refers to any more. Answers how many.
pub fn remove_on_domain(conn: &Connection, domain: &str, all: bool) -> Result<usize, Error> {
    Ok(conn.execute(
        &format!("DELETE FROM remote_actors AS a WHERE (?1 OR ({UNREFERENCED})) AND {WITHIN_DOMAIN}"),
        params![all, domain],
    )?)
}

/// What was removed when an actor was deleted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Forgotten {
    /// Follower rows removed.
    pub followers: usize,
    /// Likes and boosts removed.
    pub reactions: usize,
    /// Replies removed.
    pub replies: usize,
    /// The subdomains of the blogs that showed one of its approved replies.
    pub shown_on: Vec<String>,
}

/// Removes everything of `actor_id` (its account was deleted): it as a follower of any blog,
/// its likes and boosts, its replies, and its cached document.
pub fn forget(conn: &Connection, actor_id: &str) -> Result<Forgotten, Error> {
    let mut shown = conn.prepare_cached(
        "SELECT DISTINCT b.subdomain FROM replies r JOIN posts p ON p.id = r.post_id JOIN blogs b ON b.id = p.blog_id
         WHERE r.actor_id = ?1 AND r.state = 'approved' ORDER BY b.subdomain",
    )?;
    let shown_on = shown.query_map([actor_id], |row| row.get(0))?.collect::<rusqlite::Result<_>>()?;
    let forgotten = Forgotten {
        followers: conn.execute("DELETE FROM followers WHERE actor_id = ?1", [actor_id])?,
        reactions: conn.execute("DELETE FROM reactions WHERE actor_id = ?1", [actor_id])?,
        replies: conn.execute("DELETE FROM replies WHERE actor_id = ?1", [actor_id])?,
        shown_on,
    };
    conn.execute("DELETE FROM remote_actors WHERE actor_id = ?1", [actor_id])?;
    Ok(forgotten)
}

/// A blog as the inbox needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InboxBlog {
    /// Blog id.
    pub id: i64,
    /// Its subdomain.
    pub subdomain: String,
}

/// The blog on `subdomain`.
pub fn inbox_blog(conn: &Connection, subdomain: &str) -> Result<Option<InboxBlog>, Error> {
    Ok(conn
        .prepare_cached("SELECT id, subdomain FROM blogs WHERE subdomain = ?1")?
        .query_row([subdomain], |row| Ok(InboxBlog { id: row.get(0)?, subdomain: row.get(1)? }))
        .optional()?)
}

/// The row id of the blog's published post `short_id` (not a page).
pub fn published_post(conn: &Connection, blog_id: i64, short_id: &str) -> Result<Option<i64>, Error> {
    Ok(conn
        .prepare_cached(
            "SELECT id FROM posts p WHERE blog_id = ?1 AND short_id = ?2 AND published_at IS NOT NULL
                 AND NOT EXISTS (SELECT 1 FROM post_pages g WHERE g.post_id = p.id)",
        )?
        .query_row(params![blog_id, short_id], |row| row.get(0))
        .optional()?)
}

/// Removes `actor_id` as a follower wherever its Follow was `follow_id` (an Undo naming the
/// Follow by its id only); answers how many rows went.
pub fn remove_follow(conn: &Connection, actor_id: &str, follow_id: &str) -> Result<usize, Error> {
    Ok(conn.execute("DELETE FROM followers WHERE actor_id = ?1 AND follow_id = ?2", params![actor_id, follow_id])?)
}

/// Copies a refetched actor's inboxes and handle to its follower rows (its `Update`); answers
/// how many rows changed.
pub fn refresh_follows(conn: &Connection, actor: &RemoteActor) -> Result<usize, Error> {
    Ok(conn.execute(
        "UPDATE followers SET inbox = ?2, shared_inbox = ?3, handle = ?4 WHERE actor_id = ?1",
        params![actor.actor_id, actor.inbox, actor.shared_inbox, actor.handle],
    )?)
}

/// The subdomain of the blog of the post (row id).
pub fn post_subdomain(conn: &Connection, post_id: i64) -> Result<Option<String>, Error> {
    Ok(conn
        .prepare_cached("SELECT b.subdomain FROM posts p JOIN blogs b ON b.id = p.blog_id WHERE p.id = ?1")?
        .query_row([post_id], |row| row.get(0))
        .optional()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::followers::{self, NewFollower};
    use crate::db::reactions::{self, Kind};
    use crate::db::replies::{self, NewReply};
    use crate::db::test_support;

    fn migrated() -> Connection {
        let conn = test_support::with_blogs(&["alice"]);
        conn.execute_batch(
            "INSERT INTO posts (id, blog_id, short_id, slug, title, body, published_at)
                 VALUES (10, 1, 'abcd1234', 'hi', 'Hi', '{}', '2026-11-24T10:00:00.000Z'),
                        (11, 1, 'draft123', 'draft', 'Draft', '{}', NULL);",
        )
        .unwrap();
        conn
    }

    fn upsert_one(conn: &Connection, actor: &RemoteActor) -> Result<RemoteActor, Error> {
        upsert(conn, actor, 10)
    }

    fn bob(key_id: &str) -> RemoteActor {
        RemoteActor {
            actor_id: "https://peer.example/users/bob".into(),
            key_id: key_id.into(),
            public_pem: "PEM".into(),
            inbox: "https://peer.example/users/bob/inbox".into(),
            shared_inbox: Some("https://peer.example/inbox".into()),
            handle: "@bob@peer.example".into(),
            name: "Bob".into(),
            url: None,
            fetched_at: String::new(),
        }
    }

    #[test]
    fn an_actor_is_found_by_its_key_or_id_and_a_refetch_replaces_it() {
        let conn = migrated();
        let stored = upsert_one(&conn, &bob("https://peer.example/users/bob#main-key")).unwrap();
        assert!(stored.fetched_at.ends_with('Z'));
        assert_eq!(by_key(&conn, "https://peer.example/users/bob#main-key").unwrap(), Some(stored.clone()));
        upsert_one(&conn, &bob("https://peer.example/users/bob#new-key")).unwrap();
        assert_eq!(by_key(&conn, "https://peer.example/users/bob#main-key").unwrap(), None);
        assert_eq!(get(&conn, &stored.actor_id).unwrap().unwrap().key_id, "https://peer.example/users/bob#new-key");
    }

    #[test]
    fn forgetting_an_actor_removes_its_follows_reactions_and_replies_and_names_the_pages_that_showed_one() {
        let conn = migrated();
        let actor = "https://peer.example/users/bob";
        upsert_one(&conn, &bob("https://peer.example/users/bob#main-key")).unwrap();
        let follower = NewFollower {
            blog_id: 1,
            actor_id: actor,
            inbox: "https://peer.example/users/bob/inbox",
            shared_inbox: None,
            handle: "@bob@peer.example",
            follow_id: "https://peer.example/f/1",
            accepted: true,
        };
        followers::upsert(&conn, &follower).unwrap();
        let key_id = "https://peer.example/users/bob#main-key";
        let moved = RemoteActor { inbox: "https://peer.example/new/inbox".into(), ..bob(key_id) };
        assert_eq!(refresh_follows(&conn, &moved).unwrap(), 1);
        assert_eq!(followers::by_actor(&conn, 1, actor).unwrap().unwrap().inbox, "https://peer.example/new/inbox");
        reactions::add(&conn, "https://peer.example/l/1", 10, actor, Kind::Like).unwrap();
        let reply = NewReply {
            note_id: "https://peer.example/n/1",
            post_id: 10,
            actor_id: actor,
            author_name: "Bob",
            author_handle: "@bob@peer.example",
            author_url: actor,
            url: None,
            text: "hi",
            published_at: "2026-11-24T10:00:00.000Z",
        };
        replies::insert_held(&conn, &reply).unwrap();
        conn.execute("UPDATE replies SET state = 'approved'", []).unwrap();
        let forgotten = forget(&conn, actor).unwrap();
        assert_eq!(forgotten, Forgotten { followers: 1, reactions: 1, replies: 1, shown_on: vec!["alice".into()] });
        assert_eq!(get(&conn, actor).unwrap(), None);
        assert_eq!(forget(&conn, actor).unwrap(), Forgotten::default());
    }

    #[test]
    fn a_host_past_its_bound_drops_its_oldest_unreferenced_actors_and_unused_ones_expire() {
        let conn = migrated();
        let actor = |n: u32| RemoteActor {
            actor_id: format!("https://flood.example/u/{n}"),
            key_id: format!("https://flood.example/u/{n}#key"),
            ..bob("k")
        };
        for n in 0..3 {
            upsert(&conn, &actor(n), 3).unwrap();
            conn.execute(
                "UPDATE remote_actors SET fetched_at = ?2 WHERE actor_id = ?1",
                params![actor(n).actor_id, format!("2026-01-0{}T00:00:00.000Z", n + 1)],
            )
            .unwrap();
        }
        upsert(&conn, &bob("https://peer.example/users/bob#main-key"), 3).unwrap();
        // The oldest, u/0, is a follower: it stays, and u/1 goes for u/3.
        conn.execute(
            "INSERT INTO followers (blog_id, actor_id, inbox, handle, follow_id, state, actor_host)
             VALUES (1, 'https://flood.example/u/0', 'i', 'h', 'f', 'accepted', 'flood.example')",
            [],
        )
        .unwrap();
        upsert(&conn, &actor(3), 3).unwrap();
        upsert(&conn, &actor(2), 3).unwrap();
        let mut stmt = conn.prepare_cached("SELECT actor_id FROM remote_actors ORDER BY actor_id").unwrap();
        let kept: Vec<String> = stmt.query_map([], |row| row.get(0)).unwrap().map(Result::unwrap).collect();
        assert_eq!(
            kept,
            [
                "https://flood.example/u/0",
                "https://flood.example/u/2",
                "https://flood.example/u/3",
                "https://peer.example/users/bob"
            ],
            "another host's actors are not counted; a refetch of a cached actor drops nothing"
        );
        conn.execute("UPDATE remote_actors SET fetched_at = '2020-01-01T00:00:00.000Z'", []).unwrap();
        assert_eq!(expire_unreferenced(&conn, 30).unwrap(), 3, "all but the follower");
        assert_eq!(get(&conn, "https://flood.example/u/0").unwrap().unwrap().key_id, "https://flood.example/u/0#key");
    }

    #[test]
    fn the_inbox_finds_blogs_and_published_posts_only() {
        let conn = migrated();
        assert_eq!(inbox_blog(&conn, "alice").unwrap(), Some(InboxBlog { id: 1, subdomain: "alice".into() }));
        assert_eq!(inbox_blog(&conn, "nobody").unwrap(), None);
        assert_eq!(published_post(&conn, 1, "abcd1234").unwrap(), Some(10));
        assert_eq!(published_post(&conn, 1, "draft123").unwrap(), None);
    }
}
