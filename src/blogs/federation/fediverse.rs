//! The owner's side of federation on the write path (issue 16), as Settings → Fediverse and
//! `http/api/fediverse.rs` name it: the approval of followers, approving, rejecting and
//! removing followers, the blog's blocked domains, and the replies held for approval. An
//! Accept or Reject is queued in the same transaction as the change it announces (the
//! delivery worker finds it at its next tick: these writes do not wake it); approving or
//! deleting a shown reply invalidates the blog's cached pages, after the commit.
//!
//! What the owner sees beside it: the post list's `likes`, `boosts` and `replies` (two grouped
//! queries per page, `db::reactions::counts_of` and `db::replies::counts_of`), and the approved
//! replies under the public post page (`http::blog::templates::reply_view`).

use serde_json::Value;
use time::OffsetDateTime;

use crate::blogs::Blogs;
use crate::config::Config;
use crate::db::blogs::Blog;
use crate::db::followers::{self, Follower};
use crate::db::remote_refusals::{self, Refusals};
use crate::db::replies::{self, Reply};
use crate::db::responses::ResponseState;
use crate::db::{blocked_domains, deliveries};
use crate::domain::federation::activity;
use crate::domain::federation::domain_blocklist::blockable;
use crate::domain::paging::{Page, PageRequest};
use crate::error::{Error, Result};

/// A blog's Fediverse settings as stored.
#[derive(Debug, Clone)]
pub struct FediverseState {
    /// New followers wait for the owner's approval.
    pub approve_followers: bool,
    /// Accepted followers.
    pub follower_count: i64,
    /// Followers waiting for the owner's approval (the list is paged: [`Blogs::followers`]).
    pub pending_count: u64,
    /// The blog's blocked domains, sorted.
    pub blocked_domains: Vec<String>,
    /// Given-up deliveries: inbox host, how many, the last error.
    pub given_up: Vec<(String, i64, Option<String>)>,
    /// What the caps on remote servers refused, by kind.
    pub refused: Vec<Refusals>,
}

/// A reply with the short id and title of the post it answers.
pub type ReplyOfPost = (Reply, String, String);

/// The 404 of a follower the blog does not have.
pub fn follower_not_found() -> Error {
    Error::not_found("follower", "Follower not found")
}

/// The 404 of a reply the blog does not have.
pub fn reply_not_found() -> Error {
    Error::not_found("reply", "Reply not found")
}

/// How long after an Accept of a follower is queued a repeated Follow of the same actor may queue
/// another (a server that lost our Accept follows again); until then, and while one is queued,
/// a repeated Follow queues nothing.
pub const ACCEPT_AGAIN_AFTER_MINUTES: u32 = 60;

/// The follower's Follow of our actor `actor_id`, as an Accept or Reject names it.
fn follow_of(actor_id: &str, follower: &Follower) -> Value {
    activity::follow_named(&follower.follow_id, &follower.actor_id, actor_id)
}

/// Queues the Accept by `actor_id` (ours) of the accepted `follower`'s Follow to its inbox,
/// unless one is still queued or one was queued less than [`ACCEPT_AGAIN_AFTER_MINUTES`] ago: a
/// flood of Follows from one actor queues one small Accept. Answers whether it queued one.
pub(super) fn queue_accept(tx: &rusqlite::Connection, actor_id: &str, follower: &Follower) -> Result<bool> {
    let object_id = activity::accept_id(actor_id, follower.id);
    if deliveries::is_queued(tx, follower.blog_id, &object_id)?
        || !followers::note_accept_queued(tx, follower.id, ACCEPT_AGAIN_AFTER_MINUTES)?
    {
        return Ok(false);
    }
    let accept = activity::accept(actor_id, &follow_of(actor_id, follower), follower.id);
    deliveries::enqueue(tx, follower.blog_id, &object_id, &accept.to_string(), std::slice::from_ref(&follower.inbox))?;
    Ok(true)
}

fn state_of(conn: &rusqlite::Connection, blog_id: i64) -> Result<FediverseState> {
    Ok(FediverseState {
        approve_followers: followers::approve_followers(conn, blog_id)?,
        follower_count: followers::count(conn, blog_id)?,
        pending_count: followers::pending_in(conn, blog_id, "")?.in_blog,
        blocked_domains: blocked_domains::list(conn, Some(blog_id))?,
        given_up: deliveries::given_up_by_host(conn, blog_id)?,
        refused: remote_refusals::list(conn, blog_id)?,
    })
}

/// Makes `change` to the blog's federation state in one transaction; answers the state after.
fn changing(
    conn: &mut rusqlite::Connection,
    blog_id: i64,
    change: impl FnOnce(&rusqlite::Transaction<'_>) -> Result<()>,
) -> Result<FediverseState> {
    let tx = conn.transaction()?;
    change(&tx)?;
    let state = state_of(&tx, blog_id)?;
    tx.commit()?;
    Ok(state)
}

impl Blogs {
    /// The blog's Fediverse settings.
    pub async fn fediverse(&self, blog: &Blog) -> Result<FediverseState> {
        let id = blog.id;
        self.db.read(move |conn| state_of(conn, id)).await
    }

    /// Turns the approval of new followers on or off; turning it off accepts no pending one.
    pub async fn set_approve_followers(&self, blog: &Blog, approve: bool) -> Result<FediverseState> {
        let id = blog.id;
        self.commit(move |conn, _| changing(conn, id, |tx| followers::set_approve_followers(tx, id, approve))).await
    }

    /// Accepts the pending follower `follower_id`, queueing the Accept of its Follow to its
    /// inbox in the same transaction. An accepted follower is a 404 like an unknown one.
    pub async fn approve_follower(&self, config: &Config, blog: &Blog, follower_id: i64) -> Result<FediverseState> {
        let (id, actor_id) = (blog.id, config.actor_id(&blog.subdomain));
        self.commit(move |conn, _| {
            changing(conn, id, |tx| {
                let follower =
                    followers::get(tx, id, follower_id)?.filter(|f| !f.accepted).ok_or_else(follower_not_found)?;
                followers::accept(tx, id, follower.id)?;
                queue_accept(tx, &actor_id, &follower)?;
                Ok(())
            })
        })
        .await
    }

    /// Removes the follower `follower_id`: a pending one is refused, an accepted one removed.
    /// Either way its server is sent a Reject of its Follow (queued in the same transaction), so
    /// it no longer shows the blog as followed.
    pub async fn remove_follower(&self, config: &Config, blog: &Blog, follower_id: i64) -> Result<FediverseState> {
        let (id, actor_id) = (blog.id, config.actor_id(&blog.subdomain));
        let at_ms = (OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000) as i64;
        self.commit(move |conn, _| {
            changing(conn, id, |tx| {
                let follower = followers::remove_by_id(tx, id, follower_id)?.ok_or_else(follower_not_found)?;
                let reject = activity::reject(&actor_id, &follow_of(&actor_id, &follower), follower.id, at_ms);
                deliveries::enqueue(tx, id, &actor_id, &reject.to_string(), std::slice::from_ref(&follower.inbox))?;
                Ok(())
            })
        })
        .await
    }

    /// Blocks `raw_domain` (and its subdomains) for the blog: their requests are dropped, and
    /// everything they sent it removed (`blocked_domains::purge`: followers, replies, reactions,
    /// queued deliveries, cached actors nothing else refers to). A bad name is a 422 on `domain`.
    pub async fn block_domain(&self, blog: &Blog, raw_domain: &str) -> Result<FediverseState> {
        let domain = blockable(raw_domain).map_err(|message| Error::invalid("domain", message))?;
        let id = blog.id;
        self.commit(move |conn, effects| {
            let mut shown_on = Vec::new();
            let state = changing(conn, id, |tx| {
                blocked_domains::add(tx, Some(id), &domain)?;
                shown_on = blocked_domains::purge(tx, Some(id), &domain)?.shown_on;
                Ok(())
            })?;
            for subdomain in &shown_on {
                effects.invalidate(subdomain);
            }
            Ok(state)
        })
        .await
    }

    /// One page of the blog's followers, pending ones too, oldest first; a page past the
    /// end is a 400 on `page`.
    pub async fn followers(&self, blog: &Blog, request: PageRequest) -> Result<(Page, Vec<Follower>)> {
        let id = blog.id;
        self.db
            .read(move |conn| {
                let page = request.within(followers::count_all(conn, id)?).map_err(Error::BadRequest)?;
                Ok((page, followers::list(conn, id, request.offset(), request.page_size)?))
            })
            .await
    }

    /// Unblocks `raw_domain` for the blog; a domain it has not blocked is a 404.
    pub async fn unblock_domain(&self, blog: &Blog, raw_domain: &str) -> Result<FediverseState> {
        let not_blocked = || Error::not_found("domain", "This domain is not blocked");
        let domain = blockable(raw_domain).map_err(|_| not_blocked())?;
        let id = blog.id;
        self.commit(move |conn, _| {
            changing(conn, id, |tx| match blocked_domains::remove(tx, Some(id), &domain)? {
                true => Ok(()),
                false => Err(not_blocked()),
            })
        })
        .await
    }

    /// One page of the blog's replies in `state`, newest first; a page past the end is a 400 on
    /// `page`.
    pub async fn replies(
        &self,
        blog: &Blog,
        state: ResponseState,
        request: PageRequest,
    ) -> Result<(Page, Vec<ReplyOfPost>)> {
        let id = blog.id;
        self.db
            .read(move |conn| {
                let page = request.within(replies::count_in(conn, id, state)?).map_err(Error::BadRequest)?;
                Ok((page, replies::list(conn, id, state, request.offset(), request.page_size)?))
            })
            .await
    }

    /// Moves the reply `reply_id` to `state`: approved, it shows under its post from now on; in
    /// spam, it is out of sight.
    pub async fn move_reply(&self, blog: &Blog, reply_id: i64, state: ResponseState) -> Result<ReplyOfPost> {
        let (id, subdomain) = (blog.id, blog.subdomain.clone());
        self.commit(move |conn, effects| {
            let tx = conn.transaction()?;
            let before = replies::set_state(&tx, id, reply_id, state)?.ok_or_else(reply_not_found)?;
            let reply = replies::get_with_post(&tx, id, reply_id)?.ok_or_else(reply_not_found)?;
            tx.commit()?;
            if (before == ResponseState::Approved) != (state == ResponseState::Approved) {
                effects.invalidate(&subdomain);
            }
            Ok(reply)
        })
        .await
    }

    /// Deletes the reply `reply_id`, held or shown.
    pub async fn delete_reply(&self, blog: &Blog, reply_id: i64) -> Result<()> {
        let (id, subdomain) = (blog.id, blog.subdomain.clone());
        self.commit(move |conn, effects| {
            if replies::delete(conn, id, reply_id)?.ok_or_else(reply_not_found)? {
                effects.invalidate(&subdomain);
            }
            Ok(())
        })
        .await
    }
}
