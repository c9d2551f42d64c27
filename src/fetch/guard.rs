//! Where the address rule (`domain::addresses`) is enforced: on the URL before anything is
//! sent, in the DNS resolver (the addresses a name resolves to are the only ones the client may
//! connect to, so a name cannot resolve to one address when checked and another when used), and
//! on every redirect. reqwest skips the resolver for IP-literal hosts, so the URL checks cover those.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use reqwest::redirect::{Attempt, Policy};
use url::{Host, Url};

use super::FetchError;
use crate::domain::net::addresses::classify;

/// Most redirects followed for one request.
pub const MAX_REDIRECTS: usize = 5;

/// Which addresses may be reached: the public ones, plus, when allowed (tests only),
/// 127.0.0.0/8 and ::1 themselves (not their IPv6 disguises, not any other private range).
#[derive(Debug, Clone, Copy)]
pub struct Guard {
    /// Test-only: 127.0.0.0/8 and ::1 may be reached.
    pub allow_loopback: bool,
}

impl Guard {
    /// `Ok` when `ip` may be reached; else the refusal, naming `host` when a name resolved to it.
    pub fn check_ip(self, ip: IpAddr, host: Option<&str>) -> Result<(), FetchError> {
        let plain_loopback = match ip {
            IpAddr::V4(v4) => v4.octets()[0] == 127,
            IpAddr::V6(v6) => v6 == Ipv6Addr::LOCALHOST,
        };
        if self.allow_loopback && plain_loopback {
            return Ok(());
        }
        match classify(ip) {
            None => Ok(()),
            Some(kind) => Err(FetchError::Refused { host: host.map(str::to_owned), address: ip, kind }),
        }
    }

    /// Parses and checks a URL before any connection: absolute http or https, no user or
    /// password, and an IP-literal host (however written: `0x7f000001`, `127.1`, `[::ffff:..]`,
    /// which the URL parser turns into the address) allowed by the rule.
    pub fn check_url(self, url: &str) -> Result<Url, FetchError> {
        let url = Url::parse(url.trim()).map_err(|_| FetchError::InvalidUrl)?;
        self.check_parsed(&url)?;
        Ok(url)
    }

    fn check_parsed(self, url: &Url) -> Result<(), FetchError> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(FetchError::NotHttp);
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(FetchError::Credentials);
        }
        match url.host() {
            Some(Host::Ipv4(ip)) => self.check_ip(IpAddr::V4(ip), None),
            Some(Host::Ipv6(ip)) => self.check_ip(IpAddr::V6(ip), None),
            Some(Host::Domain(_)) => Ok(()),
            None => Err(FetchError::InvalidUrl),
        }
    }

    /// The addresses of `host` that may be reached; the refusal of the first one when none may.
    pub fn keep_allowed(
        self,
        host: &str,
        found: impl IntoIterator<Item = SocketAddr>,
    ) -> Result<Vec<SocketAddr>, FetchError> {
        let mut first_refusal = None;
        let mut kept = Vec::new();
        for addr in found {
            match self.check_ip(addr.ip(), Some(host)) {
                Ok(()) => kept.push(addr),
                Err(refusal) => {
                    first_refusal.get_or_insert(refusal);
                }
            }
        }
        match (kept.is_empty(), first_refusal) {
            (true, Some(refusal)) => Err(refusal),
            (true, None) => Err(FetchError::UnknownHost(host.to_owned())),
            (false, _) => Ok(kept),
        }
    }

    /// The redirect policy: at most [`MAX_REDIRECTS`] hops, each to a URL `check_url` accepts
    /// (a named host is checked again by the resolver when the hop connects). With
    /// `keep_method` (requests other than GET), only 307 and 308 are followed, which keep the
    /// method and body; a 301, 302 or 303, which a client follows with a GET, is the answer.
    pub fn redirect_policy(self, keep_method: bool) -> Policy {
        Policy::custom(move |attempt: Attempt| {
            if keep_method && !matches!(attempt.status().as_u16(), 307 | 308) {
                return attempt.stop();
            }
            if attempt.previous().len() > MAX_REDIRECTS {
                return attempt.error(FetchError::TooManyRedirects);
            }
            match self.check_parsed(attempt.url()) {
                Ok(()) => attempt.follow(),
                Err(refusal) => attempt.error(refusal),
            }
        })
    }
}

impl Resolve for Guard {
    fn resolve(&self, name: Name) -> Resolving {
        let guard = *self;
        Box::pin(async move {
            let host = name.as_str().to_owned();
            // An IPv6 literal never reaches a resolver; a bare IPv4 one could only come from a
            // caller bypassing `check_url`, and is checked all the same.
            let lowered = host.to_ascii_lowercase();
            let found: Vec<SocketAddr> = match host.parse::<Ipv4Addr>() {
                Ok(ip) => vec![SocketAddr::from((ip, 0))],
                // RFC 6761: `localhost` and every name under it are the loopback addresses,
                // whatever the machine's resolver says (refused unless loopback is allowed).
                Err(_) if lowered == "localhost" || lowered.ends_with(".localhost") => {
                    vec![
                        SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
                        SocketAddr::from((std::net::Ipv6Addr::LOCALHOST, 0)),
                    ]
                }
                Err(_) => {
                    let found = tokio::net::lookup_host((host.as_str(), 0)).await.map(Iterator::collect);
                    found.map_err(|_| FetchError::UnknownHost(host.clone()))?
                }
            };
            let kept = guard.keep_allowed(&host, found)?;
            Ok(Box::new(kept.into_iter()) as Addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::net::addresses::NonPublic;

    const STRICT: Guard = Guard { allow_loopback: false };
    const TESTING: Guard = Guard { allow_loopback: true };

    fn addr(text: &str) -> SocketAddr {
        SocketAddr::new(text.parse().unwrap(), 0)
    }

    #[test]
    fn urls_are_checked_before_any_connection() {
        assert!(STRICT.check_url("https://example.com/a.png").is_ok());
        assert!(STRICT.check_url("http://93.184.215.14/a.png").is_ok());
        for (url, error) in [
            ("ftp://example.com/a.png", FetchError::NotHttp),
            ("file:///etc/passwd", FetchError::NotHttp),
            ("data:image/png;base64,iVBORw0KGgo=", FetchError::NotHttp),
            ("javascript:alert(1)", FetchError::NotHttp),
            ("/relative/a.png", FetchError::InvalidUrl),
            ("http://user:pw@example.com/a.png", FetchError::Credentials),
            ("http://user@example.com/a.png", FetchError::Credentials),
        ] {
            assert_eq!(STRICT.check_url(url).unwrap_err(), error, "{url}");
        }
    }

    #[test]
    fn every_spelling_of_a_private_address_is_refused_as_that_address() {
        let cases = [
            ("http://127.0.0.1/", "127.0.0.1", NonPublic::Loopback),
            ("http://127.1/", "127.0.0.1", NonPublic::Loopback),
            ("http://0x7f000001/", "127.0.0.1", NonPublic::Loopback),
            ("http://2130706433/", "127.0.0.1", NonPublic::Loopback),
            ("http://0177.0.0.1/", "127.0.0.1", NonPublic::Loopback),
            ("http://127.0.0.1./", "127.0.0.1", NonPublic::Loopback),
            ("http://[::1]/", "::1", NonPublic::Loopback),
            ("http://[::ffff:127.0.0.1]/", "::ffff:127.0.0.1", NonPublic::Loopback),
            ("http://[::ffff:7f00:1]/", "::ffff:127.0.0.1", NonPublic::Loopback),
            ("http://169.254.169.254/latest/meta-data/", "169.254.169.254", NonPublic::LinkLocal),
            ("http://10.0.0.1/", "10.0.0.1", NonPublic::Private),
            ("http://0/", "0.0.0.0", NonPublic::Unspecified),
            ("http://[fd00::1]/", "fd00::1", NonPublic::UniqueLocal),
        ];
        for (url, address, kind) in cases {
            let expected = FetchError::Refused { host: None, address: address.parse().unwrap(), kind };
            assert_eq!(STRICT.check_url(url).unwrap_err(), expected, "{url}");
        }
    }

    #[test]
    fn the_test_allowance_opens_plain_loopback_only() {
        for url in ["http://127.0.0.1:8080/", "http://127.1/", "http://[::1]/"] {
            assert!(TESTING.check_url(url).is_ok(), "{url}");
        }
        for url in [
            "http://[::ffff:127.0.0.1]/",
            "http://10.0.0.1/",
            "http://169.254.169.254/",
            "http://0.0.0.0/",
            "http://[::]/",
        ] {
            assert!(TESTING.check_url(url).is_err(), "{url}");
        }
    }

    #[test]
    fn a_name_keeps_only_its_allowed_addresses() {
        let kept = STRICT.keep_allowed("mixed.example", [addr("127.0.0.1"), addr("93.184.215.14"), addr("10.1.1.1")]);
        assert_eq!(kept.unwrap(), [addr("93.184.215.14")]);
        let refused = STRICT.keep_allowed("localhost", [addr("::1"), addr("127.0.0.1")]).unwrap_err();
        assert_eq!(refused.to_string(), "refused: localhost resolves to ::1, a loopback address");
        let refused = TESTING.keep_allowed("internal.example", [addr("192.168.0.10")]).unwrap_err();
        assert_eq!(refused.to_string(), "refused: internal.example resolves to 192.168.0.10, a private address");
        assert_eq!(TESTING.keep_allowed("localhost", [addr("::1"), addr("127.0.0.1")]).unwrap().len(), 2);
        assert_eq!(
            STRICT.keep_allowed("nothing.example", []).unwrap_err(),
            FetchError::UnknownHost("nothing.example".into())
        );
    }
}
