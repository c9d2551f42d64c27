//! The one place a connection to the SMTP relay is made (docs/email.md, "The SMTP relay"): the
//! TCP connection, opened here with `TCP_NODELAY`, then TLS from the first byte (`smtps://`) or
//! after a required STARTTLS (`smtp+starttls://`), the relay's certificate checked against the
//! built-in roots and `--smtp-ca-file`, then the login, never before TLS when TLS is asked for.
//!
//! Why the socket is ours and not lettre's: lettre writes a command and flushes, sometimes in two
//! writes (a message's body, then its closing `.`); with Nagle's algorithm the second waited for
//! the relay's delayed ACK, about 40 ms a message. lettre 0.11 takes a stream the caller opened
//! (`AsyncSmtpConnection::connect_with_transport`), so the socket is opened here with Nagle off.

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use anyhow::anyhow;
use lettre::transport::smtp::authentication::{Credentials, DEFAULT_MECHANISMS};
use lettre::transport::smtp::client::{
    AsyncSmtpConnection, AsyncTokioStream, Certificate, CertificateStore, TlsParameters, TlsParametersBuilder,
};
use lettre::transport::smtp::extension::{ClientId, Extension};
use rustls::pki_types::ServerName;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

use super::relay::{SendError, sort_error};
use crate::config::{MailConfig, Security};

/// How to reach the configured relay; [`Connector::connect`] opens one connection, ready for a
/// message.
pub struct Connector {
    host: String,
    port: u16,
    tls: Tls,
    credentials: Option<Credentials>,
    hello: ClientId,
    connect_timeout: Duration,
}

/// The TLS of the connection, set up once.
enum Tls {
    /// `smtp://`.
    None,
    /// `smtp+starttls://`: lettre upgrades the connection it holds.
    Upgraded(TlsParameters),
    /// `smtps://`: the handshake is done here before lettre reads the greeting.
    Implicit(tokio_rustls::TlsConnector, ServerName<'static>),
}

impl Connector {
    /// The relay `config` names, trusting the built-in roots and `--smtp-ca-file`'s; an error
    /// names the flag.
    pub fn new(config: &MailConfig) -> anyhow::Result<Connector> {
        let extra_roots = &config.relay_roots;
        let relay = &config.relay;
        let tls = match relay.security {
            Security::Plain => Tls::None,
            Security::StartTls => {
                let mut builder =
                    TlsParametersBuilder::new(relay.host.clone()).certificate_store(CertificateStore::WebpkiRoots);
                for root in extra_roots {
                    let root = Certificate::from_der(root.to_vec())
                        .map_err(|err| anyhow!("--smtp-ca-file: a certificate cannot be used: {err}"))?;
                    builder = builder.add_root_certificate(root);
                }
                let parameters = builder
                    .build_rustls()
                    .map_err(|err| anyhow!("--smtp-url: cannot set up STARTTLS to {}: {err}", relay.host))?;
                Tls::Upgraded(parameters)
            }
            Security::Tls => {
                let mut roots = rustls::RootCertStore { roots: webpki_roots::TLS_SERVER_ROOTS.to_vec() };
                for root in extra_roots {
                    roots
                        .add(root.clone())
                        .map_err(|err| anyhow!("--smtp-ca-file: a certificate cannot be used: {err}"))?;
                }
                let provider = Arc::new(rustls::crypto::ring::default_provider());
                let config = rustls::ClientConfig::builder_with_provider(provider)
                    .with_safe_default_protocol_versions()
                    .map_err(|err| anyhow!("--smtp-url: cannot set up TLS to {}: {err}", relay.host))?
                    .with_root_certificates(roots)
                    .with_no_client_auth();
                let name = ServerName::try_from(relay.host.clone())
                    .map_err(|_| anyhow!("--smtp-url: {} is not a host name TLS can check", relay.host))?;
                Tls::Implicit(tokio_rustls::TlsConnector::from(Arc::new(config)), name)
            }
        };
        Ok(Connector {
            host: relay.host.clone(),
            port: relay.port,
            tls,
            credentials: relay
                .credentials
                .as_ref()
                .map(|(user, password)| Credentials::new(user.clone(), password.clone())),
            hello: ClientId::Domain(config.from_domain().to_owned()),
            connect_timeout: config.connect_timeout,
        })
    }

    /// `host:port`, for messages.
    pub fn name(&self) -> String {
        format!("{}:{}", self.host, self.port)
    }

    /// A connection to the relay: greeted, encrypted as asked and logged in.
    pub async fn connect(&self) -> Result<AsyncSmtpConnection, SendError> {
        let tcp = self.tcp().await?;
        let mut connection = match &self.tls {
            Tls::None | Tls::Upgraded(_) => AsyncSmtpConnection::connect_with_transport(Box::new(tcp), &self.hello)
                .await
                .map_err(|err| sort_error(&self.name(), &err))?,
            Tls::Implicit(connector, name) => {
                let stream = connector.connect(name.clone(), tcp).await.map_err(|err| self.tls_failed(&err))?;
                AsyncSmtpConnection::connect_with_transport(Box::new(Encrypted(stream)), &self.hello)
                    .await
                    .map_err(|err| sort_error(&self.name(), &err))?
            }
        };
        if let Tls::Upgraded(parameters) = &self.tls {
            if !connection.server_info().supports_feature(Extension::StartTls) {
                connection.abort().await;
                return Err(SendError::Later(format!(
                    "the relay {} does not offer STARTTLS (smtp+starttls://); nothing was sent",
                    self.name()
                )));
            }
            connection.starttls(parameters.clone(), &self.hello).await.map_err(|err| match err.status() {
                Some(_) => SendError::Later(format!("the relay {} refused STARTTLS: {err}", self.name())),
                None => self.tls_failed(&err),
            })?;
        }
        if let Some(credentials) = &self.credentials
            && let Err(err) = connection.auth(DEFAULT_MECHANISMS, credentials).await
        {
            connection.abort().await;
            return Err(sort_error(&self.name(), &err));
        }
        Ok(connection)
    }

    /// The TLS handshake failed because of `cause` (the relay's certificate, most often).
    fn tls_failed(&self, cause: &dyn std::fmt::Display) -> SendError {
        // lettre wraps a failed STARTTLS handshake in "Connection error: " (twice).
        let cause = cause.to_string();
        let cause = cause.trim_start_matches("Connection error: ");
        let hint = if cause.contains("certificate") {
            format!(" (is it valid for {} and signed by a CA Quire trusts? see --smtp-ca-file)", self.host)
        } else {
            String::new()
        };
        SendError::Later(format!("the relay {}: TLS failed: {cause}{hint}", self.name()))
    }

    /// The TCP connection, to the first of the host's addresses that answers, Nagle off.
    async fn tcp(&self) -> Result<TcpStream, SendError> {
        let failed = |err: &dyn std::fmt::Display| SendError::Later(format!("the relay {}: {err}", self.name()));
        let addresses: Vec<SocketAddr> =
            tokio::net::lookup_host((self.host.as_str(), self.port)).await.map_err(|err| failed(&err))?.collect();
        let mut last = None;
        for address in addresses {
            match tokio::time::timeout(self.connect_timeout, TcpStream::connect(address)).await {
                Ok(Ok(stream)) => {
                    stream.set_nodelay(true).map_err(|err| failed(&err))?;
                    return Ok(stream);
                }
                Ok(Err(err)) => last = Some(format!("cannot connect to {address}: {err}")),
                Err(_) => last = Some(format!("cannot connect to {address} within {:?}", self.connect_timeout)),
            }
        }
        Err(failed(&last.unwrap_or_else(|| "the host has no address".to_owned())))
    }
}

/// A TLS stream from the first byte, as lettre takes a stream it did not open.
#[derive(Debug)]
struct Encrypted(tokio_rustls::client::TlsStream<TcpStream>);

impl AsyncTokioStream for Encrypted {
    fn peer_addr(&self) -> io::Result<SocketAddr> {
        self.0.get_ref().0.peer_addr()
    }
}

impl AsyncRead for Encrypted {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_read(cx, buf)
    }
}

impl AsyncWrite for Encrypted {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.0).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_shutdown(cx)
    }
}
