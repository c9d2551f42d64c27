//! Who sent a request.

use std::net::IpAddr;

use poem::Request;

use crate::domain::net::proxies::TrustedProxies;

/// The client's address: the TCP peer, or, when the peer is a trusted proxy, the rightmost
/// `X-Forwarded-For` entry that is not a trusted proxy (`TrustedProxies::client`).
pub fn client_ip(req: &Request, trusted: &TrustedProxies) -> Option<IpAddr> {
    let peer = req.remote_addr().as_socket_addr().map(|addr| addr.ip())?;
    // Several header lines form one list, in order; a value that is not text is an entry that
    // is not an address.
    let entries: Vec<&str> = req
        .headers()
        .get_all("x-forwarded-for")
        .iter()
        .flat_map(|value| value.to_str().unwrap_or("").split(','))
        .collect();
    Some(trusted.client(peer, entries.into_iter()))
}

/// Whether a request comes from this machine alone: a loopback peer and, when a proxy on this
/// machine forwarded it, nothing but loopback hops in `X-Forwarded-For`.
pub fn is_from_this_machine(req: &Request) -> bool {
    let peer_is_loopback = req.remote_addr().as_socket_addr().is_some_and(|addr| addr.ip().is_loopback());
    let hops_are_loopback = req.headers().get_all("x-forwarded-for").iter().all(|value| {
        value
            .to_str()
            .is_ok_and(|hops| hops.split(',').all(|hop| hop.trim().parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())))
    });
    peer_is_loopback && hops_are_loopback
}

/// Whether the client takes a gzipped body (`Accept-Encoding: gzip`, not `gzip;q=0`).
pub fn accepts_gzip(req: &Request) -> bool {
    accepts_encoding(req, "gzip")
}

/// Whether `Accept-Encoding` names `coding` (or `*`) with a weight above 0: `br`, `br;q=0.5`, not `br;q=0`.
pub fn accepts_encoding(req: &Request, coding: &str) -> bool {
    let Some(value) = req.header(poem::http::header::ACCEPT_ENCODING) else { return false };
    value.split(',').any(|item| {
        let mut parts = item.split(';');
        let name = parts.next().unwrap_or("").trim();
        let weight = parts
            .filter_map(|param| param.trim().strip_prefix("q=").or_else(|| param.trim().strip_prefix("Q=")))
            .map(|q| q.trim().parse::<f32>().unwrap_or(0.0))
            .next()
            .unwrap_or(1.0);
        (name.eq_ignore_ascii_case(coding) || name == "*") && weight > 0.0
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(accept: &str) -> Request {
        Request::builder().header(poem::http::header::ACCEPT_ENCODING, accept).finish()
    }

    #[test]
    fn an_encoding_is_accepted_when_named_or_starred_with_a_weight_above_zero() {
        assert!(accepts_encoding(&request("gzip, deflate, br"), "br"));
        assert!(accepts_encoding(&request("BR;q=0.5"), "br"));
        assert!(accepts_encoding(&request("*"), "br"));
        assert!(!accepts_encoding(&request("br;q=0, gzip"), "br"));
        assert!(!accepts_encoding(&request("gzip;q=0.0"), "gzip"));
        assert!(!accepts_encoding(&request("brotli, gzip"), "br"));
        assert!(!accepts_encoding(&Request::builder().finish(), "br"));
        assert!(accepts_gzip(&request("gzip;q=0.1")), "q=0.1 is not q=0");
    }
}
