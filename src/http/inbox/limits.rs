//! The inbox's rate limits (issue 28, findings 1 and 5; docs/federation-inbox.md step 3): a
//! verified activity counts against the registrable domain of its key's host (public suffix
//! list, `domain::federation::inbound::registrable_domain_of`), so `a1.evil.example` and
//! `a2.evil.example` share one allowance; every other request (unsigned, badly signed, refused
//! before verification, a replay, a type Quire ignores) counts against its client's address, so
//! garbage naming another server's key uses up only the sender's own allowance.
//!
//! The address's allowance is looked at before any work and counted after the request ended
//! unverified: a server's genuine activities never use up the address it shares with others
//! (hosting companies run many instances behind one address).

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use super::Refused;
use crate::config::InboxRate;
use crate::domain::federation::inbound;
use crate::error::{Error, Messages};

/// Domains or addresses remembered by a limiter before stale ones are dropped.
const MAX_TRACKED: usize = 10_000;

/// The two allowances, and the addresses refused until their allowance refills.
pub(super) struct Limits {
    verified: DefaultKeyedRateLimiter<String>,
    unverified: DefaultKeyedRateLimiter<IpAddr>,
    refused_until: Mutex<HashMap<IpAddr, Instant>>,
}

impl Limits {
    /// The limits for `rate`, applied to each domain and to each address alike.
    pub(super) fn new(rate: InboxRate) -> Limits {
        let quota = Quota::per_minute(rate.per_minute).allow_burst(rate.burst);
        Limits {
            verified: RateLimiter::keyed(quota),
            unverified: RateLimiter::keyed(quota),
            refused_until: Mutex::new(HashMap::new()),
        }
    }

    /// `Ok` unless `client`'s unverified requests used up its allowance; else the seconds to wait.
    pub(super) fn unverified_allowed(&self, client: Option<IpAddr>) -> Result<(), u64> {
        let client = address(client);
        let refused = self.refused_until.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        match refused.get(&client).map(|until| until.saturating_duration_since(Instant::now())) {
            Some(wait) if !wait.is_zero() => Err(seconds(wait)),
            _ => Ok(()),
        }
    }

    /// Counts a request that ended unverified against `client`'s allowance.
    pub(super) fn count_unverified(&self, client: Option<IpAddr>) {
        let client = address(client);
        if self.unverified.len() > MAX_TRACKED {
            self.unverified.retain_recent();
        }
        if let Err(not_until) = self.unverified.check_key(&client) {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            let mut refused = self.refused_until.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            if refused.len() > MAX_TRACKED {
                let now = Instant::now();
                refused.retain(|_, until| *until > now);
            }
            refused.insert(client, Instant::now() + wait);
        }
    }

    /// Counts a verified activity signed by `key_id` against its registrable domain; else the
    /// seconds to wait.
    pub(super) fn count_verified(&self, key_id: &str) -> Result<(), u64> {
        if self.verified.len() > MAX_TRACKED {
            self.verified.retain_recent();
        }
        let domain = inbound::registrable_domain_of(key_id).unwrap_or_default();
        self.verified
            .check_key(&domain)
            .map_err(|not_until| seconds(not_until.wait_time_from(DefaultClock::default().now())))
    }
}

/// The 429 of a used-up allowance (`whose`: "this server", "this address").
pub(super) fn too_many(retry_after: u64, whose: &str) -> Refused {
    Refused {
        error: Error::RateLimited(Messages::one("inbox", format!("Too many activities from {whose}; retry later"))),
        retry_after: Some(retry_after),
    }
}

/// A request without a known client (none over TCP) is counted as one unknown address.
fn address(client: Option<IpAddr>) -> IpAddr {
    client.map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |ip| ip.to_canonical())
}

/// Whole seconds to wait, rounded up, at least one.
fn seconds(wait: Duration) -> u64 {
    wait.as_secs() + 1
}

#[cfg(test)]
mod tests {
    use std::num::NonZeroU32;

    use super::*;

    fn limits(burst: u32) -> Limits {
        Limits::new(InboxRate { per_minute: NonZeroU32::new(1).unwrap(), burst: NonZeroU32::new(burst).unwrap() })
    }

    #[test]
    fn an_address_is_refused_only_after_its_own_unverified_requests_use_up_its_burst() {
        let limits = limits(3);
        let (mallory, bob) = (Some("203.0.113.9".parse().unwrap()), Some("198.51.100.7".parse().unwrap()));
        for _ in 0..3 {
            assert_eq!(limits.unverified_allowed(mallory), Ok(()));
            limits.count_unverified(mallory);
        }
        assert_eq!(limits.unverified_allowed(mallory), Ok(()), "the burst itself is allowed");
        limits.count_unverified(mallory);
        let wait = limits.unverified_allowed(mallory).unwrap_err();
        assert!((1..=61).contains(&wait), "{wait}");
        assert_eq!(limits.unverified_allowed(bob), Ok(()));
        assert_eq!(limits.count_verified("https://bob.example/users/bob#main-key"), Ok(()));
    }

    #[test]
    fn verified_activities_of_one_registrable_domain_share_its_burst() {
        let limits = limits(2);
        assert_eq!(limits.count_verified("https://a1.evil.example/u#k"), Ok(()));
        assert_eq!(limits.count_verified("https://a2.evil.example/u#k"), Ok(()));
        assert!(limits.count_verified("https://a3.evil.example/u#k").is_err());
        assert_eq!(limits.count_verified("https://good.example/u#k"), Ok(()));
    }
}
