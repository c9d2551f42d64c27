//! Blocked domains (migration 13, issue 16): the whole instance's (`quire federation block`)
//! and each blog's (Settings → Fediverse). A blocked domain's requests are dropped before any
//! work; blocking `example.social` blocks `a.example.social` too. Blocking removes everything
//! the domain sent ([`purge`]).

use rusqlite::{Connection, params};

use crate::db::followers::{self, WITHIN_DOMAIN};
use crate::db::{deliveries, remote_actors};
use crate::error::Error;

/// Blocks `domain` (already normalized: lowercase A-label) for the blog, or for the whole
/// instance with `None`; false when it was already blocked there.
pub fn add(conn: &Connection, blog_id: Option<i64>, domain: &str) -> Result<bool, Error> {
    Ok(conn
        .execute("INSERT OR IGNORE INTO blocked_domains (blog_id, domain) VALUES (?1, ?2)", params![blog_id, domain])?
        == 1)
}

/// Unblocks `domain` for the blog, or for the whole instance with `None`; false when it was not
/// blocked there.
pub fn remove(conn: &Connection, blog_id: Option<i64>, domain: &str) -> Result<bool, Error> {
    Ok(conn.execute("DELETE FROM blocked_domains WHERE blog_id IS ?1 AND domain = ?2", params![blog_id, domain])? == 1)
}

/// The domains blocked for the blog, or for the whole instance with `None`, sorted.
pub fn list(conn: &Connection, blog_id: Option<i64>) -> Result<Vec<String>, Error> {
    let mut stmt = conn.prepare_cached("SELECT domain FROM blocked_domains WHERE blog_id IS ?1 ORDER BY domain")?;
    let rows = stmt.query_map([blog_id], |row| row.get(0))?.collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// Whether `host` (lowercase, no port) is blocked for the whole instance or, with `Some`, for
/// that blog: it or a domain it is under is listed.
pub fn is_blocked(conn: &Connection, blog_id: Option<i64>, host: &str) -> Result<bool, Error> {
    let mut candidates = vec![host];
    let mut rest = host;
    while let Some((_, parent)) = rest.split_once('.') {
        candidates.push(parent);
        rest = parent;
    }
    let mut stmt = conn.prepare_cached(
        "SELECT EXISTS (SELECT 1 FROM blocked_domains WHERE domain = ?1 AND (blog_id IS NULL OR blog_id = ?2))",
    )?;
    for candidate in candidates {
        if stmt.query_row(params![candidate, blog_id], |row| row.get::<_, bool>(0))? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// What blocking a domain removed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Purged {
    /// Followers.
    pub followers: usize,
    /// Replies, held or shown.
    pub replies: usize,
    /// Likes and boosts.
    pub reactions: usize,
    /// Cached remote actors.
    pub actors: usize,
    /// Deliveries to its inboxes, queued or given up.
    pub deliveries: usize,
    /// The subdomains of the blogs whose public pages showed a removed reply or reaction.
    pub shown_on: Vec<String>,
}

/// Removes everything `domain` and its subdomains sent to the blog, or with `None` to every
/// blog: its followers, replies and reactions, the deliveries queued to it, and its cached
/// actors (with `None` all of them, else those nothing else refers to).
pub fn purge(conn: &Connection, blog_id: Option<i64>, domain: &str) -> Result<Purged, Error> {
    let of_blog = "(?1 IS NULL OR post_id IN (SELECT id FROM posts WHERE blog_id = ?1))";
    let shown_on = {
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT DISTINCT b.subdomain FROM blogs b JOIN posts p ON p.blog_id = b.id WHERE p.id IN (
                 SELECT post_id FROM replies WHERE state = 'approved' AND {of_blog} AND {WITHIN_DOMAIN}
                 UNION SELECT post_id FROM reactions WHERE {of_blog} AND {WITHIN_DOMAIN})
             ORDER BY b.subdomain"
        ))?;
        stmt.query_map(params![blog_id, domain], |row| row.get(0))?.collect::<rusqlite::Result<_>>()?
    };
    let removing = |table: &str| {
        conn.execute(&format!("DELETE FROM {table} WHERE {of_blog} AND {WITHIN_DOMAIN}"), params![blog_id, domain])
    };
    let mut purged = Purged {
        followers: followers::remove_on_domain(conn, blog_id, domain)?,
        replies: removing("replies")?,
        reactions: removing("reactions")?,
        actors: 0,
        deliveries: deliveries::remove_to_domain(conn, blog_id, domain)?,
        shown_on,
    };
    purged.actors = remote_actors::remove_on_domain(conn, domain, blog_id.is_none())?;
    Ok(purged)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blocked_domain_covers_its_subdomains_and_a_blogs_block_stays_with_that_blog() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE blocked_domains (blog_id INTEGER, domain TEXT NOT NULL,
                 created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')));
             CREATE UNIQUE INDEX blocked_domains_unique ON blocked_domains(coalesce(blog_id, 0), domain);",
        )
        .unwrap();
        assert!(add(&conn, None, "spam.example").unwrap());
        assert!(!add(&conn, None, "spam.example").unwrap(), "blocked once");
        assert!(add(&conn, Some(7), "rude.example").unwrap());
        assert!(is_blocked(&conn, None, "spam.example").unwrap());
        assert!(is_blocked(&conn, Some(7), "a.b.spam.example").unwrap(), "the instance's block covers every blog");
        assert!(!is_blocked(&conn, None, "notspam.example").unwrap(), "a suffix is not a parent domain");
        assert!(is_blocked(&conn, Some(7), "www.rude.example").unwrap());
        assert!(!is_blocked(&conn, Some(8), "rude.example").unwrap(), "another blog's block");
        assert!(!is_blocked(&conn, None, "rude.example").unwrap());
        assert_eq!(list(&conn, Some(7)).unwrap(), ["rude.example"]);
        assert!(!remove(&conn, None, "rude.example").unwrap(), "not blocked for the instance");
        assert!(remove(&conn, Some(7), "rude.example").unwrap());
        assert!(!is_blocked(&conn, Some(7), "rude.example").unwrap());
    }

    #[test]
    fn purging_a_domain_removes_what_it_and_its_subdomains_sent_to_one_blog_or_to_all() {
        let conn = crate::db::test_support::with_blogs(&["alice", "bob"]);
        conn.execute_batch(
            "INSERT INTO posts (id, blog_id, short_id, slug, title, body) VALUES
                 (10, 1, 'p1', 'a', 'A', '{}'), (20, 2, 'p2', 'b', 'B', '{}');",
        )
        .unwrap();
        for (post, actor, state) in [
            (10, "https://a.spam.example/u/x", "approved"),
            (10, "https://notspam.example/u/y", "held"),
            (20, "https://spam.example/u/z", "held"),
        ] {
            let note = format!("{actor}/note/{post}");
            let reply = crate::db::replies::NewReply {
                note_id: &note,
                post_id: post,
                actor_id: actor,
                author_name: "x",
                author_handle: "@x@x",
                author_url: actor,
                url: None,
                text: "hi",
                published_at: "2026-11-24T10:00:00.000Z",
            };
            crate::db::replies::insert_held(&conn, &reply).unwrap();
            conn.execute("UPDATE replies SET state = ?2 WHERE note_id = ?1", params![note, state]).unwrap();
            crate::db::reactions::add(
                &conn,
                &format!("{actor}/like/{post}"),
                post,
                actor,
                crate::db::reactions::Kind::Like,
            )
            .unwrap();
        }
        let purged = purge(&conn, Some(1), "spam.example").unwrap();
        assert_eq!(
            (purged.replies, purged.reactions, purged.shown_on.as_slice()),
            (1, 1, &["alice".to_owned()][..]),
            "alice's from a.spam.example; notspam.example is another domain, bob's blog is not alice's"
        );
        let left = |table: &str| -> i64 {
            conn.prepare_cached(&format!("SELECT count(*) FROM {table}"))
                .unwrap()
                .query_row([], |row| row.get(0))
                .unwrap()
        };
        assert_eq!((left("replies"), left("reactions")), (2, 2));
        let purged = purge(&conn, None, "spam.example").unwrap();
        assert_eq!((purged.replies, purged.reactions, purged.shown_on.as_slice()), (1, 1, &["bob".to_owned()][..]));
        assert_eq!((left("replies"), left("reactions")), (1, 1));
    }
}
