//! What other fediverse servers may make a blog store (issue 28, finding 1; docs/federation.md,
//! "Limits on remote servers"): caps per remote host and per blog on replies held for the
//! owner, followers (all, and those waiting for approval) and reactions, a bound on the remote actors cached per
//! host, and how long a held reply waits. `quire serve` sets each (`cli/federation_limits.rs`);
//! the inbox's write path (`blogs/federation/inbox.rs`) refuses what would pass a cap.

/// The caps, as `quire serve` was given them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RemoteLimits {
    /// Replies held for the owner's approval from one remote host, per blog.
    pub held_replies_per_host: u64,
    /// Replies held for the owner's approval, per blog, from every host together.
    pub held_replies_per_blog: u64,
    /// Followers waiting for the owner's approval from one remote host, per blog.
    pub pending_followers_per_host: u64,
    /// Followers waiting for the owner's approval, per blog.
    pub pending_followers_per_blog: u64,
    /// Followers from one remote host, accepted or waiting, per blog.
    pub followers_per_host: u64,
    /// Followers, accepted or waiting, per blog.
    pub followers_per_blog: u64,
    /// Likes and boosts from one remote host, per blog.
    pub reactions_per_host: u64,
    /// Likes and boosts, per blog.
    pub reactions_per_blog: u64,
    /// Remote actors cached per remote host (the oldest unreferenced go first).
    pub remote_actors_per_host: u64,
    /// Days a reply waits for the owner's approval before it is deleted (0: it waits for ever).
    pub held_reply_days: u32,
}

/// The defaults of `quire serve`'s flags.
pub const DEFAULTS: RemoteLimits = RemoteLimits {
    held_replies_per_host: 100,
    held_replies_per_blog: 1_000,
    pending_followers_per_host: 100,
    pending_followers_per_blog: 1_000,
    followers_per_host: 10_000,
    followers_per_blog: 100_000,
    reactions_per_host: 10_000,
    reactions_per_blog: 100_000,
    remote_actors_per_host: 10_000,
    held_reply_days: 30,
};

impl Default for RemoteLimits {
    fn default() -> RemoteLimits {
        DEFAULTS
    }
}

/// What a cap limits, as the refusal counters name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capped {
    /// A reply held for approval.
    Reply,
    /// A follower waiting for approval.
    PendingFollower,
    /// A follower, accepted or waiting.
    Follower,
    /// A like or boost.
    Reaction,
}

impl Capped {
    /// The stored and answered name.
    pub fn name(self) -> &'static str {
        match self {
            Capped::Reply => "reply",
            Capped::PendingFollower => "pending_follower",
            Capped::Follower => "follower",
            Capped::Reaction => "reaction",
        }
    }

    /// The kind with the stored name `name`.
    pub fn parse(name: &str) -> Option<Capped> {
        ALL.into_iter().find(|kind| kind.name() == name)
    }
}

/// Every kind of cap.
const ALL: [Capped; 4] = [Capped::Reply, Capped::PendingFollower, Capped::Follower, Capped::Reaction];

/// How many of a kind a blog holds: from the sending host, and from every host.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Held {
    /// From the host the new one comes from.
    pub from_host: u64,
    /// From every host.
    pub in_blog: u64,
}

impl RemoteLimits {
    /// The caps per host and per blog of `kind`.
    pub fn caps(&self, kind: Capped) -> (u64, u64) {
        match kind {
            Capped::Reply => (self.held_replies_per_host, self.held_replies_per_blog),
            Capped::PendingFollower => (self.pending_followers_per_host, self.pending_followers_per_blog),
            Capped::Follower => (self.followers_per_host, self.followers_per_blog),
            Capped::Reaction => (self.reactions_per_host, self.reactions_per_blog),
        }
    }

    /// Whether one more of `kind` fits beside those `held`: none past either cap.
    pub fn admits(&self, kind: Capped, held: Held) -> bool {
        let (per_host, per_blog) = self.caps(kind);
        held.from_host < per_host && held.in_blog < per_blog
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_more_fits_below_both_caps_only() {
        let limits = RemoteLimits { held_replies_per_host: 2, held_replies_per_blog: 3, ..RemoteLimits::default() };
        assert!(limits.admits(Capped::Reply, Held { from_host: 1, in_blog: 2 }));
        assert!(!limits.admits(Capped::Reply, Held { from_host: 2, in_blog: 2 }), "the host's cap");
        assert!(!limits.admits(Capped::Reply, Held { from_host: 0, in_blog: 3 }), "the blog's cap, many hosts");
        assert!(
            !RemoteLimits { reactions_per_host: 0, ..limits }
                .admits(Capped::Reaction, Held { from_host: 0, in_blog: 0 })
        );
        for kind in ALL {
            assert_eq!(Capped::parse(kind.name()), Some(kind));
        }
    }
}
