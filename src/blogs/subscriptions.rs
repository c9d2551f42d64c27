//! Email subscriptions on the write path (issue 30, docs/email.md "Subscribing"): a reader's
//! request, its confirmation mail queued in the same transaction, the confirmation itself, and
//! unsubscribing. Only an approved blog that sends email takes subscribers.

use rusqlite::Connection;

use super::Blogs;
use crate::auth::token_hash;
use crate::db::blogs::{self, Blog};
use crate::db::mail_queue::{self, MailKind, NewContent, Recipient};
use crate::db::subscribers::{self, Subscribed};
use crate::domain::blog::trust_state::TrustState;
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
    /// The blog took its allowance today.
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
    let sends: bool = conn.query_row("SELECT email_enabled FROM blogs WHERE id = ?1", [blog.id], |r| r.get(0))?;
    Ok((blog.state == TrustState::Approved && sends).then_some(blog))
}

impl Blogs {
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
