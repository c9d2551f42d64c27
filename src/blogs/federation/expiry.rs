//! What other servers sent that expires (issue 28, finding 1): replies the owner never approved,
//! after `--held-reply-days`, and cached remote actors nothing refers to, after
//! [`UNUSED_ACTOR_DAYS`]. Run by the delivery worker's periodic sweep
//! (`delivery::run`, beside the retired keys' and given-up deliveries' sweep).

use crate::blogs::Blogs;
use crate::db::{remote_actors, replies};
use crate::error::Result;

/// Days a cached remote actor that no follow, reply or reaction refers to is kept unfetched.
pub const UNUSED_ACTOR_DAYS: u32 = 30;

/// What one sweep deleted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Expired {
    /// Replies held past their days.
    pub held_replies: usize,
    /// Unused cached actors.
    pub actors: usize,
}

impl Blogs {
    /// Deletes the replies held past `--held-reply-days` (none when it is 0) and the cached
    /// actors unused for [`UNUSED_ACTOR_DAYS`]. Held replies are shown nowhere, so no page changes.
    pub async fn expire_remote(&self) -> Result<Expired> {
        let days = self.remote_limits.held_reply_days;
        let expired = self
            .commit(move |conn, _| {
                let tx = conn.transaction()?;
                let held_replies = if days > 0 { replies::expire_held(&tx, days)? } else { 0 };
                let actors = remote_actors::expire_unreferenced(&tx, UNUSED_ACTOR_DAYS)?;
                tx.commit()?;
                Ok(Expired { held_replies, actors })
            })
            .await?;
        if expired != Expired::default() {
            tracing::info!(
                held_replies = expired.held_replies,
                actors = expired.actors,
                "expired what remote servers sent"
            );
        }
        Ok(expired)
    }
}
