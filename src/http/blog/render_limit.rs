//! The per-client limit on public pages rendered because they were not in the page cache: one
//! scraper walking every old post of every blog cannot take the machine from every other reader.
//! Checked after the cache, so cached pages are never limited (`routes.rs`). A client is an
//! IPv4 address or an IPv6 /64 (`auth::rate_limit::client_key`); past its burst it gets a 429
//! saying when to come back (`Retry-After`).

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use poem::Response;
use poem::http::{StatusCode, header};

use crate::auth::rate_limit::client_key;

/// Clients remembered before those with a full allowance again are dropped.
const MAX_TRACKED: usize = 50_000;

/// The limiter of uncached renders.
pub struct RenderLimiter {
    inner: DefaultKeyedRateLimiter<IpAddr>,
}

impl RenderLimiter {
    /// `per_minute` renders per client, `burst` at once (both at least 1).
    pub fn new(per_minute: u32, burst: u32) -> RenderLimiter {
        let quota = Quota::per_minute(NonZeroU32::new(per_minute.max(1)).expect("at least 1"))
            .allow_burst(NonZeroU32::new(burst.max(1)).expect("at least 1"));
        RenderLimiter { inner: RateLimiter::keyed(quota) }
    }

    /// Counts one render for `client` (unknown: not counted); the 429 to answer once it is over
    /// its allowance, None while it is within.
    pub fn refusal(&self, client: Option<IpAddr>) -> Option<Response> {
        if self.inner.len() > MAX_TRACKED {
            self.inner.retain_recent();
        }
        let not_until = self.inner.check_key(&client_key(client?)).err()?;
        Some(too_many(not_until.wait_time_from(DefaultClock::default().now())))
    }
}

/// The 429: plain text, never stored, with the seconds to wait.
fn too_many(wait: Duration) -> Response {
    let seconds = wait.as_secs_f64().ceil().max(1.0) as u64;
    Response::builder()
        .status(StatusCode::TOO_MANY_REQUESTS)
        .header(header::RETRY_AFTER, seconds.to_string())
        .header(header::CACHE_CONTROL, "no-store")
        .content_type("text/plain; charset=utf-8")
        .body(format!("Too many pages asked for from your address in a short time. Try again in {seconds} seconds.\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> Option<IpAddr> {
        Some(text.parse().unwrap())
    }

    #[test]
    fn past_its_burst_a_client_gets_a_429_with_retry_after_and_others_do_not() {
        let limiter = RenderLimiter::new(60, 5);
        for i in 0..5 {
            assert!(limiter.refusal(ip("203.0.113.5")).is_none(), "render {i}");
        }
        let refused = limiter.refusal(ip("203.0.113.5")).unwrap();
        assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
        let retry: u64 = refused.headers()[header::RETRY_AFTER].to_str().unwrap().parse().unwrap();
        assert!((1..=2).contains(&retry), "one render a second comes back: {retry}");
        assert!(limiter.refusal(ip("203.0.113.6")).is_none(), "another client");
        assert!(limiter.refusal(None).is_none(), "an unknown client is not counted");
    }
}
