//! The mail queue (issue 30, docs/email.md): messages rendered once ([`NewContent`]) and queued
//! for each of their recipients, one row each, in the caller's transaction. The sender
//! (the mail sender) takes due rows, hands them to the SMTP relay and settles them.

use rusqlite::{Connection, params};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::test_support::with_blogs;

    #[test]
    fn a_message_is_stored_once_and_queued_per_recipient() {
        let conn = with_blogs(&["alice"]);
        let content = NewContent {
            blog_id: Some(1),
            post_id: None,
            kind: MailKind::Confirm,
            subject: "Confirm".into(),
            text: "Hello".into(),
            html: String::new(),
            from_name: "alice".into(),
            reply_to: String::new(),
        };
        let to = |addr: &str| Recipient { to: addr.into(), subscriber_id: None, unsubscribe_url: String::new() };
        let id = enqueue(&conn, &content, &[to("a@example.org"), to("b@example.org")]).unwrap();
        let queued: i64 = conn
            .query_row("SELECT count(*) FROM mail_queue WHERE content_id = ?1 AND state = 'queued'", [id], |r| r.get(0))
            .unwrap();
        assert_eq!(queued, 2);
        assert_eq!(MailKind::parse("confirm"), Some(MailKind::Confirm));
        assert_eq!(MailKind::parse("spam"), None);
    }
}
