//! Sign-in nonces waiting for their popup's token, kept in memory.
//!
//! A nonce only has to outlive one sign-in popup (ten minutes), so pending nonces live here
//! rather than in SQLite, where each sign-in cost two fsynced writes (remember, then use up)
//! that anyone could trigger. The set is bounded: past `MAX_PENDING` the oldest is forgotten,
//! so a flood of sign-in starts can only make an old popup's sign-in fail ("sign in again"),
//! never let a nonce be used twice. (Self-verifying HMAC-signed nonces would need no pending
//! set, but still a memory of used ones to refuse replays, and when that memory fills up the
//! choice is between refusing every sign-in and forgetting a used nonce; this set fails safe.)
//! A restart forgets pending nonces: a popup open across it asks its user to sign in again.

use std::collections::{HashSet, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

/// How long a nonce stays usable.
pub const LIFETIME: Duration = Duration::from_secs(600);
/// Nonces kept at most (about 100 bytes each).
pub const MAX_PENDING: usize = 50_000;

/// The pending nonces.
pub struct Nonces {
    pending: Mutex<Pending>,
    max: usize,
}

/// Nonces by the SHA-256 of their text (a fixed size whatever a cookie holds), and every
/// remembered one in the order it was handed out, with its expiry; entries used up early stay
/// in `order` until they expire or are pushed out, so the two together never exceed `max`.
#[derive(Default)]
struct Pending {
    live: HashSet<[u8; 32]>,
    order: VecDeque<(Instant, [u8; 32])>,
}

impl Nonces {
    /// An empty set holding at most `MAX_PENDING` nonces.
    pub fn new() -> Nonces {
        Nonces::with_max(MAX_PENDING)
    }

    fn with_max(max: usize) -> Nonces {
        Nonces { pending: Mutex::new(Pending::default()), max }
    }

    /// Remembers a nonce just handed to a browser, for `LIFETIME`.
    pub fn remember(&self, nonce: &str) {
        self.remember_at(nonce, Instant::now());
    }

    /// Uses up a nonce; false when it is unknown, expired or already used.
    pub fn consume(&self, nonce: &str) -> bool {
        self.consume_at(nonce, Instant::now())
    }

    fn remember_at(&self, nonce: &str, now: Instant) {
        let mut pending = self.lock();
        pending.forget_expired(now);
        while pending.order.len() >= self.max {
            pending.forget_oldest();
        }
        let hash = hash(nonce);
        pending.order.push_back((now + LIFETIME, hash));
        pending.live.insert(hash);
    }

    fn consume_at(&self, nonce: &str, now: Instant) -> bool {
        let mut pending = self.lock();
        pending.forget_expired(now);
        pending.live.remove(&hash(nonce))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Pending> {
        // Every change leaves the set consistent, so a panic elsewhere cannot leave it torn.
        self.pending.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Default for Nonces {
    fn default() -> Self {
        Nonces::new()
    }
}

impl Pending {
    fn forget_expired(&mut self, now: Instant) {
        while self.order.front().is_some_and(|(expires, _)| *expires <= now) {
            self.forget_oldest();
        }
    }

    fn forget_oldest(&mut self) {
        if let Some((_, hash)) = self.order.pop_front() {
            self.live.remove(&hash);
        }
    }
}

fn hash(nonce: &str) -> [u8; 32] {
    Sha256::digest(nonce.as_bytes()).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nonce_is_used_once_and_an_unknown_one_never() {
        let nonces = Nonces::new();
        nonces.remember("a");
        assert!(!nonces.consume("b"));
        assert!(nonces.consume("a"));
        assert!(!nonces.consume("a"), "used up");
    }

    #[test]
    fn a_nonce_expires_after_its_lifetime() {
        let nonces = Nonces::new();
        let start = Instant::now();
        nonces.remember_at("old", start);
        nonces.remember_at("young", start + Duration::from_secs(60));
        assert!(!nonces.consume_at("old", start + LIFETIME), "expired");
        assert!(nonces.consume_at("young", start + LIFETIME));
        assert_eq!(nonces.lock().order.len(), 1, "a used nonce waits in line until it would expire");
        nonces.consume_at("other", start + Duration::from_secs(60) + LIFETIME);
        assert_eq!(nonces.lock().order.len(), 0, "expired entries are dropped");
    }

    #[test]
    fn past_the_bound_the_oldest_nonce_is_forgotten() {
        let nonces = Nonces::with_max(3);
        let now = Instant::now();
        for nonce in ["1", "2", "3"] {
            nonces.remember_at(nonce, now);
        }
        assert!(nonces.consume_at("2", now));
        nonces.remember_at("4", now);
        assert!(!nonces.consume_at("1", now), "pushed out");
        assert!(nonces.consume_at("3", now) && nonces.consume_at("4", now));
        let pending = nonces.lock();
        assert!(pending.order.len() <= 3 && pending.live.is_empty());
    }
}
