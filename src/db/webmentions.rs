//! Webmentions received (issue 31, docs/responses.md "Webmentions"): the queue of sources to
//! read (`incoming_webmentions`), its limits (`webmention_log`), and the responses a verified
//! source makes, updates or removes.

use rusqlite::{Connection, OptionalExtension, params};

use crate::domain::federation::webmention::SourceMention;
use crate::domain::public_instance::WebmentionLimits;
use crate::error::Error;

const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/// One of the two durable queues (received to read, links to tell): a row is due at its
/// `next_at`, leased by pushing `next_at` past the lease, and tried again later with its
/// `attempts` counted.
struct Queue {
    /// The table.
    table: &'static str,
    /// What else makes a row of it due (an SQL condition).
    ready: &'static str,
}

/// Webmentions received, waiting for their source to be read.
const INCOMING: Queue = Queue { table: "incoming_webmentions", ready: "1" };
/// Webmentions to send.
const OUTGOING: Queue = Queue { table: "outgoing_webmentions", ready: "state = 'queued'" };

impl Queue {
    /// Takes up to `limit` due rows (the oldest due first), leasing each for `lease_secs`;
    /// `columns` are returned and read by `row`.
    fn claim<T>(
        &self,
        conn: &Connection,
        columns: &str,
        limit: u32,
        lease_secs: u64,
        row: impl FnMut(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
    ) -> Result<Vec<T>, Error> {
        let Queue { table, ready } = self;
        let mut stmt = conn.prepare_cached(&format!(
            "UPDATE {table} SET next_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+' || ?2 || ' seconds')
             WHERE id IN (SELECT id FROM {table} WHERE {ready} AND next_at <= {NOW} ORDER BY next_at LIMIT ?1)
             RETURNING {columns}"
        ))?;
        let rows = stmt.query_map(params![limit, lease_secs as i64], row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// When the next row is due, if any.
    fn next(&self, conn: &Connection) -> Result<Option<String>, Error> {
        let Queue { table, ready } = self;
        Ok(conn
            .prepare_cached(&format!("SELECT min(next_at) FROM {table} WHERE {ready}"))?
            .query_row([], |r| r.get(0))?)
    }

    /// Tries the row `id` again in `wait_secs`, one more attempt counted.
    fn retry(&self, conn: &Connection, id: i64, wait_secs: u64) -> Result<(), Error> {
        conn.execute(
            &format!(
                "UPDATE {} SET attempts = attempts + 1,
                        next_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+' || ?2 || ' seconds')
                 WHERE id = ?1",
                self.table
            ),
            params![id, wait_secs as i64],
        )?;
        Ok(())
    }
}

/// How long to wait before the next of `attempts` tries so far (10 minutes, then 100), or `None`
/// once `max_attempts` have been tried: it is given up.
pub fn backoff(attempts: u32, max_attempts: u32) -> Option<u64> {
    (attempts + 1 < max_attempts).then(|| 60 * 10u64.pow(attempts))
}

/// What became of a webmention received.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Received {
    /// Queued (or queued again) for its source to be read.
    Queued,
    /// The sender's address sent its allowance today.
    AddressLimit,
    /// The blog has its allowance of webmentions waiting to be read.
    BlogFull,
}

/// A webmention to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Incoming {
    /// Row id.
    pub id: i64,
    /// The blog.
    pub blog_id: i64,
    /// The post it mentions.
    pub post_id: i64,
    /// The page that mentions it.
    pub source: String,
    /// The post's URL as the sender gave it.
    pub target: String,
    /// Reads tried so far.
    pub attempts: u32,
}

/// Queues the webmention of `post_id` from `source`, sent from `client_key`, within `limits`.
pub fn receive(
    conn: &Connection,
    blog_id: i64,
    post_id: i64,
    source: &str,
    target: &str,
    client_key: &str,
    limits: WebmentionLimits,
) -> Result<Received, Error> {
    conn.execute("DELETE FROM webmention_log WHERE at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day')", [])?;
    let sent: u32 = conn
        .prepare_cached(
            "SELECT count(*) FROM webmention_log WHERE client_key = ?1
           AND at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day')",
        )?
        .query_row([client_key], |r| r.get(0))?;
    if sent >= limits.per_address {
        return Ok(Received::AddressLimit);
    }
    let known = conn
        .prepare_cached("SELECT 1 FROM incoming_webmentions WHERE post_id = ?1 AND source = ?2")?
        .exists(params![post_id, source])?;
    let waiting: u32 = conn
        .prepare_cached("SELECT count(*) FROM incoming_webmentions WHERE blog_id = ?1")?
        .query_row([blog_id], |r| r.get(0))?;
    if !known && waiting >= limits.pending_per_blog {
        return Ok(Received::BlogFull);
    }
    conn.execute("INSERT INTO webmention_log (client_key) VALUES (?1)", [client_key])?;
    conn.execute(
        &format!(
            "INSERT INTO incoming_webmentions (blog_id, post_id, source, target, client_key) VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT (post_id, source) DO UPDATE SET target = excluded.target, attempts = 0, next_at = {NOW}"
        ),
        params![blog_id, post_id, source, target, client_key],
    )?;
    Ok(Received::Queued)
}

/// Takes up to `limit` due webmentions, leasing each for `lease_secs` (one read at a time; a
/// crash leaves it to be read again when the lease ends).
pub fn claim_due(conn: &Connection, limit: u32, lease_secs: u64) -> Result<Vec<Incoming>, Error> {
    INCOMING.claim(conn, "id, blog_id, post_id, source, target, attempts", limit, lease_secs, |r| {
        Ok(Incoming {
            id: r.get(0)?,
            blog_id: r.get(1)?,
            post_id: r.get(2)?,
            source: r.get(3)?,
            target: r.get(4)?,
            attempts: r.get(5)?,
        })
    })
}

/// When the next webmention is due, if any.
pub fn next_due(conn: &Connection) -> Result<Option<String>, Error> {
    INCOMING.next(conn)
}

/// Forgets a webmention read (or given up).
pub fn done(conn: &Connection, id: i64) -> Result<(), Error> {
    conn.execute("DELETE FROM incoming_webmentions WHERE id = ?1", [id])?;
    Ok(())
}

/// Reads the webmention `id` again in `wait_secs`.
pub fn retry(conn: &Connection, id: i64, wait_secs: u64) -> Result<(), Error> {
    INCOMING.retry(conn, id, wait_secs)
}

/// Whether the post's response from `source` is shown (approved).
pub fn shown(conn: &Connection, post_id: i64, source: &str) -> Result<bool, Error> {
    Ok(conn
        .prepare_cached("SELECT state = 'approved' FROM responses WHERE post_id = ?1 AND source_url = ?2")?
        .query_row(params![post_id, source], |r| r.get(0))
        .optional()?
        .unwrap_or(false))
}

/// Makes (or updates, held again) the post's response from `source`, as it says now.
pub fn keep(conn: &Connection, blog_id: i64, post_id: i64, source: &str, mention: &SourceMention) -> Result<(), Error> {
    conn.execute(
        &format!(
            "INSERT INTO responses (blog_id, post_id, kind, state, author_name, author_url, source_url, title, text)
             VALUES (?1, ?2, 'webmention', 'held', ?3, ?4, ?5, ?6, ?7)
             ON CONFLICT (post_id, source_url) DO UPDATE SET author_name = excluded.author_name,
                 author_url = excluded.author_url, title = excluded.title, text = excluded.text,
                 state = CASE WHEN state = 'spam' THEN 'spam' ELSE 'held' END, updated_at = {NOW}"
        ),
        params![blog_id, post_id, mention.author_name, mention.author_url, source, mention.title, mention.excerpt],
    )?;
    Ok(())
}

/// Removes the post's response from `source` (it no longer links, or is gone).
pub fn remove(conn: &Connection, post_id: i64, source: &str) -> Result<bool, Error> {
    Ok(conn.execute("DELETE FROM responses WHERE post_id = ?1 AND source_url = ?2", params![post_id, source])? > 0)
}

/// Most pages one post tells about.
pub const MAX_TARGETS: usize = 50;

/// In a post write's transaction: the post now links to `targets` (empty when it is not
/// public): each new or still linked one is queued to be told, and the ones told before that it
/// no longer links to are queued once more (so they can remove the mention).
pub fn queue_outgoing(conn: &Connection, post_id: i64, targets: &[String]) -> Result<(), Error> {
    conn.execute(
        "UPDATE outgoing_webmentions SET linked = 0, state = 'queued', attempts = 0,
                next_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE post_id = ?1 AND state = 'sent'",
        [post_id],
    )?;
    conn.execute("DELETE FROM outgoing_webmentions WHERE post_id = ?1 AND state = 'queued' AND linked = 1", [post_id])?;
    let mut insert = conn.prepare_cached(&format!(
        "INSERT INTO outgoing_webmentions (blog_id, post_id, target)
         VALUES ((SELECT blog_id FROM posts WHERE id = ?1), ?1, ?2)
         ON CONFLICT (post_id, target) DO UPDATE SET linked = 1, state = 'queued', attempts = 0, next_at = {NOW}"
    ))?;
    for target in targets.iter().take(MAX_TARGETS) {
        insert.execute(params![post_id, target])?;
    }
    Ok(())
}

/// In a post deletion's transaction, before the post's row goes: every page the post links to
/// (or stopped linking to and has not been told yet) is queued to be told once more, from
/// `source` (the address the post had), so it re-reads the post, finds it gone and drops the
/// mention; each is forgotten once told.
pub fn post_deleted(conn: &Connection, post_id: i64, source: &str) -> Result<(), Error> {
    conn.execute(
        &format!(
            "UPDATE outgoing_webmentions SET linked = 0, state = 'queued', attempts = 0, next_at = {NOW}, source = ?2
             WHERE post_id = ?1"
        ),
        params![post_id, source],
    )?;
    Ok(())
}

/// A webmention to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outgoing {
    /// Row id.
    pub id: i64,
    /// The blog of the post.
    pub blog_id: i64,
    /// The post that links (the source); `None` once it is deleted.
    pub post_id: Option<i64>,
    /// The address a deleted post had (empty while the post exists).
    pub source: String,
    /// The page it links to (or linked to).
    pub target: String,
    /// Whether it still links to it.
    pub linked: bool,
    /// Sends tried so far.
    pub attempts: u32,
}

/// Takes up to `limit` due webmentions to send, leasing each for `lease_secs`.
pub fn claim_outgoing(conn: &Connection, limit: u32, lease_secs: u64) -> Result<Vec<Outgoing>, Error> {
    OUTGOING.claim(conn, "id, blog_id, post_id, source, target, linked, attempts", limit, lease_secs, |r| {
        Ok(Outgoing {
            id: r.get(0)?,
            blog_id: r.get(1)?,
            post_id: r.get(2)?,
            source: r.get(3)?,
            target: r.get(4)?,
            linked: r.get(5)?,
            attempts: r.get(6)?,
        })
    })
}

/// When the next webmention is due to be sent, if any.
pub fn next_outgoing(conn: &Connection) -> Result<Option<String>, Error> {
    OUTGOING.next(conn)
}

/// Settles a webmention sent (or given up): kept as sent while the post links to its target,
/// forgotten otherwise.
pub fn outgoing_done(conn: &Connection, id: i64) -> Result<(), Error> {
    conn.execute("DELETE FROM outgoing_webmentions WHERE id = ?1 AND linked = 0", [id])?;
    conn.execute("UPDATE outgoing_webmentions SET state = 'sent' WHERE id = ?1", [id])?;
    Ok(())
}

/// Sends the webmention `id` again in `wait_secs`.
pub fn outgoing_retry(conn: &Connection, id: i64, wait_secs: u64) -> Result<(), Error> {
    OUTGOING.retry(conn, id, wait_secs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::test_support::with_blogs;

    fn post(conn: &Connection, short_id: &str) -> i64 {
        conn.execute(
            "INSERT INTO posts (blog_id, short_id, slug, title, body, published_at)
             VALUES (1, ?1, 'a', 'A', '{}', '2026-01-01T00:00:00.000Z')",
            [short_id],
        )
        .unwrap();
        conn.last_insert_rowid()
    }

    #[test]
    fn both_queues_lease_retry_and_back_off_alike() {
        let conn = with_blogs(&["alice"]);
        let post_id = post(&conn, "aaaaaaaa");
        queue_outgoing(&conn, post_id, &["https://a.example/".into(), "https://b.example/".into()]).unwrap();
        let limits = WebmentionLimits { per_address: 10, pending_per_blog: 10 };
        receive(&conn, 1, post_id, "https://s.example/", "https://t.example/", "k", limits).unwrap();

        let sending = claim_outgoing(&conn, 1, 600).unwrap();
        assert_eq!((sending.len(), sending[0].blog_id, sending[0].post_id), (1, 1, Some(post_id)));
        assert_eq!(claim_outgoing(&conn, 10, 600).unwrap().len(), 1, "the leased one is not taken twice");
        assert!(claim_outgoing(&conn, 10, 600).unwrap().is_empty());
        let reading = claim_due(&conn, 10, 600).unwrap();
        assert_eq!(reading.len(), 1);
        assert!(claim_due(&conn, 10, 600).unwrap().is_empty(), "leased");
        retry(&conn, reading[0].id, 0).unwrap();
        assert_eq!(claim_due(&conn, 10, 600).unwrap()[0].attempts, 1, "due again at once, one attempt counted");
        outgoing_retry(&conn, sending[0].id, 0).unwrap();
        assert_eq!(claim_outgoing(&conn, 10, 600).unwrap()[0].attempts, 1);
        assert!(next_due(&conn).unwrap().is_some() && next_outgoing(&conn).unwrap().is_some());

        assert_eq!((backoff(0, 3), backoff(1, 3), backoff(2, 3)), (Some(60), Some(600), None));
    }

    #[test]
    fn a_deleted_posts_targets_outlive_it_with_its_address_until_told() {
        let conn = with_blogs(&["alice"]);
        let post_id = post(&conn, "aaaaaaaa");
        queue_outgoing(&conn, post_id, &["https://a.example/".into()]).unwrap();
        let sent = claim_outgoing(&conn, 10, 600).unwrap().remove(0);
        outgoing_done(&conn, sent.id).unwrap();
        assert!(claim_outgoing(&conn, 10, 0).unwrap().is_empty(), "told, and kept while linked");

        post_deleted(&conn, post_id, "https://alice.example/a-aaaaaaaa").unwrap();
        conn.execute("DELETE FROM posts WHERE id = ?1", [post_id]).unwrap();
        let again = claim_outgoing(&conn, 10, 600).unwrap();
        assert_eq!(again.len(), 1, "told once more");
        let told = &again[0];
        assert_eq!(
            (told.post_id, told.source.as_str(), told.linked),
            (None, "https://alice.example/a-aaaaaaaa", false)
        );
        outgoing_done(&conn, told.id).unwrap();
        let left: i64 = conn
            .prepare_cached("SELECT count(*) FROM outgoing_webmentions")
            .unwrap()
            .query_row([], |r| r.get(0))
            .unwrap();
        assert_eq!(left, 0, "forgotten once told");

        // The blog's deletion takes what is left with it.
        let other = post(&conn, "bbbbbbbb");
        queue_outgoing(&conn, other, &["https://a.example/".into()]).unwrap();
        post_deleted(&conn, other, "https://alice.example/a-bbbbbbbb").unwrap();
        conn.execute("DELETE FROM posts WHERE id = ?1", [other]).unwrap();
        conn.execute("DELETE FROM blogs WHERE id = 1", []).unwrap();
        let left: i64 = conn
            .prepare_cached("SELECT count(*) FROM outgoing_webmentions")
            .unwrap()
            .query_row([], |r| r.get(0))
            .unwrap();
        assert_eq!(left, 0);
    }
}
