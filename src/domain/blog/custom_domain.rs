//! A blog's custom domain: the name rules (docs/custom-domains.md), its A-label form for DNS and
//! HTTP, its Unicode form for people, and the states of its verification.
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

use time::{Duration, OffsetDateTime};

/// The longest name DNS carries, in its text form without the trailing dot.
pub const MAX_NAME: usize = 253;
/// The longest label.
pub const MAX_LABEL: usize = 63;
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

/// The rules of one A-label: 1 to 63 of a-z, 0-9 and inner hyphens.
fn check_label(label: &str) -> Result<(), DomainError> {
    if label.is_empty() || label.len() > MAX_LABEL {
        return Err(DomainError::LabelLength);
    }
    if !label.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-') {
        return Err(DomainError::Characters);
    }
    if label.starts_with('-') || label.ends_with('-') {
        return Err(DomainError::Hyphen);
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

/// Whether `host` is `domain` or one of its subdomains (both lowercase A-labels).
pub fn is_within(host: &str, domain: &str) -> bool {
    host == domain || host.strip_suffix(domain).is_some_and(|rest| rest.ends_with('.'))
}

impl fmt::Display for CustomDomain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Where a blog answers: its subdomain, and its verified custom domain when it has one (which
/// then is its one address: the subdomain redirects there).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlogAddress {
    /// The blog's subdomain.
    pub subdomain: String,
    /// Its verified custom domain (A-label), if any.
    pub domain: Option<String>,
}

impl BlogAddress {
    /// The address of a blog with no custom domain.
    pub fn subdomain(subdomain: &str) -> BlogAddress {
        BlogAddress { subdomain: subdomain.to_owned(), domain: None }
    }
}

/// A certificate's state for a name, as the TLS manager (when Quire serves HTTPS itself) tells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CertificateStateView {
    /// Verified, no certificate yet.
    Pending,
    /// Issued, valid until `not_after` (unix seconds).
    Issued {
        /// The end of its validity, unix seconds.
        not_after: i64,
    },
    /// The last order failed; the next is not before `retry_at` (unix seconds).
    Failed {
        /// The CA's or the manager's message.
        error: String,
        /// When the next order may start, unix seconds.
        retry_at: i64,
    },
}

/// Who knows the certificates of names (the TLS manager); the API asks it for a custom
/// domain's `certificate` field. `None` means Quire does not manage certificates (a proxy does).
pub trait CertificateStates: Send + Sync {
    /// The certificate state of `name`, or `None` when certificates are not managed here.
    fn state(&self, name: &str) -> Option<CertificateStateView>;
}

/// Certificates are a proxy's business: every state is `not_managed`.
pub struct NotManaged;

impl CertificateStates for NotManaged {
    fn state(&self, _name: &str) -> Option<CertificateStateView> {
        None
    }
}

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

    #[test]
    fn asked_names_must_be_dns_names() {
        assert_eq!(dns_name("Blog.Example.org.").as_deref(), Some("blog.example.org"));
        assert_eq!(dns_name("localhost").as_deref(), Some("localhost"));
        for bad in ["", "127.0.0.1", "::1", "*.example.org", "a..b", "bad_name.org", "-a.org", &"a".repeat(254)] {
            assert_eq!(dns_name(bad), None, "{bad:?}");
        }
    }

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
        assert!(gone.changes_serving(&still));
        let back = after_check(&name, &still, &Lookup::Found, start + Duration::days(3), false);
        assert_eq!((back.state, back.missing_since, back.verified_at), (DomainState::Verified, None, Some(start)));
    }
}

#[cfg(test)]
mod proptests {
    use proptest::prelude::*;

    use super::*;

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
