//! The fediverse domain blocklist's names (`quire federation block`, Settings → Fediverse): what
//! an owner or operator types, refused or turned into the stored form.

use std::net::IpAddr;

use crate::domain::net::dns_name::dns_name;

/// A domain to block from the fediverse (`quire federation block`, Settings → Fediverse), in
/// its stored form: lowercase A-label without a trailing dot. Unicode names are converted; IP
/// addresses, ports, paths and wildcards are refused with a message for people.
pub fn blockable(raw: &str) -> Result<String, &'static str> {
    let trimmed = raw.trim();
    if trimmed.is_empty() {
        return Err("Enter a domain name, like spam.example");
    }
    let unbracketed = trimmed.strip_prefix('[').and_then(|n| n.strip_suffix(']')).unwrap_or(trimmed);
    if unbracketed.parse::<IpAddr>().is_ok() {
        return Err("Enter a domain name, not an IP address");
    }
    if trimmed.contains(['/', ':', '@', '*', ' ']) {
        return Err("Enter just the domain name, like spam.example (no scheme, port, path or wildcard)");
    }
    let ascii = idna::domain_to_ascii(trimmed).map_err(|_| "This is not a valid domain name")?;
    dns_name(&ascii).ok_or("This is not a valid domain name")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::net::dns_name::is_within;

    #[test]
    fn a_blocked_domain_is_stored_lowercase_in_a_label_form_and_addresses_are_refused() {
        assert_eq!(blockable(" Spam.Example. "), Ok("spam.example".to_owned()));
        assert_eq!(blockable("bücher.example"), Ok("xn--bcher-kva.example".to_owned()));
        for bad in [
            "",
            "127.0.0.1",
            "[::1]",
            "::1",
            "spam.example:443",
            "https://spam.example",
            "*.spam.example",
            "a..b",
            "-a.example",
        ] {
            assert!(blockable(bad).is_err(), "{bad:?} is refused");
        }
        assert!(is_within("a.spam.example", "spam.example"));
        assert!(is_within("spam.example", "spam.example"));
        assert!(!is_within("notspam.example", "spam.example"));
    }
}
