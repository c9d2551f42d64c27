//! A blog's custom domain: the name rules (docs/custom-domains.md), its A-label form for DNS and
//! HTTP, its Unicode form for people. How its verification goes is `domain_verification.rs`.
//!
//! A name is trimmed, lowercased and loses one trailing dot; Unicode becomes its A-label
//! (`bücher.example` is `xn--bcher-kva.example`, with the idna crate the URL parser uses).
//! Refused, each with its own message: IP literals, wildcards, single labels, names over 253
//! characters or with a label over 63, characters other than letters, digits and hyphens, a
//! hyphen at a label's end, invalid punycode, the app host, `www.{host}`, anything under
//! `.{host}` (subdomains are for blogs), and names the internet cannot reach (`localhost`,
//! `.localhost`, `.local`, `.internal`, `.arpa`, `.onion`).

use std::fmt;
use std::net::IpAddr;

use crate::domain::net::dns_name::{LabelFault, MAX_NAME, check_label};

/// Input longer than this is refused before any conversion (a Unicode name's A-label is never
/// much shorter than the name).
const MAX_INPUT: usize = 1024;
/// Suffixes of names that are never reachable from the internet.
const LOCAL_SUFFIXES: [&str; 6] = ["localhost", "local", "internal", "arpa", "onion", "home.arpa"];
/// The label of the TXT record that proves control: `_quire.{name}`.
pub const TXT_LABEL: &str = "_quire";
/// What the TXT record holds before the token.
pub const TXT_PREFIX: &str = "quire-verify=";

/// A valid custom domain, in A-label form: lowercase ASCII, no trailing dot.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CustomDomain(String);

/// Why a name is refused; [`DomainError::message`] names the rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DomainError {
    /// Empty input.
    Blank,
    /// A URL rather than a name (`https://`, a path).
    NotAName,
    /// An IPv4 or IPv6 address.
    IpAddress,
    /// A `*` anywhere.
    Wildcard,
    /// One label only (`example`).
    SingleLabel,
    /// Over 253 characters.
    TooLong,
    /// An empty label or one over 63 characters.
    LabelLength,
    /// A character other than a letter, digit or hyphen in a label.
    Characters,
    /// A label starting or ending with a hyphen.
    Hyphen,
    /// An `xn--` label that is not valid punycode of a valid name.
    Punycode,
    /// The app host or `www.{host}`.
    AppHost,
    /// A name under `.{host}`.
    UnderAppHost,
    /// localhost, .local, .internal, .arpa, .onion.
    NotPublic,
}

impl DomainError {
    /// The message shown under the input.
    pub fn message(self) -> &'static str {
        match self {
            DomainError::Blank => "Enter a domain name, like blog.example.org",
            DomainError::NotAName => "Enter the domain name only, like blog.example.org (no https://, no path)",
            DomainError::IpAddress => "Enter a domain name, not an IP address",
            DomainError::Wildcard => "Wildcards (*) are not allowed: enter one domain name",
            DomainError::SingleLabel => "Enter a full domain name with a dot, like blog.example.org",
            DomainError::TooLong => "A domain name can't be longer than 253 characters",
            DomainError::LabelLength => "Each part between dots must have 1 to 63 characters",
            DomainError::Characters => "Use only letters, digits and hyphens between the dots",
            DomainError::Hyphen => "A part between dots can't start or end with a hyphen",
            DomainError::Punycode => "This is not a valid internationalized domain name (bad xn-- part)",
            DomainError::AppHost => "This is this server's own address: enter a domain of your own",
            DomainError::UnderAppHost => {
                "Names under this server's domain are blog subdomains: enter a domain of your own"
            }
            DomainError::NotPublic => {
                "This name can't be reached from the internet (localhost, .local, .internal, .arpa, .onion)"
            }
        }
    }
}

impl CustomDomain {
    /// Checks a name an owner typed, against the app host (`host[:port]`, normalized).
    pub fn parse(raw: &str, app_host: &str) -> Result<CustomDomain, DomainError> {
        let trimmed = raw.trim();
        if trimmed.is_empty() {
            return Err(DomainError::Blank);
        }
        if trimmed.len() > MAX_INPUT {
            return Err(DomainError::TooLong);
        }
        let lowered = trimmed.to_lowercase();
        let name = lowered.strip_suffix('.').unwrap_or(&lowered);
        if name.contains("://") || name.contains('/') {
            return Err(DomainError::NotAName);
        }
        if name.contains('*') {
            return Err(DomainError::Wildcard);
        }
        let unbracketed = name.strip_prefix('[').and_then(|n| n.strip_suffix(']')).unwrap_or(name);
        if unbracketed.parse::<IpAddr>().is_ok() {
            return Err(DomainError::IpAddress);
        }
        let ascii = if name.is_ascii() {
            name.to_owned()
        } else {
            idna::domain_to_ascii(name).map_err(|_| DomainError::Characters)?
        };
        check_ascii(&ascii)?;
        let app_name = app_host.rsplit_once(':').map_or(app_host, |(name, _)| name);
        if ascii == app_name || ascii.strip_prefix("www.") == Some(app_name) {
            return Err(DomainError::AppHost);
        }
        if ascii.strip_suffix(app_name).is_some_and(|rest| rest.ends_with('.')) {
            return Err(DomainError::UnderAppHost);
        }
        Ok(CustomDomain(ascii))
    }

    /// A name read back from the database (checked when it was stored).
    pub fn from_stored(name: String) -> CustomDomain {
        CustomDomain(name)
    }

    /// The A-label form, for DNS and HTTP.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The Unicode form, for people (equal to [`CustomDomain::as_str`] for ASCII names).
    pub fn display_name(&self) -> String {
        display_name(&self.0)
    }

    /// The name of the TXT record that proves control: `_quire.{name}`.
    pub fn txt_name(&self) -> String {
        format!("{TXT_LABEL}.{}", self.0)
    }
}

/// The Unicode form of a stored A-label name (the name itself if it cannot be decoded).
pub fn display_name(name: &str) -> String {
    match idna::domain_to_unicode(name) {
        (unicode, Ok(())) => unicode,
        _ => name.to_owned(),
    }
}

/// The rules on the A-label form.
fn check_ascii(name: &str) -> Result<(), DomainError> {
    if name.len() > MAX_NAME {
        return Err(DomainError::TooLong);
    }
    let labels: Vec<&str> = name.split('.').collect();
    labels.iter().try_for_each(|label| check_label(label))?;
    if labels.len() < 2 {
        return Err(DomainError::SingleLabel);
    }
    if labels.last().is_some_and(|tld| tld.bytes().all(|b| b.is_ascii_digit())) {
        return Err(DomainError::IpAddress); // 10.0.0.300, 127.1: URL parsers read these as addresses
    }
    for label in labels.iter().filter(|label| label.starts_with("xn--")) {
        match idna::domain_to_unicode(label) {
            (unicode, Ok(())) if idna::domain_to_ascii(&unicode).is_ok_and(|ascii| ascii == *label) => {}
            _ => return Err(DomainError::Punycode),
        }
    }
    let local = LOCAL_SUFFIXES
        .iter()
        .any(|suffix| name == *suffix || name.strip_suffix(suffix).is_some_and(|rest| rest.ends_with('.')));
    if local {
        return Err(DomainError::NotPublic);
    }
    Ok(())
}

impl From<LabelFault> for DomainError {
    fn from(fault: LabelFault) -> DomainError {
        match fault {
            LabelFault::Length => DomainError::LabelLength,
            LabelFault::Characters => DomainError::Characters,
            LabelFault::Hyphen => DomainError::Hyphen,
        }
    }
}

impl fmt::Display for CustomDomain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOST: &str = "example.com:8080";

    fn parse(raw: &str) -> Result<String, DomainError> {
        CustomDomain::parse(raw, HOST).map(|d| d.as_str().to_owned())
    }

    #[test]
    fn names_are_trimmed_lowercased_and_lose_one_trailing_dot() {
        assert_eq!(parse(" Blog.Example.ORG. ").unwrap(), "blog.example.org");
        assert_eq!(parse("a-b.c9.io").unwrap(), "a-b.c9.io");
        assert_eq!(parse("blog.example.org.."), Err(DomainError::LabelLength));
    }

    #[test]
    fn unicode_names_become_a_labels_and_show_as_unicode() {
        let domain = CustomDomain::parse("Bücher.example", HOST).unwrap();
        assert_eq!(domain.as_str(), "xn--bcher-kva.example");
        assert_eq!(domain.display_name(), "bücher.example");
        assert_eq!(parse("xn--bcher-kva.example").unwrap(), "xn--bcher-kva.example");
        assert_eq!(CustomDomain::parse("blog.example.org", HOST).unwrap().display_name(), "blog.example.org");
        assert_eq!(domain.txt_name(), "_quire.xn--bcher-kva.example");
    }

    #[test]
    fn each_broken_rule_is_named() {
        let cases: &[(&str, DomainError)] = &[
            ("", DomainError::Blank),
            ("   ", DomainError::Blank),
            ("https://blog.example.org", DomainError::NotAName),
            ("blog.example.org/about", DomainError::NotAName),
            ("192.168.1.1", DomainError::IpAddress),
            ("127.1", DomainError::IpAddress),
            ("::1", DomainError::IpAddress),
            ("[2001:db8::1]", DomainError::IpAddress),
            ("*.example.org", DomainError::Wildcard),
            ("blog.*.org", DomainError::Wildcard),
            ("example", DomainError::SingleLabel),
            ("example.", DomainError::SingleLabel),
            ("a..example.org", DomainError::LabelLength),
            (".example.org", DomainError::LabelLength),
            ("blog.example.org:8080", DomainError::Characters),
            ("blog_1.example.org", DomainError::Characters),
            ("exa mple.org", DomainError::Characters),
            ("-blog.example.org", DomainError::Hyphen),
            ("blog-.example.org", DomainError::Hyphen),
            ("xn--zz.example", DomainError::Punycode),
            ("xn--a.example", DomainError::Punycode),
            ("example.com", DomainError::AppHost),
            ("EXAMPLE.COM.", DomainError::AppHost),
            ("www.example.com", DomainError::AppHost),
            ("alice.example.com", DomainError::UnderAppHost),
            ("a.b.example.com", DomainError::UnderAppHost),
            ("localhost", DomainError::SingleLabel),
            ("blog.localhost", DomainError::NotPublic),
            ("printer.local", DomainError::NotPublic),
            ("db.corp.internal", DomainError::NotPublic),
            ("1.168.192.in-addr.arpa", DomainError::NotPublic),
            ("abcdefghijklmnop.onion", DomainError::NotPublic),
        ];
        for (raw, error) in cases {
            assert_eq!(parse(raw), Err(*error), "{raw:?}");
        }
        assert!(parse("notexample.com").is_ok(), "a name ending like the host without a dot is someone else's");
        assert!(parse("local.example.org").is_ok());
    }

    #[test]
    fn lengths_are_counted_on_the_a_label() {
        let label = "a".repeat(63);
        let name = format!("{label}.{label}.{label}.{}.org", "b".repeat(57)); // 253
        assert_eq!(name.len(), 253);
        assert_eq!(parse(&name).unwrap(), name);
        assert_eq!(parse(&format!("x{name}")), Err(DomainError::TooLong));
        assert_eq!(parse(&format!("{}.org", "a".repeat(64))), Err(DomainError::LabelLength));
        assert_eq!(parse(&"a.".repeat(150)), Err(DomainError::TooLong), "300 characters");
        assert_eq!(parse(&"é".repeat(2000)), Err(DomainError::TooLong));
    }
}

#[cfg(test)]
mod proptests {
    use proptest::prelude::*;

    use super::*;
    use crate::domain::net::dns_name::MAX_LABEL;

    fn is_a_label_name(name: &str) -> bool {
        name.len() <= MAX_NAME
            && name.split('.').count() >= 2
            && name.split('.').all(|label| {
                (1..=MAX_LABEL).contains(&label.len())
                    && label.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                    && !label.starts_with('-')
                    && !label.ends_with('-')
            })
    }

    fn typed() -> impl Strategy<Value = String> {
        prop_oneof![
            any::<String>(),
            "[ ]?[a-zA-Z0-9ü*_.-]{0,20}\\.[a-zA-Z0-9-]{0,10}\\.?[ ]?",
            "(xn--)?[a-z0-9-]{0,12}\\.[a-zé]{1,6}",
            "[\u{80}-\u{2FFF}]{1,8}\\.[a-z]{2,4}",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn any_text_is_answered_and_accepted_names_are_a_labels(raw in typed()) {
            if let Ok(domain) = CustomDomain::parse(&raw, "example.com") {
                prop_assert!(is_a_label_name(domain.as_str()), "{:?} accepted as {:?}", raw, domain);
                let again = CustomDomain::parse(domain.as_str(), "example.com");
                prop_assert_eq!(again.as_ref(), Ok(&domain));
                let from_display = CustomDomain::parse(&domain.display_name(), "example.com");
                prop_assert_eq!(from_display.as_ref(), Ok(&domain));
            }
        }
    }
}
