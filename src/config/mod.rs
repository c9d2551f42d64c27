//! The one `Config` every part of the server reads: `quire serve`'s flags, checked once at
//! start and refused with one line naming the flag when they cannot work.
//!
//! - `mod.rs`: the settings and the checks of sign-in and the test-only flags;
//! - `tls.rs`: HTTPS served by Quire itself (`--acme-email`, `--tls-cert`);
//! - `access_log.rs`: `--access-log` and its format;
//! - `mail.rs`: the SMTP relay and the sending limits (`--smtp-url`, `--mail-from`, ...);
//! - `dkim.rs`: the DKIM key messages are signed with (`--dkim-key`, `--dkim-selector`);
//! - `host.rs`: `--host` normalized, and which hosts name this machine only;
//! - `urls.rs`: the URLs built from the host (the app's, a blog's, its ActivityPub ids).

mod access_log;
mod dkim;
mod host;
mod mail;
mod tls;
mod uploads;
mod urls;

use std::net::{Ipv4Addr, SocketAddr};
use std::num::NonZeroU32;
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, anyhow, bail};

use crate::cli::{AddressArgs, ServeArgs};
use crate::data_dir::DataDir;
use crate::domain::federation::remote_limits::RemoteLimits;
use crate::domain::limits::ImportLimits;
use crate::domain::net::proxies::TrustedProxies;
pub use crate::domain::public_instance::{PublicInstance, SignupMode};
pub use access_log::{AccessLogConfig, AccessLogFormat, AccessLogTarget};
pub use dkim::{Dkim, signer as dkim_signer};
use host::is_loopback_http;
pub use host::{is_local_host, parse_host, without_default_port};
pub use mail::{MailConfig, Relay, Security};
use tls::tls_config;
pub use tls::{AcmeConfig, HandshakeLimits, TlsConfig};
pub use uploads::{BucketConfig, UploadsConfig, require_bucket};

/// Google's issuer, the default sign-in provider.
pub const GOOGLE_ISSUER: &str = "https://accounts.google.com";

/// `--page-cache-mb`'s largest value.
const MAX_PAGE_CACHE_MB: u64 = 4096;
/// `--db-mmap-mb`'s largest value: SQLite maps no more than about 2 GB (`SQLITE_MAX_MMAP_SIZE`).
const MAX_DB_MMAP_MB: u64 = 2048;

/// How long a request to another server (an imported image, a federation call) may take in all.
pub const FETCH_DEADLINE: Duration = Duration::from_secs(20);

/// `--listen`'s default.
pub const DEFAULT_LISTEN: SocketAddr = SocketAddr::new(std::net::IpAddr::V4(Ipv4Addr::LOCALHOST), 8080);

/// Settings of a running server, checked once at start.
#[derive(Debug, Clone)]
pub struct Config {
    /// Socket address to bind (plain HTTP; unused when `tls` is set).
    pub listen: SocketAddr,
    /// HTTPS served by Quire itself; `None` for plain HTTP on `listen`.
    pub tls: Option<TlsConfig>,
    /// Public host name with port when not 80/443, lowercase, e.g. `localhost:8080`.
    pub host: String,
    /// Whether the public URLs use https.
    pub https: bool,
    /// Directory of the database, index and uploads.
    pub data_dir: DataDir,
    /// OpenID Connect issuer URL.
    pub oidc_issuer: String,
    /// OAuth client ID at that issuer; `None` selects the local issuer on localhost.
    pub oidc_client_id: Option<String>,
    /// Provider name shown on the login button.
    pub provider_name: String,
    /// Imgur client ID for browser-side uploads.
    pub imgur_client_id: Option<String>,
    /// Support link of the owner menu.
    pub support_url: Option<String>,
    /// Emoji CDN prefix for the icon picker.
    pub emoji_cdn: Option<String>,
    /// Peers whose `X-Forwarded-For` names the client.
    pub trusted_proxies: TrustedProxies,
    /// Test-only: requests to URLs others chose may reach 127.0.0.0/8 and ::1 (never another
    /// private address). Set by in-process tests, or by `serve --test-only-fetch-loopback`,
    /// which exists only in debug builds and only with a loopback `listen`.
    pub fetch_allow_loopback: bool,
    /// How long one such request may take, from DNS to the body's last byte ([`FETCH_DEADLINE`];
    /// tests shorten it).
    pub fetch_deadline: Duration,
    /// Test-only: the DNS server asked for custom domains' TXT records instead of those of
    /// /etc/resolv.conf (`serve --test-only-dns-server`, debug builds only, loopback only).
    pub dns_server: Option<SocketAddr>,
    /// One minute of the federation delivery backoff: a minute, except in tests
    /// (`serve --test-only-delivery-retry-ms`, debug builds only).
    pub delivery_retry_unit: Duration,
    /// Where the one line a request goes (`serve --access-log`), and in which form.
    pub access_log: AccessLogConfig,
    /// The inbox's rate limit (`serve --inbox-per-minute`, `--inbox-burst`).
    pub inbox_rate: InboxRate,
    /// What other fediverse servers may make a blog store (`serve --max-held-replies-per-host`...).
    pub remote_limits: RemoteLimits,
    /// What one import may take in (`serve --import-max-items`, `--import-max-item-mb`).
    pub import_limits: ImportLimits,
    /// What one blog may do with custom domains.
    pub domains: DomainLimits,
    /// The largest custom stylesheet of a blog, in bytes (`serve --max-custom-css-bytes`).
    pub max_custom_css_bytes: usize,
    /// Memory for rendered public pages, in bytes (`--page-cache-mb`).
    pub page_cache_bytes: u64,
    /// Uncached public pages one client may have rendered: per minute, and in a burst.
    pub uncached_renders: (u32, u32),
    /// How much of the database file reads map into memory, in bytes (`--db-mmap-mb`; 0: none).
    pub db_mmap_bytes: u64,
    /// Signups, review, quotas, reports and the operator's pages (docs/public-instance.md).
    pub public: PublicInstance,
    /// The SMTP relay and the sending limits (docs/email.md); None without `--smtp-url`, and
    /// then every mail feature is off.
    pub mail: Option<MailConfig>,
    /// Where uploaded images live (`--uploads-url`...): the data directory, or a bucket.
    pub uploads: UploadsConfig,
}

/// The inbox's allowance, per registrable domain for verified activities and per client address
/// for the rest (docs/federation-inbox.md, step 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InboxRate {
    /// Sustained requests a minute.
    pub per_minute: NonZeroU32,
    /// Requests allowed at once.
    pub burst: NonZeroU32,
}

impl Default for InboxRate {
    fn default() -> InboxRate {
        InboxRate {
            per_minute: NonZeroU32::new(300).expect("non-zero"),
            burst: NonZeroU32::new(100).expect("non-zero"),
        }
    }
}

/// The limits on custom domains (docs/custom-domains.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DomainLimits {
    /// How long a claim may stay unverified before it is dropped (`--custom-domain-claim-days`),
    /// counted from the start of its wait.
    pub claim_expiry: Duration,
    /// New names a blog may set in 24 hours (`--custom-domain-changes-per-day`).
    pub changes_per_day: u32,
}

impl Default for DomainLimits {
    fn default() -> DomainLimits {
        DomainLimits { claim_expiry: Duration::from_secs(7 * 86400), changes_per_day: 6 }
    }
}

impl Config {
    /// Builds the config of `quire serve`, refusing values that cannot work.
    pub fn from_serve_args(args: &ServeArgs) -> anyhow::Result<Config> {
        let tls = tls_config(&args.tls, &args.host, args.listen.is_some())?;
        let https = args.https || tls.is_some();
        // What other machines may reach: the listeners Quire binds.
        let listens = match &tls {
            Some(tls) => vec![("--https-listen", tls.https_listen), ("--http-listen", tls.http_listen)],
            None => vec![("--listen", args.listen.unwrap_or(DEFAULT_LISTEN))],
        };
        let host = parse_host(&args.host).with_context(|| format!("--host {:?}", args.host))?;
        let host = without_default_port(host, https);
        let (oidc_client_id, provider_name) = sign_in(args, &host, https, &listens)?;
        for (flag, url) in [("--support-url", &args.support_url), ("--emoji-cdn", &args.emoji_cdn)] {
            if let Some(url) = url
                && !(url.starts_with("https://") || url.starts_with("http://"))
            {
                bail!("{flag} must start with https:// or http://, got {url:?}");
            }
        }
        let (fetch_allow_loopback, dns_server) = test_only_flags(args, &listens)?;
        let trusted_proxies = match args.trusted_proxies.as_slice() {
            [] => TrustedProxies::loopback(),
            values => TrustedProxies::parse(values).map_err(|invalid| anyhow!("--trusted-proxy {invalid}"))?,
        };
        Ok(Config {
            listen: args.listen.unwrap_or(DEFAULT_LISTEN),
            tls,
            host,
            https,
            data_dir: args.data_dir.dir(),
            oidc_issuer: args.oidc_issuer.trim_end_matches('/').to_owned(),
            oidc_client_id,
            provider_name,
            imgur_client_id: args.imgur_client_id.clone().filter(|id| !id.trim().is_empty()),
            support_url: args.support_url.clone(),
            emoji_cdn: args.emoji_cdn.clone(),
            trusted_proxies,
            fetch_allow_loopback,
            fetch_deadline: FETCH_DEADLINE,
            dns_server,
            delivery_retry_unit: args.delivery_retry.given().unwrap_or(Duration::from_secs(60)),
            access_log: AccessLogConfig::parse(&args.access_log, &args.access_log_format)?,
            inbox_rate: InboxRate {
                per_minute: NonZeroU32::new(args.inbox_per_minute).context("--inbox-per-minute must be at least 1")?,
                burst: NonZeroU32::new(args.inbox_burst).context("--inbox-burst must be at least 1")?,
            },
            remote_limits: args.federation_limits.limits(),
            import_limits: import_limits(args)?,
            domains: domain_limits(args)?,
            max_custom_css_bytes: max_custom_css_bytes(args)?,
            page_cache_bytes: page_cache_bytes(args)?,
            uncached_renders: uncached_renders(args)?,
            db_mmap_bytes: db_mmap_bytes(args)?,
            public: args.public_instance.public_instance()?,
            mail: MailConfig::from_args(&args.mail)?,
            uploads: UploadsConfig::from_args(&args.uploads)?,
        })
    }

    /// A config for tests and tools: local sign-in, no daily caps on new blogs, everything else
    /// default.
    pub fn local(data_dir: &Path, listen: SocketAddr, host: &str) -> Config {
        Config {
            listen,
            tls: None,
            host: host.to_owned(),
            https: false,
            data_dir: DataDir::new(data_dir),
            oidc_issuer: GOOGLE_ISSUER.to_owned(),
            oidc_client_id: None,
            provider_name: "Local".to_owned(),
            imgur_client_id: None,
            support_url: None,
            emoji_cdn: None,
            trusted_proxies: TrustedProxies::loopback(),
            fetch_allow_loopback: false,
            fetch_deadline: FETCH_DEADLINE,
            dns_server: None,
            delivery_retry_unit: Duration::from_secs(60),
            access_log: AccessLogConfig::off(),
            inbox_rate: InboxRate::default(),
            remote_limits: RemoteLimits::default(),
            import_limits: ImportLimits::default(),
            domains: DomainLimits::default(),
            max_custom_css_bytes: crate::domain::content::custom_css::DEFAULT_MAX_BYTES,
            page_cache_bytes: crate::domain::limits::DEFAULT_PAGE_CACHE_MB * 1024 * 1024,
            uncached_renders: crate::domain::limits::DEFAULT_UNCACHED_RENDERS,
            db_mmap_bytes: crate::domain::limits::DEFAULT_DB_MMAP_MB * 1024 * 1024,
            // Tests create many blogs from 127.0.0.1: no daily caps on new blogs.
            public: PublicInstance {
                new_blogs_per_day: u32::MAX,
                new_blogs_per_address: u32::MAX,
                ..PublicInstance::default()
            },
            mail: None,
            uploads: UploadsConfig::default(),
        }
    }

    /// Whether the instance sends mail (`--smtp-url`): without it every email feature is hidden.
    pub fn mail_enabled(&self) -> bool {
        self.mail.is_some()
    }

    /// A config for commands that work on the data directory without serving (`export`,
    /// `import`): the server's public address from `address`, everything else as [`Config::local`].
    pub fn offline(data_dir: &Path, address: &AddressArgs) -> anyhow::Result<Config> {
        let host = parse_host(&address.host).with_context(|| format!("--host {:?}", address.host))?;
        let host = without_default_port(host, address.https);
        let mut config = Config::local(data_dir, SocketAddr::from(([127, 0, 0, 1], 0)), &host);
        config.https = address.https;
        config.uploads = UploadsConfig::from_args(&address.uploads)?;
        Ok(config)
    }
}

/// `--import-max-items` and `--import-max-item-mb`, refusing 0.
fn import_limits(args: &ServeArgs) -> anyhow::Result<ImportLimits> {
    let (items, mb) = (args.imports.import_max_items, args.imports.import_max_item_mb);
    if items == 0 || mb == 0 {
        bail!("--import-max-items and --import-max-item-mb must be at least 1, got {items} and {mb}");
    }
    let max_item_bytes =
        mb.checked_mul(1024 * 1024).ok_or_else(|| anyhow!("--import-max-item-mb {mb} is too large"))?;
    Ok(ImportLimits { max_items: items, max_item_bytes, max_image_downloads: args.imports.import_max_image_downloads })
}

/// `--max-custom-css-bytes`: from 1 byte to 512 KiB (a save's JSON body is capped at 1 MiB).
fn max_custom_css_bytes(args: &ServeArgs) -> anyhow::Result<usize> {
    let bytes = args.max_custom_css_bytes;
    if bytes == 0 || bytes > 512 * 1024 {
        bail!("--max-custom-css-bytes must be from 1 to 524288, got {bytes}");
    }
    Ok(bytes)
}

/// `--page-cache-mb` in bytes: from 1 to 4096 MB.
fn page_cache_bytes(args: &ServeArgs) -> anyhow::Result<u64> {
    let mb = args.page_cache_mb;
    if mb == 0 || mb > MAX_PAGE_CACHE_MB {
        bail!("--page-cache-mb must be from 1 to {MAX_PAGE_CACHE_MB}, got {mb}");
    }
    Ok(mb * 1024 * 1024)
}

/// `--db-mmap-mb` in bytes: from 0 (off) to 2048 MB.
fn db_mmap_bytes(args: &ServeArgs) -> anyhow::Result<u64> {
    let mb = args.db_mmap_mb;
    if mb > MAX_DB_MMAP_MB {
        bail!("--db-mmap-mb must be from 0 to {MAX_DB_MMAP_MB}, got {mb}");
    }
    Ok(mb * 1024 * 1024)
}

/// `--uncached-renders-per-minute` and `--uncached-renders-burst`, refusing 0.
fn uncached_renders(args: &ServeArgs) -> anyhow::Result<(u32, u32)> {
    let (per_minute, burst) = (args.uncached_renders_per_minute, args.uncached_renders_burst);
    if per_minute == 0 || burst == 0 {
        bail!(
            "--uncached-renders-per-minute and --uncached-renders-burst must be at least 1, got {per_minute} and {burst}"
        );
    }
    Ok((per_minute, burst))
}

/// The custom domain limits of `serve`'s flags.
fn domain_limits(args: &ServeArgs) -> anyhow::Result<DomainLimits> {
    if args.custom_domain_claim_days == 0 || args.custom_domain_changes_per_day == 0 {
        bail!("--custom-domain-claim-days and --custom-domain-changes-per-day must be at least 1");
    }
    Ok(DomainLimits {
        claim_expiry: Duration::from_secs(args.custom_domain_claim_days * 86400),
        changes_per_day: args.custom_domain_changes_per_day,
    })
}

/// The sign-in provider's client id and name, refusing the local sign-in wherever other machines
/// could reach it and an issuer that is not https (or this machine's http).
fn sign_in(
    args: &ServeArgs,
    host: &str,
    https: bool,
    listens: &[(&str, SocketAddr)],
) -> anyhow::Result<(Option<String>, String)> {
    let oidc_client_id = args.oidc_client_id.clone().filter(|id| !id.trim().is_empty());
    let provider_name = match &args.oidc_name {
        Some(name) if !name.trim().is_empty() => name.trim().to_owned(),
        _ if oidc_client_id.is_none() && is_local_host(host) => "Local".to_owned(),
        _ if args.oidc_issuer.trim_end_matches('/') == GOOGLE_ISSUER => "Google".to_owned(),
        _ => "OpenID".to_owned(),
    };
    if oidc_client_id.is_none() && !is_local_host(host) {
        bail!(
            "--oidc-client-id (or QUIRE_OIDC_CLIENT_ID) is required when --host is not a localhost name: \
             register Quire with your OpenID provider, with redirect URI {}://{host}/auth/callback",
            if https { "https" } else { "http" }
        );
    }
    for (flag, listen) in listens {
        if oidc_client_id.is_none() && !listen.ip().is_loopback() {
            bail!(
                "{flag} {listen} can be reached from other machines, and the local sign-in would let anyone \
                 there sign in as anyone: listen on a loopback address (127.0.0.1 or [::1]) or set \
                 --oidc-client-id (or QUIRE_OIDC_CLIENT_ID) to sign in with a real provider"
            );
        }
    }
    let issuer = args.oidc_issuer.trim_end_matches('/');
    if !issuer.starts_with("https://") && !is_loopback_http(issuer) {
        bail!("--oidc-issuer must be an https:// URL (http:// only on localhost), got {issuer:?}");
    }
    Ok((oidc_client_id, provider_name))
}

/// The debug builds' test-only flags (`--test-only-fetch-loopback`, `--test-only-dns-server`),
/// refused unless everything Quire binds is on a loopback address.
fn test_only_flags(args: &ServeArgs, listens: &[(&str, SocketAddr)]) -> anyhow::Result<(bool, Option<SocketAddr>)> {
    let fetch_allow_loopback = args.fetch_loopback.given();
    if let Some((_, listen)) =
        listens.iter().find(|(_, listen)| !listen.ip().is_loopback()).filter(|_| fetch_allow_loopback)
    {
        bail!(
            "--test-only-fetch-loopback lets the server reach services on this machine, so it is for tests \
             on a loopback address only: listen on 127.0.0.1 or [::1], not {listen}"
        );
    }
    let dns_server = args.dns_server.given();
    if let Some(server) = dns_server {
        let exposed = listens.iter().find(|(_, listen)| !listen.ip().is_loopback());
        if exposed.is_some() || !server.ip().is_loopback() {
            let listen = exposed.map_or(String::new(), |(flag, listen)| format!(" (not {flag} {listen})"));
            bail!(
                "--test-only-dns-server is for tests on this machine only: listen on 127.0.0.1 or [::1]{listen} \
                 and name a DNS server on a loopback address (not {server})"
            );
        }
    }
    Ok((fetch_allow_loopback, dns_server))
}

#[cfg(test)]
mod tests;
