//! The mail settings (issue 30; docs/email.md, "The SMTP relay"): `--smtp-url` and its password,
//! `--smtp-ca-file`, `--mail-from`, the sending limits, checked once at start.

use std::num::NonZeroU32;
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, anyhow, bail};
use lettre::message::Mailbox;
use percent_encoding::percent_decode_str;
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;

use super::dkim::{Dkim, signer};
use crate::cli::MailArgs;

/// How long connecting to the relay may take.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(20);
/// How long one message's whole exchange with the relay may take.
pub const ANSWER_TIMEOUT: Duration = Duration::from_secs(60);

/// How the connection to the relay is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Security {
    /// `smtp://`: plain SMTP (a relay on this machine or a private network).
    Plain,
    /// `smtp+starttls://`: plain, then STARTTLS, required.
    StartTls,
    /// `smtps://`: TLS from the first byte.
    Tls,
}

/// The relay `--smtp-url` names.
#[derive(Clone, PartialEq, Eq)]
pub struct Relay {
    /// Plain, STARTTLS or TLS.
    pub security: Security,
    /// Its host name or address.
    pub host: String,
    /// Its port (25, 587 or 465 when the URL names none).
    pub port: u16,
    /// The user name and password, when the relay wants them.
    pub credentials: Option<(String, String)>,
}

impl std::fmt::Debug for Relay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the password.
        f.debug_struct("Relay")
            .field("security", &self.security)
            .field("host", &self.host)
            .field("port", &self.port)
            .field("user", &self.credentials.as_ref().map(|(user, _)| user))
            .finish()
    }
}

/// The mail settings; `Config::mail` is None without `--smtp-url`.
#[derive(Debug, Clone)]
pub struct MailConfig {
    /// Where mail goes.
    pub relay: Relay,
    /// `--smtp-ca-file`'s certificates, trusted for the relay besides the built-in roots.
    pub relay_roots: Vec<CertificateDer<'static>>,
    /// `--mail-from`: the address of every message, and the display name of the instance's own.
    pub from: Mailbox,
    /// Messages the instance sends a minute, at most.
    pub per_minute: NonZeroU32,
    /// Messages one blog sends a UTC day, at most.
    pub per_blog_per_day: u32,
    /// One minute of the queue's backoff (shorter only in tests).
    pub retry_unit: Duration,
    /// How long connecting may take.
    pub connect_timeout: Duration,
    /// How long one message's exchange may take in all.
    pub answer_timeout: Duration,
    /// The DKIM signer (`--dkim-key`, `--dkim-selector`), if any.
    pub dkim: Option<Dkim>,
}

impl MailConfig {
    /// The mail settings of `args`: None without `--smtp-url`, an error naming the flag when
    /// they cannot work.
    pub fn from_args(args: &MailArgs) -> anyhow::Result<Option<MailConfig>> {
        let Some(url) = args.smtp_url.as_deref().map(str::trim).filter(|url| !url.is_empty()) else {
            return Ok(None);
        };
        let mut relay = parse_relay(url)?;
        if let Some(file) = &args.smtp_password_file {
            let text = std::fs::read_to_string(file)
                .with_context(|| format!("--smtp-password-file: cannot read {}", file.display()))?;
            let password = text.lines().next().unwrap_or("").to_owned();
            let Some((_, stored)) = relay.credentials.as_mut() else {
                bail!("--smtp-password-file needs a user name in --smtp-url (smtps://USER@host)");
            };
            *stored = password;
        }
        let relay_roots = match &args.smtp_ca_file {
            Some(file) => read_roots(file)?,
            None => Vec::new(),
        };
        let from = args.mail_from.as_deref().map(str::trim).filter(|from| !from.is_empty()).ok_or_else(|| {
            anyhow!("--smtp-url needs --mail-from, the sender's address (e.g. \"Quire <noreply@example.com>\")")
        })?;
        let from: Mailbox =
            from.parse().map_err(|err| anyhow!("--mail-from {from:?} is not an email address ({err})"))?;
        let per_minute = NonZeroU32::new(args.mail_per_minute).context("--mail-per-minute must be at least 1")?;
        let dkim = signer(args.dkim_key.as_deref(), args.dkim_selector.as_deref(), from.email.domain())?;
        let (retry_unit, timeout) = args.test_only.given();
        Ok(Some(MailConfig {
            relay,
            relay_roots,
            from,
            per_minute,
            per_blog_per_day: args.mail_per_blog_per_day,
            retry_unit: retry_unit.unwrap_or(Duration::from_secs(60)),
            connect_timeout: timeout.unwrap_or(CONNECT_TIMEOUT),
            answer_timeout: timeout.unwrap_or(ANSWER_TIMEOUT),
            dkim,
        }))
    }

    /// The domain of `--mail-from`, for the messages' `Message-ID`.
    pub fn from_domain(&self) -> &str {
        self.from.email.domain()
    }
}

/// `--smtp-ca-file`'s certificates: at least one, each one a trust anchor can be made of.
fn read_roots(file: &Path) -> anyhow::Result<Vec<CertificateDer<'static>>> {
    let shown = file.display();
    let pem = std::fs::read(file).with_context(|| format!("--smtp-ca-file: cannot read {shown}"))?;
    let roots = CertificateDer::pem_slice_iter(&pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|err| anyhow!("--smtp-ca-file: {shown} is not PEM ({err})"))?;
    if roots.is_empty() {
        bail!("--smtp-ca-file: {shown} holds no PEM certificate (-----BEGIN CERTIFICATE-----)");
    }
    let mut store = rustls::RootCertStore::empty();
    for root in &roots {
        store
            .add(root.clone())
            .map_err(|err| anyhow!("--smtp-ca-file: {shown} holds a certificate that cannot be read ({err})"))?;
    }
    Ok(roots)
}

/// `--smtp-url`'s relay.
fn parse_relay(raw: &str) -> anyhow::Result<Relay> {
    // Never the URL itself in an error: it may hold the password.
    let url = url::Url::parse(raw).map_err(|err| anyhow!("--smtp-url is not a URL ({err})"))?;
    let (security, default_port) = match url.scheme() {
        "smtp" => (Security::Plain, 25),
        "smtp+starttls" => (Security::StartTls, 587),
        "smtps" => (Security::Tls, 465),
        other => bail!("--smtp-url must start with smtp://, smtp+starttls:// or smtps://, got {other}://"),
    };
    let host = url.host_str().filter(|host| !host.is_empty()).context("--smtp-url names no host")?;
    let host = host.trim_start_matches('[').trim_end_matches(']').to_owned();
    if !matches!(url.path(), "" | "/") || url.query().is_some() {
        bail!("--smtp-url takes no path or query (scheme://user:password@host:port)");
    }
    let decode = |part: &str, what: &str| {
        percent_decode_str(part)
            .decode_utf8()
            .map(|s| s.into_owned())
            .map_err(|_| anyhow!("--smtp-url's {what} is not UTF-8"))
    };
    let credentials = if url.username().is_empty() {
        None
    } else {
        Some((decode(url.username(), "user name")?, decode(url.password().unwrap_or(""), "password")?))
    };
    Ok(Relay { security, host, port: url.port().unwrap_or(default_port), credentials })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_url_forms_and_their_credentials() {
        let plain = parse_relay("smtp://relay.local").unwrap();
        assert_eq!(
            (plain.security, plain.host.as_str(), plain.port, plain.credentials),
            (Security::Plain, "relay.local", 25, None)
        );
        let starttls = parse_relay("smtp+starttls://me%40x.org:p%3Ass%20w@mail.x.org:2525").unwrap();
        assert_eq!(starttls.security, Security::StartTls);
        assert_eq!(starttls.port, 2525);
        assert_eq!(starttls.credentials, Some(("me@x.org".into(), "p:ss w".into())));
        let tls = parse_relay("smtps://u:p@mail.x.org").unwrap();
        assert_eq!((tls.security, tls.port), (Security::Tls, 465));
        assert!(!format!("{tls:?}").contains("\"p\""), "Debug never shows the password");
        for bad in ["http://x.org", "smtp://", "smtp://x.org/path", "not a url"] {
            assert!(parse_relay(bad).is_err(), "{bad}");
        }
        let err = parse_relay("ftp://u:secret@x.org").unwrap_err().to_string();
        assert!(!err.contains("secret"), "{err}");
    }
}
