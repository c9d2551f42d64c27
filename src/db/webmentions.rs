//! Webmentions received (issue 31, docs/responses.md "Webmentions"): the queue of sources to
//! read (`incoming_webmentions`), its limits (`webmention_log`), and the responses a verified
//! source makes, updates or removes.

use rusqlite::{Connection, OptionalExtension, params};

use crate::domain::federation::webmention::SourceMention;
use crate::domain::public_instance::WebmentionLimits;
use crate::error::Error;

const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

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
    let sent: u32 = conn.query_row(
        "SELECT count(*) FROM webmention_log WHERE client_key = ?1
           AND at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day')",
        [client_key],
        |r| r.get(0),
    )?;
    if sent >= limits.per_address {
        return Ok(Received::AddressLimit);
    }
    let known = conn
        .prepare_cached("SELECT 1 FROM incoming_webmentions WHERE post_id = ?1 AND source = ?2")?
        .exists(params![post_id, source])?;
    let waiting: u32 =
        conn.query_row("SELECT count(*) FROM incoming_webmentions WHERE blog_id = ?1", [blog_id], |r| r.get(0))?;
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
    let mut stmt = conn.prepare_cached(&format!(
        "UPDATE incoming_webmentions SET next_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+' || ?2 || ' seconds')
         WHERE id IN (SELECT id FROM incoming_webmentions WHERE next_at <= {NOW} ORDER BY next_at LIMIT ?1)
         RETURNING id, blog_id, post_id, source, target, attempts"
    ))?;
    let rows = stmt.query_map(params![limit, lease_secs as i64], |r| {
        Ok(Incoming {
            id: r.get(0)?,
            blog_id: r.get(1)?,
            post_id: r.get(2)?,
            source: r.get(3)?,
            target: r.get(4)?,
            attempts: r.get(5)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// When the next webmention is due, if any.
pub fn next_due(conn: &Connection) -> Result<Option<String>, Error> {
    Ok(conn.query_row("SELECT min(next_at) FROM incoming_webmentions", [], |r| r.get(0))?)
}

/// Forgets a webmention read (or given up).
pub fn done(conn: &Connection, id: i64) -> Result<(), Error> {
    conn.execute("DELETE FROM incoming_webmentions WHERE id = ?1", [id])?;
    Ok(())
}

/// Reads the webmention `id` again in `wait_secs`.
pub fn retry(conn: &Connection, id: i64, wait_secs: u64) -> Result<(), Error> {
    conn.execute(
        "UPDATE incoming_webmentions SET attempts = attempts + 1,
                next_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+' || ?2 || ' seconds')
         WHERE id = ?1",
        params![id, wait_secs as i64],
    )?;
    Ok(())
}

/// Whether the post's response from `source` is shown (approved).
pub fn shown(conn: &Connection, post_id: i64, source: &str) -> Result<bool, Error> {
    Ok(conn
        .query_row(
            "SELECT state = 'approved' FROM responses WHERE post_id = ?1 AND source_url = ?2",
            params![post_id, source],
            |r| r.get(0),
        )
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
        "INSERT INTO outgoing_webmentions (post_id, target) VALUES (?1, ?2)
         ON CONFLICT (post_id, target) DO UPDATE SET linked = 1, state = 'queued', attempts = 0, next_at = {NOW}"
    ))?;
    for target in targets.iter().take(MAX_TARGETS) {
        insert.execute(params![post_id, target])?;
    }
    Ok(())
}

/// A webmention to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outgoing {
    /// Row id.
    pub id: i64,
    /// The post that links (the source).
    pub post_id: i64,
    /// The page it links to (or linked to).
    pub target: String,
    /// Whether it still links to it.
    pub linked: bool,
    /// Sends tried so far.
    pub attempts: u32,
}

/// Takes up to `limit` due webmentions to send, leasing each for `lease_secs`.
pub fn claim_outgoing(conn: &Connection, limit: u32, lease_secs: u64) -> Result<Vec<Outgoing>, Error> {
    let mut stmt = conn.prepare_cached(&format!(
        "UPDATE outgoing_webmentions SET next_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+' || ?2 || ' seconds')
         WHERE id IN (SELECT id FROM outgoing_webmentions WHERE state = 'queued' AND next_at <= {NOW}
                      ORDER BY next_at LIMIT ?1)
         RETURNING id, post_id, target, linked, attempts"
    ))?;
    let rows = stmt.query_map(params![limit, lease_secs as i64], |r| {
        Ok(Outgoing { id: r.get(0)?, post_id: r.get(1)?, target: r.get(2)?, linked: r.get(3)?, attempts: r.get(4)? })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// When the next webmention is due to be sent, if any.
pub fn next_outgoing(conn: &Connection) -> Result<Option<String>, Error> {
    Ok(conn.query_row("SELECT min(next_at) FROM outgoing_webmentions WHERE state = 'queued'", [], |r| r.get(0))?)
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
    conn.execute(
        "UPDATE outgoing_webmentions SET attempts = attempts + 1,
                next_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+' || ?2 || ' seconds')
         WHERE id = ?1",
        params![id, wait_secs as i64],
    )?;
    Ok(())
}

/// The blog of the post `post_id`, if there is such a post.
pub fn blog_of(conn: &Connection, post_id: i64) -> Result<Option<i64>, Error> {
    Ok(conn.query_row("SELECT blog_id FROM posts WHERE id = ?1", [post_id], |r| r.get(0)).optional()?)
}
