//! Which peers may say who the client is (`--trusted-proxy`), and who the client is given the
//! `X-Forwarded-For` chain they built.

use std::fmt;
use std::net::{IpAddr, SocketAddr};

use ipnet::IpNet;

/// Networks whose `X-Forwarded-For` entries are believed. Any other peer is the client itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustedProxies(Vec<IpNet>);

/// A `--trusted-proxy` value that is neither an IP address nor a CIDR network.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidProxy(pub String);

impl fmt::Display for InvalidProxy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not an IP address or CIDR network (like 10.0.0.5 or 10.0.0.0/8)", self.0)
    }
}

impl std::error::Error for InvalidProxy {}

impl TrustedProxies {
    /// The default: proxies on this machine (127.0.0.0/8 and ::1).
    pub fn loopback() -> TrustedProxies {
        TrustedProxies::parse(["127.0.0.0/8", "::1"]).expect("valid networks")
    }

    /// Parses addresses (`10.0.0.5`, `::1`) and networks (`10.0.0.0/8`, `fd00::/8`); blank
    /// values are skipped. An empty list trusts no proxy.
    pub fn parse<S: AsRef<str>>(values: impl IntoIterator<Item = S>) -> Result<TrustedProxies, InvalidProxy> {
        let mut networks = Vec::new();
        for value in values {
            let value = value.as_ref().trim();
            if value.is_empty() {
                continue;
            }
            let network = match value.parse::<IpAddr>() {
                Ok(ip) => IpNet::from(ip.to_canonical()),
                Err(_) => value.parse::<IpNet>().map_err(|_| InvalidProxy(value.to_owned()))?,
            };
            networks.push(network);
        }
        Ok(TrustedProxies(networks))
    }

    /// Whether `ip` is a trusted proxy.
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = ip.to_canonical();
        self.0.iter().any(|network| network.contains(&ip))
    }

    /// The client of a request from `peer` carrying the `X-Forwarded-For` entries `forwarded`
    /// (every header's entries, in order). Each trusted proxy appends the address it received
    /// from, so the client is the rightmost entry that is not itself a trusted proxy: entries
    /// to its left came from the client and may be forged. A peer that is not trusted is the
    /// client, whatever it sends; an entry that is not an address ends the walk at the nearest
    /// trusted hop.
    pub fn client<'a>(&self, peer: IpAddr, forwarded: impl DoubleEndedIterator<Item = &'a str>) -> IpAddr {
        let mut client = peer.to_canonical();
        if !self.contains(client) {
            return client;
        }
        for entry in forwarded.rev() {
            let Some(hop) = parse_entry(entry) else { return client };
            client = hop;
            if !self.contains(hop) {
                return hop;
            }
        }
        client
    }
}

impl Default for TrustedProxies {
    fn default() -> Self {
        TrustedProxies::loopback()
    }
}

impl fmt::Display for TrustedProxies {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let networks: Vec<String> = self.0.iter().map(IpNet::to_string).collect();
        f.write_str(&networks.join(", "))
    }
}

/// One `X-Forwarded-For` entry: an address, optionally with a port (`[::1]:80`, `10.0.0.1:80`)
/// as some proxies write it.
fn parse_entry(entry: &str) -> Option<IpAddr> {
    let entry = entry.trim();
    let ip = entry
        .parse::<IpAddr>()
        .or_else(|_| entry.parse::<SocketAddr>().map(|addr| addr.ip()))
        .or_else(|_| entry.strip_prefix('[').and_then(|rest| rest.strip_suffix(']')).unwrap_or("").parse::<IpAddr>())
        .ok()?;
    Some(ip.to_canonical())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn client(trusted: &TrustedProxies, peer: &str, forwarded: &str) -> IpAddr {
        trusted.client(ip(peer), forwarded.split(',').filter(|entry| !entry.is_empty()))
    }

    #[test]
    fn by_default_only_a_peer_on_loopback_is_believed() {
        let trusted = TrustedProxies::default();
        assert_eq!(client(&trusted, "127.0.0.1", "203.0.113.7"), ip("203.0.113.7"));
        assert_eq!(client(&trusted, "::1", "2001:db8::7"), ip("2001:db8::7"));
        assert_eq!(client(&trusted, "10.0.0.2", "203.0.113.7"), ip("10.0.0.2"), "an untrusted peer is the client");
        assert_eq!(client(&trusted, "127.0.0.1", ""), ip("127.0.0.1"), "no header: the peer");
    }

    #[test]
    fn the_client_is_the_rightmost_entry_that_is_not_a_trusted_proxy() {
        let trusted = TrustedProxies::parse(["10.0.0.0/8", "192.0.2.1"]).unwrap();
        assert_eq!(client(&trusted, "10.0.0.2", "6.6.6.6, 198.51.100.9, 10.1.2.3, 192.0.2.1"), ip("198.51.100.9"));
        assert_eq!(client(&trusted, "192.0.2.1", "198.51.100.9"), ip("198.51.100.9"));
        assert_eq!(client(&trusted, "10.0.0.2", "10.0.0.9, 10.0.0.8"), ip("10.0.0.9"), "all trusted: the leftmost");
        assert_eq!(
            client(&trusted, "127.0.0.1", "198.51.100.9"),
            ip("127.0.0.1"),
            "the flag replaces the loopback default"
        );
        assert_eq!(
            client(&trusted, "::ffff:10.0.0.2", "198.51.100.9"),
            ip("198.51.100.9"),
            "an IPv4-mapped peer is IPv4"
        );
        assert_eq!(client(&trusted, "10.0.0.2", " [2001:db8::1]:443 , 198.51.100.9:80"), ip("198.51.100.9"));
        assert_eq!(client(&trusted, "10.0.0.2", "198.51.100.9, ::ffff:203.0.113.5"), ip("203.0.113.5"));
    }

    #[test]
    fn an_entry_that_is_not_an_address_stops_at_the_nearest_trusted_hop() {
        let trusted = TrustedProxies::parse(["10.0.0.0/8"]).unwrap();
        assert_eq!(client(&trusted, "10.0.0.2", "198.51.100.9, unknown"), ip("10.0.0.2"));
        assert_eq!(client(&trusted, "10.0.0.2", "unknown, 10.0.0.3"), ip("10.0.0.3"));
    }

    #[test]
    fn no_trusted_proxy_means_every_peer_is_the_client() {
        let trusted = TrustedProxies::parse([" ", ""]).unwrap();
        assert_eq!(client(&trusted, "127.0.0.1", "203.0.113.7"), ip("127.0.0.1"));
    }

    #[test]
    fn values_that_are_not_addresses_or_networks_are_refused_by_name() {
        for bad in ["proxy.example.com", "10.0.0.0/33", "10.0.0", "fe80::/1o", "10.0.0.1:80"] {
            assert_eq!(TrustedProxies::parse(["10.0.0.1", bad]), Err(InvalidProxy(bad.to_owned())), "{bad}");
        }
        let parsed = TrustedProxies::parse(["10.0.0.5", "fd00::/8", "::ffff:192.0.2.1"]).unwrap();
        assert_eq!(parsed.to_string(), "10.0.0.5/32, fd00::/8, 192.0.2.1/32");
        assert_eq!(TrustedProxies::loopback().to_string(), "127.0.0.0/8, ::1/128");
    }
}
