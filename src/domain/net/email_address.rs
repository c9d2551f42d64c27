//! A reader's email address as Quire mails it (issue 30, docs/email.md "Subscribing"): checked
//! before anything is stored or sent, and normalized so one address is one subscriber.
//!
//! Accepted: `local@domain`, at most 254 characters (64 before the `@`), the local part of
//! printable ASCII without the characters that need quoting (`"(),:;<>[\]` and spaces) and
//! without dots at its ends or in a row, the domain a DNS name of at least two labels, given in
//! Unicode or A-labels. Refused: anything with a control character (CR and LF above all: a
//! header injection), quoted local parts, IP-address literals, non-ASCII local parts (few relays
//! take SMTPUTF8). Normalized: trimmed, lowercased, the domain in A-labels, so a Unicode domain
//! and its `xn--` form are one address, and a confusable domain is its own (visibly `xn--`) one.

use super::dns_name::dns_name;

/// The longest address (RFC 5321's path limit less its angle brackets).
pub const MAX_CHARS: usize = 254;
/// The longest local part.
pub const MAX_LOCAL: usize = 64;

/// Characters a local part may not hold unquoted.
const SPECIALS: &[char] = &['"', '(', ')', ',', ':', ';', '<', '>', '[', ']', '\\', '@', ' '];

/// A checked, normalized address.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct EmailAddress(String);

impl EmailAddress {
    /// The address `raw` names, or the one line that says what is wrong with it.
    pub fn parse(raw: &str) -> Result<EmailAddress, &'static str> {
        let raw = raw.trim();
        if raw.is_empty() {
            return Err("Enter your email address.");
        }
        if raw.chars().any(char::is_control) {
            return Err("This is not an email address.");
        }
        if raw.chars().count() > MAX_CHARS {
            return Err("This address is too long.");
        }
        let Some((local, domain)) = raw.rsplit_once('@') else {
            return Err("This is not an email address.");
        };
        if local.starts_with('"') {
            return Err("Quoted addresses are not accepted; use a plain one.");
        }
        if local.is_empty() || local.len() > MAX_LOCAL {
            return Err("This is not an email address.");
        }
        if !local.is_ascii() {
            return Err("Use an address with plain letters before the @.");
        }
        let bad_local = local.chars().any(|c| SPECIALS.contains(&c))
            || local.starts_with('.')
            || local.ends_with('.')
            || local.contains("..");
        if bad_local {
            return Err("This is not an email address.");
        }
        let domain = match domain.is_ascii() {
            true => domain.to_ascii_lowercase(),
            false => idna::domain_to_ascii(domain).map_err(|_| "This email address's domain is not valid.")?,
        };
        let domain = dns_name(&domain).filter(|d| d.contains('.') && !d.ends_with('.'));
        let Some(domain) = domain else {
            return Err("This email address's domain is not valid.");
        };
        let address = format!("{}@{domain}", local.to_ascii_lowercase());
        if address.len() > MAX_CHARS {
            return Err("This address is too long.");
        }
        Ok(EmailAddress(address))
    }

    /// The normalized address.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for EmailAddress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(raw: &str) -> String {
        EmailAddress::parse(raw).unwrap_or_else(|e| panic!("{raw:?}: {e}")).to_string()
    }

    #[test]
    fn ordinary_addresses_are_kept_and_normalized_to_one_form() {
        assert_eq!(ok(" Reader@Example.ORG "), "reader@example.org");
        assert_eq!(ok("first.last+quire@mail.example.co.uk"), "first.last+quire@mail.example.co.uk");
        assert_eq!(ok("o'brien@example.org"), "o'brien@example.org");
        // A Unicode domain and its A-label form are one address.
        assert_eq!(ok("anna@bücher.example"), "anna@xn--bcher-kva.example");
        assert_eq!(ok("anna@xn--bcher-kva.example"), "anna@xn--bcher-kva.example");
    }

    #[test]
    fn header_injection_quoting_and_oversized_addresses_are_refused() {
        for bad in [
            "a@example.org\r\nBcc: victim@example.org",
            "a@example.org\nX: y",
            "a\u{0}@example.org",
            "\"a b\"@example.org",
            "<a@example.org>",
            "a b@example.org",
            "a@@example.org",
            "a@example",
            "a@127.0.0.1",
            "a@[127.0.0.1]",
            ".a@example.org",
            "a..b@example.org",
            "jös@example.org",
            "a@exa_mple.org",
            "",
            "@example.org",
            "a@",
        ] {
            assert!(EmailAddress::parse(bad).is_err(), "{bad:?} was accepted");
        }
        assert_eq!(
            EmailAddress::parse(&format!("{}@example.org", "a".repeat(65))),
            Err("This is not an email address.")
        );
        assert_eq!(EmailAddress::parse(&format!("a@{}.org", "b".repeat(1000))), Err("This address is too long."));
        assert_eq!(
            EmailAddress::parse("\"q\"@example.org"),
            Err("Quoted addresses are not accepted; use a plain one.")
        );
    }

    #[test]
    fn a_confusable_domain_is_its_own_visible_address() {
        // Cyrillic 'а' (U+0430) in place of the Latin 'a': not the same address, and plainly not.
        let confusable = ok("me@exаmple.org");
        assert_ne!(confusable, "me@example.org");
        assert!(confusable.contains("xn--"), "{confusable}");
    }
}
