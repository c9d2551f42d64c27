//! Webmentions on the write path (issue 31, docs/responses.md "Webmentions"): one received is
//! queued within its limits; the verifier then reads its source through the guarded fetcher
//! (no private addresses, 1 MiB, the fetch deadline) and keeps, updates or removes the response
//! it makes. A response waits for the owner like a comment.

use std::sync::Arc;
use std::time::Duration;

use time::OffsetDateTime;
use url::Url;

use super::Blogs;
use crate::db::public::PublicBlog;
use crate::db::webmentions::{self, Incoming, Received};
use crate::domain::blog::trust_state::TrustState;
use crate::domain::federation::webmention::{self, SourceMention};
use crate::error::Result;
use crate::fetch::{FetchError, Fetcher, Request};

/// The largest source page read.
pub const MAX_SOURCE_BYTES: usize = 1024 * 1024;
/// Sources read at once.
const AT_ONCE: u32 = 4;
/// How long a claimed webmention is leased to its read.
const LEASE_SECS: u64 = 600;
/// Reads tried before a source that cannot be read is given up.
const MAX_ATTEMPTS: u32 = 3;
/// The longest the verifier sleeps before it looks again.
const MAX_SLEEP: Duration = Duration::from_secs(60);

/// What reading a source came to.
enum Read {
    /// It links to the post: keep what it says.
    Mentions(SourceMention),
    /// It does not link to the post, or is gone (404, 410): remove what it made.
    Gone,
    /// It could not be read now (network, 5xx, timeout): try again later.
    Later(String),
    /// It will not be read (a private address, a name with no address, too large, not a page):
    /// drop the request (the sender may send it again).
    Refused(String),
}

impl Blogs {
    /// Queues the webmention of `post_id` of `blog` from `source`, sent from `client_key`.
    pub async fn receive_webmention(
        &self,
        blog: &PublicBlog,
        post_id: i64,
        source: String,
        target: String,
        client_key: String,
    ) -> Result<Received> {
        let limits = self.public.webmention_limits;
        let blog_id = blog.id;
        self.commit(move |conn, effects| {
            let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let received = webmentions::receive(&tx, blog_id, post_id, &source, &target, &client_key, limits)?;
            tx.commit()?;
            if received == Received::Queued {
                effects.webmention_queued();
            }
            Ok(received)
        })
        .await
    }

    /// Reads the sources of the webmentions due, and keeps what they say; answers when the
    /// next is due.
    pub async fn verify_due_webmentions(&self, fetcher: &Fetcher) -> Result<Option<OffsetDateTime>> {
        let due = self.db.write(|conn| webmentions::claim_due(conn, AT_ONCE, LEASE_SECS)).await?;
        let reads = due.iter().map(|incoming| read(fetcher, incoming));
        let outcomes = futures_util::future::join_all(reads).await;
        for (incoming, outcome) in due.into_iter().zip(outcomes) {
            self.settle_webmention(incoming, outcome).await?;
        }
        let next = self.db.read(webmentions::next_due).await?;
        Ok(next.and_then(|at| OffsetDateTime::parse(&at, &time::format_description::well_known::Rfc3339).ok()))
    }

    async fn settle_webmention(&self, incoming: Incoming, outcome: Read) -> Result<()> {
        self.commit(move |conn, effects| {
            let tx = conn.transaction()?;
            let blog = crate::db::blogs::by_id(&tx, incoming.blog_id)?;
            let takes = blog.as_ref().is_some_and(|b| b.state == TrustState::Approved);
            let was_shown = webmentions::shown(&tx, incoming.post_id, &incoming.source)?;
            match outcome {
                Read::Mentions(mention) if takes => {
                    webmentions::keep(&tx, incoming.blog_id, incoming.post_id, &incoming.source, &mention)?;
                    webmentions::done(&tx, incoming.id)?;
                }
                Read::Mentions(_) => webmentions::done(&tx, incoming.id)?,
                Read::Gone => {
                    webmentions::remove(&tx, incoming.post_id, &incoming.source)?;
                    webmentions::done(&tx, incoming.id)?;
                }
                Read::Later(error) if incoming.attempts + 1 < MAX_ATTEMPTS => {
                    tracing::info!(source = %incoming.source, %error, "a webmention's source could not be read; trying again later");
                    webmentions::retry(&tx, incoming.id, 60 * 10u64.pow(incoming.attempts))?;
                }
                Read::Later(error) | Read::Refused(error) => {
                    tracing::info!(source = %incoming.source, %error, "a webmention's source was not read");
                    webmentions::done(&tx, incoming.id)?;
                }
            }
            tx.commit()?;
            if let (true, Some(blog)) = (was_shown, blog) {
                effects.invalidate(&blog.subdomain);
            }
            Ok(())
        })
        .await
    }
}

/// Reads `incoming`'s source through the guarded fetcher.
async fn read(fetcher: &Fetcher, incoming: &Incoming) -> Read {
    let (Ok(source), Ok(target)) = (Url::parse(&incoming.source), Url::parse(&incoming.target)) else {
        return Read::Refused("not a URL".to_owned());
    };
    let request = Request::get(&incoming.source).max_bytes(MAX_SOURCE_BYTES).accept(&[
        "text/html",
        "application/xhtml+xml",
        "text/plain",
    ]);
    match fetcher.request(request).await {
        Ok(page) => {
            let base = Url::parse(&page.url).unwrap_or(source);
            let html = String::from_utf8_lossy(&page.body);
            match webmention::read_source(&html, &base, &target) {
                Some(mut mention) => {
                    if mention.author_name.is_empty() {
                        mention.author_name = base.host_str().unwrap_or_default().to_owned();
                    }
                    Read::Mentions(mention)
                }
                None => Read::Gone,
            }
        }
        Err(FetchError::Status(404 | 410)) => Read::Gone,
        Err(
            err @ (FetchError::Status(429 | 500..)
            | FetchError::TimedOut(_)
            | FetchError::Connect(_)
            | FetchError::Failed(_)),
        ) => Read::Later(err.to_string()),
        Err(err) => Read::Refused(err.to_string()),
    }
}

/// The server's verifier: reads due sources, sleeps until the next is due (at most a minute)
/// or a webmention comes; a failed look is logged and tried again.
pub async fn run(blogs: Arc<Blogs>, fetcher: Fetcher) {
    loop {
        let sleep = match blogs.verify_due_webmentions(&fetcher).await {
            Ok(Some(next)) => Duration::try_from(next - OffsetDateTime::now_utc())
                .unwrap_or(Duration::ZERO)
                .max(Duration::from_millis(100))
                .min(MAX_SLEEP),
            Ok(None) => MAX_SLEEP,
            Err(err) => {
                tracing::warn!(error = %err, "reading webmentions' sources failed; trying again in a minute");
                MAX_SLEEP
            }
        };
        tokio::select! {
            _ = tokio::time::sleep(sleep) => {}
            _ = blogs.webmentions_changed.notified() => {}
        }
    }
}
