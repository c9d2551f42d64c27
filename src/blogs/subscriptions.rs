//! Email subscriptions on the write path (issue 30, docs/email.md "Subscribing", "Each new
//! post"): a reader's request, its confirmation mail queued in the same transaction, the
//! confirmation itself, and unsubscribing; a post published (now, or when its schedule comes)
//! waits its grace period in `post_mailings`, then its email, rendered once from the post as it
//! is then, is queued for every confirmed subscriber. Only an approved blog that sends email
//! takes subscribers.

use std::sync::Arc;
use std::time::Duration;

use rusqlite::Connection;

use super::Blogs;
use crate::auth::token_hash;
use crate::db::blogs::{self, Blog};
use crate::db::mail_queue::{self, MailKind, NewContent, Recipient};
use crate::db::mail_settings;
use crate::db::posts::{self, Post};
use crate::db::subscribers::{self, Subscribed};
use crate::domain::content::blocks::Body;
use crate::domain::content::email_body::{self, PostMail};
use crate::domain::content::html::escape;
use crate::domain::net::email_address::EmailAddress;
use crate::error::Result;

/// What the subscribe form tells the reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subscription {
    /// "Check your inbox": said whether or not a mail went out, so nobody learns who subscribes.
    CheckInbox,
    /// The client address sent its allowance today.
    AddressLimit,
    /// The blog sent its allowance of confirmation mails today.
    BlogLimit,
    /// The instance sent its hour's confirmation mails.
    InstanceLimit,
    /// The blog takes no subscribers (none by that name, not approved, or not sending email).
    NotTaken,
}

/// The blog on `subdomain` if it takes email subscribers now.
pub(super) fn taking(conn: &Connection, subdomain: &str) -> Result<Option<Blog>> {
    let Some(blog) = blogs::by_subdomain(conn, subdomain)? else {
        return Ok(None);
    };
    let sends = mail_settings::get(conn, blog.id)?.is_some_and(|settings| blog.state.sends_email(settings.enabled));
    Ok(sends.then_some(blog))
}

/// In a post write's transaction: a post that became public with this write (and is not a
/// page) waits `grace` before its email goes out; None when the instance sends no mail.
pub(super) fn post_written(tx: &Connection, post: &Post, was_public: bool, grace: Option<Duration>) -> Result<()> {
    match grace {
        Some(grace) if post.federates() && !was_public => {
            subscribers::queue_mailing(tx, post.id, post.blog_id, grace.as_secs())
        }
        _ => Ok(()),
    }
}

/// Mailings taken at once.
const MAILINGS_AT_ONCE: u32 = 20;
/// The longest the mailing timer sleeps before it looks again.
const MAILING_POLL: Duration = Duration::from_secs(5);

impl Blogs {
    /// The grace period of posts' mail, when the instance sends mail (see [`post_written`]).
    pub(super) fn mail_grace(&self) -> Option<Duration> {
        self.mail_on.then_some(self.public.mail_grace)
    }

    /// Queues the email of every post whose grace period is over: the post as it is now, to
    /// every confirmed subscriber, each with their own unsubscribe link. A post no longer
    /// public, a blog whose owner turned email off or that is not approved, sends nothing.
    /// Answers how many posts.
    pub async fn mail_due_posts(&self) -> Result<usize> {
        let urls = self.urls.clone();
        self.commit(move |conn, effects| {
            let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let due = subscribers::due_mailings(&tx, MAILINGS_AT_ONCE)?;
            let mut mailed = 0;
            for (post_id, blog_id) in &due {
                subscribers::drop_mailing(&tx, *post_id)?;
                let post = posts::by_ids(&tx, *blog_id, &[*post_id])?.pop();
                let blog = blogs::by_id(&tx, *blog_id)?;
                let (Some(post), Some(blog)) = (post, blog) else { continue };
                let sends = mail_settings::get(&tx, blog.id)?.is_some_and(|s| blog.state.sends_email(s.enabled));
                // A blog waiting for review, silenced or suspended mails nothing: what it
                // published meanwhile is not sent later either.
                if !post.federates() || !sends {
                    continue;
                }
                let origin = urls.blog_origin(&blog.address());
                let recipients: Vec<Recipient> = subscribers::confirmed(&tx, blog.id)?
                    .into_iter()
                    .map(|(id, email, token)| Recipient {
                        to: email,
                        subscriber_id: Some(id),
                        unsubscribe_url: format!("{origin}/unsubscribe/{token}"),
                    })
                    .collect();
                if recipients.is_empty() {
                    continue;
                }
                let content = post_mail(&tx, &blog, &post, &origin)?;
                mail_queue::enqueue(&tx, &content, &recipients)?;
                mailed += 1;
            }
            tx.commit()?;
            if mailed > 0 {
                effects.mail_queued();
            }
            Ok(mailed)
        })
        .await
    }

    /// Whether the blog on `subdomain` takes email subscribers (the form shows only then).
    pub async fn takes_subscribers(&self, subdomain: &str) -> Result<bool> {
        if !self.mail_on {
            return Ok(false);
        }
        let subdomain = subdomain.to_owned();
        self.db.read(move |conn| Ok(taking(conn, &subdomain)?.is_some())).await
    }

    /// A reader asks to subscribe `email` to the blog on `subdomain` from `client_key`: within
    /// the limits, a pending subscriber and its confirmation mail, committed together.
    pub async fn subscribe(&self, subdomain: &str, email: EmailAddress, client_key: String) -> Result<Subscription> {
        if !self.mail_on {
            return Ok(Subscription::NotTaken);
        }
        let subdomain = subdomain.to_owned();
        let limits = self.public.subscribe_limits;
        let urls = self.urls.clone();
        self.commit(move |conn, effects| {
            let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let Some(blog) = taking(&tx, &subdomain)? else {
                return Ok(Subscription::NotTaken);
            };
            let token = hex::encode(rand::random::<[u8; 16]>());
            let unsubscribe_token = hex::encode(rand::random::<[u8; 16]>());
            let email_hash = token_hash(email.as_str());
            let request = subscribers::Request {
                blog_id: blog.id,
                email: email.as_str(),
                email_hash: &email_hash,
                client_key: &client_key,
            };
            let answer = match subscribers::subscribe(&tx, &request, &token_hash(&token), &unsubscribe_token, limits)? {
                Subscribed::Mail { subscriber_id } => {
                    let link = format!("{}/subscribe/confirm/{token}", urls.blog_origin(&blog.address()));
                    let content = confirmation(&blog, &link);
                    let to = Recipient {
                        to: email.to_string(),
                        subscriber_id: Some(subscriber_id),
                        unsubscribe_url: String::new(),
                    };
                    mail_queue::enqueue(&tx, &content, &[to])?;
                    effects.mail_queued();
                    Subscription::CheckInbox
                }
                Subscribed::Quiet => Subscription::CheckInbox,
                Subscribed::AddressLimit => Subscription::AddressLimit,
                Subscribed::BlogLimit => Subscription::BlogLimit,
                Subscribed::InstanceLimit => Subscription::InstanceLimit,
            };
            tx.commit()?;
            Ok(answer)
        })
        .await
    }

    /// Confirms the subscription whose link carries `token` on the blog on `subdomain`; false
    /// when the link is unknown, used, expired or another blog's.
    pub async fn confirm_subscription(&self, subdomain: &str, token: &str) -> Result<bool> {
        let (subdomain, hash) = (subdomain.to_owned(), token_hash(token));
        self.db
            .write(move |conn| match blogs::by_subdomain(conn, &subdomain)? {
                Some(blog) => subscribers::confirm(conn, blog.id, &hash),
                None => Ok(false),
            })
            .await
    }

    /// Removes the blog's subscriber whose unsubscribe links carry `token` (and the mail still
    /// queued for it); false when there is none, which the reader is not told.
    pub async fn unsubscribe(&self, subdomain: &str, token: &str) -> Result<bool> {
        let (subdomain, token) = (subdomain.to_owned(), token.to_owned());
        self.db
            .write(move |conn| match blogs::by_subdomain(conn, &subdomain)? {
                Some(blog) => subscribers::unsubscribe(conn, blog.id, &token),
                None => Ok(false),
            })
            .await
    }
}

/// The email of `post`: its title as the subject, the blog's name as the sender's, its blocks
/// rendered by [`email_body::parts`]; `Reply-To` the owner when they chose so.
fn post_mail(conn: &Connection, blog: &Blog, post: &Post, origin: &str) -> Result<NewContent> {
    let body = Body::from_json(&post.body_json).map_err(crate::error::Error::Internal)?;
    let url = format!("{origin}{}", post.path());
    let name = blog.name.replace(['\r', '\n'], " ");
    let title = post.title.replace(['\r', '\n'], " ");
    let (text, html) = email_body::parts(&PostMail { blog_name: &name, title: &title, url: &url }, &body);
    let reply_to: String = conn
        .prepare_cached(
            "SELECT CASE WHEN b.email_reply_to_owner THEN u.email ELSE '' END
         FROM blogs b JOIN users u ON u.id = b.user_id WHERE b.id = ?1",
        )?
        .query_row([blog.id], |r| r.get(0))?;
    Ok(NewContent {
        blog_id: Some(blog.id),
        post_id: Some(post.id),
        kind: MailKind::Post,
        subject: title,
        text,
        html,
        from_name: name,
        reply_to,
    })
}

/// How often the owners' digests are looked for.
const DIGEST_POLL: Duration = Duration::from_secs(60);

/// The server's timer that queues posts' mail once their grace period is over (it looks every
/// few seconds) and the owners' digests (every minute); a failed look is logged and tried again.
pub async fn run_mailings(blogs: Arc<Blogs>) {
    let mut every = tokio::time::interval(MAILING_POLL);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut digests_looked = None::<tokio::time::Instant>;
    loop {
        every.tick().await;
        if let Err(err) = blogs.mail_due_posts().await {
            tracing::warn!(error = %err, "could not queue the mail of posts due");
        }
        if digests_looked.is_none_or(|at| at.elapsed() >= DIGEST_POLL) {
            digests_looked = Some(tokio::time::Instant::now());
            if let Err(err) = blogs.send_digests().await {
                tracing::warn!(error = %err, "could not queue the owners' digests");
            }
        }
    }
}

/// The confirmation mail: fixed text, the blog's name and the link, nothing a reader typed.
fn confirmation(blog: &Blog, link: &str) -> NewContent {
    let name = blog.name.replace(['\r', '\n'], " ");
    let text = format!(
        "Someone, probably you, asked to receive the new posts of {name} by email.\n\n\
         To confirm, open this link and press the button on the page:\n{link}\n\n\
         If it was not you, ignore this message: nothing more will be sent to you, and the request \
         is forgotten in 7 days.\n"
    );
    let html = format!(
        "<!doctype html><html><body>\
         <p>Someone, probably you, asked to receive the new posts of <strong>{name}</strong> by email.</p>\
         <p><a href=\"{link}\">Confirm your subscription</a> (the page it opens has the button).</p>\
         <p>If it was not you, ignore this message: nothing more will be sent to you, and the request is \
         forgotten in 7 days.</p></body></html>",
        name = escape(&name),
        link = escape(link),
    );
    NewContent {
        blog_id: Some(blog.id),
        post_id: None,
        kind: MailKind::Confirm,
        subject: format!("Confirm your subscription to {name}"),
        text,
        html,
        from_name: name,
        reply_to: String::new(),
    }
}
