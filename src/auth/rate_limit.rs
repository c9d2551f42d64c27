//! Per-address limits on sign-in attempts (governor's keyed GCRA limiter).

use std::net::IpAddr;
use std::num::NonZeroU32;

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

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

    /// Counts one attempt from `client` (unknown: not counted); a 429 once over the quota.
    pub fn check(&self, client: Option<IpAddr>) -> Result<(), Error> {
        if self.inner.len() > MAX_TRACKED {
            self.inner.retain_recent();
        }
        let Some(ip) = client else { return Ok(()) };
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
