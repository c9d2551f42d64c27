//! The mail queue (issue 30, docs/email.md): messages rendered once ([`NewContent`]) and queued
//! for each of their recipients, one row each, in the caller's transaction. The sender
//! (src/mail/sender.rs) takes due rows, hands them to the SMTP relay and settles them.

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension, params};

use crate::error::Error;

/// What a message is: it decides its headers (a post's carries `List-Unsubscribe`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MailKind {
    /// The double opt-in's confirmation of a subscription.
    Confirm,
    /// A new post, to the blog's confirmed subscribers.
    Post,
    /// The owner's digest of what waits for them.
    Digest,
    /// A notice to an owner or the admins (a blog's sending paused, ...).
    Notice,
}

impl MailKind {
    /// Its stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            MailKind::Confirm => "confirm",
            MailKind::Post => "post",
            MailKind::Digest => "digest",
            MailKind::Notice => "notice",
        }
    }

    /// The kind stored as `raw`, if any.
    pub fn parse(raw: &str) -> Option<MailKind> {
        [MailKind::Confirm, MailKind::Post, MailKind::Digest, MailKind::Notice].into_iter().find(|k| k.as_str() == raw)
    }
}

/// A message rendered once for all its recipients.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewContent {
    /// The blog it is from; None for the instance's own mail.
    pub blog_id: Option<i64>,
    /// The post it carries, for the post list's counts.
    pub post_id: Option<i64>,
    /// What it is.
    pub kind: MailKind,
    /// Its subject (one line; the sender refuses CR and LF).
    pub subject: String,
    /// The plain-text part.
    pub text: String,
    /// The HTML part ('' for a text-only message).
    pub html: String,
    /// The sender's display name (the blog's name; '' for the instance's `--mail-from` as is).
    pub from_name: String,
    /// `Reply-To` ('' for none).
    pub reply_to: String,
}

/// One recipient of a [`NewContent`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recipient {
    /// The address, normalized.
    pub to: String,
    /// The subscriber it is, for bounces and `last_sent_at`.
    pub subscriber_id: Option<i64>,
    /// The recipient's own unsubscribe link ('' for mail that is not a list's).
    pub unsubscribe_url: String,
}

/// Stores `content` and queues it for each of `recipients`, due now; answers the content's id.
/// Runs in the caller's transaction (`conn` may be one), so a write and its mail commit together.
pub fn enqueue(conn: &Connection, content: &NewContent, recipients: &[Recipient]) -> Result<i64, Error> {
    conn.execute(
        "INSERT INTO mail_contents (blog_id, post_id, kind, subject, text_body, html_body, from_name, reply_to)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            content.blog_id,
            content.post_id,
            content.kind.as_str(),
            content.subject,
            content.text,
            content.html,
            content.from_name,
            content.reply_to,
        ],
    )?;
    let content_id = conn.last_insert_rowid();
    let mut insert = conn.prepare_cached(
        "INSERT INTO mail_queue (content_id, blog_id, subscriber_id, to_addr, unsubscribe_url)
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    for recipient in recipients {
        insert.execute(params![
            content_id,
            content.blog_id,
            recipient.subscriber_id,
            recipient.to,
            recipient.unsubscribe_url
        ])?;
    }
    Ok(content_id)
}

/// A queued message claimed for the relay (now `sending`), with what it carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Due {
    /// The queue row's id.
    pub id: i64,
    /// Its content's id.
    pub content_id: i64,
    /// The blog it is from, if any.
    pub blog_id: Option<i64>,
    /// Where it goes.
    pub to: String,
    /// The recipient's unsubscribe link ('' for none).
    pub unsubscribe_url: String,
    /// Failed attempts so far.
    pub attempts: i64,
    /// Its subject.
    pub subject: String,
    /// The plain-text part.
    pub text: String,
    /// The HTML part.
    pub html: String,
    /// The sender's display name.
    pub from_name: String,
    /// `Reply-To`.
    pub reply_to: String,
}

const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
const TODAY: &str = "strftime('%Y-%m-%d', 'now')";

/// Puts back the rows left `sending` (in flight when the server stopped), so they are sent
/// again: at most one duplicate per message in flight at a crash. Answers how many.
pub fn requeue_in_flight(conn: &Connection) -> Result<usize, Error> {
    Ok(conn.execute("UPDATE mail_queue SET state = 'queued' WHERE state = 'sending'", [])?)
}

/// Claims up to `limit` due rows, oldest first, marking them `sending` (committed before the
/// relay sees them). Held, not claimed: rows of a suspended blog, of a blog whose sending is
/// paused, a post's while its blog sends no email, and a blog's once it sent `per_blog_per_day`
/// today (they wait for the next UTC day). Notices about a blog (to its owner, the admins) are
/// never held.
pub fn claim_due(conn: &Connection, limit: u32, per_blog_per_day: u32) -> Result<Vec<Due>, Error> {
    let mut select = conn.prepare_cached(&format!(
        "SELECT q.id, q.content_id, q.blog_id, q.to_addr, q.unsubscribe_url, q.attempts,
                c.subject, c.text_body, c.html_body, c.from_name, c.reply_to,
                COALESCE((SELECT sent FROM mail_sent_daily d WHERE d.blog_id = q.blog_id AND d.day = {TODAY}), 0),
                c.kind = 'notice'
         FROM mail_queue q JOIN mail_contents c ON c.id = q.content_id
         LEFT JOIN blogs b ON b.id = q.blog_id
         WHERE q.state = 'queued' AND q.next_at <= {NOW}
           AND (b.id IS NULL OR c.kind = 'notice'
                OR (b.state <> 'suspended' AND b.mail_paused_at IS NULL
                    AND (b.email_enabled = 1 OR c.kind <> 'post')))
         ORDER BY q.next_at, q.id LIMIT ?1"
    ))?;
    let rows = select.query_map([i64::from(limit) * 4], |r| {
        Ok((
            Due {
                id: r.get(0)?,
                content_id: r.get(1)?,
                blog_id: r.get(2)?,
                to: r.get(3)?,
                unsubscribe_url: r.get(4)?,
                attempts: r.get(5)?,
                subject: r.get(6)?,
                text: r.get(7)?,
                html: r.get(8)?,
                from_name: r.get(9)?,
                reply_to: r.get(10)?,
            },
            r.get::<_, i64>(11)?,
            r.get::<_, bool>(12)?,
        ))
    })?;
    let mut claimed = Vec::new();
    let mut per_blog: std::collections::HashMap<i64, i64> = Default::default();
    for row in rows {
        let (due, sent_today, notice) = row?;
        if let Some(blog) = due.blog_id.filter(|_| !notice) {
            let taken = per_blog.entry(blog).or_insert(sent_today);
            if *taken >= i64::from(per_blog_per_day) {
                continue;
            }
            *taken += 1;
        }
        claimed.push(due);
        if claimed.len() >= limit as usize {
            break;
        }
    }
    let mut mark = conn.prepare_cached("UPDATE mail_queue SET state = 'sending' WHERE id = ?1")?;
    for due in &claimed {
        mark.execute([due.id])?;
    }
    Ok(claimed)
}

/// Settles a sent row: deleted, counted on its content, its subscriber's `last_sent_at` and its
/// blog's day set.
pub fn sent(conn: &Connection, id: i64) -> Result<(), Error> {
    let Some((content_id, blog_id, subscriber_id)) = take(conn, id)? else { return Ok(()) };
    conn.execute("UPDATE mail_contents SET sent_count = sent_count + 1 WHERE id = ?1", [content_id])?;
    if let Some(subscriber) = subscriber_id {
        conn.execute(&format!("UPDATE subscribers SET last_sent_at = {NOW} WHERE id = ?1"), [subscriber])?;
    }
    if let Some(blog) = blog_id {
        conn.execute(
            &format!(
                "INSERT INTO mail_sent_daily (blog_id, day, sent) VALUES (?1, {TODAY}, 1)
                 ON CONFLICT (blog_id, day) DO UPDATE SET sent = sent + 1"
            ),
            [blog],
        )?;
        conn.execute("DELETE FROM mail_sent_daily WHERE day < strftime('%Y-%m-%d', 'now', '-2 days')", [])?;
    }
    Ok(())
}

/// Puts a row back in the queue after a failed attempt, due in `wait_seconds`.
pub fn retry(conn: &Connection, id: i64, wait_seconds: f64, error: &str) -> Result<(), Error> {
    conn.execute(
        "UPDATE mail_queue SET state = 'queued', attempts = attempts + 1, last_error = ?2,
                next_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ?3)
         WHERE id = ?1",
        params![id, error, format!("+{wait_seconds:.3} seconds")],
    )?;
    Ok(())
}

/// Gives a row up: deleted and counted failed on its content. With `bounced` (the relay refused
/// the address for good) also counted as a bounce, its subscriber marked `bounced` and that
/// subscriber's other queued rows given up too. Answers the blog whose sending this paused:
/// a post's bounces passed [`BOUNCE_PAUSE_PERCENT`] % of its settled messages (at least
/// [`BOUNCE_PAUSE_MIN_SETTLED`]).
pub fn give_up(conn: &Connection, id: i64, bounced: bool) -> Result<Option<i64>, Error> {
    let Some((content_id, blog_id, subscriber_id)) = take(conn, id)? else { return Ok(None) };
    conn.execute(
        "UPDATE mail_contents SET failed_count = failed_count + 1, bounced_count = bounced_count + ?2 WHERE id = ?1",
        params![content_id, i64::from(bounced)],
    )?;
    if let (true, Some(subscriber)) = (bounced, subscriber_id) {
        conn.execute("UPDATE subscribers SET state = 'bounced', confirm_hash = NULL WHERE id = ?1", [subscriber])?;
        conn.execute(
            "UPDATE mail_contents SET failed_count = failed_count +
                 (SELECT count(*) FROM mail_queue q WHERE q.content_id = mail_contents.id AND q.subscriber_id = ?1)
             WHERE id IN (SELECT content_id FROM mail_queue WHERE subscriber_id = ?1)",
            [subscriber],
        )?;
        conn.execute("DELETE FROM mail_queue WHERE subscriber_id = ?1", [subscriber])?;
    }
    let Some(blog) = blog_id.filter(|_| bounced) else { return Ok(None) };
    let (kind, settled, bounces): (String, i64, i64) = conn
        .prepare_cached("SELECT kind, sent_count + failed_count, bounced_count FROM mail_contents WHERE id = ?1")?
        .query_row([content_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    if kind != MailKind::Post.as_str()
        || settled < BOUNCE_PAUSE_MIN_SETTLED
        || bounces * 100 <= settled * BOUNCE_PAUSE_PERCENT
    {
        return Ok(None);
    }
    let paused = conn.execute(
        &format!("UPDATE blogs SET mail_paused_at = {NOW} WHERE id = ?1 AND mail_paused_at IS NULL"),
        [blog],
    )?;
    Ok((paused == 1).then_some(blog))
}

/// The share of a post's settled messages, in percent, its bounces may reach before its blog's
/// sending pauses.
pub const BOUNCE_PAUSE_PERCENT: i64 = 5;
/// Settled messages a post needs before its bounces can pause its blog.
pub const BOUNCE_PAUSE_MIN_SETTLED: i64 = 20;

/// A deleted row's content, blog and subscriber.
type Taken = (i64, Option<i64>, Option<i64>);

/// Deletes a row, answering its content, blog and subscriber (None when it is gone already).
fn take(conn: &Connection, id: i64) -> Result<Option<Taken>, Error> {
    Ok(conn
        .prepare_cached("DELETE FROM mail_queue WHERE id = ?1 RETURNING content_id, blog_id, subscriber_id")?
        .query_row([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .optional()?)
}

/// A paused blog's name, subdomain and owner's sign-in email, for the notice.
pub fn paused_blog(conn: &Connection, blog_id: i64) -> Result<Option<(String, String, String)>, Error> {
    Ok(conn
        .prepare_cached(
            "SELECT b.name, b.subdomain, u.email FROM blogs b JOIN users u ON u.id = b.user_id WHERE b.id = ?1",
        )?
        .query_row([blog_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .optional()?)
}

/// A post's email as the post list shows it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PostMailCounts {
    /// When its grace period ends, while it waits for it (nothing is queued yet).
    pub due_at: Option<String>,
    /// Messages the relay took.
    pub sent: i64,
    /// Messages still queued or in flight.
    pub waiting: i64,
    /// Messages given up (bounces among them).
    pub failed: i64,
}

/// The email of each of the posts (row ids) that has one, waiting or sent, in two queries.
pub fn post_counts(conn: &Connection, post_ids: &[i64]) -> Result<HashMap<i64, PostMailCounts>, Error> {
    let ids = serde_json::to_string(post_ids).map_err(|err| Error::Internal(err.into()))?;
    let mut counts: HashMap<i64, PostMailCounts> = HashMap::new();
    let mut sent = conn.prepare_cached(
        "SELECT c.post_id, c.sent_count, c.failed_count, (SELECT count(*) FROM mail_queue q WHERE q.content_id = c.id)
         FROM mail_contents c WHERE c.kind = 'post' AND c.post_id IN (SELECT value FROM json_each(?1))",
    )?;
    let rows = sent.query_map([&ids], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            PostMailCounts { due_at: None, sent: r.get(1)?, failed: r.get(2)?, waiting: r.get(3)? },
        ))
    })?;
    for row in rows {
        let (post_id, row) = row?;
        counts.insert(post_id, row);
    }
    let mut due = conn.prepare_cached(
        "SELECT post_id, due_at FROM post_mailings WHERE post_id IN (SELECT value FROM json_each(?1))",
    )?;
    let rows = due.query_map([&ids], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))?;
    for row in rows {
        let (post_id, due_at) = row?;
        counts.entry(post_id).or_default().due_at = Some(due_at);
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::test_support::with_blogs;

    fn confirm_of_alice() -> NewContent {
        NewContent {
            blog_id: Some(1),
            post_id: None,
            kind: MailKind::Confirm,
            subject: "Confirm".into(),
            text: "Hello".into(),
            html: String::new(),
            from_name: "alice".into(),
            reply_to: String::new(),
        }
    }

    #[test]
    fn a_message_is_stored_once_and_queued_per_recipient() {
        let conn = with_blogs(&["alice"]);
        let content = confirm_of_alice();
        let to = |addr: &str| Recipient { to: addr.into(), subscriber_id: None, unsubscribe_url: String::new() };
        let id = enqueue(&conn, &content, &[to("a@example.org"), to("b@example.org")]).unwrap();
        let queued: i64 = conn
            .prepare_cached("SELECT count(*) FROM mail_queue WHERE content_id = ?1 AND state = 'queued'")
            .unwrap()
            .query_row([id], |r| r.get(0))
            .unwrap();
        assert_eq!(queued, 2);
        assert_eq!(MailKind::parse("confirm"), Some(MailKind::Confirm));
        assert_eq!(MailKind::parse("spam"), None);
    }

    #[test]
    fn a_blogs_daily_cap_holds_its_rows_and_held_blogs_wait() {
        let conn = with_blogs(&["alice"]);
        // The first test's message, as a post.
        let content = NewContent { kind: MailKind::Post, subject: "Post".into(), ..confirm_of_alice() };
        let to = |addr: &str| Recipient { to: addr.into(), subscriber_id: None, unsubscribe_url: String::new() };
        enqueue(&conn, &content, &[to("a@example.org"), to("b@example.org"), to("c@example.org")]).unwrap();
        let first = claim_due(&conn, 10, 2).unwrap();
        assert_eq!(first.len(), 2, "the cap, counting what this claim takes");
        for due in &first {
            sent(&conn, due.id).unwrap();
        }
        assert!(claim_due(&conn, 10, 2).unwrap().is_empty(), "two sent today: the third waits");
        let sent_today: i64 = conn
            .prepare_cached("SELECT sent FROM mail_sent_daily WHERE blog_id = 1")
            .unwrap()
            .query_row([], |r| r.get(0))
            .unwrap();
        assert_eq!(sent_today, 2);
        conn.execute("UPDATE blogs SET email_enabled = 0", []).unwrap();
        assert!(claim_due(&conn, 10, 100).unwrap().is_empty(), "a post's mail waits while the blog sends none");
        conn.execute("UPDATE blogs SET email_enabled = 1", []).unwrap();
        assert_eq!(claim_due(&conn, 10, 100).unwrap().len(), 1);
        // A row left sending by a crash is queued again.
        assert_eq!(requeue_in_flight(&conn).unwrap(), 1);
        assert_eq!(claim_due(&conn, 10, 100).unwrap().len(), 1);
    }
}
