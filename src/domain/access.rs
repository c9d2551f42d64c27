//! API tokens (issue 37, docs/api.md "API tokens"): what a token may do (its scopes, matched
//! exactly: `undelete` is not `delete`), the token's shape, and the checks of a new token's name
//! and expiry. A token is `quire_` and 64 lowercase hex characters (256 random bits); only its
//! SHA-256 and its last 4 characters are stored.

use std::collections::BTreeSet;
use std::fmt;

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::domain::content::schedule;
use crate::domain::messages::Messages;

/// What a token's bearer may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    /// Create posts (published, scheduled or drafts).
    Create,
    /// Change posts.
    Update,
    /// Delete posts (to the trash).
    Delete,
    /// Bring deleted posts back from the trash.
    Undelete,
    /// Upload images.
    Media,
    /// Create posts as drafts only: with `draft` and without `create`, every new post is a draft.
    Draft,
}

/// Every scope, in the order the Settings screen offers them.
pub const ALL_SCOPES: [Scope; 6] =
    [Scope::Create, Scope::Update, Scope::Delete, Scope::Undelete, Scope::Media, Scope::Draft];

impl Scope {
    /// Its name in a token's list and in OAuth's `scope` parameter.
    pub fn name(self) -> &'static str {
        match self {
            Scope::Create => "create",
            Scope::Update => "update",
            Scope::Delete => "delete",
            Scope::Undelete => "undelete",
            Scope::Media => "media",
            Scope::Draft => "draft",
        }
    }

    /// The scope named exactly `name` (no prefix, no substring, no case folding).
    pub fn parse(name: &str) -> Option<Scope> {
        ALL_SCOPES.into_iter().find(|scope| scope.name() == name)
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A token's scopes: a set, stored as their names separated by single spaces (OAuth's form).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scopes(BTreeSet<Scope>);

impl Scopes {
    /// The scopes named in `names`; an unknown or repeated name, or none at all, is refused.
    pub fn from_names<'a>(names: impl IntoIterator<Item = &'a str>) -> Result<Scopes, String> {
        let mut set = BTreeSet::new();
        for name in names {
            let scope = Scope::parse(name).ok_or_else(|| {
                let known: Vec<&str> = ALL_SCOPES.iter().map(|s| s.name()).collect();
                format!("Unknown scope {name:?}: the scopes are {}", known.join(", "))
            })?;
            if !set.insert(scope) {
                return Err(format!("The scope {name} is listed twice"));
            }
        }
        if set.is_empty() {
            return Err("Choose at least one scope".to_owned());
        }
        Ok(Scopes(set))
    }

    /// Reads the stored form (space-separated names); names this version does not know are
    /// dropped, so a scope is never granted by mistake.
    pub fn from_stored(stored: &str) -> Scopes {
        Scopes(stored.split(' ').filter_map(Scope::parse).collect())
    }

    /// The stored form: names separated by single spaces.
    pub fn stored(&self) -> String {
        self.names().join(" ")
    }

    /// The names, in [`ALL_SCOPES`]' order.
    pub fn names(&self) -> Vec<&'static str> {
        self.0.iter().map(|scope| scope.name()).collect()
    }

    /// Whether the set holds exactly this scope.
    pub fn has(&self, scope: Scope) -> bool {
        self.0.contains(&scope)
    }

    /// Whether a post may be created at all (`create`, or `draft` for drafts).
    pub fn may_create(&self) -> bool {
        self.has(Scope::Create) || self.has(Scope::Draft)
    }

    /// Whether every post this token creates must be a draft (`draft` without `create`).
    pub fn drafts_only(&self) -> bool {
        self.has(Scope::Draft) && !self.has(Scope::Create)
    }
}

/// The prefix of every token (so a secret scanner can recognize a leaked one).
pub const TOKEN_PREFIX: &str = "quire_";
/// Length of a token: the prefix and 64 hex characters.
pub const TOKEN_LEN: usize = TOKEN_PREFIX.len() + 64;
/// The longest token name.
pub const MAX_NAME_CHARS: usize = 100;
/// Tokens a blog may hold at once.
pub const MAX_TOKENS_PER_BLOG: u64 = 50;

/// A new random token.
pub fn new_token() -> String {
    // rand's thread generator is a CSPRNG (ChaCha) seeded from the operating system.
    let bytes: [u8; 32] = rand::random();
    format!("{TOKEN_PREFIX}{}", hex::encode(bytes))
}

/// Whether `s` has the shape of a token (anything else is refused without a lookup).
pub fn is_token(s: &str) -> bool {
    s.len() == TOKEN_LEN
        && s.starts_with(TOKEN_PREFIX)
        && s[TOKEN_PREFIX.len()..].bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// The last 4 characters of a token, kept to recognize it in the list.
pub fn last4(token: &str) -> String {
    token[token.len().saturating_sub(4)..].to_owned()
}

/// A new token's name, trimmed: 1 to [`MAX_NAME_CHARS`] characters, no control characters.
pub fn check_name(name: &str) -> Result<String, Messages> {
    let name = name.trim();
    if name.is_empty() {
        return Err(Messages::one("name", "Can't be blank"));
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(Messages::one("name", format!("Must be at most {MAX_NAME_CHARS} characters")));
    }
    if name.chars().any(char::is_control) {
        return Err(Messages::one("name", "Must be one line of text"));
    }
    Ok(name.to_owned())
}

/// A new token's expiry (RFC 3339), which must be in the future; stored in UTC with
/// milliseconds, as SQLite's times are, so the two compare as text.
pub fn check_expiry(raw: &str, now: OffsetDateTime) -> Result<String, Messages> {
    let at = OffsetDateTime::parse(raw.trim(), &Rfc3339)
        .map_err(|_| Messages::one("expiresAt", "Must be a date and time such as 2027-01-31T00:00:00Z"))?;
    if at <= now {
        return Err(Messages::one("expiresAt", "Must be in the future"));
    }
    Ok(schedule::stored(at))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_match_exactly_never_as_substrings() {
        let undelete = Scopes::from_names(["undelete"]).unwrap();
        assert!(undelete.has(Scope::Undelete));
        assert!(!undelete.has(Scope::Delete));
        assert!(Scopes::from_names(["Delete"]).is_err());
        assert!(Scopes::from_names(["del"]).is_err());
        assert!(Scopes::from_names(["deletes"]).is_err());
        assert!(Scopes::from_names(["create", "create"]).is_err());
        assert!(Scopes::from_names([]).is_err());
        assert!(!Scopes::from_stored("undelete").has(Scope::Delete));
        assert!(!Scopes::from_stored("xdelete undeletex").has(Scope::Delete));
    }

    #[test]
    fn stored_scopes_read_back_in_a_fixed_order() {
        let scopes = Scopes::from_names(["media", "create", "draft"]).unwrap();
        assert_eq!(scopes.stored(), "create media draft");
        assert_eq!(Scopes::from_stored(&scopes.stored()), scopes);
        assert!(scopes.may_create() && !scopes.drafts_only());
        let drafts = Scopes::from_names(["draft"]).unwrap();
        assert!(drafts.may_create() && drafts.drafts_only());
        assert!(!Scopes::from_names(["update"]).unwrap().may_create());
    }

    #[test]
    fn tokens_have_one_shape() {
        let (a, b) = (new_token(), new_token());
        assert!(is_token(&a) && is_token(&b) && a != b);
        assert_eq!(a.len(), TOKEN_LEN);
        assert!(!is_token(&a.to_uppercase()));
        assert!(!is_token(&a[1..]));
        assert!(!is_token(&format!("{a}0")));
        assert!(!is_token(&a.replace(TOKEN_PREFIX, "other_")));
        assert_eq!(last4(&a), &a[a.len() - 4..]);
    }

    #[test]
    fn names_and_expiries_are_checked() {
        assert_eq!(check_name("  iA Writer ").unwrap(), "iA Writer");
        assert!(check_name(" ").is_err());
        assert!(check_name(&"x".repeat(101)).is_err());
        assert!(check_name("a\nb").is_err());
        let now = OffsetDateTime::parse("2026-11-29T12:00:00Z", &Rfc3339).unwrap();
        assert_eq!(check_expiry("2027-01-31T01:02:03+01:00", now).unwrap(), "2027-01-31T00:02:03.000Z");
        assert!(check_expiry("2026-11-29T11:59:59Z", now).is_err());
        assert!(check_expiry("tomorrow", now).is_err());
    }
}
