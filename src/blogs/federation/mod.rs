//! Federation (issue 16; docs/federation.md, docs/federation-inbox.md), by job:
//!
//! - `outbound.rs`: the activities a change calls for (Create, Update, Delete of a post, Delete
//!   of a deleted account's actor), queued in the change's own transaction; a post's Article;
//! - `delivery.rs`: the worker that signs and sends the queued activities;
//! - `signing_keys.rs`: Quire's own keys (a blog's, made when it is created; the instance
//!   actor's), made once each off SQLite's threads, and the retired keys' sweep;
//! - `remote_keys.rs`: [`InboxKeys`], the keys of other servers' actors the inbox verifies
//!   requests with, fetched and cached;
//! - `inbox.rs`: [`Blogs::receive`](crate::blogs::Blogs::receive), what a verified activity
//!   changes, one function per activity;
//! - `expiry.rs`: what other servers sent that expires (held replies, unused cached actors);
//! - `fediverse.rs`: the owner's side (Settings → Fediverse): followers, blocked domains and
//!   replies as the owner manages them.
//!
//! Every change here that a blog shows or queues goes through `Blogs::commit`
//! (`blogs/effects.rs`), so the worker a change queued for is woken, and the pages it changed
//! invalidated, in the one place; the workers' bookkeeping (a delivery's outcome, a key made
//! or fetched) writes through `Db::write` directly.

pub mod delivery;
mod expiry;
mod fediverse;
mod inbox;
mod outbound;
pub mod remote_keys;
mod signing_keys;

pub use expiry::{Expired, UNUSED_ACTOR_DAYS};
pub use fediverse::{FediverseState, ReplyOfPost, follower_not_found, reply_not_found};
pub use inbox::Received;
pub(super) use outbound::Outbound;
pub use outbound::article_of;
pub use remote_keys::{InboxKeys, KeyRefusal, Signer};
pub(super) use signing_keys::OwnKeys;
