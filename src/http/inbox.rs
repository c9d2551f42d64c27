//! `POST /_quire/ap/inbox` (issue 16, docs/federation-inbox.md): the shared inbox on the app
//! host, and each blog's personal inbox on its subdomain (and its custom domain). Answered
//! before host dispatch's redirects, so a blog with a custom domain still receives on its
//! subdomain, where its actor id is.
//!
//! In this order, each step before any work of the next:
//! 1. the body is capped at [`BODY_LIMIT`] while it streams (413; `middleware::limit_body`);
//! 2. a client address whose unverified requests used up their allowance is refused (429 with
//!    `Retry-After`; `limits.rs`);
//! 3. a personal inbox's blog must exist (404);
//! 4. blocked domains: the keyId's host, for the instance and the addressed blog (202, dropped:
//!    a blocked server learns nothing and does not retry);
//! 5. `domain::ap_signature::check_request`: a draft-cavage signature (an RFC 9421 one alone is a
//!    401, so Fedify falls back), the signed headers, the date within an hour, the digest (401);
//! 6. the JSON (400), the activity (400 for a malformed one, 202 for a type Quire ignores), the
//!    actor's host blocked (202, dropped);
//! 7. the key, cached or fetched (`blogs::federation::remote_keys`), verifies the signature and is the
//!    actor's (401);
//! 8. the same signature seen in the last two hours is a replay (401);
//! 9. the verified activity counts against its key's registrable domain (429 with `Retry-After`);
//! 10. `Blogs::receive` (202; also for what is past the blog's caps on remote servers, dropped and
//!     counted there).
//!
//! A request that ends before step 9 counts against its client's address (step 2's allowance):
//! only a verified signature speaks for a remote server, so nobody can use up another's.

mod limits;

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Instant, SystemTime};

use poem::http::StatusCode;
use poem::{IntoResponse, Request, Response};
use sha2::{Digest, Sha256};

use crate::blogs::federation::{InboxKeys, Signer};
use crate::db::blocked_domains;
use crate::db::remote_actors::{self, InboxBlog};
use crate::domain::federation::activity;
use crate::domain::federation::ap_signature::{self, DATE_WINDOW, Refusal};
use crate::domain::federation::inbound::{self, Inbound};
use crate::domain::paths;
use crate::error::{Error, Messages};
use crate::http::client::client_ip;
use crate::http::hosts::Site;
use crate::http::middleware::REQUEST_ID;
use crate::http::state::AppState;

/// The largest activity accepted (Mastodon's own limit is 1 MB; a Note fits well within this).
pub const BODY_LIMIT: usize = 256 * 1024;
/// Signatures remembered for replays before old ones are dropped.
const MAX_SEEN: usize = 100_000;

/// The inbox's state: key fetches and caches, the rate limits, the signatures seen.
pub struct Inbox {
    state: AppState,
    keys: InboxKeys,
    limits: limits::Limits,
    seen: Mutex<HashMap<[u8; 32], Instant>>,
}

/// Whether `req` is for an inbox.
pub fn is_inbox(req: &Request) -> bool {
    req.method() == poem::http::Method::POST && req.uri().path() == paths::AP_INBOX
}

impl Inbox {
    /// The inbox of the server with `state`.
    pub fn new(state: AppState) -> Inbox {
        let keys = InboxKeys::new(
            state.db.clone(),
            state.fetcher.clone(),
            state.config.fetch_allow_loopback,
            state.config.remote_limits.remote_actors_per_host,
        );
        let limits = limits::Limits::new(state.config.inbox_rate);
        Inbox { state, keys, limits, seen: Mutex::new(HashMap::new()) }
    }

    /// Answers a POST to [`paths::AP_INBOX`] on `site` (the app: the shared inbox; a blog: its own).
    pub async fn answer(&self, req: Request, site: &Site) -> Response {
        let id = REQUEST_ID.try_with(|id| id.clone()).unwrap_or_default();
        let client = client_ip(&req, &self.state.config.trusted_proxies);
        let mut verified = false;
        let outcome = match self.limits.unverified_allowed(client) {
            Ok(()) => {
                let outcome = self.receive(req, site, &mut verified).await;
                if !verified {
                    self.limits.count_unverified(client);
                }
                outcome
            }
            Err(retry_after) => Err(limits::too_many(retry_after, "this address")),
        };
        match outcome {
            Ok(outcome) => {
                tracing::info!(outcome, "inbox");
                StatusCode::ACCEPTED.into_response()
            }
            Err(Refused { error, retry_after }) => {
                match (&error, error.messages()) {
                    (Error::Internal(cause), _) => tracing::error!(error = format!("{cause:#}"), "inbox failed"),
                    (_, Some(messages)) => {
                        tracing::info!(status = error.status().as_u16(), refused = %messages.to_json(), "inbox")
                    }
                    (_, None) => {}
                }
                let mut response = error.to_response(&id);
                if let Some(seconds) = retry_after {
                    response.headers_mut().insert("retry-after", poem::http::HeaderValue::from(seconds));
                }
                response
            }
        }
    }

    /// Steps 3 to 10; sets `verified` once the request's signature is verified and new.
    async fn receive(&self, mut req: Request, site: &Site, verified: &mut bool) -> Result<String, Refused> {
        let blog = match site {
            Site::App | Site::Unknown => None,
            Site::Blog(subdomain) | Site::CustomDomain(subdomain) => {
                let subdomain = subdomain.clone();
                let blog = self.state.db.read(move |conn| remote_actors::inbox_blog(conn, &subdomain)).await?;
                Some(blog.ok_or_else(|| Error::not_found("blog", "Blog not found"))?)
            }
        };
        let unread = |_| Error::bad_request("body", "The request body could not be read");
        let body = req.take_body().into_bytes().await.map_err(unread)?;
        let headers = req.headers().clone();
        let key_id = headers
            .get("signature")
            .and_then(|value| value.to_str().ok())
            .and_then(|value| ap_signature::parse_signature(value).ok())
            .map(|parsed| parsed.key_id);
        if let Some(host) = key_id.as_deref().and_then(inbound::host_of)
            && self.blocked(blog.as_ref(), host).await?
        {
            return Ok("dropped: the key's domain is blocked".to_owned());
        }
        let path = req.uri().path_and_query().map_or(paths::AP_INBOX, |p| p.as_str());
        let checked =
            ap_signature::check_request("POST", path, &headers, &body, SystemTime::now()).map_err(unauthorized)?;
        let json: serde_json::Value =
            serde_json::from_slice(&body).map_err(|_| Error::bad_request("body", "The request body is not JSON"))?;
        let activity = inbound::parse(&json).map_err(|e| Error::bad_request("activity", e.0))?;
        let Some(actor) = activity.actor().map(str::to_owned) else {
            return Ok("dropped: not an activity Quire acts on".to_owned());
        };
        if self.blocked(blog.as_ref(), inbound::host_of(&actor).unwrap_or_default()).await? {
            return Ok("dropped: the actor's domain is blocked".to_owned());
        }
        let deletes_itself = matches!(&activity, Inbound::Delete { object, .. } if *object == actor);
        if deletes_itself && self.keys.known(&actor).await.is_none() {
            // Servers announce a deleted account to every server they know; its key is gone
            // with it, and nothing of it is here.
            return Ok("dropped: the Delete of an actor never seen".to_owned());
        }
        // Key fetches are always signed: as the addressed blog, else as the instance actor.
        let signer = match &blog {
            Some(blog) => Signer {
                key: self.state.blogs.signing_key(blog.id).await?,
                key_id: activity::key_id(&self.state.config.actor_id(&blog.subdomain)),
            },
            None => Signer {
                key: self.state.blogs.instance_key().await?,
                key_id: activity::key_id(&self.state.config.instance_actor_id()),
            },
        };
        let remote = if deletes_itself {
            self.keys.verify_cached(&checked, &actor).await
        } else {
            self.keys.verify(&checked, &actor, &signer).await
        };
        let remote = remote.map_err(|e| unauthorized(e.to_string()))?;
        self.first_use(&checked.signature.signature)?;
        *verified = true;
        self.limits.count_verified(&remote.key_id).map_err(|wait| limits::too_many(wait, "this server"))?;
        let remote = match &activity {
            Inbound::UpdateActor { .. } => self.keys.refresh(&remote, &signer).await.unwrap_or(remote),
            _ if deletes_itself => {
                self.keys.forget(&remote.key_id);
                remote
            }
            _ => remote,
        };
        let received = self.state.blogs.receive(&self.state.config, activity, (*remote).clone()).await?;
        let queued = if received.queued_delivery() { " (a delivery queued)" } else { "" };
        Ok(format!("{received:?} from {}{queued}", remote.actor_id))
    }

    /// Whether `host` is blocked for the whole instance or for the addressed blog.
    async fn blocked(&self, blog: Option<&InboxBlog>, host: String) -> Result<bool, Error> {
        let blog_id = blog.map(|b| b.id);
        self.state.db.read(move |conn| blocked_domains::is_blocked(conn, blog_id, &host)).await
    }

    /// Records a verified signature; one seen within twice the date window is a replay.
    fn first_use(&self, signature: &[u8]) -> Result<(), Refused> {
        let digest: [u8; 32] = Sha256::digest(signature).into();
        let mut seen = self.seen.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if seen.len() > MAX_SEEN {
            seen.retain(|_, at| at.elapsed() < DATE_WINDOW * 2);
        }
        match seen.insert(digest, Instant::now()) {
            Some(at) if at.elapsed() < DATE_WINDOW * 2 => Err(unauthorized(Refusal::Replayed).into()),
            _ => Ok(()),
        }
    }
}

/// An inbox's refusal: the error, and for a 429 the seconds to wait.
struct Refused {
    error: Error,
    retry_after: Option<u64>,
}

impl From<Error> for Refused {
    fn from(error: Error) -> Refused {
        Refused { error, retry_after: None }
    }
}

fn unauthorized(why: impl ToString) -> Error {
    Error::Unauthorized(Messages::one("signature", why.to_string()))
}
