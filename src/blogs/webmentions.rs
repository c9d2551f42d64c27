//! Webmentions on the write path (issue 31, docs/responses.md "Webmentions"): one received is
//! queued within its limits; the verifier then reads its source through the guarded fetcher
//! (no private addresses, 1 MiB, the fetch deadline) and keeps, updates or removes the response
//! it makes. A response waits for the owner like a comment. A public post's links are queued in
//! its write's transaction, and each linked page that names an endpoint is told.

use std::sync::Arc;
use std::time::Duration;

use time::OffsetDateTime;
use url::Url;

use super::Blogs;
use crate::db::posts::Post;
use crate::db::public::PublicBlog;
use crate::db::webmentions::{self, Incoming, Outgoing, Received};
use crate::domain::blog::trust_state::TrustState;
use crate::domain::content::blocks::{Block, Body};
use crate::domain::content::markdown;
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

/// In a post write's transaction: queues the webmentions the post's links are to be told of
/// (a post that is or was public; nothing for a draft that stays one).
pub(super) fn post_written(tx: &rusqlite::Connection, post: &Post, was_public: bool) -> Result<()> {
    if !post.federates() && !was_public {
        return Ok(());
    }
    let targets = if post.federates() { links_of(post) } else { Vec::new() };
    webmentions::queue_outgoing(tx, post.id, &targets)
}

/// In a post deletion's transaction, before its row goes: the pages it linked to and was told
/// of are to be told once more, from the address it had on `origin`.
pub(super) fn post_deleted(tx: &rusqlite::Connection, post: &Post, origin: &str) -> Result<()> {
    webmentions::post_deleted(tx, post.id, &format!("{origin}{}", post.path()))
}

/// The http(s) pages `post` links to (link blocks and links in paragraphs), each once.
fn links_of(post: &Post) -> Vec<String> {
    let Ok(body) = Body::from_json(&post.body_json) else { return Vec::new() };
    let mut found: Vec<String> = Vec::new();
    for block in &body.children {
        let urls = match block {
            Block::Link { url, .. } => vec![url.clone()],
            Block::Paragraph { text } => markdown::link_urls(text),
            _ => Vec::new(),
        };
        for url in urls {
            let Ok(parsed) = Url::parse(&url) else { continue };
            if matches!(parsed.scheme(), "http" | "https") && !found.contains(&url) {
                found.push(url);
            }
        }
    }
    found
}

/// What sending a webmention came to.
enum Sent {
    /// Told, or the target names no endpoint: nothing more to do.
    Done,
    /// Not now (network, 5xx, timeout): again later.
    Later(String),
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

    /// Sends the webmentions due: for each, the target page's endpoint, then the webmention.
    /// Only an approved blog's posts send; answers when the next is due.
    pub async fn send_due_webmentions(&self, fetcher: &Fetcher) -> Result<Option<OffsetDateTime>> {
        let due = self.db.write(|conn| webmentions::claim_outgoing(conn, AT_ONCE, LEASE_SECS)).await?;
        let urls = self.urls.clone();
        let asked = due.clone();
        let sources = self.db.read(move |conn| sources_of(conn, &urls, &asked)).await?;
        let sends = due.iter().zip(&sources).map(|(outgoing, source)| send(fetcher, outgoing, source.as_deref()));
        let outcomes = futures_util::future::join_all(sends).await;
        for (outgoing, outcome) in due.into_iter().zip(outcomes) {
            self.db
                .write(move |conn| match (outcome, webmentions::backoff(outgoing.attempts, MAX_ATTEMPTS)) {
                    (Sent::Later(error), Some(wait)) => {
                        tracing::info!(target = %outgoing.target, %error, "a webmention could not be sent; trying again later");
                        webmentions::outgoing_retry(conn, outgoing.id, wait)
                    }
                    _ => webmentions::outgoing_done(conn, outgoing.id),
                })
                .await?;
        }
        let next = self.db.read(webmentions::next_outgoing).await?;
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
                Read::Later(error) if let Some(wait) = webmentions::backoff(incoming.attempts, MAX_ATTEMPTS) => {
                    tracing::info!(source = %incoming.source, %error, "a webmention's source could not be read; trying again later");
                    webmentions::retry(&tx, incoming.id, wait)?;
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

/// The address each of `due` is sent from: its post's while the post is public, or the address
/// a deleted post had; `None` for a blog that is not approved (it sends nothing) or a post that
/// is not public.
fn sources_of(
    conn: &rusqlite::Connection,
    urls: &crate::config::Config,
    due: &[Outgoing],
) -> Result<Vec<Option<String>>> {
    let mut sources = Vec::with_capacity(due.len());
    for outgoing in due {
        let blog = crate::db::blogs::by_id(conn, outgoing.blog_id)?.filter(|blog| blog.state == TrustState::Approved);
        let source = match (blog, outgoing.post_id) {
            (Some(blog), Some(post_id)) => crate::db::posts::by_ids(conn, blog.id, &[post_id])?
                .pop()
                .filter(|post| post.federates())
                .map(|post| format!("{}{}", urls.blog_origin(&blog.address()), post.path())),
            (Some(_), None) => Some(outgoing.source.clone()).filter(|source| !source.is_empty()),
            (None, _) => None,
        };
        sources.push(source);
    }
    Ok(sources)
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
            // Parsing a page of up to 1 MiB is CPU work: off the async runtime.
            let parsed = tokio::task::spawn_blocking(move || {
                let html = String::from_utf8_lossy(&page.body);
                let mention = webmention::read_source(&html, &base, &target);
                (mention, base)
            })
            .await;
            let Ok((mention, base)) = parsed else { return Read::Refused("the page could not be parsed".to_owned()) };
            match mention {
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

/// Tells `outgoing`'s target that `source` (the post's address; None when the post no longer
/// sends) mentions it, through the guarded fetcher: its endpoint first, then the POST.
async fn send(fetcher: &Fetcher, outgoing: &Outgoing, source: Option<&str>) -> Sent {
    let Some(source) = source else { return Sent::Done };
    let later = |err: FetchError| match err {
        FetchError::Status(429 | 500..) | FetchError::TimedOut(_) | FetchError::Connect(_) | FetchError::Failed(_) => {
            Sent::Later(err.to_string())
        }
        _ => Sent::Done,
    };
    let page = match fetcher.request(Request::get(&outgoing.target).max_bytes(MAX_SOURCE_BYTES)).await {
        Ok(page) => page,
        Err(err) => return later(err),
    };
    let Ok(base) = Url::parse(&page.url) else { return Sent::Done };
    // Discovery parses a page of up to 1 MiB: off the async runtime.
    let discovered = tokio::task::spawn_blocking(move || {
        let links: Vec<&str> =
            page.headers.get_all(http::header::LINK).iter().filter_map(|value| value.to_str().ok()).collect();
        let html = match page.content_type.as_deref() {
            Some("text/html" | "application/xhtml+xml") => String::from_utf8_lossy(&page.body).into_owned(),
            _ => String::new(),
        };
        webmention::endpoint(&base, &links, &html)
    })
    .await;
    let Ok(Some(endpoint)) = discovered else { return Sent::Done };
    let form =
        serde_urlencoded::to_string([("source", source), ("target", outgoing.target.as_str())]).unwrap_or_default();
    let post = Request::post(endpoint.as_str(), form)
        .header(http::header::CONTENT_TYPE, http::HeaderValue::from_static("application/x-www-form-urlencoded"));
    match fetcher.request(post).await {
        Ok(_) => Sent::Done,
        Err(err) => later(err),
    }
}

/// The server's webmention worker: reads the due sources of webmentions received and sends the
/// due ones of posts' links, sleeps until the next is due (at most a minute) or one comes; a
/// failed look is logged and tried again.
pub async fn run(blogs: Arc<Blogs>, fetcher: Fetcher) {
    loop {
        let received = blogs.verify_due_webmentions(&fetcher).await;
        let sent = blogs.send_due_webmentions(&fetcher).await;
        let next = match (received, sent) {
            (Ok(a), Ok(b)) => Ok(a.into_iter().chain(b).min()),
            (Err(err), _) | (_, Err(err)) => Err(err),
        };
        let sleep = match next {
            Ok(Some(next)) => Duration::try_from(next - OffsetDateTime::now_utc())
                .unwrap_or(Duration::ZERO)
                .max(Duration::from_millis(100))
                .min(MAX_SLEEP),
            Ok(None) => MAX_SLEEP,
            Err(err) => {
                tracing::warn!(error = %err, "receiving or sending webmentions failed; trying again in a minute");
                MAX_SLEEP
            }
        };
        tokio::select! {
            _ = tokio::time::sleep(sleep) => {}
            _ = blogs.webmentions_changed.notified() => {}
        }
    }
}
