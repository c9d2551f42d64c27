//! A blog's email subscribers (issue 30, docs/email.md "Subscribing"): the double opt-in's
//! pending rows and their confirmation, unsubscribing, and the subscribe form's limits, counted
//! in `subscribe_log` so a restart resets nothing.

use rusqlite::{Connection, OptionalExtension, params};

use crate::domain::public_instance::SubscribeLimits;
use crate::error::Error;

/// How long a pending subscription waits for its confirmation.
pub const CONFIRM_DAYS: u32 = 7;

/// A subscribe request, checked by the caller.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    /// The blog.
    pub blog_id: i64,
    /// The normalized address.
    pub email: &'a str,
    /// The SHA-256 of `email`, for the log.
    pub email_hash: &'a [u8],
    /// The client's limit key (an IPv4 address, or an IPv6 /64).
    pub client_key: &'a str,
}

/// What a subscribe request comes to. Every outcome but the limits answers the reader the same
/// "check your inbox", so nobody learns who subscribes.
#[derive(Debug, PartialEq, Eq)]
pub enum Subscribed {
    /// A confirmation is to be mailed: the subscriber's id and the token its link carries
    /// (stored only as its hash).
    Mail {
        /// The pending subscriber.
        subscriber_id: i64,
    },
    /// Nothing to send: subscribed already, or a confirmation went to this address today.
    Quiet,
    /// The client address sent its allowance today.
    AddressLimit,
    /// The blog sent its allowance of confirmation mails today.
    BlogLimit,
    /// The instance sent its hour's confirmation mails.
    InstanceLimit,
}

/// Records the request and, within the limits, makes or renews the pending subscriber whose
/// confirmation link carries the token hashed as `confirm_hash`. Run in the caller's
/// transaction, beside the queueing of the mail.
pub fn subscribe(
    conn: &Connection,
    request: &Request<'_>,
    confirm_hash: &[u8],
    unsubscribe_token: &str,
    limits: SubscribeLimits,
) -> Result<Subscribed, Error> {
    prune(conn)?;
    let count = |sql: &str, key: &dyn rusqlite::ToSql| -> Result<u32, Error> {
        Ok(conn.prepare_cached(sql)?.query_row([key], |r| r.get(0))?)
    };
    let day = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day')";
    if count(&format!("SELECT count(*) FROM subscribe_log WHERE client_key = ?1 AND at > {day}"), &request.client_key)?
        >= limits.per_address
    {
        return Ok(Subscribed::AddressLimit);
    }
    let mailed_today = count(
        &format!("SELECT count(*) FROM subscribe_log WHERE email_hash = ?1 AND mailed = 1 AND at > {day}"),
        &request.email_hash,
    )? > 0;
    let existing: Option<(i64, String)> = conn
        .prepare_cached("SELECT id, state FROM subscribers WHERE blog_id = ?1 AND email = ?2")?
        .query_row(params![request.blog_id, request.email], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    let quiet = mailed_today || existing.as_ref().is_some_and(|(_, state)| state == "confirmed");
    let hour_mailed: u32 = conn.prepare_cached("SELECT count(*) FROM subscribe_log WHERE mailed = 1 AND at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 hour')")?.query_row(
        [],
        |r| r.get(0),
    )?;
    if !quiet && hour_mailed >= limits.confirmations_per_hour {
        return Ok(Subscribed::InstanceLimit);
    }
    let blog_mailed = count(
        &format!("SELECT count(*) FROM subscribe_log WHERE blog_id = ?1 AND mailed = 1 AND at > {day}"),
        &request.blog_id,
    )?;
    if !quiet && blog_mailed >= limits.per_blog {
        return Ok(Subscribed::BlogLimit);
    }
    conn.execute(
        "INSERT INTO subscribe_log (blog_id, client_key, email_hash, mailed) VALUES (?1, ?2, ?3, ?4)",
        params![request.blog_id, request.client_key, request.email_hash, !quiet],
    )?;
    if quiet {
        return Ok(Subscribed::Quiet);
    }
    let subscriber_id = match existing {
        // Pending or bounced: the reader asks again, so a new link goes out (the old one dies).
        Some((id, _)) => {
            conn.execute(
                "UPDATE subscribers SET state = 'pending', confirm_hash = ?2, confirmed_at = NULL,
                        created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
                 WHERE id = ?1",
                params![id, confirm_hash],
            )?;
            id
        }
        None => {
            conn.execute(
                "INSERT INTO subscribers (blog_id, email, confirm_hash, unsubscribe_token) VALUES (?1, ?2, ?3, ?4)",
                params![request.blog_id, request.email, confirm_hash, unsubscribe_token],
            )?;
            conn.last_insert_rowid()
        }
    };
    Ok(Subscribed::Mail { subscriber_id })
}

/// Forgets the log's rows older than a day and the subscriptions never confirmed in
/// [`CONFIRM_DAYS`].
pub fn prune(conn: &Connection) -> Result<(), Error> {
    conn.execute("DELETE FROM subscribe_log WHERE at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day')", [])?;
    conn.execute(
        &format!(
            "DELETE FROM subscribers WHERE state = 'pending'
             AND created_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-{CONFIRM_DAYS} days')"
        ),
        [],
    )?;
    Ok(())
}

/// A subscriber as the pages that confirm and unsubscribe need it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscriber {
    /// Row id.
    pub id: i64,
    /// The blog.
    pub blog_id: i64,
    /// The address.
    pub email: String,
    /// pending, confirmed or bounced.
    pub state: String,
    /// The capability of its unsubscribe links.
    pub unsubscribe_token: String,
}

/// The subscriber `id`.
pub fn by_id(conn: &Connection, id: i64) -> Result<Option<Subscriber>, Error> {
    Ok(conn
        .prepare_cached("SELECT id, blog_id, email, state, unsubscribe_token FROM subscribers WHERE id = ?1")?
        .query_row([id], |r| {
            Ok(Subscriber {
                id: r.get(0)?,
                blog_id: r.get(1)?,
                email: r.get(2)?,
                state: r.get(3)?,
                unsubscribe_token: r.get(4)?,
            })
        })
        .optional()?)
}

/// Confirms the blog's pending subscription whose link carries the token hashed as
/// `confirm_hash`, if it has not expired; true when one was confirmed. The link works once.
pub fn confirm(conn: &Connection, blog_id: i64, confirm_hash: &[u8]) -> Result<bool, Error> {
    let changed = conn.execute(
        &format!(
            "UPDATE subscribers SET state = 'confirmed', confirm_hash = NULL,
                    confirmed_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
             WHERE blog_id = ?1 AND confirm_hash = ?2 AND state = 'pending'
               AND created_at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-{CONFIRM_DAYS} days')"
        ),
        params![blog_id, confirm_hash],
    )?;
    Ok(changed > 0)
}

/// Removes the blog's subscriber whose unsubscribe links carry `token` (its queued mail goes
/// with it); true when there was one. A token of another blog removes nothing.
pub fn unsubscribe(conn: &Connection, blog_id: i64, token: &str) -> Result<bool, Error> {
    Ok(conn
        .execute("DELETE FROM subscribers WHERE blog_id = ?1 AND unsubscribe_token = ?2", params![blog_id, token])?
        > 0)
}

/// Queues the mailing of the post `post_id`, just published, for `grace_secs` from now, unless
/// it is queued already or its mail went out once (a post is mailed once, however often it is
/// unpublished and published again).
pub fn queue_mailing(conn: &Connection, post_id: i64, blog_id: i64, grace_secs: u64) -> Result<(), Error> {
    conn.execute(
        "INSERT OR IGNORE INTO post_mailings (post_id, blog_id, due_at)
         SELECT ?1, ?2, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+' || ?3 || ' seconds')
         WHERE NOT EXISTS (SELECT 1 FROM mail_contents WHERE post_id = ?1)",
        params![post_id, blog_id, grace_secs as i64],
    )?;
    Ok(())
}

/// The mailings whose grace period is over, as (post id, blog id), oldest first.
pub fn due_mailings(conn: &Connection, limit: u32) -> Result<Vec<(i64, i64)>, Error> {
    let mut stmt = conn.prepare_cached(
        "SELECT post_id, blog_id FROM post_mailings WHERE due_at <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         ORDER BY due_at LIMIT ?1",
    )?;
    let rows = stmt.query_map([limit], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// When the next mailing is due, if any.
pub fn next_mailing(conn: &Connection) -> Result<Option<String>, Error> {
    Ok(conn.prepare_cached("SELECT min(due_at) FROM post_mailings")?.query_row([], |r| r.get(0))?)
}

/// Forgets the mailing of `post_id` (sent, or no longer wanted).
pub fn drop_mailing(conn: &Connection, post_id: i64) -> Result<(), Error> {
    conn.execute("DELETE FROM post_mailings WHERE post_id = ?1", [post_id])?;
    Ok(())
}

/// The blog's confirmed subscribers, as (id, address, unsubscribe token).
pub fn confirmed(conn: &Connection, blog_id: i64) -> Result<Vec<(i64, String, String)>, Error> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, email, unsubscribe_token FROM subscribers WHERE blog_id = ?1 AND state = 'confirmed' ORDER BY id",
    )?;
    let rows = stmt.query_map([blog_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The blog's confirmed subscribers as an archive carries them: (address, created, confirmed),
/// in the order they subscribed.
pub fn confirmed_for_archive(conn: &Connection, blog_id: i64) -> Result<Vec<(String, String, String)>, Error> {
    let mut stmt = conn.prepare_cached(
        "SELECT email, created_at, confirmed_at FROM subscribers
         WHERE blog_id = ?1 AND state = 'confirmed' AND confirmed_at IS NOT NULL ORDER BY id",
    )?;
    let rows = stmt.query_map([blog_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Adds subscribers who confirmed elsewhere (a moved blog's archive) as confirmed, keeping
/// their times; an address the blog has already is left as it is. Answers how many were added.
pub fn add_confirmed(conn: &Connection, blog_id: i64, moved: &[(String, String, String)]) -> Result<usize, Error> {
    let mut insert = conn.prepare_cached(
        "INSERT OR IGNORE INTO subscribers
             (blog_id, email, state, unsubscribe_token, source, created_at, confirmed_at)
         VALUES (?1, ?2, 'confirmed', ?3, 'import', ?4, ?5)",
    )?;
    let mut added = 0;
    for (email, created_at, confirmed_at) in moved {
        let token = hex::encode(rand::random::<[u8; 16]>());
        added += insert.execute(params![blog_id, email, token, created_at, confirmed_at])?;
    }
    Ok(added)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::test_support::with_blogs;

    const LIMITS: SubscribeLimits = SubscribeLimits { per_address: 3, per_blog: 100, confirmations_per_hour: 100 };

    fn ask(conn: &Connection, email: &str, client: &str, hash: &[u8]) -> Subscribed {
        let request = Request { blog_id: 1, email, email_hash: email.as_bytes(), client_key: client };
        subscribe(conn, &request, hash, &format!("u-{email}-{}", hash[0]), LIMITS).unwrap()
    }

    #[test]
    fn one_confirmation_a_day_per_address_and_confirmed_once() {
        let conn = with_blogs(&["alice"]);
        let Subscribed::Mail { subscriber_id } = ask(&conn, "a@example.org", "10.0.0.1", b"h1") else {
            panic!("the first request mails")
        };
        // Asked again the same day: quiet, whoever asks; one row per blog and address.
        assert_eq!(ask(&conn, "a@example.org", "10.0.0.2", b"h2"), Subscribed::Quiet);
        assert_eq!(
            conn.prepare_cached("SELECT count(*) FROM subscribers")
                .unwrap()
                .query_row([], |r| r.get::<_, i64>(0))
                .unwrap(),
            1
        );
        assert!(!confirm(&conn, 1, b"h2").unwrap(), "the quiet request made no link");
        assert!(!confirm(&conn, 2, b"h1").unwrap(), "another blog's link confirms nothing");
        assert!(confirm(&conn, 1, b"h1").unwrap());
        assert!(!confirm(&conn, 1, b"h1").unwrap(), "a link works once");
        assert_eq!(by_id(&conn, subscriber_id).unwrap().unwrap().state, "confirmed");
        // A day later, a confirmed subscriber's request still mails nothing.
        conn.execute("UPDATE subscribe_log SET at = '2000-01-01T00:00:00.000Z'", []).unwrap();
        assert_eq!(ask(&conn, "a@example.org", "10.0.0.1", b"h3"), Subscribed::Quiet);
    }

    #[test]
    fn an_address_asks_its_allowance_and_an_unconfirmed_row_expires() {
        let conn = with_blogs(&["alice"]);
        for (i, email) in ["a@x.org", "b@x.org", "c@x.org"].iter().enumerate() {
            assert!(matches!(ask(&conn, email, "10.0.0.9", &[i as u8]), Subscribed::Mail { .. }));
        }
        assert_eq!(ask(&conn, "d@x.org", "10.0.0.9", b"d"), Subscribed::AddressLimit);
        conn.execute("UPDATE subscribers SET created_at = '2000-01-01T00:00:00.000Z'", []).unwrap();
        assert!(!confirm(&conn, 1, &[0]).unwrap(), "expired after seven days");
        prune(&conn).unwrap();
        assert_eq!(
            conn.prepare_cached("SELECT count(*) FROM subscribers")
                .unwrap()
                .query_row([], |r| r.get::<_, i64>(0))
                .unwrap(),
            0
        );
    }

    #[test]
    fn unsubscribing_takes_the_blogs_own_token_only() {
        let conn = with_blogs(&["alice", "bob"]);
        ask(&conn, "a@example.org", "10.0.0.1", b"h");
        assert!(!unsubscribe(&conn, 2, "u-a@example.org-104").unwrap());
        assert!(unsubscribe(&conn, 1, "u-a@example.org-104").unwrap());
        assert!(!unsubscribe(&conn, 1, "u-a@example.org-104").unwrap(), "idempotent");
    }
}
