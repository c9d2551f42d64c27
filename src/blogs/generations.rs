//! What the public page cache needs from the write path: each blog's generation, a number
//! that changes with every write that changes what the blog shows. A cached page remembers
//! the generation it was rendered for and is served only while that is still current.

use std::collections::HashMap;
use std::sync::RwLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// Every blog's current generation, by subdomain.
pub struct PageGenerations {
    current: RwLock<HashMap<String, u64>>,
    counter: AtomicU64,
}

impl Default for PageGenerations {
    fn default() -> Self {
        PageGenerations { current: RwLock::new(HashMap::new()), counter: AtomicU64::new(1) }
    }
}

impl PageGenerations {
    /// The blog's current generation (0 until its first change since start).
    pub fn current(&self, subdomain: &str) -> u64 {
        self.current.read().expect("generations lock").get(subdomain).copied().unwrap_or(0)
    }

    /// Moves the blog to a new generation, so none of its cached pages is served again.
    /// Called by the write path after a committed change, and by nothing else.
    pub fn invalidate(&self, subdomain: &str) {
        let next = self.counter.fetch_add(1, Ordering::SeqCst);
        self.current.write().expect("generations lock").insert(subdomain.to_owned(), next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_invalidation_moves_only_its_blog_to_a_new_generation() {
        let generations = PageGenerations::default();
        let (alice, bob) = (generations.current("alice"), generations.current("bob"));
        generations.invalidate("alice");
        assert_ne!(generations.current("alice"), alice);
        assert_eq!(generations.current("bob"), bob);
        let after_first = generations.current("alice");
        generations.invalidate("alice");
        assert_ne!(generations.current("alice"), after_first);
    }
}
