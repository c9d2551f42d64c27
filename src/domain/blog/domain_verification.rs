//! How a custom domain's verification goes: its states, the TXT record that proves control, and
//! the schedule of checks (often at first, then less, given up after 7 days; a verified name is
//! rechecked daily and unverified after 7 days without its record).

use time::{Duration, OffsetDateTime};

use crate::domain::blog::custom_domain::{CustomDomain, TXT_PREFIX};

/// Where a custom domain's verification stands (stored in `custom_domains.state`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DomainState {
    /// No matching TXT record found yet.
    WaitingForDns,
    /// The TXT record was found: the blog answers on the name.
    Verified,
    /// The checks gave up (7 days without the record), or the record went missing.
    Error,
}

impl DomainState {
    /// The stored and API form.
    pub fn as_str(self) -> &'static str {
        match self {
            DomainState::WaitingForDns => "waiting_for_dns",
            DomainState::Verified => "verified",
            DomainState::Error => "error",
        }
    }

    /// Reads the stored form (anything unknown is an error state).
    pub fn from_stored(value: &str) -> DomainState {
        match value {
            "waiting_for_dns" => DomainState::WaitingForDns,
            "verified" => DomainState::Verified,
            _ => DomainState::Error,
        }
    }
}

/// Whether the TXT strings of `_quire.{name}` prove control with `token`.
pub fn txt_proves(strings: &[String], token: &str) -> bool {
    strings.iter().any(|s| s.trim().strip_prefix(TXT_PREFIX) == Some(token))
}

/// A new random token: 128 bits as 32 hex digits.
pub fn new_token() -> String {
    hex::encode(rand::random::<[u8; 16]>())
}

/// How long a waiting name is checked before the checks give up.
pub const GIVE_UP_AFTER: Duration = Duration::days(7);
/// How long a verified name's record may be missing before the name is unverified.
pub const UNVERIFY_AFTER: Duration = Duration::days(7);
/// How often a verified name is checked.
pub const VERIFIED_EVERY: Duration = Duration::days(1);

/// When a waiting name is checked next, `waited` after the owner set it (or asked again):
/// every minute for the first hour, every 10 minutes for the rest of the first day, then hourly.
pub fn recheck_interval(waited: Duration) -> Duration {
    if waited < Duration::hours(1) {
        Duration::minutes(1)
    } else if waited < Duration::days(1) {
        Duration::minutes(10)
    } else {
        Duration::hours(1)
    }
}

/// What a domain's row holds before a check.
#[derive(Debug, Clone)]
pub struct Before {
    /// Its state.
    pub state: DomainState,
    /// When the current wait began.
    pub waiting_since: OffsetDateTime,
    /// When a verified name's record was first found missing.
    pub missing_since: Option<OffsetDateTime>,
    /// When it was verified.
    pub verified_at: Option<OffsetDateTime>,
}

/// What a TXT lookup found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lookup {
    /// A record carried the token.
    Found,
    /// No record (or none with the token).
    Missing,
    /// The lookup itself failed (no answer, a server failure): says nothing about the record.
    Failed(String),
}

/// What a domain's row holds after a check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct After {
    /// Its new state.
    pub state: DomainState,
    /// Why the check failed, or a hint while waiting; `None` when all is well.
    pub error: Option<String>,
    /// The next automatic check, `None` when there is none.
    pub next_check_at: Option<OffsetDateTime>,
    /// When it was verified (kept while it stays verified).
    pub verified_at: Option<OffsetDateTime>,
    /// When the current wait began (restarted by the owner's check of a name in error).
    pub waiting_since: OffsetDateTime,
    /// When a verified name's record was first found missing.
    pub missing_since: Option<OffsetDateTime>,
}

impl After {
    /// Whether the check changes which names the blog answers on.
    pub fn changes_serving(&self, before: &Before) -> bool {
        (self.state == DomainState::Verified) != (before.state == DomainState::Verified)
    }
}

/// The outcome of a check of `name` at `now`; `by_owner` when the owner asked ("Check now"),
/// which restarts the wait of a name whose checks gave up.
pub fn after_check(
    name: &CustomDomain,
    before: &Before,
    lookup: &Lookup,
    now: OffsetDateTime,
    by_owner: bool,
) -> After {
    let txt = name.txt_name();
    let waiting_since = match before.state {
        DomainState::Error if by_owner => now,
        _ => before.waiting_since,
    };
    let mut after = After {
        state: before.state,
        error: None,
        next_check_at: None,
        verified_at: before.verified_at,
        waiting_since,
        missing_since: None,
    };
    match (before.state, lookup) {
        (_, Lookup::Found) => {
            after.state = DomainState::Verified;
            after.verified_at = match before.state {
                DomainState::Verified => before.verified_at.or(Some(now)),
                _ => Some(now),
            };
            after.next_check_at = Some(now + VERIFIED_EVERY);
        }
        (DomainState::Verified, Lookup::Failed(reason)) => {
            after.missing_since = before.missing_since;
            after.error = Some(format!("The last check of {txt} failed: {reason}"));
            after.next_check_at = Some(now + Duration::hours(1));
        }
        (DomainState::Verified, Lookup::Missing) => {
            let since = before.missing_since.unwrap_or(now);
            if now - since >= UNVERIFY_AFTER {
                after.state = DomainState::Error;
                after.verified_at = None;
                // An unverified claim expires counted from here (`--custom-domain-claim-days`).
                after.waiting_since = now;
                after.error = Some(format!(
                    "The TXT record {txt} has been missing for 7 days, so the blog no longer answers on {}: \
                     add the record again, then check again",
                    name.display_name()
                ));
            } else {
                after.missing_since = Some(since);
                after.error = Some(format!(
                    "The TXT record {txt} was not found: put it back within 7 days or the blog stops answering on {}",
                    name.display_name()
                ));
                after.next_check_at = Some(now + Duration::hours(1));
            }
        }
        (_, missing_or_failed) => {
            let reason = match missing_or_failed {
                Lookup::Failed(reason) => format!("The DNS lookup of {txt} failed: {reason}"),
                _ => format!("No TXT record {txt} with the verification value was found yet"),
            };
            if now - waiting_since >= GIVE_UP_AFTER {
                after.state = DomainState::Error;
                after.error = Some(format!("{reason} after 7 days of checks: add the record, then check again"));
            } else {
                after.state = DomainState::WaitingForDns;
                after.error = Some(reason);
                after.next_check_at = Some(now + recheck_interval(now - waiting_since));
            }
        }
    }
    after
}

/// What a check that found the record becomes when another blog has the name verified: the
/// name is not taken from a blog that proved it; the claim keeps waiting (until that blog lets
/// the name go, or the claim expires).
pub fn held_by_another(name: &CustomDomain, found: After, now: OffsetDateTime) -> After {
    let waited = now - found.waiting_since;
    After {
        state: DomainState::WaitingForDns,
        error: Some(format!(
            "{} is verified by another blog: it must remove the domain before this blog can have it",
            name.display_name()
        )),
        next_check_at: Some(now + recheck_interval(waited).max(Duration::hours(1))),
        verified_at: None,
        missing_since: None,
        ..found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOST: &str = "example.com:8080";

    #[test]
    fn the_txt_record_must_carry_the_exact_token() {
        let token = "0123456789abcdef0123456789abcdef";
        assert!(txt_proves(&["v=spf1".into(), format!("quire-verify={token}")], token));
        assert!(!txt_proves(&[format!("quire-verify={token}x")], token));
        assert!(!txt_proves(&[], token));
        assert_eq!(new_token().len(), 32);
        assert_ne!(new_token(), new_token());
    }

    fn waiting(since: OffsetDateTime) -> Before {
        Before { state: DomainState::WaitingForDns, waiting_since: since, missing_since: None, verified_at: None }
    }

    #[test]
    fn waiting_names_are_checked_often_then_less_then_given_up() {
        let name = CustomDomain::parse("blog.example.org", HOST).unwrap();
        let start = time::macros::datetime!(2026-11-24 08:00 UTC);
        let at = |later: Duration| after_check(&name, &waiting(start), &Lookup::Missing, start + later, false);
        assert_eq!(at(Duration::minutes(5)).next_check_at, Some(start + Duration::minutes(6)));
        assert_eq!(at(Duration::hours(2)).next_check_at, Some(start + Duration::minutes(130)));
        assert_eq!(at(Duration::days(2)).next_check_at, Some(start + Duration::days(2) + Duration::hours(1)));
        let still_waiting = at(Duration::days(2));
        assert_eq!(still_waiting.state, DomainState::WaitingForDns);
        assert!(still_waiting.error.unwrap().contains("_quire.blog.example.org"));
        let given_up = at(Duration::days(7));
        assert_eq!((given_up.state, given_up.next_check_at), (DomainState::Error, None));
        assert!(given_up.error.unwrap().contains("after 7 days"));
        let found = after_check(&name, &waiting(start), &Lookup::Found, start + Duration::minutes(3), false);
        assert_eq!((found.state, found.error), (DomainState::Verified, None));
        assert_eq!(found.verified_at, Some(start + Duration::minutes(3)));
        assert_eq!(found.next_check_at, Some(start + Duration::minutes(3) + Duration::days(1)));
    }

    #[test]
    fn the_owners_check_restarts_a_wait_that_gave_up() {
        let name = CustomDomain::parse("blog.example.org", HOST).unwrap();
        let start = time::macros::datetime!(2026-11-24 08:00 UTC);
        let gave_up = Before { state: DomainState::Error, ..waiting(start) };
        let now = start + Duration::days(8);
        let again = after_check(&name, &gave_up, &Lookup::Missing, now, true);
        assert_eq!((again.state, again.waiting_since), (DomainState::WaitingForDns, now));
        assert_eq!(again.next_check_at, Some(now + Duration::minutes(1)));
        assert_eq!(after_check(&name, &gave_up, &Lookup::Missing, now, false).state, DomainState::Error);
    }

    #[test]
    fn a_found_record_does_not_take_a_name_another_blog_verified() {
        let name = CustomDomain::parse("blog.example.org", HOST).unwrap();
        let start = time::macros::datetime!(2026-11-24 08:00 UTC);
        let now = start + Duration::minutes(5);
        let found = after_check(&name, &waiting(start), &Lookup::Found, now, false);
        let held = held_by_another(&name, found, now);
        assert_eq!((held.state, held.verified_at, held.waiting_since), (DomainState::WaitingForDns, None, start));
        assert!(held.error.as_deref().unwrap().contains("verified by another blog"));
        assert_eq!(held.next_check_at, Some(now + Duration::hours(1)));
        assert!(!held.changes_serving(&waiting(start)));
    }

    #[test]
    fn a_verified_name_is_unverified_only_after_its_record_is_missing_for_7_days() {
        let name = CustomDomain::parse("blog.example.org", HOST).unwrap();
        let start = time::macros::datetime!(2026-11-24 08:00 UTC);
        let verified = Before { state: DomainState::Verified, verified_at: Some(start), ..waiting(start) };
        let missing = after_check(&name, &verified, &Lookup::Missing, start + Duration::days(1), false);
        assert_eq!((missing.state, missing.missing_since), (DomainState::Verified, Some(start + Duration::days(1))));
        assert!(!missing.changes_serving(&verified));
        let failed = after_check(&name, &verified, &Lookup::Failed("no answer".into()), start, false);
        assert_eq!(failed.state, DomainState::Verified, "a failed lookup is not a missing record");
        let still = Before { missing_since: missing.missing_since, ..verified.clone() };
        let gone = after_check(&name, &still, &Lookup::Missing, start + Duration::days(8), false);
        assert_eq!((gone.state, gone.verified_at, gone.next_check_at), (DomainState::Error, None, None));
        assert_eq!(gone.waiting_since, start + Duration::days(8), "its claim's expiry counts from here");
        assert!(gone.changes_serving(&still));
        let back = after_check(&name, &still, &Lookup::Found, start + Duration::days(3), false);
        assert_eq!((back.state, back.missing_since, back.verified_at), (DomainState::Verified, None, Some(start)));
    }
}
