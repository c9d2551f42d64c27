//! The public host name as `--host` gives it, normalized, and the checks of which hosts and
//! URLs name this machine only.

use std::net::{Ipv4Addr, Ipv6Addr};

use anyhow::bail;
use url::Host;

/// Normalizes a `host[:port]` value: lowercase, no scheme, no path, no trailing dot.
pub fn parse_host(raw: &str) -> anyhow::Result<String> {
    let host = raw.trim().to_ascii_lowercase();
    if host.contains("://") || host.contains('/') {
        bail!("give the host name only, like blog.example.com or localhost:8080 (no scheme, no path)");
    }
    let (name, port) = match host.rsplit_once(':') {
        Some((name, port)) => (name, Some(port)),
        None => (host.as_str(), None),
    };
    let name = name.trim_end_matches('.');
    let valid_name = !name.is_empty()
        && name.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        });
    if !valid_name {
        bail!("{name:?} is not a valid host name");
    }
    match port {
        Some(port) if port.parse::<u16>().is_err() => bail!("{port:?} is not a valid port"),
        Some(port) => Ok(format!("{name}:{port}")),
        None => Ok(name.to_owned()),
    }
}

/// Whether `url` is an `http://` URL of this machine: its host exactly `localhost`, `127.0.0.1`
/// or `[::1]`, with no user info (`http://localhost:1@evil.com` is evil.com's).
pub(super) fn is_loopback_http(url: &str) -> bool {
    let Ok(url) = url::Url::parse(url) else { return false };
    let host_is_loopback = match url.host() {
        Some(Host::Domain(name)) => name == "localhost",
        Some(Host::Ipv4(ip)) => ip == Ipv4Addr::LOCALHOST,
        Some(Host::Ipv6(ip)) => ip == Ipv6Addr::LOCALHOST,
        None => false,
    };
    url.scheme() == "http" && url.username().is_empty() && url.password().is_none() && host_is_loopback
}

/// Drops the scheme's default port (`:443` with https, `:80` without): browsers leave it out
/// of the Host and Origin headers, so the app's origin must not name it either.
pub fn without_default_port(host: String, https: bool) -> String {
    let default = if https { ":443" } else { ":80" };
    match host.strip_suffix(default) {
        Some(name) => name.to_owned(),
        None => host,
    }
}

/// Whether a normalized host names this machine only (`localhost`, `*.localhost`, `127.0.0.1`).
pub fn is_local_host(host: &str) -> bool {
    let name = host.rsplit_once(':').map_or(host, |(name, _)| name);
    name == "localhost" || name.ends_with(".localhost") || name == "127.0.0.1"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_normalized_and_bad_ones_refused() {
        assert_eq!(parse_host("Blog.Example.COM.").unwrap(), "blog.example.com");
        assert_eq!(parse_host("localhost:8080").unwrap(), "localhost:8080");
        assert!(parse_host("https://example.com").is_err());
        assert!(parse_host("example.com/blog").is_err());
        assert!(parse_host("exa mple.com").is_err());
        assert!(parse_host("example.com:99999").is_err());
        assert!(parse_host("").is_err());
    }

    #[test]
    fn local_hosts_are_recognized() {
        assert!(is_local_host("localhost:8080"));
        assert!(is_local_host("quire.localhost"));
        assert!(!is_local_host("example.com"));
        assert!(!is_local_host("localhost.example.com"));
    }
}
