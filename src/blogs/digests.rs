//! The owner's digest on the write path (issue 30, docs/email.md "The owner's digest"): at most
//! one mail an hour to a blog's owner, when fediverse replies wait for their approval or
//! deliveries to a server were given up since the last one. On by default; the owner turns it
//! off with the blog's `notify_owner` setting. Fixed text, the blog's name and counts: nothing a
//! stranger wrote.

use super::Blogs;
use crate::db::blogs;
use crate::db::digests::{self, Waiting};
use crate::db::mail_queue::{self, MailKind, NewContent, Recipient};
use crate::domain::content::html::escape;
use crate::error::Result;

/// Digests queued at once.
const AT_ONCE: u32 = 50;

impl Blogs {
    /// Queues the digests that are due; answers how many.
    pub async fn send_digests(&self) -> Result<usize> {
        if !self.mail_on {
            return Ok(0);
        }
        let app_url = self.urls.app_url();
        self.commit(move |conn, effects| {
            let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let due = digests::due(&tx, AT_ONCE)?;
            for waiting in &due {
                let Some(blog) = blogs::by_id(&tx, waiting.blog_id)? else { continue };
                let content = digest(&blog.name, waiting, &app_url, blog.id);
                let to =
                    Recipient { to: waiting.owner_email.clone(), subscriber_id: None, unsubscribe_url: String::new() };
                mail_queue::enqueue(&tx, &content, &[to])?;
                digests::sent(&tx, waiting.blog_id)?;
            }
            tx.commit()?;
            if !due.is_empty() {
                effects.mail_queued();
            }
            Ok(due.len())
        })
        .await
    }
}

/// The digest's words.
fn digest(blog_name: &str, waiting: &Waiting, app_url: &str, blog_id: i64) -> NewContent {
    let name = blog_name.replace(['\r', '\n'], " ");
    let plural = |n: u32, one: &str, many: &str| if n == 1 { format!("1 {one}") } else { format!("{n} {many}") };
    let mut lines = Vec::new();
    if waiting.held_replies > 0 {
        let replies = plural(waiting.held_replies, "reply from the fediverse waits", "replies from the fediverse wait");
        lines.push((format!("{replies} for your approval."), format!("{app_url}/d/responses")));
    }
    if waiting.held_responses > 0 {
        let responses = plural(waiting.held_responses, "comment waits", "comments wait");
        lines.push((format!("{responses} for your approval."), format!("{app_url}/d/responses")));
    }
    if waiting.given_up_hosts > 0 {
        let servers = plural(waiting.given_up_hosts, "server", "servers");
        lines.push((
            format!("Quire gave up delivering your posts to {servers}; Settings → Fediverse says which and why."),
            format!("{app_url}/d/settings"),
        ));
    }
    let mut text = format!("News from {name}:\n\n");
    let mut html = format!("<!doctype html><html><body><p>News from <strong>{}</strong>:</p>", escape(&name));
    for (line, link) in &lines {
        text.push_str(&format!("- {line}\n  {link}\n"));
        html.push_str(&format!("<p>{} <a href=\"{}\">Open</a></p>", escape(line), escape(link)));
    }
    let off = "You get this at most once an hour. Turn it off in Settings → Subscribers.";
    text.push_str(&format!("\n{off}\n"));
    html.push_str(&format!("<p>{}</p></body></html>", escape(off)));
    NewContent {
        blog_id: Some(blog_id),
        post_id: None,
        kind: MailKind::Digest,
        subject: format!("What waits for you on {name}"),
        text,
        html,
        from_name: "Quire".to_owned(),
        reply_to: String::new(),
    }
}
