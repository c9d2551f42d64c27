//! The owner's digest (issue 30, docs/email.md "The owner's digest"): what waits for an owner
//! (held fediverse replies, given-up servers, and since issue 31 held comments and webmentions)
//! since their last digest, and when it went.

use rusqlite::{Connection, params};

use crate::error::Error;

/// What waits for one blog's owner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waiting {
    /// The blog.
    pub blog_id: i64,
    /// Its owner's address.
    pub owner_email: String,
    /// Replies from the fediverse held for approval since the last digest.
    pub held_replies: u32,
    /// Servers whose deliveries were given up since the last digest.
    pub given_up_hosts: u32,
    /// Comments and webmentions held for approval since the last digest.
    pub held_responses: u32,
}

/// The blogs whose owners want digests, got none in the last hour, are not suspended, and
/// have something new waiting; at most `limit`.
pub fn due(conn: &Connection, limit: u32) -> Result<Vec<Waiting>, Error> {
    let since = "coalesce(b.digest_sent_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 hour'))";
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT id, email, held, given_up, responses FROM (
             SELECT b.id, u.email,
                    (SELECT count(*) FROM replies r JOIN posts p ON p.id = r.post_id
                      WHERE p.blog_id = b.id AND r.state = 'held' AND r.received_at > {since}) AS held,
                    (SELECT count(*) FROM given_up_hosts g WHERE g.blog_id = b.id AND g.given_up_at > {since}) AS given_up,
                    (SELECT count(*) FROM responses c
                      WHERE c.blog_id = b.id AND c.state = 'held' AND c.created_at > {since}) AS responses
             FROM blogs b JOIN users u ON u.id = b.user_id
             WHERE b.notify_owner = 1 AND b.state <> 'suspended'
               AND (b.digest_sent_at IS NULL
                    OR b.digest_sent_at <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 hour')))
         WHERE held > 0 OR given_up > 0 OR responses > 0 LIMIT ?1"
    ))?;
    let rows = stmt.query_map([limit], |r| {
        Ok(Waiting {
            blog_id: r.get(0)?,
            owner_email: r.get(1)?,
            held_replies: r.get(2)?,
            given_up_hosts: r.get(3)?,
            held_responses: r.get(4)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Records that the blog's owner was sent a digest now.
pub fn sent(conn: &Connection, blog_id: i64) -> Result<(), Error> {
    conn.execute(
        "UPDATE blogs SET digest_sent_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?1",
        params![blog_id],
    )?;
    Ok(())
}
