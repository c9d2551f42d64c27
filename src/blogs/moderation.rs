//! An admin's changes of a blog's trust state (issue 29, docs/public-instance.md): approve,
//! silence, suspend and unsuspend, from the Admin screen or `quire blogs ...`, each recorded with
//! who did it and why.

use super::Blogs;
use crate::db::blogs::{self, Blog};
use crate::db::deliveries;
use crate::domain::blog::trust_state::{Moderation, TrustState};
use crate::error::{Error, Result};

/// Longest reason an admin may give (it is shown to the owner).
pub const MAX_REASON_CHARS: usize = 1000;

impl Blogs {
    /// Applies `action` to the blog on `subdomain` on behalf of `admin` (an admin's email, or
    /// "command line"), telling its owner `reason`; answers the blog as it is now. An unknown
    /// blog is a 404; an action its state does not allow (unsuspending a blog that is not
    /// suspended, approving a suspended one) a 422 saying why.
    pub async fn moderate(&self, subdomain: &str, action: Moderation, reason: &str, admin: &str) -> Result<Blog> {
        let reason = reason.trim().to_owned();
        if reason.chars().count() > MAX_REASON_CHARS {
            return Err(Error::invalid("reason", format!("The reason is longer than {MAX_REASON_CHARS} characters")));
        }
        let (subdomain, admin) = (subdomain.to_owned(), admin.to_owned());
        self.commit(move |conn, effects| {
            let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let blog = blogs::by_subdomain(&tx, &subdomain)?.ok_or_else(|| no_such_blog(&subdomain))?;
            let before = blogs::state_before_suspension(&tx, blog.id)?;
            let state = action.target(blog.state, before).map_err(|message| Error::invalid("action", message))?;
            blogs::set_state(&tx, blog.id, state, &reason, &admin, action.as_str())?;
            if state == TrustState::Silenced {
                // What it had queued for its followers is dropped, never sent (a new blog's
                // activities wait and go out on approval).
                deliveries::cancel_for_blog(&tx, blog.id)?;
            }
            let blog = blogs::by_id(&tx, blog.id)?.ok_or_else(|| no_such_blog(&subdomain))?;
            tx.commit()?;
            effects.state_changed(&blog.subdomain, blog.state);
            // Its pages change (`noindex`, or the 410 of a suspension and back).
            effects.invalidate(&blog.subdomain);
            if state == TrustState::Approved {
                // The activities held while it waited go out now.
                effects.deliveries_queued();
            }
            Ok(blog)
        })
        .await
    }
}

/// The 404 of an admin action on a blog that does not exist.
pub fn no_such_blog(subdomain: &str) -> Error {
    Error::not_found("blog", format!("There is no blog on {subdomain:?}"))
}
