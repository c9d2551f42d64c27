//! HTTPS served by Quire itself: the settings of `--acme-email`, `--tls-cert` and their
//! listeners, and the combinations refused because they cannot work.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::bail;

use crate::cli::TlsArgs;
use crate::config::host::is_local_host;

/// HTTPS served by Quire itself (`--acme-email`, `--tls-cert`).
#[derive(Debug, Clone)]
pub struct TlsConfig {
    /// Certificates obtained over ACME.
    pub acme: Option<AcmeConfig>,
    /// The admin's certificate chain and key files.
    pub cert: Option<(PathBuf, PathBuf)>,
    /// Where HTTPS is served.
    pub https_listen: SocketAddr,
    /// Where HTTP-01 challenges are answered and everything else redirected to https.
    pub http_listen: SocketAddr,
    /// The first pause after a failed order (`tls::manager::FIRST_BACKOFF`; tests shorten it).
    pub first_backoff: Duration,
    /// What one client may hold of the HTTPS listener's handshakes.
    pub handshakes: HandshakeLimits,
}

/// The limits on TLS handshakes in progress (`--tls-hello-timeout`, `--tls-handshakes-per-address`,
/// `--tls-max-handshakes`; docs/tls.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HandshakeLimits {
    /// How long a connection has to send its ClientHello.
    pub hello_timeout: Duration,
    /// How long the rest of the handshake may take, once a slot is given.
    pub handshake_timeout: Duration,
    /// Handshakes in progress from one address (an IPv6 /64), from accept to the end.
    pub per_address: usize,
    /// Handshakes in progress for everyone, from a ClientHello naming a served name.
    pub shared: usize,
}

impl Default for HandshakeLimits {
    fn default() -> HandshakeLimits {
        HandshakeLimits {
            hello_timeout: Duration::from_secs(3),
            handshake_timeout: Duration::from_secs(10),
            per_address: 32,
            shared: 256,
        }
    }
}

/// The ACME CA and account.
#[derive(Debug, Clone)]
pub struct AcmeConfig {
    /// The account's contact address.
    pub email: String,
    /// The CA's directory URL (https).
    pub directory: String,
    /// A root to trust for the directory's HTTPS.
    pub ca_root: Option<PathBuf>,
    /// New certificates (not renewals) ordered in 24 hours at most.
    pub new_certificates_per_day: usize,
}

/// The TLS settings of `serve`'s flags, refusing combinations that cannot work; `None` without
/// `--acme-email` and `--tls-cert`. `listen_given`: `--listen` was set (flag or environment).
pub(super) fn tls_config(args: &TlsArgs, raw_host: &str, listen_given: bool) -> anyhow::Result<Option<TlsConfig>> {
    let cert = match (&args.tls_cert, &args.tls_key) {
        (Some(cert), Some(key)) => Some((cert.clone(), key.clone())),
        (Some(_), None) => bail!("--tls-cert needs --tls-key (the certificate's private key, PEM)"),
        (None, Some(_)) => bail!("--tls-key needs --tls-cert (the certificate chain, PEM)"),
        (None, None) => None,
    };
    let acme = match args.acme_email.as_deref().map(str::trim) {
        None => None,
        Some(email) => {
            if email.is_empty() || !email.contains('@') || email.contains(char::is_whitespace) {
                bail!("--acme-email must be an email address, like admin@example.com; got {email:?}");
            }
            let directory = args.acme_directory.trim().to_owned();
            if !directory.starts_with("https://") || url::Url::parse(&directory).is_err() {
                bail!("--acme-directory must be an https:// URL, got {directory:?}");
            }
            let name = raw_host.trim().to_ascii_lowercase();
            let name = name.rsplit_once(':').map_or(name.as_str(), |(name, _)| name).trim_end_matches('.').to_owned();
            if is_local_host(&name) || name.trim_matches(['[', ']']).parse::<std::net::IpAddr>().is_ok() {
                bail!(
                    "--acme-email needs a public --host name a CA can issue certificates for (with DNS pointing \
                     here), not {name:?}"
                );
            }
            if args.acme_new_certificates_per_day == 0 {
                bail!("--acme-new-certificates-per-day must be at least 1");
            }
            Some(AcmeConfig {
                email: email.to_owned(),
                directory,
                ca_root: args.acme_ca_root.clone(),
                new_certificates_per_day: args.acme_new_certificates_per_day,
            })
        }
    };
    if acme.is_none() && cert.is_none() {
        return Ok(None);
    }
    if listen_given {
        bail!(
            "--listen is for plain HTTP behind a proxy; with --acme-email or --tls-cert Quire listens on \
             --https-listen (default [::]:443) and --http-listen (default [::]:80) instead"
        );
    }
    if args.tls_hello_timeout == 0 || args.tls_handshakes_per_address == 0 || args.tls_max_handshakes == 0 {
        bail!("--tls-hello-timeout, --tls-handshakes-per-address and --tls-max-handshakes must be at least 1");
    }
    if args.https_listen == args.http_listen {
        bail!("--https-listen and --http-listen must differ, both are {}", args.https_listen);
    }
    Ok(Some(TlsConfig {
        acme,
        cert,
        https_listen: args.https_listen,
        http_listen: args.http_listen,
        first_backoff: Duration::from_secs(600),
        handshakes: HandshakeLimits {
            hello_timeout: Duration::from_secs(args.tls_hello_timeout),
            per_address: args.tls_handshakes_per_address,
            shared: args.tls_max_handshakes,
            ..HandshakeLimits::default()
        },
    }))
}
