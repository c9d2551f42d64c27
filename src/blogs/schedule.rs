//! Scheduled posts. A post saved with a future `publish_at` waits unpublished (its
//! `published_at` stays empty, so no public page, feed, sitemap or search shows it); when its
//! time comes, [`Blogs::publish_due`] publishes it through the write path like any save
//! (`Blogs::commit`): database, federation, search index, page cache. [`run`] is the server's
//! timer that calls it: it sleeps until the earliest scheduled time, and any post write wakes
//! it to look again. At start the server calls `publish_due` once before serving, for what
//! came due while it was down.

use std::sync::Arc;
use std::time::Duration;

use time::OffsetDateTime;

use super::Blogs;
use crate::db::schedule;
use crate::domain::content::schedule::parse_stored;
use crate::error::Result;

/// The longest the timer sleeps without looking at the database again, so a change of the
/// wall clock (the database's `now`) is noticed.
const LONGEST_SLEEP: Duration = Duration::from_secs(60);
/// Slept after a failed run, before trying again.
const RETRY_AFTER: Duration = Duration::from_secs(5);
/// Added to each wake-up: the database's clock must have passed the time when it looks.
const MARGIN: Duration = Duration::from_millis(5);

impl Blogs {
    /// Publishes every scheduled post whose time has come; returns how many.
    pub async fn publish_due(&self) -> Result<usize> {
        let grace = self.mail_grace();
        let published = self
            .commit(move |conn, effects| {
                let outbound = effects.outbound();
                let federate = |tx: &_, post: &_, subdomain: &str| {
                    outbound.post_written(tx, subdomain, post, false)?;
                    super::subscriptions::post_written(tx, post, false, grace)?;
                    super::webmentions::post_written(tx, post, false)
                };
                let (posts, seq) = schedule::publish_due(conn, federate)?;
                if let Some(seq) = seq {
                    for (post, _) in &posts {
                        effects.index_stored_post(seq, post);
                        effects.webmention_queued();
                    }
                }
                let mut subdomains: Vec<&str> = posts.iter().map(|(_, subdomain)| subdomain.as_str()).collect();
                subdomains.sort_unstable();
                for subdomain in subdomains {
                    effects.invalidate(subdomain);
                }
                if !posts.is_empty() {
                    effects.deliveries_queued();
                }
                Ok(posts)
            })
            .await?;
        for (post, subdomain) in &published {
            tracing::info!(blog = subdomain, post = post.short_id, "scheduled post published");
        }
        Ok(published.len())
    }

    /// How long until the earliest scheduled post is due (zero when one is overdue).
    async fn until_next_due(&self) -> Result<Option<Duration>> {
        let next = self.db.read(schedule::next_due).await?;
        Ok(next.as_deref().and_then(parse_stored).map(|at| {
            let wait = at - OffsetDateTime::now_utc();
            Duration::try_from(wait).unwrap_or(Duration::ZERO)
        }))
    }
}

/// The scheduler: publishes posts as they come due, until the task is aborted.
pub async fn run(blogs: Arc<Blogs>) {
    loop {
        let wait = match blogs.publish_due().await {
            Ok(_) => match blogs.until_next_due().await {
                Ok(next) => next.map_or(LONGEST_SLEEP, |wait| (wait + MARGIN).min(LONGEST_SLEEP)),
                Err(err) => {
                    tracing::error!(error = format!("{err:#}"), "reading the next scheduled post failed");
                    RETRY_AFTER
                }
            },
            Err(err) => {
                tracing::error!(error = format!("{err:#}"), "publishing scheduled posts failed");
                RETRY_AFTER
            }
        };
        tokio::select! {
            () = tokio::time::sleep(wait) => {}
            () = blogs.schedule_changed.notified() => {}
        }
    }
}
