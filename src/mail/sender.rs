//! The mail sender (docs/email.md, "The mail queue"): takes due rows of `mail_queue` to the SMTP
//! relay, [`IN_FLIGHT`] messages at once (each its own connection), and settles each by the
//! relay's answer.
//!
//! - A claimed row is `sending` in the database before the relay sees it; rows still `sending`
//!   at start were in flight at a crash and are sent again (at most one duplicate each).
//! - Sent: deleted and counted. A 4xx answer, a network error or a timeout: tried again after
//!   [`BACKOFF_MINUTES`] (about 45 hours in all), then given up. A 5xx answer for the address:
//!   given up at once, counted as a bounce, and the subscriber gets no more mail.
//! - At most `--mail-per-minute` messages in any minute (the instance's); the per-blog daily cap
//!   and the holds (suspended, email off, paused) are the claim's (`db::mail_queue::claim_due`).
//! - A post whose bounces pass 5 % pauses its blog's sending and queues a notice to the owner
//!   and each `--admin`.
//!
//! Woken by `Effects::mail_queued`, and once a second for rows that came due.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use lettre::message::Mailbox;
use tokio::sync::Notify;
use tokio::time::Instant;

use super::message::{self, Content};
use super::relay::{Relay, SendError};
use crate::config::MailConfig;
use crate::db::Db;
use crate::db::mail_queue::{self, Due, MailKind, NewContent, Recipient};
use crate::error::Error;

/// The waits after each failed attempt, in minutes; after the last the message is given up.
pub const BACKOFF_MINUTES: [u32; 7] = [1, 5, 30, 120, 360, 720, 1440];
/// The longest the sender sleeps without looking at the queue.
const TICK: Duration = Duration::from_secs(1);
/// Rows claimed per look at the queue, and sent at once: the rows `sending` are only ever the
/// messages the relay has (what a crash can duplicate, each once). Several at once, because one
/// message is a new connection, an SMTP exchange and two commits, each mostly waiting: on a
/// loopback relay 8 at once sent about 490 messages a second, 4 about 450, 1 about 300
/// (bench/README.md, "Mail").
pub const IN_FLIGHT: u32 = 8;

/// The instance's allowance: the times of the messages sent in the last minute.
struct PerMinute {
    limit: usize,
    sent: VecDeque<Instant>,
}

impl PerMinute {
    /// How many may go now.
    fn available(&mut self, now: Instant) -> usize {
        while self.sent.front().is_some_and(|at| now.duration_since(*at) >= Duration::from_secs(60)) {
            self.sent.pop_front();
        }
        self.limit.saturating_sub(self.sent.len())
    }
}

/// The sender: runs until the task is aborted. `admins` get the bounce pause's notice.
pub async fn run(db: Db, config: MailConfig, admins: Vec<String>, wake: Arc<Notify>) {
    let relay = match Relay::new(&config) {
        Ok(relay) => relay,
        Err(err) => {
            tracing::error!(error = format!("{err:#}"), "the mail sender cannot start");
            return;
        }
    };
    match db.write(|conn| mail_queue::requeue_in_flight(conn)).await {
        Ok(0) => {}
        Ok(count) => tracing::warn!(count, "mail in flight when the server stopped is sent again"),
        Err(err) => tracing::error!(error = format!("{err:#}"), "putting back the mail in flight failed"),
    }
    let mut allowance = PerMinute { limit: config.per_minute.get() as usize, sent: VecDeque::new() };
    let admins = Arc::new(admins);
    loop {
        let free = allowance.available(Instant::now()).min(IN_FLIGHT as usize) as u32;
        let mut claimed = 0;
        if free > 0 {
            let cap = config.per_blog_per_day;
            match db.write(move |conn| mail_queue::claim_due(conn, free, cap)).await {
                Ok(due) => {
                    claimed = due.len();
                    for _ in &due {
                        allowance.sent.push_back(Instant::now());
                    }
                    let sends = due.into_iter().map(|row| send_one(&db, &relay, &config, &admins, row));
                    futures_util::future::join_all(sends).await;
                }
                Err(err) => tracing::error!(error = format!("{err:#}"), "reading the mail queue failed"),
            }
        }
        if claimed > 0 {
            continue;
        }
        tokio::select! {
            () = tokio::time::sleep(TICK) => {}
            () = wake.notified() => {}
        }
    }
}

/// Sends one claimed row and settles it.
async fn send_one(db: &Db, relay: &Relay, config: &MailConfig, admins: &Arc<Vec<String>>, row: Due) {
    let content = Content {
        subject: row.subject.clone(),
        text: row.text.clone(),
        html: row.html.clone(),
        from_name: row.from_name.clone(),
        reply_to: row.reply_to.clone(),
    };
    let message_id = format!("{}.{}.{:016x}", row.content_id, row.id, rand::random::<u64>());
    let outcome = match message::build(
        &content,
        &row.to,
        &row.unsubscribe_url,
        &config.from,
        &message_id,
        config.dkim.as_ref(),
    ) {
        Ok(built) => relay.send(built).await.map(|_| ()),
        Err(bad) => {
            tracing::warn!(id = row.id, error = %bad, "a queued message cannot be built; given up");
            Err(SendError::Refused(bad.to_string()))
        }
    };
    let (id, attempts) = (row.id, row.attempts);
    let unit = config.retry_unit;
    let from = config.from.clone();
    let admins = admins.clone();
    let settled = db
        .write(move |conn| {
            let tx = conn.transaction()?;
            match outcome {
                Ok(()) => mail_queue::sent(&tx, id)?,
                Err(SendError::Later(error)) => match BACKOFF_MINUTES.get(attempts as usize) {
                    Some(minutes) => {
                        let wait = unit.as_secs_f64() * f64::from(*minutes);
                        mail_queue::retry(&tx, id, wait, &error)?;
                    }
                    None => {
                        tracing::warn!(id, error, "a message was given up after its last retry");
                        mail_queue::give_up(&tx, id, false)?;
                    }
                },
                Err(SendError::Refused(error)) => {
                    tracing::info!(id, error, "the relay refused a message for good");
                    if let Some(blog) = mail_queue::give_up(&tx, id, true)? {
                        queue_pause_notice(&tx, blog, &from, &admins)?;
                    }
                }
            }
            tx.commit()?;
            Ok(())
        })
        .await;
    if let Err(err) = settled {
        tracing::error!(error = format!("{err:#}"), "settling a sent message failed");
    }
}

/// Queues the notice that `blog_id`'s sending paused to its owner and each admin.
fn queue_pause_notice(
    conn: &rusqlite::Connection,
    blog_id: i64,
    from: &Mailbox,
    admins: &[String],
) -> Result<(), Error> {
    let Some((name, subdomain, owner)) = mail_queue::paused_blog(conn, blog_id)? else { return Ok(()) };
    let name: String = name.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let mut recipients: Vec<String> = vec![owner];
    for admin in admins {
        if !recipients.iter().any(|known| known.eq_ignore_ascii_case(admin)) {
            recipients.push(admin.clone());
        }
    }
    let recipients: Vec<Recipient> = recipients
        .into_iter()
        .filter(|to| !to.trim().is_empty())
        .map(|to| Recipient { to, subscriber_id: None, unsubscribe_url: String::new() })
        .collect();
    let content = NewContent {
        blog_id: Some(blog_id),
        post_id: None,
        kind: MailKind::Notice,
        subject: format!("Email sending paused for the blog {subdomain}"),
        text: format!(
            "Quire paused the email sending of the blog \"{name}\" ({subdomain}): more than {} % of a post's \
             messages bounced. No more email goes to its subscribers until its owner resumes sending.\n\n\
             Bounced addresses are no longer mailed. Check the subscriber list before resuming.\n",
            mail_queue::BOUNCE_PAUSE_PERCENT
        ),
        html: String::new(),
        from_name: from.name.clone().unwrap_or_default(),
        reply_to: String::new(),
    };
    mail_queue::enqueue(conn, &content, &recipients)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::test_support::with_blogs;

    #[test]
    fn bounces_past_five_percent_of_twenty_settled_pause_the_blog_and_notify_its_owner_and_the_admins() {
        let conn = with_blogs(&["ann"]);
        conn.execute("UPDATE blogs SET name = 'Ann <script>' WHERE id = 1", []).unwrap();
        let mut recipients = Vec::new();
        for i in 0..20 {
            conn.execute(
                "INSERT INTO subscribers (blog_id, email, state, unsubscribe_token) VALUES (1, ?1, 'confirmed', ?1)",
                [format!("r{i}@example.net")],
            )
            .unwrap();
            recipients.push(Recipient {
                to: format!("r{i}@example.net"),
                subscriber_id: Some(conn.last_insert_rowid()),
                unsubscribe_url: "https://u".into(),
            });
        }
        let post = NewContent {
            blog_id: Some(1),
            post_id: None,
            kind: MailKind::Post,
            subject: "Post".into(),
            text: "Text".into(),
            html: String::new(),
            from_name: "Ann".into(),
            reply_to: String::new(),
        };
        let content = mail_queue::enqueue(&conn, &post, &recipients).unwrap();
        let rows: Vec<i64> = conn
            .prepare("SELECT id FROM mail_queue WHERE content_id = ?1 ORDER BY id")
            .unwrap()
            .query_map([content], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        for id in &rows[..18] {
            mail_queue::sent(&conn, *id).unwrap();
        }
        // 1 bounce in 19 settled: too few settled. 2 in 20 (10 %): paused, once.
        assert_eq!(mail_queue::give_up(&conn, rows[18], true).unwrap(), None);
        assert_eq!(mail_queue::give_up(&conn, rows[19], true).unwrap(), Some(1));
        let paused: Option<String> = conn
            .prepare_cached("SELECT mail_paused_at FROM blogs WHERE id = 1")
            .unwrap()
            .query_row([], |r| r.get(0))
            .unwrap();
        assert!(paused.is_some());
        let from: Mailbox = "Quire <noreply@example.com>".parse().unwrap();
        queue_pause_notice(&conn, 1, &from, &["admin@example.org".into(), "ANN@example.com".into()]).unwrap();
        let notices: Vec<(String, Option<i64>)> = conn
            .prepare(
                "SELECT q.to_addr, q.blog_id FROM mail_queue q JOIN mail_contents c ON c.id = q.content_id
                 WHERE c.kind = 'notice' ORDER BY q.id",
            )
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert_eq!(notices, [("ann@example.com".to_owned(), Some(1)), ("admin@example.org".to_owned(), Some(1))]);
        let text: String = conn
            .prepare_cached("SELECT text_body FROM mail_contents WHERE kind = 'notice'")
            .unwrap()
            .query_row([], |r| r.get(0))
            .unwrap();
        assert!(text.contains("\"Ann <script>\" (ann)"), "{text}");
        // A paused blog's mail is held; the notices about it are not.
        mail_queue::enqueue(&conn, &post, &recipients[..1]).unwrap();
        let claimed: Vec<String> =
            mail_queue::claim_due(&conn, 10, 10_000).unwrap().into_iter().map(|due| due.subject).collect();
        assert_eq!(claimed, ["Email sending paused for the blog ann", "Email sending paused for the blog ann"]);
    }
}
