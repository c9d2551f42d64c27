//! The activities a change calls for (issue 16, docs/federation.md), queued in the same
//! transaction as the change (db/deliveries.rs) through the hooks `db/` functions take, so a
//! committed change is always announced, even across kill -9:
//!
//! - a post becoming public (created or updated with the draft flag off, or a scheduled post
//!   coming due) queues a `Create` of its Article; an edit of a public post an `Update`; a
//!   deleted public post (or one made a page) a `Delete` of a Tombstone, which also cancels the
//!   still-queued Create/Update of the same post;
//! - a deleted account queues a `Delete` of its actor to every inbox, and its key is retired,
//!   not deleted, until that is delivered (`Blogs::sweep_keys`).
//!
//! Drafts, scheduled posts not yet live, previews, unlisted posts and pages never reach a
//! follower; a post made unlisted is deleted for them (docs/unlisted.md). A silenced
//! blog queues nothing; a blog waiting for review (`new`) queues as usual, and the delivery
//! worker holds its activities until it is approved (`db::deliveries::claim_due`, issue 29). A write
//! reaches [`Outbound`] through its `Effects` (`blogs/effects.rs`), which also wakes the
//! delivery worker (`delivery.rs`) that signs and sends them.
//!
//! The hooks: `db::posts::{create, update, delete}`, `db::schedule::publish_due` and
//! `db::blogs::delete_account` take a `federate` closure that runs inside their transaction; it
//! builds the activity with `domain::federation::activity` and queues it with
//! `db::deliveries::enqueue` for every accepted follower's server. Nothing else queues.

use std::sync::Arc;

use serde_json::Value;
use time::OffsetDateTime;

use crate::blogs::Blogs;
use crate::blogs::served_names::ServedNames;
use crate::config::Config;
use crate::db::deliveries;
use crate::db::followers;
use crate::db::posts::Post;
use crate::domain::blog::trust_state::TrustState;
use crate::domain::content::blocks::Body;
use crate::domain::federation::activity::{self, ArticleFacts};
use crate::error::{Error, Result};

/// What the write path needs to build activities: the deployment's addresses.
#[derive(Clone)]
pub(in crate::blogs) struct Outbound {
    config: Arc<Config>,
    served: Arc<ServedNames>,
}

/// A post's `Article`, as its Create carries it and `/_quire/ap/posts/{id}` serves it: ids on
/// the blog's subdomain, the permalink and tag pages on its custom domain when it has one.
pub fn article_of(config: &Config, served: &ServedNames, subdomain: &str, post: &Post) -> Result<Value> {
    let body = Body::from_json(&post.body_json).map_err(Error::Internal)?;
    let origin = config.blog_origin(&served.address(subdomain));
    let (id, actor_id) = (config.ap_post_id(subdomain, &post.short_id), config.actor_id(subdomain));
    let published = post.published_at.as_deref().unwrap_or(&post.created_at);
    Ok(activity::article(&ArticleFacts {
        id: &id,
        actor_id: &actor_id,
        blog_origin: &origin,
        path: &post.path(),
        title: &post.title,
        body: &body,
        tags: &post.tags,
        published,
        updated: Some(&post.updated_at),
    }))
}

impl Outbound {
    pub(in crate::blogs) fn new(config: Arc<Config>, served: Arc<ServedNames>) -> Outbound {
        Outbound { config, served }
    }

    /// Queues what a written post calls for (see the module's note); `was_public` says whether
    /// it was a published post before the write.
    pub(in crate::blogs) fn post_written(
        &self,
        conn: &rusqlite::Connection,
        subdomain: &str,
        post: &Post,
        was_public: bool,
    ) -> Result<()> {
        if self.silenced(subdomain) {
            return Ok(());
        }
        let is_public = post.federates();
        match (was_public, is_public) {
            (false, false) => Ok(()),
            (true, false) => self.post_deleted(conn, post.blog_id, subdomain, &post.short_id),
            (false, true) => {
                let create = activity::create(&self.config.actor_id(subdomain), self.article(subdomain, post)?);
                self.queue(conn, post.blog_id, &self.config.ap_post_id(subdomain, &post.short_id), &create)
            }
            (true, true) => {
                let at_ms = OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000;
                let update = activity::update(&self.config.actor_id(subdomain), self.article(subdomain, post)?, at_ms);
                self.queue(conn, post.blog_id, &self.config.ap_post_id(subdomain, &post.short_id), &update)
            }
        }
    }

    /// Queues the Delete of a public post, cancelling its queued Create/Update.
    pub(in crate::blogs) fn post_deleted(
        &self,
        conn: &rusqlite::Connection,
        blog_id: i64,
        subdomain: &str,
        short_id: &str,
    ) -> Result<()> {
        let object_id = self.config.ap_post_id(subdomain, short_id);
        deliveries::cancel_for_object(conn, blog_id, &object_id)?;
        if self.silenced(subdomain) {
            return Ok(());
        }
        let delete = activity::delete_post(&self.config.actor_id(subdomain), &object_id);
        self.queue(conn, blog_id, &object_id, &delete)
    }

    /// Queues the Delete of a deleted account's actor to every inbox of its followers, and drops
    /// whatever else it still had queued.
    pub(in crate::blogs) fn account_deleted(
        &self,
        conn: &rusqlite::Connection,
        blog_id: i64,
        subdomain: &str,
    ) -> Result<()> {
        deliveries::cancel_for_blog(conn, blog_id)?;
        let actor_id = self.config.actor_id(subdomain);
        let inboxes = followers::delivery_inboxes(conn, blog_id)?;
        deliveries::enqueue(conn, blog_id, &actor_id, &activity::delete_actor(&actor_id).to_string(), &inboxes)?;
        Ok(())
    }

    /// Whether the blog is silenced: it queues nothing for its followers (issue 29; what it had
    /// queued was dropped when it was silenced, `Blogs::moderate`).
    fn silenced(&self, subdomain: &str) -> bool {
        self.served.state(subdomain) == TrustState::Silenced
    }

    fn article(&self, subdomain: &str, post: &Post) -> Result<Value> {
        article_of(&self.config, &self.served, subdomain, post)
    }

    /// Queues `activity` about `object_id` for every accepted follower's server.
    fn queue(&self, conn: &rusqlite::Connection, blog_id: i64, object_id: &str, activity: &Value) -> Result<()> {
        let inboxes = followers::delivery_inboxes(conn, blog_id)?;
        deliveries::enqueue(conn, blog_id, object_id, &activity.to_string(), &inboxes)?;
        Ok(())
    }
}

impl Blogs {
    /// The post's Article (`/_quire/ap/posts/{id}`, the outbox's items).
    pub fn article(&self, subdomain: &str, post: &Post) -> Result<Value> {
        self.outbound.article(subdomain, post)
    }
}
