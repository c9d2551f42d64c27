//! Who sent a request.

use std::net::IpAddr;

use poem::Request;

/// The client's address: the peer, or, when the peer is a proxy on this machine, the last
/// hop it added to `X-Forwarded-For` (a client cannot forge the proxy's own entry).
pub fn client_ip(req: &Request) -> Option<IpAddr> {
    let peer = req.remote_addr().as_socket_addr().map(|addr| addr.ip())?;
    if peer.is_loopback() {
        let forwarded = req
            .header("x-forwarded-for")
            .and_then(|value| value.rsplit(',').next())
            .and_then(|hop| hop.trim().parse::<IpAddr>().ok());
        if let Some(ip) = forwarded {
            return Some(ip);
        }
    }
    Some(peer)
}
