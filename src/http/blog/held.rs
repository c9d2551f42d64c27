//! What the owner app's live previews hold in memory (issue 32's custom CSS, issue 33's post
//! preview): one value per blog under a fresh random token, for ten minutes, a newer one
//! replacing the older; at most so many blogs' values and so many bytes in all, the oldest going
//! first. A token of another blog, an expired one or a guess finds nothing. Nothing is stored: a
//! restart forgets every preview.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a held value stays previewable.
pub const HOLD_FOR: Duration = Duration::from_secs(10 * 60);

/// One blog's held value.
struct Entry<T> {
    token: String,
    value: T,
    bytes: usize,
    at: Instant,
}

/// Values held by blog subdomain, bounded in number and bytes.
pub struct Held<T> {
    entries: Mutex<HashMap<String, Entry<T>>>,
    max_entries: usize,
    max_bytes: usize,
}

impl<T: Clone> Held<T> {
    /// Holds at most `max_entries` blogs' values of `max_bytes` in all.
    pub fn new(max_entries: usize, max_bytes: usize) -> Held<T> {
        Held { entries: Mutex::new(HashMap::new()), max_entries, max_bytes }
    }

    /// Holds `value` (`bytes` long) as `subdomain`'s, replacing its older one; the new token.
    pub fn hold(&self, subdomain: &str, value: T, bytes: usize) -> String {
        self.hold_at(subdomain, value, bytes, Instant::now())
    }

    /// [`Held::hold`] at `now`.
    pub fn hold_at(&self, subdomain: &str, value: T, bytes: usize, now: Instant) -> String {
        let token = hex::encode(rand::random::<[u8; 16]>());
        let mut held = self.entries.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        held.retain(|_, entry| now.saturating_duration_since(entry.at) < HOLD_FOR);
        held.remove(subdomain);
        while held.len() >= self.max_entries || held.values().map(|e| e.bytes).sum::<usize>() + bytes > self.max_bytes {
            let Some(oldest) = held.iter().min_by_key(|(_, e)| e.at).map(|(name, _)| name.clone()) else { break };
            held.remove(&oldest);
        }
        held.insert(subdomain.to_owned(), Entry { token: token.clone(), value, bytes, at: now });
        token
    }

    /// The value `subdomain` holds under `token`, if it has not expired.
    pub fn get(&self, subdomain: &str, token: &str) -> Option<T> {
        self.get_at(subdomain, token, Instant::now())
    }

    /// [`Held::get`] at `now`.
    pub fn get_at(&self, subdomain: &str, token: &str, now: Instant) -> Option<T> {
        let held = self.entries.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let entry = held.get(subdomain)?;
        let fresh = now.saturating_duration_since(entry.at) < HOLD_FOR;
        (fresh && !token.is_empty() && entry.token == token).then(|| entry.value.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_answers_its_own_token_on_its_own_blog_until_it_expires() {
        let held = Held::new(8, 1024);
        let start = Instant::now();
        let token = held.hold_at("alice", "body{color:red}", 15, start);
        assert_eq!(token.len(), 32);
        assert_eq!(held.get_at("alice", &token, start), Some("body{color:red}"));
        assert_eq!(held.get_at("bob", &token, start), None, "another blog's host");
        assert_eq!(held.get_at("alice", "0123", start), None, "a guess");
        assert_eq!(held.get_at("alice", "", start), None, "no token");
        assert_eq!(held.get_at("alice", &token, start + HOLD_FOR), None, "expired");
        let newer = held.hold_at("alice", "body{color:blue}", 16, start);
        assert_ne!(newer, token);
        assert_eq!(held.get_at("alice", &token, start), None, "a newer value replaces it");
    }

    #[test]
    fn the_values_held_are_bounded_in_number_and_bytes() {
        let (max_entries, max_bytes) = (16, 1000);
        let held = Held::new(max_entries, max_bytes);
        let start = Instant::now();
        for n in 0..max_entries + 10 {
            held.hold_at(&format!("blog{n}"), (), 3, start + Duration::from_millis(n as u64));
        }
        let names = |held: &Held<()>| held.entries.lock().unwrap().keys().cloned().collect::<Vec<_>>();
        assert_eq!(names(&held).len(), max_entries);
        assert!(names(&held).contains(&format!("blog{}", max_entries + 9)), "the newest stays");
        assert!(!names(&held).contains(&"blog0".to_owned()), "the oldest went");
        held.hold_at("x", (), max_bytes / 2 + 1, start + Duration::from_secs(1));
        held.hold_at("y", (), max_bytes / 2 + 1, start + Duration::from_secs(2));
        let entries = held.entries.lock().unwrap();
        assert!(entries.values().map(|e| e.bytes).sum::<usize>() <= max_bytes);
        assert!(entries.contains_key("y") && !entries.contains_key("x"));
    }
}
