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
//!
//! What would pass a cap on remote servers (`domain::federation::remote_limits`: held replies,
//! followers waiting for approval, reactions, per remote host and per blog) is dropped and
//! counted (`db::remote_refusals`, and a line in the log); the inbox still answers 202, since a
//! sender retries a 429 for days and the cap lasts until the owner makes room. Everything that
//! parses (the ids an activity names, the reply's HTML) is done before the writer is taken.

use std::collections::HashMap;

use rusqlite::Transaction;

use crate::blogs::Blogs;
use crate::blogs::effects::Effects;
use crate::blogs::federation::fediverse::queue_accept;
use crate::config::Config;
use crate::db::remote_actors::{self, InboxBlog, RemoteActor};
use crate::db::{blocked_domains, followers, reactions, remote_refusals, replies};
use crate::domain::federation::inbound::{self, Inbound, Note, Ours, Undone, UndoneKind};
use crate::domain::federation::remote_html;
use crate::domain::federation::remote_limits::{Capped, Held, RemoteLimits};
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
/// What an activity refused by a cap on remote servers did.
const PAST_THE_CAP: &str = "refused: past the blog's cap on what remote servers may store (counted)";

impl Received {
    /// Whether an activity (an Accept) was queued for delivery.
    pub fn queued_delivery(self) -> bool {
        self == Received::Done(ACCEPT_QUEUED)
    }
}

impl Blogs {
    /// Applies an activity `inbound` from the verified `actor`: a Follow of
    /// one of our actors records the follower and, unless the blog approves followers, queues
    /// the Accept to its inbox; an Undo takes back a Follow, Like or Announce; a Like or
    /// Announce of one of our posts is counted; a Note replying to one of our posts is held for
    /// the owner; a Delete removes a reply, or everything of an actor that deleted itself.
    pub async fn receive(&self, config: &Config, inbound: Inbound, actor: RemoteActor) -> Result<Received> {
        let scheme = config.scheme();
        let served = self.served.clone();
        let ours = |id: &str| inbound::ours(id, scheme, &config.host, |name| served.blog_of_domain(name));
        // Parsed here, before the writer is taken: the ids the activity names, and a reply's text.
        let named = match &inbound {
            Inbound::Follow { object, .. } | Inbound::Like { object, .. } | Inbound::Announce { object, .. } => {
                Some(object.as_str())
            }
            Inbound::Undo { undone, .. } => undone.object.as_deref(),
            Inbound::Create { note, .. } => note.in_reply_to.as_deref(),
            _ => None,
        };
        // A suspended blog is gone for as long as it is (issue 29): what names it, through the
        // shared inbox too, is taken as naming nothing of ours, and dropped.
        let served_now = |target: &Ours| match target {
            Ours::Actor { subdomain } | Ours::Post { subdomain, .. } => served.state(subdomain).is_served(),
        };
        let targets: HashMap<String, Ours> =
            named.and_then(|id| Some((id.to_owned(), ours(id).filter(served_now)?))).into_iter().collect();
        let reply_text = match &inbound {
            Inbound::Create { note, .. } => remote_html::to_text(&note.content, remote_html::MAX_CHARS),
            _ => String::new(),
        };
        let actor_host = inbound::host_of(&actor.actor_id).unwrap_or_default();
        let limits = self.remote_limits;
        let config = config.clone();
        self.commit(move |conn, effects| {
            let tx = conn.transaction()?;
            let ours = |id: &str| targets.get(id).cloned();
            let from = Incoming { tx: &tx, actor: &actor, actor_host: &actor_host, ours: &ours, limits };
            let received = match inbound {
                Inbound::Follow { id, object, .. } => follow(&from, &config, &id, &object)?,
                Inbound::Undo { undone, .. } => undo(&from, &undone)?,
                Inbound::Like { id, object, .. } => react(&from, &id, &object, reactions::Kind::Like)?,
                Inbound::Announce { id, object, .. } => react(&from, &id, &object, reactions::Kind::Announce)?,
                Inbound::Create { note, .. } => reply(&from, &note, &reply_text)?,
                Inbound::Delete { object, .. } if object == actor.actor_id => delete_actor(&from, effects)?,
                Inbound::Delete { object, .. } => delete_reply(&from, &object, effects)?,
                Inbound::UpdateActor { .. } => update_actor(&from)?,
                Inbound::Ignored { .. } => Received::Dropped("not an activity Quire acts on"),
            };
            tx.commit()?;
            if received.queued_delivery() {
                effects.deliveries_queued();
            }
            Ok(received)
        })
        .await
    }
}

/// A verified actor's activity, inside its transaction.
struct Incoming<'a> {
    tx: &'a Transaction<'a>,
    /// The verified actor.
    actor: &'a RemoteActor,
    /// Its host, matched against the blog's blocked domains.
    actor_host: &'a str,
    /// Which of our actors or posts an id names, if any (resolved before the writer was taken).
    ours: &'a dyn Fn(&str) -> Option<Ours>,
    /// The caps on what remote servers may store.
    limits: RemoteLimits,
}

impl Incoming<'_> {
    /// The blog and the actor or post of ours `id` names, unless the blog blocks the actor's
    /// domain.
    fn target(&self, id: &str) -> Result<Option<(InboxBlog, Ours)>> {
        let Some(found) = (self.ours)(id) else { return Ok(None) };
        let subdomain = match &found {
            Ours::Actor { subdomain } | Ours::Post { subdomain, .. } => subdomain,
        };
        let Some(blog) = remote_actors::inbox_blog(self.tx, subdomain)? else { return Ok(None) };
        if blocked_domains::is_blocked(self.tx, Some(blog.id), self.actor_host)? {
            return Ok(None);
        }
        Ok(Some((blog, found)))
    }

    /// The blog and row id of the published post of ours `id` names.
    fn post_of(&self, id: &str) -> Result<Option<(i64, i64)>> {
        match self.target(id)? {
            Some((blog, Ours::Post { short_id, .. })) => {
                Ok(remote_actors::published_post(self.tx, blog.id, &short_id)?.map(|post_id| (blog.id, post_id)))
            }
            _ => Ok(None),
        }
    }

    /// Whether one more `kind` from the actor's host fits in the blog beside those `held`;
    /// when not, the refusal is counted and logged.
    fn admits(&self, blog_id: i64, kind: Capped, held: Held) -> Result<bool> {
        if self.limits.admits(kind, held) {
            return Ok(true);
        }
        remote_refusals::record(self.tx, blog_id, kind, self.actor_host)?;
        tracing::warn!(
            blog_id,
            host = self.actor_host,
            kind = kind.name(),
            from_host = held.from_host,
            in_blog = held.in_blog,
            "refused past the cap on remote servers"
        );
        Ok(false)
    }
}

/// A Follow (its id `id`) of our actor `object`: the follower recorded (of the Follow, only its
/// id), accepted with its Accept queued unless the blog approves followers or an Accept of it is
/// queued or was queued lately (`fediverse::queue_accept`).
fn follow(from: &Incoming<'_>, config: &Config, id: &str, object: &str) -> Result<Received> {
    let Some((blog, Ours::Actor { subdomain })) = from.target(object)? else {
        return Ok(Received::Dropped("the Follow is not of one of our actors"));
    };
    let (tx, actor) = (from.tx, from.actor);
    let approving = followers::approve_followers(tx, blog.id)?;
    if followers::by_actor(tx, blog.id, &actor.actor_id)?.is_none() {
        let host = from.actor_host;
        let fits = (!approving
            || from.admits(blog.id, Capped::PendingFollower, followers::pending_in(tx, blog.id, host)?)?)
            && from.admits(blog.id, Capped::Follower, followers::held_in(tx, blog.id, host)?)?;
        if !fits {
            return Ok(Received::Dropped(PAST_THE_CAP));
        }
    }
    let follower = followers::upsert(
        tx,
        &followers::NewFollower {
            blog_id: blog.id,
            actor_id: &actor.actor_id,
            inbox: &actor.inbox,
            shared_inbox: actor.shared_inbox.as_deref(),
            handle: &actor.handle,
            follow_id: id,
            accepted: !approving,
        },
    )?;
    if !follower.accepted {
        return Ok(Received::Done("follow held for the owner's approval"));
    }
    if !queue_accept(tx, &config.actor_id(&subdomain), &follower)? {
        return Ok(Received::Done("followed again, its Accept queued or sent lately"));
    }
    Ok(Received::Done(ACCEPT_QUEUED))
}

/// An Undo of the actor's Follow, Like or Announce (any of them when the type is not said).
fn undo(from: &Incoming<'_>, undone: &Undone) -> Result<Received> {
    let (tx, actor) = (from.tx, from.actor);
    let mut removed = 0;
    if matches!(undone.kind, Some(UndoneKind::Follow) | None) {
        removed += match undone.object.as_deref().map(|object| from.target(object)).transpose()?.flatten() {
            Some((blog, Ours::Actor { .. })) => usize::from(followers::remove(tx, blog.id, &actor.actor_id)?),
            _ => remote_actors::remove_follow(tx, &actor.actor_id, &undone.id)?,
        };
    }
    if matches!(undone.kind, Some(UndoneKind::Like | UndoneKind::Announce) | None) {
        removed += usize::from(reactions::remove(tx, &undone.id, &actor.actor_id)?);
    }
    Ok(if removed > 0 { Received::Done("undone") } else { Received::Dropped("nothing to undo") })
}

/// A Like or Announce (`kind`, its id `id`) of our post `object`, counted.
fn react(from: &Incoming<'_>, id: &str, object: &str, kind: reactions::Kind) -> Result<Received> {
    let Some((blog_id, post_id)) = from.post_of(object)? else {
        return Ok(Received::Dropped("not one of our published posts"));
    };
    let (tx, actor_id) = (from.tx, &from.actor.actor_id);
    if !reactions::exists(tx, id, post_id, actor_id, kind)?
        && !from.admits(blog_id, Capped::Reaction, reactions::held_in(tx, blog_id, from.actor_host)?)?
    {
        return Ok(Received::Dropped(PAST_THE_CAP));
    }
    reactions::add(tx, id, post_id, actor_id, kind)?;
    Ok(Received::Done("reaction counted"))
}

/// A Create of the actor's own Note (its content made plain `text`): a reply to one of our
/// posts is held for the owner.
fn reply(from: &Incoming<'_>, note: &Note, text: &str) -> Result<Received> {
    let actor = from.actor;
    if note.attributed_to != actor.actor_id {
        return Err(Error::Unauthorized(Messages::one(
            "signature",
            "the Note is not the signing actor's (attributedTo)",
        )));
    }
    let Some((blog_id, post_id)) = note.in_reply_to.as_deref().map(|id| from.post_of(id)).transpose()?.flatten() else {
        return Ok(Received::Dropped("the Note does not reply to one of our posts"));
    };
    if !replies::exists(from.tx, &note.id)?
        && !from.admits(blog_id, Capped::Reply, replies::held_in(from.tx, blog_id, from.actor_host)?)?
    {
        return Ok(Received::Dropped(PAST_THE_CAP));
    }
    let published = note.published.clone().unwrap_or_else(now_stored);
    replies::insert_held(
        from.tx,
        &replies::NewReply {
            note_id: &note.id,
            post_id,
            actor_id: &actor.actor_id,
            author_name: &actor.name,
            author_handle: &actor.handle,
            author_url: actor.url.as_deref().unwrap_or(&actor.actor_id),
            url: note.url.as_deref(),
            text,
            published_at: &published,
        },
    )?;
    Ok(Received::Done("reply held for the owner's approval"))
}

/// The actor's Delete of itself: its follows, reactions and replies removed, and the blogs
/// that showed its replies invalidated.
fn delete_actor(from: &Incoming<'_>, effects: &mut Effects) -> Result<Received> {
    let forgotten = remote_actors::forget(from.tx, &from.actor.actor_id)?;
    for subdomain in &forgotten.shown_on {
        effects.invalidate(subdomain);
    }
    Ok(Received::Done("actor deleted: its follows, reactions and replies removed"))
}

/// A Delete of the actor's Note `object`: its reply removed, and its blog invalidated if the
/// reply was shown.
fn delete_reply(from: &Incoming<'_>, object: &str, effects: &mut Effects) -> Result<Received> {
    let Some((post_id, approved)) = replies::delete_by_note(from.tx, object, &from.actor.actor_id)? else {
        return Ok(Received::Dropped("nothing of ours to delete"));
    };
    if approved && let Some(subdomain) = remote_actors::post_subdomain(from.tx, post_id)? {
        effects.invalidate(&subdomain);
    }
    Ok(Received::Done("reply deleted"))
}

/// An Update of the actor: the follows' copies of its inbox and names refreshed.
fn update_actor(from: &Incoming<'_>) -> Result<Received> {
    remote_actors::refresh_follows(from.tx, from.actor)?;
    Ok(Received::Done("actor refreshed"))
}

/// Now, in the stored form.
fn now_stored() -> String {
    let now = time::OffsetDateTime::now_utc();
    now.format(time::macros::format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z"))
        .unwrap_or_default()
}
