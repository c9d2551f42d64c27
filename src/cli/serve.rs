//! The flags of `quire serve`: where it listens, how people sign in, HTTPS served by Quire itself,
//! the access log, what one import may take in, and the test-only flags that exist only in debug builds.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Args;

use super::{DataDirArg, FederationLimitsArgs, MailArgs, PublicInstanceArgs, UploadsArgs};
use crate::domain::limits::{DEFAULT_IMPORT_MAX_IMAGE_DOWNLOADS, DEFAULT_IMPORT_MAX_ITEM_MB, DEFAULT_IMPORT_MAX_ITEMS};

/// Flags of `quire serve`.
#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// Address and port to listen on, for plain HTTP (behind a proxy) [default: 127.0.0.1:8080].
    /// Not with --acme-email or --tls-cert, which listen on --https-listen and --http-listen.
    #[arg(long, env = "QUIRE_LISTEN", value_name = "ADDR:PORT")]
    pub listen: Option<SocketAddr>,

    /// Public host name, with the port unless it is 80 or 443. The app lives at
    /// {scheme}://{host} and each blog at {scheme}://{subdomain}.{host}.
    #[arg(long, env = "QUIRE_HOST", default_value = "localhost:8080", value_name = "HOST[:PORT]")]
    pub host: String,

    /// Readers and owners reach Quire over https (set it behind a TLS-terminating proxy):
    /// links use https and cookies are Secure.
    #[arg(long, env = "QUIRE_HTTPS")]
    pub https: bool,

    #[command(flatten)]
    pub data_dir: DataDirArg,

    /// OpenID Connect issuer that signs users in.
    #[arg(long, env = "QUIRE_OIDC_ISSUER", default_value = "https://accounts.google.com", value_name = "URL")]
    pub oidc_issuer: String,

    /// OAuth client ID registered with the issuer. Without it, on a localhost --host,
    /// Quire signs users in with its own local issuer.
    #[arg(long, env = "QUIRE_OIDC_CLIENT_ID", value_name = "ID")]
    pub oidc_client_id: Option<String>,

    /// Provider name shown on the login button [default: Google, or Local for the local issuer].
    #[arg(long, env = "QUIRE_OIDC_NAME", value_name = "NAME")]
    pub oidc_name: Option<String>,

    /// Imgur client ID: when set, the editor uploads images to Imgur instead of this server.
    #[arg(long, env = "QUIRE_IMGUR_CLIENT_ID", value_name = "ID")]
    pub imgur_client_id: Option<String>,

    /// Link for the Support entry of the owner menu (hidden when unset).
    #[arg(long, env = "QUIRE_SUPPORT_URL", value_name = "URL")]
    pub support_url: Option<String>,

    /// URL prefix of an emoji image CDN for the icon picker, e.g.
    /// https://cdn.jsdelivr.net/gh/jdecked/twemoji@latest/assets/svg/ (icons are drawn locally when unset).
    #[arg(long, env = "QUIRE_EMOJI_CDN", value_name = "URL-PREFIX")]
    pub emoji_cdn: Option<String>,

    /// A reverse proxy whose X-Forwarded-For is believed, as an address or CIDR network
    /// (repeat the flag, or separate with commas). The client is the rightmost forwarded
    /// address that is not a trusted proxy; it is what sign-in attempts are limited by.
    /// [default: 127.0.0.0/8 and ::1, proxies on this machine]
    #[arg(long = "trusted-proxy", env = "QUIRE_TRUSTED_PROXY", value_delimiter = ',', value_name = "ADDR_OR_CIDR")]
    pub trusted_proxies: Vec<String>,

    /// Where the access log's one line a request goes: stderr, a file (appended to, reopened on
    /// SIGHUP; Quire refuses to start when it cannot write there), or off. Written by a thread of
    /// its own, never on a request's path. On stderr it follows RUST_LOG too: RUST_LOG=warn turns
    /// it off.
    #[arg(long, env = "QUIRE_ACCESS_LOG", default_value = "stderr", value_name = "off|stderr|PATH")]
    pub access_log: String,

    /// The access line's form: quire (time, request id, client, method, host, path, status,
    /// bytes, milliseconds) or combined (Apache's and nginx's, which log analysers read).
    #[arg(long, env = "QUIRE_ACCESS_LOG_FORMAT", default_value = "quire", value_name = "quire|combined")]
    pub access_log_format: String,

    /// The inbox's sustained allowance a minute: for verified activities, per registrable domain
    /// of the signing key's host (a1.evil.example and a2.evil.example share evil.example's); for
    /// requests not (yet) verified, per client address.
    #[arg(long, env = "QUIRE_INBOX_PER_MINUTE", default_value_t = 300, value_name = "N")]
    pub inbox_per_minute: u32,

    /// The inbox's burst: requests one domain or address may send at once, beyond which the
    /// per-minute allowance refills.
    #[arg(long, env = "QUIRE_INBOX_BURST", default_value_t = 100, value_name = "N")]
    pub inbox_burst: u32,

    /// Memory for rendered public pages, in MB: a page in it is answered without reading the
    /// database (a blog's change drops its pages). At least 1, at most 4096. See
    /// bench/README.md, "The crawler's view", for the hit rates it gets.
    #[arg(long, env = "QUIRE_PAGE_CACHE_MB", default_value_t = crate::domain::limits::DEFAULT_PAGE_CACHE_MB, value_name = "MB")]
    pub page_cache_mb: u64,

    /// How much of the database file, in MB, reads map into memory (SQLite's `mmap_size`) rather
    /// than copy: the kernel's page cache, shared by every reader, not memory of Quire's own.
    /// 0 turns it off; at most 2048 (SQLite's own ceiling).
    #[arg(long, env = "QUIRE_DB_MMAP_MB", default_value_t = crate::domain::limits::DEFAULT_DB_MMAP_MB, value_name = "MB")]
    pub db_mmap_mb: u64,

    /// Public pages one client (an IPv4 address, an IPv6 /64) may have rendered per minute
    /// when they are not in the page cache; past it and its burst, a 429 with Retry-After.
    /// Cached pages are never limited.
    #[arg(long, env = "QUIRE_UNCACHED_RENDERS_PER_MINUTE", default_value_t = crate::domain::limits::DEFAULT_UNCACHED_RENDERS.0, value_name = "N")]
    pub uncached_renders_per_minute: u32,

    /// Uncached renders one client may have at once before `--uncached-renders-per-minute` applies.
    #[arg(long, env = "QUIRE_UNCACHED_RENDERS_BURST", default_value_t = crate::domain::limits::DEFAULT_UNCACHED_RENDERS.1, value_name = "N")]
    pub uncached_renders_burst: u32,

    #[command(flatten)]
    pub imports: ImportArgs,
    /// Days a custom domain may stay unverified (no TXT record proving it) before the claim is
    /// dropped. Until then other blogs may claim the name too: the first to prove it takes it.
    #[arg(long, env = "QUIRE_CUSTOM_DOMAIN_CLAIM_DAYS", default_value_t = 7, value_name = "DAYS")]
    pub custom_domain_claim_days: u64,

    /// New custom domains one blog may set in 24 hours (each verified one costs a certificate,
    /// and the CA limits those); the next is refused with a 429 saying when it may be.
    #[arg(long, env = "QUIRE_CUSTOM_DOMAIN_CHANGES_PER_DAY", default_value_t = 6, value_name = "N")]
    pub custom_domain_changes_per_day: u32,

    /// Largest custom stylesheet a blog may have, in bytes (Settings, Blog, Custom CSS; checked
    /// on every save). At most 524288.
    #[arg(long, env = "QUIRE_MAX_CUSTOM_CSS_BYTES", default_value_t = crate::domain::content::custom_css::DEFAULT_MAX_BYTES, value_name = "N")]
    pub max_custom_css_bytes: usize,

    #[command(flatten)]
    pub tls: TlsArgs,

    #[command(flatten)]
    pub fetch_loopback: FetchLoopbackArg,

    #[command(flatten)]
    pub dns_server: DnsServerArg,

    #[command(flatten)]
    pub delivery_retry: DeliveryRetryArg,

    #[command(flatten)]
    pub federation_limits: FederationLimitsArgs,

    #[command(flatten)]
    pub public_instance: PublicInstanceArgs,

    #[command(flatten)]
    pub mail: MailArgs,

    #[command(flatten)]
    pub uploads: UploadsArgs,
}

/// What one import may take in, of `serve` (docs/import.md, "Limits").
#[derive(Debug, Clone, Args)]
pub struct ImportArgs {
    /// Most posts and pages one export may hold: a larger one is refused when it is uploaded.
    /// Each other table read from it (a Ghost export's tags, their links to posts, posts'
    /// metadata) may hold four times as many rows.
    #[arg(long, env = "QUIRE_IMPORT_MAX_ITEMS", default_value_t = DEFAULT_IMPORT_MAX_ITEMS, value_name = "N")]
    pub import_max_items: u64,

    /// Largest post or page of a Ghost export, in MB, as the file writes it: a larger one is
    /// skipped and reported, and a tag or other row that large refuses the file.
    #[arg(long, env = "QUIRE_IMPORT_MAX_ITEM_MB", default_value_t = DEFAULT_IMPORT_MAX_ITEM_MB, value_name = "MB")]
    pub import_max_item_mb: u64,

    /// Most images one import downloads from other servers, failed downloads counted too; the
    /// rest are not fetched and the report says so (images inside an uploaded export or archive
    /// are not downloads and are not counted).
    #[arg(
        long,
        env = "QUIRE_IMPORT_MAX_IMAGE_DOWNLOADS",
        default_value_t = DEFAULT_IMPORT_MAX_IMAGE_DOWNLOADS,
        value_name = "N"
    )]
    pub import_max_image_downloads: u64,
}

/// `--test-only-delivery-retry-ms`, of `serve`; compiled only into debug builds.
#[derive(Debug, Clone, Args)]
pub struct DeliveryRetryArg {
    /// FOR TESTS ONLY, and only in debug builds (a release binary has no such flag): each
    /// minute of the federation delivery backoff (1 min, 5 min, ... 12 h, about 45 h in all)
    /// lasts this many milliseconds instead, so a test sees a dead inbox given up in seconds.
    #[cfg(debug_assertions)]
    #[arg(long = "test-only-delivery-retry-ms", value_name = "MS")]
    pub test_only_delivery_retry_ms: Option<u64>,
}

impl DeliveryRetryArg {
    /// The backoff's minute, when `--test-only-delivery-retry-ms` shortens it.
    #[cfg(debug_assertions)]
    pub fn given(&self) -> Option<std::time::Duration> {
        self.test_only_delivery_retry_ms.map(std::time::Duration::from_millis)
    }

    /// None, in a release build: it has no such flag.
    #[cfg(not(debug_assertions))]
    pub fn given(&self) -> Option<std::time::Duration> {
        None
    }
}

/// `--test-only-dns-server`, of `serve`; compiled only into debug builds.
#[derive(Debug, Clone, Args)]
pub struct DnsServerArg {
    /// FOR TESTS ONLY, and only in debug builds (a release binary has no such flag): ask this
    /// DNS server (on this machine) for custom domains' TXT records instead of the resolvers of
    /// /etc/resolv.conf. No environment variable sets it; it needs a loopback --listen.
    #[cfg(debug_assertions)]
    #[arg(long = "test-only-dns-server", value_name = "ADDR:PORT")]
    pub test_only_dns_server: Option<std::net::SocketAddr>,
}

impl DnsServerArg {
    /// The server `--test-only-dns-server` names.
    #[cfg(debug_assertions)]
    pub fn given(&self) -> Option<std::net::SocketAddr> {
        self.test_only_dns_server
    }

    /// None, in a release build: it has no such flag.
    #[cfg(not(debug_assertions))]
    pub fn given(&self) -> Option<std::net::SocketAddr> {
        None
    }
}

/// Let's Encrypt's production ACME directory, `--acme-directory`'s default.
pub const LETS_ENCRYPT: &str = "https://acme-v02.api.letsencrypt.org/directory";

/// HTTPS served by Quire itself, of `serve`.
#[derive(Debug, Clone, Args)]
pub struct TlsArgs {
    /// Serve HTTPS yourself, with a certificate per name from an ACME CA (Let's Encrypt by
    /// default), each obtained when first needed and renewed by itself, and only for names
    /// Quire serves: the app host, www., existing blogs' subdomains and verified custom domains.
    /// The CA may write to EMAIL about expiry or problems. Listens on --https-listen and
    /// --http-listen instead of --listen, and implies --https.
    #[arg(long, env = "QUIRE_ACME_EMAIL", value_name = "EMAIL")]
    pub acme_email: Option<String>,

    /// The ACME CA's directory (https). To try things out:
    /// https://acme-staging-v02.api.letsencrypt.org/directory
    #[arg(long, env = "QUIRE_ACME_DIRECTORY", default_value = LETS_ENCRYPT, value_name = "URL")]
    pub acme_directory: String,

    /// Trust this root certificate for the ACME directory's own HTTPS (a private CA, or pebble
    /// in tests).
    #[arg(long, env = "QUIRE_ACME_CA_ROOT", value_name = "PEM")]
    pub acme_ca_root: Option<PathBuf>,

    /// New certificates (not renewals) Quire orders in 24 hours at most, for the whole
    /// instance; past it a new name waits (renewals never do). Let's Encrypt allows 50 a week
    /// per registered domain: every blog's subdomain counts against the app host's.
    #[arg(long, env = "QUIRE_ACME_NEW_CERTIFICATES_PER_DAY", default_value_t = 20, value_name = "N")]
    pub acme_new_certificates_per_day: usize,

    /// Serve HTTPS with this certificate chain (PEM, leaf first), read again when the files
    /// change (checked every minute, for certbot renewals). With --acme-email as well, the names
    /// it covers (a wildcard for the blogs, say) are served with it and ACME is used only for
    /// the rest (custom domains). Needs --tls-key; implies --https.
    #[arg(long, env = "QUIRE_TLS_CERT", value_name = "FILE")]
    pub tls_cert: Option<PathBuf>,

    /// The key of --tls-cert (PEM).
    #[arg(long, env = "QUIRE_TLS_KEY", value_name = "FILE")]
    pub tls_key: Option<PathBuf>,

    /// Where HTTPS is served (with --acme-email or --tls-cert).
    #[arg(long, env = "QUIRE_HTTPS_LISTEN", default_value = "[::]:443", value_name = "ADDR:PORT")]
    pub https_listen: SocketAddr,

    /// Answers the CA's HTTP-01 challenges and redirects everything else to https (with
    /// --acme-email or --tls-cert). Let's Encrypt connects to port 80; behind a port forward,
    /// give the local port.
    #[arg(long, env = "QUIRE_HTTP_LISTEN", default_value = "[::]:80", value_name = "ADDR:PORT")]
    pub http_listen: SocketAddr,

    /// Seconds an HTTPS connection has to send its ClientHello before it is closed (it holds
    /// nothing shared meanwhile, only a place in its address's allowance).
    #[arg(long, env = "QUIRE_TLS_HELLO_TIMEOUT", default_value_t = 3, value_name = "SECONDS")]
    pub tls_hello_timeout: u64,

    /// TLS handshakes in progress from one address (an IPv6 /64) at once, from the connection's
    /// accept to its finished handshake; more are closed at once.
    #[arg(long, env = "QUIRE_TLS_HANDSHAKES_PER_ADDRESS", default_value_t = 32, value_name = "N")]
    pub tls_handshakes_per_address: usize,

    /// TLS handshakes in progress at once for everyone, counted from a ClientHello that names
    /// a name Quire serves (a certificate being ordered is waited for outside this count).
    #[arg(long, env = "QUIRE_TLS_MAX_HANDSHAKES", default_value_t = 256, value_name = "N")]
    pub tls_max_handshakes: usize,
}

/// `--test-only-fetch-loopback`, of `serve` and `import`; compiled only into debug builds.
#[derive(Debug, Clone, Args)]
pub struct FetchLoopbackArg {
    /// FOR TESTS ONLY, and only in debug builds (a release binary has no such flag): let the
    /// requests Quire makes to URLs others chose (imported images, federation) reach this
    /// machine's loopback addresses, 127.0.0.0/8 and ::1, so a test can serve them locally.
    /// Never other private addresses. No environment variable sets it; `serve` needs a
    /// loopback --listen with it.
    #[cfg(debug_assertions)]
    #[arg(long = "test-only-fetch-loopback")]
    pub test_only_fetch_loopback: bool,
}

impl FetchLoopbackArg {
    /// Whether `--test-only-fetch-loopback` was given.
    #[cfg(debug_assertions)]
    pub fn given(&self) -> bool {
        self.test_only_fetch_loopback
    }

    /// Never, in a release build: it has no such flag.
    #[cfg(not(debug_assertions))]
    pub fn given(&self) -> bool {
        false
    }
}
