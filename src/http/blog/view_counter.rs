//! Page views (the Page views addon): counted in memory per post, written to the database
//! as daily totals every few seconds. No cookie, address or identifier is kept.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::db::{Db, public};
use crate::domain::content::dates;

/// Views not yet written.
#[derive(Default)]
pub struct ViewCounter {
    pending: Mutex<HashMap<i64, u64>>,
}

impl ViewCounter {
    /// Counts one view of a post.
    pub fn add(&self, post_id: i64) {
        *self.pending.lock().expect("views lock").entry(post_id).or_default() += 1;
    }

    /// Writes the pending counts under today's date.
    pub async fn flush(&self, db: &Db) {
        let pending = std::mem::take(&mut *self.pending.lock().expect("views lock"));
        if pending.is_empty() {
            return;
        }
        let day = dates::today();
        let written = db
            .write(move |conn| {
                let tx = conn.transaction()?;
                for (post_id, views) in pending {
                    public::add_views(&tx, post_id, &day, views)?;
                }
                tx.commit()?;
                Ok(())
            })
            .await;
        if let Err(err) = written {
            tracing::warn!(error = %err, "page views not written");
        }
    }
}
