//! TLS accepted by Quire, streams handed to poem.
//!
//! A task accepts TCP connections and gives each its own task. What one client can hold is
//! bounded in three steps ([`HandshakeLimits`], docs/tls.md):
//!
//! 1. Accepted: the connection counts against its address (an IPv6 /64) until its handshake
//!    ends; past `per_address` handshakes in progress it is closed at once. Nothing shared is
//!    held yet, so idle connections from one address cannot keep anyone else out.
//! 2. The ClientHello, within `hello_timeout` (a few seconds). tokio-rustls' `LazyConfigAcceptor`
//!    reads it; its SNI, normalized, names the certificate: the admin's (`--tls-cert`) when it
//!    covers the name, else the ACME manager's. A name neither serves is refused by closing the
//!    connection. No SNI (or an IP literal, which rustls drops) means the app host. A name
//!    with no certificate yet waits for its order here, still holding no shared slot.
//! 3. The rest of the handshake takes one of `shared` slots, for at most `handshake_timeout`.
//!
//! The finished handshake (one `ServerConfig`, ALPN h2 and http/1.1, ring) goes into a channel
//! that [`TlsAcceptor`], a poem `Acceptor`, reads.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use poem::http::uri::Scheme;
use poem::listener::Acceptor;
use poem::web::{LocalAddr, RemoteAddr};
use rustls::server::{Acceptor as RustlsAcceptor, ClientHello, ResolvesServerCert};
use rustls::sign::CertifiedKey;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, mpsc};
use tokio_rustls::LazyConfigAcceptor;
use tokio_rustls::server::TlsStream;

use super::manager::{Manager, Refused};
use super::normalize;
use super::static_cert::StaticCert;
pub use crate::config::HandshakeLimits;

/// Where certificates come from: the admin's, ACME's, or both (the admin's first).
#[derive(Clone)]
pub struct Certificates {
    /// `--tls-cert` / `--tls-key`.
    pub fixed: Option<Arc<StaticCert>>,
    /// `--acme-email`.
    pub acme: Option<Arc<Manager>>,
    /// The name a ClientHello without SNI gets: the app host.
    pub default_name: String,
}

impl std::fmt::Debug for Certificates {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Certificates")
    }
}

impl Certificates {
    /// The certificate in memory for `name`.
    fn lookup(&self, name: &str) -> Option<Arc<CertifiedKey>> {
        if let Some(key) = self.fixed.as_ref().and_then(|fixed| fixed.for_name(name)) {
            return Some(key);
        }
        self.acme.as_ref()?.certs().get(name).map(|stored| stored.key.clone())
    }

    /// Whether `name` is one to answer for: the admin's certificate covers it, or the ACME
    /// manager's policy allows it (a refusal is counted there).
    fn serves(&self, name: &str) -> bool {
        self.fixed.as_ref().is_some_and(|fixed| fixed.for_name(name).is_some())
            || self.acme.as_ref().is_some_and(|manager| manager.serves_counted(name))
    }

    /// Makes sure `name` has a certificate, ordering one when it may.
    async fn ensure(&self, name: &str) -> Result<(), Refused> {
        if self.fixed.as_ref().is_some_and(|fixed| fixed.for_name(name).is_some()) {
            return Ok(());
        }
        match &self.acme {
            Some(manager) => manager.ensure(name).await,
            None => Err(Refused::NotServed),
        }
    }
}

impl ResolvesServerCert for Certificates {
    fn resolve(&self, hello: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        match hello.server_name() {
            Some(name) => self.lookup(&normalize(name)?),
            None => self.lookup(&self.default_name),
        }
    }
}

/// Counters tests read.
#[derive(Debug, Default)]
pub struct HandshakeStats {
    /// Handshakes finished.
    pub done: AtomicU64,
    /// Connections closed without a finished handshake.
    pub refused: AtomicU64,
    /// Of those, connections closed at once: their address had too many handshakes in progress.
    pub over_address_limit: AtomicU64,
}

/// Handshakes in progress by address (IPv4, or an IPv6 /64): what [`AddressSlot`]s count.
#[derive(Debug, Default)]
struct InProgress(Mutex<HashMap<IpAddr, usize>>);

/// One handshake's place in its address's allowance, given back when dropped.
struct AddressSlot {
    in_progress: Arc<InProgress>,
    address: IpAddr,
}

impl InProgress {
    /// A place for one more handshake from `peer`, unless it already has `limit` in progress.
    fn take(self: &Arc<Self>, peer: IpAddr, limit: usize) -> Option<AddressSlot> {
        let address = address_key(peer);
        let mut counts = self.0.lock().expect("handshakes lock");
        let count = counts.entry(address).or_insert(0);
        if *count >= limit {
            return None;
        }
        *count += 1;
        Some(AddressSlot { in_progress: self.clone(), address })
    }
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let mut counts = self.in_progress.0.lock().expect("handshakes lock");
        if let Some(count) = counts.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                counts.remove(&self.address);
            }
        }
    }
}

/// What one client is counted as: its IPv4 address (also when mapped into IPv6), or its IPv6
/// /64, the block one subscriber usually gets.
fn address_key(peer: IpAddr) -> IpAddr {
    match peer.to_canonical() {
        IpAddr::V6(v6) => {
            let segments = v6.segments();
            IpAddr::V6(std::net::Ipv6Addr::new(segments[0], segments[1], segments[2], segments[3], 0, 0, 0, 0))
        }
        v4 => v4,
    }
}

/// The HTTPS listener as poem sees it.
pub struct TlsAcceptor {
    rx: mpsc::Receiver<(TlsStream<TcpStream>, SocketAddr)>,
    local: SocketAddr,
    /// Handshake counters.
    pub stats: Arc<HandshakeStats>,
}

impl TlsAcceptor {
    /// Starts accepting on `listener` (already bound, so a busy port fails at start).
    pub fn start(
        listener: TcpListener,
        certificates: Certificates,
        limits: HandshakeLimits,
    ) -> anyhow::Result<TlsAcceptor> {
        let local = listener.local_addr()?;
        let mut config =
            rustls::ServerConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
                .with_safe_default_protocol_versions()?
                .with_no_client_auth()
                .with_cert_resolver(Arc::new(certificates.clone()));
        config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
        let handshaker = Arc::new(Handshaker {
            certificates,
            config: Arc::new(config),
            limits,
            shared: Semaphore::new(limits.shared),
            in_progress: Arc::default(),
            stats: Arc::default(),
        });
        let stats = handshaker.stats.clone();
        let (tx, rx) = mpsc::channel(64);
        tokio::spawn(async move {
            loop {
                // Ends (closing the listener) when poem drops the acceptor, at shutdown.
                let accepted = tokio::select! {
                    accepted = listener.accept() => accepted,
                    () = tx.closed() => return,
                };
                let (tcp, peer) = match accepted {
                    Ok(accepted) => accepted,
                    Err(e) => {
                        tracing::warn!(error = %e, "HTTPS accept failed");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                };
                let Some(slot) = handshaker.in_progress.take(peer.ip(), limits.per_address) else {
                    handshaker.stats.refused.fetch_add(1, Ordering::Relaxed);
                    handshaker.stats.over_address_limit.fetch_add(1, Ordering::Relaxed);
                    tracing::debug!(%peer, "TLS connection closed: too many handshakes in progress from its address");
                    continue;
                };
                let (tx, handshaker) = (tx.clone(), handshaker.clone());
                tokio::spawn(async move {
                    let result = handshaker.handshake(tcp).await;
                    drop(slot);
                    match result {
                        Ok(stream) => {
                            handshaker.stats.done.fetch_add(1, Ordering::Relaxed);
                            let _ = tx.send((stream, peer)).await;
                        }
                        Err(why) => {
                            handshaker.stats.refused.fetch_add(1, Ordering::Relaxed);
                            tracing::debug!(%peer, why, "TLS handshake refused");
                        }
                    }
                });
            }
        });
        Ok(TlsAcceptor { rx, local, stats })
    }
}

/// What every handshake shares: the certificates, the server config, the limits and the slots.
struct Handshaker {
    certificates: Certificates,
    config: Arc<rustls::ServerConfig>,
    limits: HandshakeLimits,
    /// The handshakes in progress past a ClientHello naming a served name.
    shared: Semaphore,
    in_progress: Arc<InProgress>,
    stats: Arc<HandshakeStats>,
}

impl Handshaker {
    /// One connection's handshake, in the three steps of the module's comment.
    async fn handshake(&self, tcp: TcpStream) -> Result<TlsStream<TcpStream>, String> {
        let start =
            tokio::time::timeout(self.limits.hello_timeout, LazyConfigAcceptor::new(RustlsAcceptor::default(), tcp))
                .await
                .map_err(|_| "no ClientHello in time".to_owned())?
                .map_err(|e| format!("bad ClientHello: {e}"))?;
        let name = match start.client_hello().server_name() {
            Some(sni) => normalize(sni).ok_or_else(|| format!("SNI {sni:?} is not a DNS name"))?,
            None => self.certificates.default_name.clone(),
        };
        if !self.certificates.serves(&name) {
            return Err(format!("{name}: {}", Refused::NotServed));
        }
        // A certificate being ordered is waited for here, before a shared slot is taken.
        self.certificates.ensure(&name).await.map_err(|refused| format!("{name}: {refused}"))?;
        let timeout = self.limits.handshake_timeout;
        let _slot = tokio::time::timeout(timeout, self.shared.acquire())
            .await
            .map_err(|_| "no handshake slot in time".to_owned())?
            .map_err(|_| "the listener is closing".to_owned())?;
        tokio::time::timeout(timeout, start.into_stream(self.config.clone()))
            .await
            .map_err(|_| "handshake timed out".to_owned())?
            .map_err(|e| format!("handshake: {e}"))
    }
}

impl Acceptor for TlsAcceptor {
    type Io = TlsStream<TcpStream>;

    fn local_addr(&self) -> Vec<LocalAddr> {
        vec![LocalAddr(self.local.into())]
    }

    async fn accept(&mut self) -> std::io::Result<(Self::Io, LocalAddr, RemoteAddr, Scheme)> {
        match self.rx.recv().await {
            Some((stream, peer)) => Ok((stream, LocalAddr(self.local.into()), RemoteAddr(peer.into()), Scheme::HTTPS)),
            // The accept task is gone: pend rather than return errors poem would retry at once.
            None => std::future::pending().await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_is_its_ipv4_address_or_its_ipv6_slash_64() {
        let key = |text: &str| address_key(text.parse().unwrap()).to_string();
        assert_eq!(key("203.0.113.9"), "203.0.113.9");
        assert_eq!(key("::ffff:203.0.113.9"), "203.0.113.9", "a mapped IPv4 address is that address");
        assert_eq!(key("2001:db8:1:2:aaaa:bbbb:cccc:dddd"), "2001:db8:1:2::");
        assert_eq!(key("2001:db8:1:2::1"), key("2001:db8:1:2:ffff::9"), "one /64, one client");
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
    }

    #[test]
    fn an_address_gets_its_limit_of_slots_back_as_they_are_dropped() {
        let in_progress = Arc::new(InProgress::default());
        let peer: IpAddr = "192.0.2.1".parse().unwrap();
        let slots: Vec<_> = (0..3).map(|_| in_progress.take(peer, 3).expect("within the limit")).collect();
        assert!(in_progress.take(peer, 3).is_none(), "the fourth is refused");
        assert!(in_progress.take("192.0.2.2".parse().unwrap(), 3).is_some(), "another address is not");
        drop(slots);
        assert!(in_progress.take(peer, 3).is_some(), "given back");
        assert!(in_progress.0.lock().unwrap().is_empty(), "no entry left for addresses with none in progress");
    }
}
