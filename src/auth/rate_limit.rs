//! Per-address limits on sign-in attempts (governor's keyed GCRA limiter).

use std::net::IpAddr;
use std::num::NonZeroU32;

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use poem::Request;

use crate::error::{Error, Messages};

/// Sustained sign-in attempts per address and minute.
const PER_MINUTE: u32 = 10;
/// Attempts allowed in a burst.
const BURST: u32 = 20;
/// Addresses remembered before stale ones are dropped.
const MAX_TRACKED: usize = 10_000;

/// The sign-in limiter.
pub struct Limiter {
    inner: DefaultKeyedRateLimiter<IpAddr>,
}

impl Limiter {
    /// A limiter with Quire's quota.
    pub fn new() -> Limiter {
        let quota = Quota::per_minute(NonZeroU32::new(PER_MINUTE).expect("non-zero"))
            .allow_burst(NonZeroU32::new(BURST).expect("non-zero"));
        Limiter { inner: RateLimiter::keyed(quota) }
    }

    /// Counts one attempt from the request's client; a 429 once over the quota.
    pub fn check(&self, req: &Request) -> Result<(), Error> {
        if self.inner.len() > MAX_TRACKED {
            self.inner.retain_recent();
        }
        let Some(ip) = client_ip(req) else { return Ok(()) };
        self.inner.check_key(&ip).map_err(|_| {
            Error::RateLimited(Messages::one("signIn", "Too many sign-in attempts; wait a minute and try again"))
        })
    }
}

impl Default for Limiter {
    fn default() -> Self {
        Limiter::new()
    }
}

/// The client's address: the peer, or, when the peer is a proxy on this machine, the last
/// hop it added to `X-Forwarded-For` (a client cannot forge the proxy's own entry).
pub fn client_ip(req: &Request) -> Option<IpAddr> {
    let peer = req.remote_addr().as_socket_addr().map(|addr| addr.ip())?;
    if peer.is_loopback() {
        let forwarded = req
            .header("x-forwarded-for")
            .and_then(|value| value.rsplit(',').next())
            .and_then(|hop| hop.trim().parse::<IpAddr>().ok());
        if let Some(ip) = forwarded {
            return Some(ip);
        }
    }
    Some(peer)
}
