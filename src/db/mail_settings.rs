//! A blog's email settings (issue 30, docs/email.md "The owner's side"): whether it sends its
//! posts by email, whether replies go to the owner, whether the owner gets the digest, and
//! whether its sending is paused for bounces; and the post mail a switch-off drops.

use rusqlite::{Connection, OptionalExtension, params};

use crate::error::Error;

/// The blog's email settings as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailSettings {
    /// The blog sends its posts by email (the subscribe form shows).
    pub enabled: bool,
    /// Its posts' mail carries `Reply-To` the owner's address.
    pub reply_to_owner: bool,
    /// The owner gets the hourly digest of what waits for them.
    pub notify_owner: bool,
    /// When a send's bounces paused its sending (None: not paused).
    pub paused_at: Option<String>,
}

/// A change of the settings: None leaves a switch as it is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MailSettingsChange {
    /// See [`MailSettings::enabled`].
    pub enabled: Option<bool>,
    /// See [`MailSettings::reply_to_owner`].
    pub reply_to_owner: Option<bool>,
    /// See [`MailSettings::notify_owner`].
    pub notify_owner: Option<bool>,
}

/// The settings of the blog `blog_id`, if there is one.
pub fn get(conn: &Connection, blog_id: i64) -> Result<Option<MailSettings>, Error> {
    let mut stmt = conn.prepare_cached(
        "SELECT email_enabled, email_reply_to_owner, notify_owner, mail_paused_at FROM blogs WHERE id = ?1",
    )?;
    Ok(stmt
        .query_row([blog_id], |r| {
            Ok(MailSettings {
                enabled: r.get(0)?,
                reply_to_owner: r.get(1)?,
                notify_owner: r.get(2)?,
                paused_at: r.get(3)?,
            })
        })
        .optional()?)
}

/// Makes `change`. Switching sending off drops the posts waiting for their grace period and the
/// post mail still queued, so switching it on again later sends nothing old; answers how many
/// queued messages were dropped.
pub fn set(conn: &Connection, blog_id: i64, change: MailSettingsChange) -> Result<usize, Error> {
    conn.execute(
        "UPDATE blogs SET email_enabled = coalesce(?2, email_enabled),
                email_reply_to_owner = coalesce(?3, email_reply_to_owner),
                notify_owner = coalesce(?4, notify_owner)
         WHERE id = ?1",
        params![blog_id, change.enabled, change.reply_to_owner, change.notify_owner],
    )?;
    if change.enabled != Some(false) {
        return Ok(0);
    }
    conn.execute("DELETE FROM post_mailings WHERE blog_id = ?1", [blog_id])?;
    Ok(conn.execute(
        "DELETE FROM mail_queue WHERE blog_id = ?1 AND state = 'queued'
           AND content_id IN (SELECT id FROM mail_contents WHERE blog_id = ?1 AND kind = 'post')",
        [blog_id],
    )?)
}

/// Ends a pause for bounces: the blog's queued mail goes out again. True when it was paused.
pub fn resume(conn: &Connection, blog_id: i64) -> Result<bool, Error> {
    Ok(conn
        .execute("UPDATE blogs SET mail_paused_at = NULL WHERE id = ?1 AND mail_paused_at IS NOT NULL", [blog_id])?
        > 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::mail_queue::{self, MailKind, NewContent, Recipient};
    use crate::db::subscribers;
    use crate::db::test_support::with_blogs;

    fn post_mail(blog_id: i64) -> NewContent {
        NewContent {
            blog_id: Some(blog_id),
            post_id: None,
            kind: MailKind::Post,
            subject: "Hello".into(),
            text: "Hello".into(),
            html: String::new(),
            from_name: "Alice".into(),
            reply_to: String::new(),
        }
    }

    #[test]
    fn switching_sending_off_drops_the_waiting_post_mail_and_nothing_else() {
        let (conn, blog_id) = (with_blogs(&["alice"]), 1);
        conn.execute(
            "INSERT INTO posts (blog_id, short_id, slug, title, body) VALUES (1, 'abcdefgh', 's', 't', '{}')",
            [],
        )
        .unwrap();
        let post_id = conn.last_insert_rowid();
        subscribers::queue_mailing(&conn, post_id, blog_id, 600).unwrap();
        let to = |n: usize| Recipient {
            to: format!("r{n}@example.com"),
            subscriber_id: None,
            unsubscribe_url: String::new(),
        };
        mail_queue::enqueue(&conn, &post_mail(blog_id), &[to(1), to(2)]).unwrap();
        let confirm = NewContent { kind: MailKind::Confirm, ..post_mail(blog_id) };
        mail_queue::enqueue(&conn, &confirm, &[to(3)]).unwrap();

        let change = MailSettingsChange { notify_owner: Some(false), ..Default::default() };
        assert_eq!(set(&conn, blog_id, change).unwrap(), 0, "another switch drops nothing");
        let settings = get(&conn, blog_id).unwrap().unwrap();
        assert!(settings.enabled && !settings.notify_owner && !settings.reply_to_owner);

        let off = MailSettingsChange { enabled: Some(false), ..Default::default() };
        assert_eq!(set(&conn, blog_id, off).unwrap(), 2, "the post's two queued messages go");
        let left: i64 =
            conn.prepare_cached("SELECT count(*) FROM mail_queue").unwrap().query_row([], |r| r.get(0)).unwrap();
        assert_eq!(left, 1, "the reader's confirmation stays");
        let waiting: i64 =
            conn.prepare_cached("SELECT count(*) FROM post_mailings").unwrap().query_row([], |r| r.get(0)).unwrap();
        assert_eq!(waiting, 0);
        assert!(!get(&conn, blog_id).unwrap().unwrap().enabled);
    }

    #[test]
    fn resuming_ends_a_pause_once() {
        let (conn, blog_id) = (with_blogs(&["alice"]), 1);
        assert!(!resume(&conn, blog_id).unwrap(), "not paused");
        conn.execute("UPDATE blogs SET mail_paused_at = '2026-11-28T00:00:00Z'", []).unwrap();
        assert_eq!(get(&conn, blog_id).unwrap().unwrap().paused_at.as_deref(), Some("2026-11-28T00:00:00Z"));
        assert!(resume(&conn, blog_id).unwrap());
        assert_eq!(get(&conn, blog_id).unwrap().unwrap().paused_at, None);
    }
}
