//! `GET /_quire/tls-ask?domain=NAME`, for a proxy that obtains certificates on demand (Caddy's
//! `on_demand_tls { ask ... }`): 200 `ok` when Quire serves the name (`ServedNames::allows`),
//! 404 when it does not, 400 when it is not a DNS name. Answered before host dispatch (Caddy
//! asks with `Host: 127.0.0.1:8080`), only to `--trusted-proxy` peers (anyone else gets a
//! 404), from memory with no SQL, and rate limited across all callers (429, which Caddy takes
//! as a no): it asks at every handshake for a name it has no certificate for.

use std::num::NonZeroU32;
use std::sync::Arc;

use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use poem::http::StatusCode;
use poem::{IntoResponse, Request, Response};

use crate::blogs::ServedNames;
use crate::domain::net::dns_name::dns_name;
use crate::domain::net::proxies::TrustedProxies;

/// Sustained asks per second, across all callers.
const PER_SECOND: u32 = 50;
/// Asks allowed in a burst.
const BURST: u32 = 100;

/// The endpoint's state.
pub struct TlsAsk {
    served: Arc<ServedNames>,
    trusted: TrustedProxies,
    limiter: DefaultDirectRateLimiter,
}

impl TlsAsk {
    /// Answers from `served`, to `trusted` peers only.
    pub fn new(served: Arc<ServedNames>, trusted: TrustedProxies) -> TlsAsk {
        let quota = Quota::per_second(NonZeroU32::new(PER_SECOND).expect("non-zero"))
            .allow_burst(NonZeroU32::new(BURST).expect("non-zero"));
        TlsAsk { served, trusted, limiter: RateLimiter::direct(quota) }
    }

    /// The answer to a request for [`crate::domain::paths::TLS_ASK`].
    pub fn answer(&self, req: &Request) -> Response {
        let trusted = req.remote_addr().as_socket_addr().is_some_and(|peer| self.trusted.contains(peer.ip()));
        if !trusted {
            return text(StatusCode::NOT_FOUND, "not found");
        }
        if self.limiter.check().is_err() {
            return text(StatusCode::TOO_MANY_REQUESTS, "too many requests");
        }
        let asked = req.uri().query().and_then(|query| {
            serde_urlencoded::from_str::<Vec<(String, String)>>(query)
                .ok()?
                .into_iter()
                .find_map(|(key, value)| (key == "domain").then_some(value))
        });
        match asked.as_deref().and_then(dns_name) {
            None => text(StatusCode::BAD_REQUEST, "domain must be a DNS name"),
            Some(name) if self.served.allows(&name) => text(StatusCode::OK, "ok"),
            Some(_) => text(StatusCode::NOT_FOUND, "not served here"),
        }
    }
}

fn text(status: StatusCode, body: &'static str) -> Response {
    body.with_status(status).with_content_type("text/plain; charset=utf-8").into_response()
}
