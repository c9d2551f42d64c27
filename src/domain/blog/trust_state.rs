//! A blog's standing on the instance (issue 29, docs/public-instance.md): `new` (waiting for an
//! admin's review), `approved`, `silenced` and `suspended`. What each allows is decided here, so
//! every surface asks the same question of the same value.

use std::fmt;

/// How far the instance trusts a blog.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TrustState {
    /// Waiting for review: served, but `noindex`, left out of lists, links `nofollow ugc`, its
    /// activities held until it is approved, no custom domain.
    New,
    /// Served and federated normally.
    Approved,
    /// As `New`, and what it would send to followers is dropped rather than held.
    Silenced,
    /// Every public surface answers 410; the owner may only export and delete.
    Suspended,
}

impl TrustState {
    /// Every state, in the order an admin reads them.
    pub const ALL: [TrustState; 4] =
        [TrustState::New, TrustState::Approved, TrustState::Silenced, TrustState::Suspended];

    /// The stored and shown name: `new`, `approved`, `silenced`, `suspended`.
    pub fn as_str(self) -> &'static str {
        match self {
            TrustState::New => "new",
            TrustState::Approved => "approved",
            TrustState::Silenced => "silenced",
            TrustState::Suspended => "suspended",
        }
    }

    /// The state named `raw` (as [`TrustState::as_str`] writes it), if any.
    pub fn parse(raw: &str) -> Option<TrustState> {
        TrustState::ALL.into_iter().find(|state| state.as_str() == raw)
    }

    /// A stored value; the schema's CHECK allows only the four names, so anything else is read
    /// as the strictest served state rather than failing the read.
    pub fn from_stored(raw: &str) -> TrustState {
        TrustState::parse(raw).unwrap_or(TrustState::Silenced)
    }

    /// Whether search engines are asked to index it and it may appear in instance-wide lists.
    pub fn is_listed(self) -> bool {
        self == TrustState::Approved
    }

    /// Whether its public pages, feeds, media and ActivityPub documents are served at all.
    pub fn is_served(self) -> bool {
        self != TrustState::Suspended
    }

    /// Whether it takes email subscribers and mails its posts, its owner's switch being
    /// `email_enabled` (a blog waiting for review, silenced or suspended mails nothing).
    pub fn sends_email(self, email_enabled: bool) -> bool {
        self == TrustState::Approved && email_enabled
    }

    /// Whether its owner may change anything (a suspended owner may only export and delete).
    pub fn may_write(self) -> bool {
        self != TrustState::Suspended
    }
}

impl fmt::Display for TrustState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What an admin does to a blog's state (the Admin screen's buttons, `quire blogs ...`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moderation {
    /// To `approved`: served, listed and federated normally.
    Approve,
    /// To `silenced`.
    Silence,
    /// To `suspended`; the state it had is restored by [`Moderation::Unsuspend`].
    Suspend,
    /// Back to the state it had before its suspension.
    Unsuspend,
}

impl Moderation {
    /// Every action.
    pub const ALL: [Moderation; 4] =
        [Moderation::Approve, Moderation::Silence, Moderation::Suspend, Moderation::Unsuspend];

    /// Its name in the record of admin actions, the API and the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Moderation::Approve => "approve",
            Moderation::Silence => "silence",
            Moderation::Suspend => "suspend",
            Moderation::Unsuspend => "unsuspend",
        }
    }

    /// The action named `raw`, if any.
    pub fn parse(raw: &str) -> Option<Moderation> {
        Moderation::ALL.into_iter().find(|action| action.as_str() == raw)
    }

    /// The state a blog in `current` moves to (`before_suspension`: the state it had when it
    /// was suspended), or why it cannot.
    pub fn target(
        self,
        current: TrustState,
        before_suspension: Option<TrustState>,
    ) -> Result<TrustState, &'static str> {
        match (self, current) {
            (Moderation::Unsuspend, TrustState::Suspended) => {
                Ok(before_suspension.filter(|state| *state != TrustState::Suspended).unwrap_or(TrustState::Approved))
            }
            (Moderation::Unsuspend, _) => Err("This blog is not suspended"),
            (_, TrustState::Suspended) => Err("This blog is suspended: unsuspend it first"),
            (Moderation::Approve, _) => Ok(TrustState::Approved),
            (Moderation::Silence, _) => Ok(TrustState::Silenced),
            (Moderation::Suspend, _) => Ok(TrustState::Suspended),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsuspending_restores_the_state_before_and_a_suspended_blog_takes_nothing_else() {
        use TrustState::*;
        assert_eq!(Moderation::Suspend.target(New, None), Ok(Suspended));
        assert_eq!(Moderation::Unsuspend.target(Suspended, Some(Silenced)), Ok(Silenced));
        assert_eq!(Moderation::Unsuspend.target(Suspended, None), Ok(Approved));
        assert!(Moderation::Unsuspend.target(Approved, None).is_err());
        assert!(Moderation::Approve.target(Suspended, Some(New)).is_err());
        assert_eq!(Moderation::Approve.target(New, None), Ok(Approved));
        assert_eq!(Moderation::Silence.target(Approved, None), Ok(Silenced));
        for action in Moderation::ALL {
            assert_eq!(Moderation::parse(action.as_str()), Some(action));
        }
    }

    #[test]
    fn each_state_reads_back_from_its_stored_name_and_nothing_else_is_a_state() {
        for state in TrustState::ALL {
            assert_eq!(TrustState::parse(state.as_str()), Some(state));
        }
        assert_eq!(TrustState::parse("Approved"), None);
        assert_eq!(TrustState::parse(""), None);
        assert_eq!(TrustState::from_stored("bogus"), TrustState::Silenced);
    }

    #[test]
    fn only_an_approved_blog_is_listed_and_only_a_suspended_one_is_not_served() {
        let listed: Vec<_> = TrustState::ALL.into_iter().filter(|s| s.is_listed()).collect();
        assert_eq!(listed, [TrustState::Approved]);
        let hidden: Vec<_> = TrustState::ALL.into_iter().filter(|s| !s.is_served()).collect();
        assert_eq!(hidden, [TrustState::Suspended]);
        assert!(!TrustState::Suspended.may_write() && TrustState::New.may_write());
    }
}
