//! DNS names as they travel: a host name normalized the way TLS clients and proxies name it (SNI,
//! Caddy's `ask`), the rules of one label, and whether a host lies within a domain.

use std::net::IpAddr;

/// The longest name DNS carries, in its text form without the trailing dot.
pub const MAX_NAME: usize = 253;
/// The longest label.
pub const MAX_LABEL: usize = 63;

/// Which rule of an A-label a label breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabelFault {
    /// Empty, or over 63 characters.
    Length,
    /// A character other than a-z, 0-9 and hyphens.
    Characters,
    /// A hyphen at its start or end.
    Hyphen,
}

/// The rules of one A-label: 1 to 63 of a-z, 0-9 and inner hyphens.
pub fn check_label(label: &str) -> Result<(), LabelFault> {
    if label.is_empty() || label.len() > MAX_LABEL {
        return Err(LabelFault::Length);
    }
    if !label.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-') {
        return Err(LabelFault::Characters);
    }
    if label.starts_with('-') || label.ends_with('-') {
        return Err(LabelFault::Hyphen);
    }
    Ok(())
}

/// A host name as a TLS client or proxy names it (SNI, Caddy's `ask`), lowercased without one
/// trailing dot; `None` when it is not a DNS name in A-label form (an IP address, `*`, a bad label).
pub fn dns_name(raw: &str) -> Option<String> {
    let lowered = raw.trim().to_ascii_lowercase();
    let name = lowered.strip_suffix('.').unwrap_or(&lowered);
    let valid = name.len() <= MAX_NAME
        && name.parse::<IpAddr>().is_err()
        && name.split('.').all(|label| check_label(label).is_ok())
        && !name.rsplit('.').next().is_some_and(|tld| tld.bytes().all(|b| b.is_ascii_digit()));
    valid.then(|| name.to_owned())
}

/// Whether `host` is `domain` or one of its subdomains (both lowercase A-labels).
pub fn is_within(host: &str, domain: &str) -> bool {
    host == domain || host.strip_suffix(domain).is_some_and(|rest| rest.ends_with('.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn asked_names_must_be_dns_names() {
        assert_eq!(dns_name("Blog.Example.org.").as_deref(), Some("blog.example.org"));
        assert_eq!(dns_name("localhost").as_deref(), Some("localhost"));
        for bad in ["", "127.0.0.1", "::1", "*.example.org", "a..b", "bad_name.org", "-a.org", &"a".repeat(254)] {
            assert_eq!(dns_name(bad), None, "{bad:?}");
        }
    }
}
