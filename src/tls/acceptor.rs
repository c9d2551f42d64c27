//! TLS accepted by Quire, streams handed to poem.
//!
//! A task accepts TCP connections and gives each its own task (at most 256 handshakes at once,
//! each limited to 10 s). tokio-rustls' `LazyConfigAcceptor` reads the ClientHello; its SNI,
//! normalized, picks the certificate: the admin's (`--tls-cert`) when it covers the name, else
//! the ACME manager's, which may order one first (the handshake then waits). A name neither
//! has is refused by closing the connection, before anything else is done with it. No SNI (or
//! an IP literal, which rustls drops) means the app host. The finished handshake (one
//! `ServerConfig`, ALPN h2 and http/1.1, ring) goes into a channel that [`TlsAcceptor`], a
//! poem `Acceptor`, reads.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
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

/// How long a client has to send its ClientHello, and then to finish the handshake.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// Handshakes in progress at once; more connections wait in the kernel's backlog.
const MAX_HANDSHAKES: usize = 256;

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
    pub fn start(listener: TcpListener, certificates: Certificates) -> anyhow::Result<TlsAcceptor> {
        let local = listener.local_addr()?;
        let mut config =
            rustls::ServerConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
                .with_safe_default_protocol_versions()?
                .with_no_client_auth()
                .with_cert_resolver(Arc::new(certificates.clone()));
        config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
        let config = Arc::new(config);
        let stats = Arc::new(HandshakeStats::default());
        let (tx, rx) = mpsc::channel(64);
        let permits = Arc::new(Semaphore::new(MAX_HANDSHAKES));
        let task_stats = stats.clone();
        tokio::spawn(async move {
            loop {
                let Ok(permit) = permits.clone().acquire_owned().await else { return };
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
                let (tx, certificates, config, stats) =
                    (tx.clone(), certificates.clone(), config.clone(), task_stats.clone());
                tokio::spawn(async move {
                    let _permit = permit;
                    match handshake(tcp, &certificates, config).await {
                        Ok(stream) => {
                            stats.done.fetch_add(1, Ordering::Relaxed);
                            let _ = tx.send((stream, peer)).await;
                        }
                        Err(why) => {
                            stats.refused.fetch_add(1, Ordering::Relaxed);
                            tracing::debug!(%peer, why, "TLS handshake refused");
                        }
                    }
                });
            }
        });
        Ok(TlsAcceptor { rx, local, stats })
    }
}

async fn handshake(
    tcp: TcpStream,
    certificates: &Certificates,
    config: Arc<rustls::ServerConfig>,
) -> Result<TlsStream<TcpStream>, String> {
    let start = tokio::time::timeout(HANDSHAKE_TIMEOUT, LazyConfigAcceptor::new(RustlsAcceptor::default(), tcp))
        .await
        .map_err(|_| "no ClientHello in time".to_owned())?
        .map_err(|e| format!("bad ClientHello: {e}"))?;
    let name = match start.client_hello().server_name() {
        Some(sni) => normalize(sni).ok_or_else(|| format!("SNI {sni:?} is not a DNS name"))?,
        None => certificates.default_name.clone(),
    };
    certificates.ensure(&name).await.map_err(|refused| format!("{name}: {refused}"))?;
    tokio::time::timeout(HANDSHAKE_TIMEOUT, start.into_stream(config))
        .await
        .map_err(|_| "handshake timed out".to_owned())?
        .map_err(|e| format!("handshake: {e}"))
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
