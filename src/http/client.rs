//! Who sent a request.

use std::net::IpAddr;

use poem::Request;

use crate::domain::proxies::TrustedProxies;

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
        value.to_str().is_ok_and(|hops| {
            hops.split(',').all(|hop| hop.trim().parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback()))
        })
    });
    peer_is_loopback && hops_are_loopback
}

/// Whether the client takes a gzipped body (`Accept-Encoding: gzip`, not `gzip;q=0`).
pub fn accepts_gzip(req: &Request) -> bool {
    req.header(poem::http::header::ACCEPT_ENCODING)
        .is_some_and(|v| v.split(',').any(|enc| enc.trim() == "gzip" || enc.trim().starts_with("gzip;") && !enc.contains("q=0")))
}
