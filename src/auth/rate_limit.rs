//! Per-client limits on sign-in attempts (governor's keyed GCRA limiter): an IPv4 address,
//! or an IPv6 /64.

use std::net::{IpAddr, Ipv6Addr};
use std::num::NonZeroU32;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::domain::public_instance::TokenLimits;
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
        self.inner.check_key(&client_key(ip)).map_err(|_| {
            Error::RateLimited(Messages::one("signIn", "Too many sign-in attempts; wait a minute and try again"))
        })
    }
}

/// Whose allowance an address spends: an IPv4 address its own (IPv4-mapped IPv6 too), an
/// IPv6 address its /64's, since one subscriber usually gets a whole /64 and could otherwise
/// take a fresh address for every attempt.
pub fn client_key(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => IpAddr::V6(Ipv6Addr::from_bits(v6.to_bits() & !(u128::MAX >> 64))),
    }
}

/// What an API token asks to do, counted apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenUse {
    /// A query.
    Read,
    /// A create, update, delete, undelete or upload.
    Write,
}

/// Per-token limits (`--max-token-writes-per-minute`, `--max-token-reads-per-minute`): each
/// token (by its row id) has its own allowance, refilled evenly over the minute, the whole
/// minute's worth usable at once.
pub struct TokenLimiter {
    reads: DefaultKeyedRateLimiter<i64>,
    writes: DefaultKeyedRateLimiter<i64>,
    limits: TokenLimits,
}

impl TokenLimiter {
    /// A limiter with these limits.
    pub fn new(limits: TokenLimits) -> TokenLimiter {
        let quota = |per_minute: u32| {
            let per_minute = NonZeroU32::new(per_minute.max(1)).expect("at least 1");
            Quota::per_minute(per_minute).allow_burst(per_minute)
        };
        TokenLimiter {
            reads: RateLimiter::keyed(quota(limits.reads_per_minute)),
            writes: RateLimiter::keyed(quota(limits.writes_per_minute)),
            limits,
        }
    }

    /// Counts one use of the token `token_id`; past its allowance, the seconds to wait.
    pub fn check(&self, token_id: i64, kind: TokenUse) -> Result<(), (u64, String)> {
        let (limiter, per_minute, what) = match kind {
            TokenUse::Read => (&self.reads, self.limits.reads_per_minute, "reads"),
            TokenUse::Write => (&self.writes, self.limits.writes_per_minute, "writes"),
        };
        if limiter.len() > MAX_TRACKED {
            limiter.retain_recent();
        }
        limiter.check_key(&token_id).map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now()).as_secs() + 1;
            (wait, format!("Too many {what} with this token: at most {per_minute} a minute. Try again in {wait} s"))
        })
    }
}

impl Default for Limiter {
    fn default() -> Self {
        Limiter::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn ipv6_addresses_are_keyed_on_their_64_and_ipv4_on_the_address() {
        assert_eq!(client_key(ip("2001:db8:1:2::1")), client_key(ip("2001:db8:1:2:ffff:ffff:ffff:ffff")));
        assert_eq!(client_key(ip("2001:db8:1:2:3:4:5:6")), ip("2001:db8:1:2::"));
        assert_ne!(client_key(ip("2001:db8:1:2::1")), client_key(ip("2001:db8:1:3::1")));
        assert_eq!(client_key(ip("203.0.113.5")), ip("203.0.113.5"));
        assert_ne!(client_key(ip("203.0.113.5")), client_key(ip("203.0.113.6")));
        assert_eq!(client_key(ip("::ffff:203.0.113.5")), ip("203.0.113.5"), "IPv4-mapped is IPv4");
    }

    #[test]
    fn addresses_of_one_64_share_one_allowance() {
        let limiter = Limiter::new();
        for i in 0..BURST {
            assert!(limiter.check(Some(ip(&format!("2001:db8::{:x}", i + 1)))).is_ok(), "attempt {i}");
        }
        assert!(limiter.check(Some(ip("2001:db8::ffff"))).is_err(), "a new address in the same /64");
        assert!(limiter.check(Some(ip("2001:db8:0:1::1"))).is_ok(), "the next /64");
        assert!(limiter.check(Some(ip("203.0.113.5"))).is_ok());
        assert!(limiter.check(None).is_ok(), "an unknown client is not counted");
    }
}
