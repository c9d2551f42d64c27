//! What a verified activity changes (issue 16, docs/federation-inbox.md): [`Blogs::receive`],
//! called by the inbox once the request's signature verified and its actor is known. Each
//! activity is one transaction; every change is keyed so that a replay (past a restart, when the
//! inbox's replay set is gone) changes nothing: followers by (blog, actor), reactions by the
//! activity's id, replies by the Note's id.
//!
//! Only the verified actor acts for itself: the inbox has checked that the key's owner is the
//! activity's actor, and here a Note must be the actor's own (`attributedTo`), an Undo or a
//! Delete removes only that actor's rows. A blog's own blocked domains are checked here, once
//! the activity says which blog it concerns (the inbox checked the instance's, and the
//! personal inbox's blog's, before any work).

use serde_json::Value;

use super::Blogs;
use crate::config::Config;
use crate::db::remote_actors::{self, InboxBlog, RemoteActor};
use crate::db::{blocked_domains, deliveries, followers, reactions, replies};
use crate::domain::federation::inbound::{self, Inbound, Ours, UndoneKind};
use crate::domain::{federation::activity, federation::remote_html};
use crate::error::{Error, Messages, Result};

/// What an activity did, for the log line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Received {
    /// A change was made (or had been made by an earlier copy of the same activity).
    Done(&'static str),
    /// Nothing to do, and why.
    Dropped(&'static str),
}

/// What a Follow that queued its Accept did.
const ACCEPT_QUEUED: &str = "followed, Accept queued";

impl Received {
    /// Whether an activity (an Accept) was queued for delivery.
    pub fn queued_delivery(self) -> bool {
        self == Received::Done(ACCEPT_QUEUED)
    }
}

impl Blogs {
    /// Applies an activity `inbound` (read from `json`) from the verified `actor`: a Follow of
    /// one of our actors records the follower and, unless the blog approves followers, queues
    /// the Accept to its inbox; an Undo takes back a Follow, Like or Announce; a Like or
    /// Announce of one of our posts is counted; a Note replying to one of our posts is held for
    /// the owner; a Delete removes a reply, or everything of an actor that deleted itself.
    pub async fn receive(
        &self,
        config: &Config,
        inbound: Inbound,
        json: Value,
        actor: RemoteActor,
    ) -> Result<Received> {
        let scheme = config.scheme();
        let served = self.served.clone();
        let app_host = config.host.clone();
        let ours = move |id: &str| inbound::ours(id, scheme, &app_host, |name| served.blog_of_domain(name));
        let actor_host = inbound::host_of(&actor.actor_id).unwrap_or_default();
        let config = config.clone();
        let (received, invalidate) = self
            .db
            .write(move |conn| {
                let tx = conn.transaction()?;
                let target = |id: &str| -> Result<Option<(InboxBlog, Ours)>> {
                    let Some(found) = ours(id) else { return Ok(None) };
                    let subdomain = match &found {
                        Ours::Actor { subdomain } | Ours::Post { subdomain, .. } => subdomain,
                    };
                    let Some(blog) = remote_actors::inbox_blog(&tx, subdomain)? else { return Ok(None) };
                    if blocked_domains::is_blocked(&tx, Some(blog.id), &actor_host)? {
                        return Ok(None);
                    }
                    Ok(Some((blog, found)))
                };
                let post_of = |id: &str| -> Result<Option<i64>> {
                    match target(id)? {
                        Some((blog, Ours::Post { short_id, .. })) => {
                            remote_actors::published_post(&tx, blog.id, &short_id)
                        }
                        _ => Ok(None),
                    }
                };
                let react = |id: &str, post: Option<i64>, kind| -> Result<Received> {
                    let Some(post_id) = post else { return Ok(Received::Dropped("not one of our published posts")) };
                    reactions::add(&tx, id, post_id, &actor.actor_id, kind)?;
                    Ok(Received::Done("reaction counted"))
                };
                let mut invalidate = Vec::new();
                let received = match inbound {
                    Inbound::Follow { id, object, .. } => match target(&object)? {
                        Some((blog, Ours::Actor { subdomain })) => {
                            let follower = followers::upsert(
                                &tx,
                                &followers::NewFollower {
                                    blog_id: blog.id,
                                    actor_id: &actor.actor_id,
                                    inbox: &actor.inbox,
                                    shared_inbox: actor.shared_inbox.as_deref(),
                                    handle: &actor.handle,
                                    follow_id: &id,
                                    follow_json: &json.to_string(),
                                    accepted: !followers::approve_followers(&tx, blog.id)?,
                                },
                            )?;
                            if follower.accepted {
                                let our_actor = config.actor_id(&subdomain);
                                let accept = activity::accept(&our_actor, &json, follower.id);
                                let to = std::slice::from_ref(&actor.inbox);
                                deliveries::enqueue(&tx, blog.id, &our_actor, &accept.to_string(), to)?;
                                Received::Done(ACCEPT_QUEUED)
                            } else {
                                Received::Done("follow held for the owner's approval")
                            }
                        }
                        _ => Received::Dropped("the Follow is not of one of our actors"),
                    },
                    Inbound::Undo { undone, .. } => {
                        let mut removed = 0;
                        if matches!(undone.kind, Some(UndoneKind::Follow) | None) {
                            removed += match undone.object.as_deref().map(&target).transpose()?.flatten() {
                                Some((blog, Ours::Actor { .. })) => {
                                    usize::from(followers::remove(&tx, blog.id, &actor.actor_id)?)
                                }
                                _ => remote_actors::remove_follow(&tx, &actor.actor_id, &undone.id)?,
                            };
                        }
                        if matches!(undone.kind, Some(UndoneKind::Like | UndoneKind::Announce) | None) {
                            removed += usize::from(reactions::remove(&tx, &undone.id, &actor.actor_id)?);
                        }
                        if removed > 0 { Received::Done("undone") } else { Received::Dropped("nothing to undo") }
                    }
                    Inbound::Like { id, object, .. } => react(&id, post_of(&object)?, reactions::Kind::Like)?,
                    Inbound::Announce { id, object, .. } => react(&id, post_of(&object)?, reactions::Kind::Announce)?,
                    Inbound::Create { note, .. } => {
                        if note.attributed_to != actor.actor_id {
                            return Err(Error::Unauthorized(Messages::one(
                                "signature",
                                "the Note is not the signing actor's (attributedTo)",
                            )));
                        }
                        match note.in_reply_to.as_deref().map(&post_of).transpose()?.flatten() {
                            Some(post_id) => {
                                let text = remote_html::to_text(&note.content, remote_html::MAX_CHARS);
                                let published = note.published.clone().unwrap_or_else(now_stored);
                                replies::insert_held(
                                    &tx,
                                    &replies::NewReply {
                                        note_id: &note.id,
                                        post_id,
                                        actor_id: &actor.actor_id,
                                        author_name: &actor.name,
                                        author_handle: &actor.handle,
                                        author_url: actor.url.as_deref().unwrap_or(&actor.actor_id),
                                        url: note.url.as_deref(),
                                        text: &text,
                                        published_at: &published,
                                    },
                                )?;
                                Received::Done("reply held for the owner's approval")
                            }
                            None => Received::Dropped("the Note does not reply to one of our posts"),
                        }
                    }
                    Inbound::Delete { object, .. } if object == actor.actor_id => {
                        let forgotten = remote_actors::forget(&tx, &actor.actor_id)?;
                        invalidate = forgotten.shown_on;
                        Received::Done("actor deleted: its follows, reactions and replies removed")
                    }
                    Inbound::Delete { object, .. } => match replies::delete_by_note(&tx, &object, &actor.actor_id)? {
                        Some((post_id, approved)) => {
                            if approved {
                                invalidate.extend(remote_actors::post_subdomain(&tx, post_id)?);
                            }
                            Received::Done("reply deleted")
                        }
                        None => Received::Dropped("nothing of ours to delete"),
                    },
                    Inbound::UpdateActor { .. } => {
                        remote_actors::refresh_follows(&tx, &actor)?;
                        Received::Done("actor refreshed")
                    }
                    Inbound::Ignored { .. } => Received::Dropped("not an activity Quire acts on"),
                };
                tx.commit()?;
                Ok((received, invalidate))
            })
            .await?;
        for subdomain in invalidate {
            self.pages.invalidate(&subdomain);
        }
        if received.queued_delivery() {
            self.deliveries_queued();
        }
        Ok(received)
    }
}

/// Now, in the stored form.
fn now_stored() -> String {
    let now = time::OffsetDateTime::now_utc();
    now.format(time::macros::format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z"))
        .unwrap_or_default()
}
