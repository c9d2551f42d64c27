//! A blog's subdomain: 3-63 lowercase letters, digits and inner hyphens, not reserved.

use std::fmt;

/// Names Quire keeps for itself or that would confuse readers.
pub const RESERVED: &[&str] = &[
    "www",
    "api",
    "app",
    "admin",
    "administrator",
    "mail",
    "email",
    "smtp",
    "imap",
    "pop",
    "ftp",
    "static",
    "assets",
    "cdn",
    "media",
    "uploads",
    "d",
    "catalog",
    "dev-idp",
    "auth",
    "login",
    "signup",
    "signout",
    "logout",
    "account",
    "accounts",
    "settings",
    "dashboard",
    "blog",
    "blogs",
    "help",
    "support",
    "status",
    "docs",
    "about",
    "root",
    "system",
    "quire",
    "localhost",
    "ns1",
    "ns2",
    "dns",
    "mx",
    "webmail",
    "autoconfig",
    "autodiscover",
    "test",
    "security",
    "abuse",
    "postmaster",
    "hostmaster",
    "webmaster",
    "noreply",
    "no-reply",
];

/// A valid subdomain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subdomain(String);

/// Why a subdomain is refused; the message names the rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubdomainError {
    /// Empty input.
    Blank,
    /// Fewer than 3 or more than 63 characters.
    Length,
    /// A character other than a-z, 0-9 or '-'.
    Characters,
    /// Starts or ends with '-'.
    Hyphen,
    /// In [`RESERVED`].
    Reserved,
}

impl SubdomainError {
    /// The message shown under the input.
    pub fn message(self) -> &'static str {
        match self {
            SubdomainError::Blank => "Can't be blank",
            SubdomainError::Length => "Should be 3 to 63 characters long",
            SubdomainError::Characters => "Use only lowercase letters a-z, digits and hyphens",
            SubdomainError::Hyphen => "Can't start or end with a hyphen",
            SubdomainError::Reserved => "This subdomain is reserved",
        }
    }
}

impl Subdomain {
    /// Checks a requested subdomain. Surrounding spaces are dropped and letters lowercased.
    pub fn parse(raw: &str) -> Result<Subdomain, SubdomainError> {
        let value = raw.trim().to_ascii_lowercase();
        if value.is_empty() {
            return Err(SubdomainError::Blank);
        }
        if !value.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-') {
            return Err(SubdomainError::Characters);
        }
        if !(3..=63).contains(&value.len()) {
            return Err(SubdomainError::Length);
        }
        if value.starts_with('-') || value.ends_with('-') {
            return Err(SubdomainError::Hyphen);
        }
        if RESERVED.contains(&value.as_str()) {
            return Err(SubdomainError::Reserved);
        }
        Ok(Subdomain(value))
    }

    /// The subdomain text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Subdomain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn good_subdomains_are_kept_lowercased() {
        assert_eq!(Subdomain::parse(" Alice ").unwrap().as_str(), "alice");
        assert_eq!(Subdomain::parse("my-blog-2").unwrap().as_str(), "my-blog-2");
        assert!(Subdomain::parse(&"a".repeat(63)).is_ok());
    }

    #[test]
    fn each_broken_rule_is_named() {
        assert_eq!(Subdomain::parse(""), Err(SubdomainError::Blank));
        assert_eq!(Subdomain::parse("ab"), Err(SubdomainError::Length));
        assert_eq!(Subdomain::parse(&"a".repeat(64)), Err(SubdomainError::Length));
        assert_eq!(Subdomain::parse("al_ice"), Err(SubdomainError::Characters));
        assert_eq!(Subdomain::parse("alice.bob"), Err(SubdomainError::Characters));
        assert_eq!(Subdomain::parse("ålice"), Err(SubdomainError::Characters));
        assert_eq!(Subdomain::parse("-alice"), Err(SubdomainError::Hyphen));
        assert_eq!(Subdomain::parse("www"), Err(SubdomainError::Reserved));
        assert_eq!(Subdomain::parse("dev-idp"), Err(SubdomainError::Reserved));
    }
}

#[cfg(test)]
mod proptests;
