//! The flags of `quire serve` that limit what other fediverse servers may make a blog store
//! (issue 28; docs/federation.md, "Limits on remote servers").

use clap::Args;

use crate::domain::federation::remote_limits::{DEFAULTS, RemoteLimits};

/// Limits on what remote servers may store, of `serve`.
#[derive(Debug, Clone, Args)]
pub struct FederationLimitsArgs {
    /// Replies from one remote host held for a blog owner's approval; past it, the host's
    /// further replies to that blog are dropped (answered 202) and counted.
    #[arg(long, env = "QUIRE_MAX_HELD_REPLIES_PER_HOST", default_value_t = DEFAULTS.held_replies_per_host, value_name = "N")]
    pub max_held_replies_per_host: u64,

    /// Replies held for a blog owner's approval, from every host together.
    #[arg(long, env = "QUIRE_MAX_HELD_REPLIES_PER_BLOG", default_value_t = DEFAULTS.held_replies_per_blog, value_name = "N")]
    pub max_held_replies_per_blog: u64,

    /// Followers from one remote host waiting for a blog owner's approval.
    #[arg(long, env = "QUIRE_MAX_PENDING_FOLLOWERS_PER_HOST", default_value_t = DEFAULTS.pending_followers_per_host, value_name = "N")]
    pub max_pending_followers_per_host: u64,

    /// Followers waiting for a blog owner's approval, from every host together.
    #[arg(long, env = "QUIRE_MAX_PENDING_FOLLOWERS_PER_BLOG", default_value_t = DEFAULTS.pending_followers_per_blog, value_name = "N")]
    pub max_pending_followers_per_blog: u64,

    /// Followers of a blog from one remote host, accepted or waiting for approval.
    #[arg(long, env = "QUIRE_MAX_FOLLOWERS_PER_HOST", default_value_t = DEFAULTS.followers_per_host, value_name = "N")]
    pub max_followers_per_host: u64,

    /// Followers of a blog, accepted or waiting, from every host together.
    #[arg(long, env = "QUIRE_MAX_FOLLOWERS_PER_BLOG", default_value_t = DEFAULTS.followers_per_blog, value_name = "N")]
    pub max_followers_per_blog: u64,

    /// Likes and boosts of a blog's posts from one remote host.
    #[arg(long, env = "QUIRE_MAX_REACTIONS_PER_HOST", default_value_t = DEFAULTS.reactions_per_host, value_name = "N")]
    pub max_reactions_per_host: u64,

    /// Likes and boosts of a blog's posts, from every host together.
    #[arg(long, env = "QUIRE_MAX_REACTIONS_PER_BLOG", default_value_t = DEFAULTS.reactions_per_blog, value_name = "N")]
    pub max_reactions_per_blog: u64,

    /// Remote actors (their keys and inboxes) cached per remote host; past it, the host's
    /// least recently fetched actor that nothing stored refers to is dropped for the new one.
    #[arg(long, env = "QUIRE_MAX_REMOTE_ACTORS_PER_HOST", default_value_t = DEFAULTS.remote_actors_per_host, value_name = "N")]
    pub max_remote_actors_per_host: u64,

    /// Days a reply waits for the owner's approval before it is deleted (0: it waits for ever).
    #[arg(long, env = "QUIRE_HELD_REPLY_DAYS", default_value_t = DEFAULTS.held_reply_days, value_name = "DAYS")]
    pub held_reply_days: u32,
}

impl FederationLimitsArgs {
    /// The limits the flags give.
    pub fn limits(&self) -> RemoteLimits {
        RemoteLimits {
            held_replies_per_host: self.max_held_replies_per_host,
            held_replies_per_blog: self.max_held_replies_per_blog,
            pending_followers_per_host: self.max_pending_followers_per_host,
            pending_followers_per_blog: self.max_pending_followers_per_blog,
            followers_per_host: self.max_followers_per_host,
            followers_per_blog: self.max_followers_per_blog,
            reactions_per_host: self.max_reactions_per_host,
            reactions_per_blog: self.max_reactions_per_blog,
            remote_actors_per_host: self.max_remote_actors_per_host,
            held_reply_days: self.held_reply_days,
        }
    }
}
