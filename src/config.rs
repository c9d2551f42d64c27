//! The one `Config` every part of the server reads.

use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, anyhow, bail};
use url::Host;

use crate::cli::{AddressArgs, ServeArgs, TlsArgs};
use crate::data_dir::DataDir;
use crate::domain::custom_domain::BlogAddress;
use crate::domain::proxies::TrustedProxies;

/// Google's issuer, the default sign-in provider.
pub const GOOGLE_ISSUER: &str = "https://accounts.google.com";

/// How long a request to another server (an imported image, a federation call) may take in all.
pub const FETCH_DEADLINE: Duration = Duration::from_secs(20);

/// `--listen`'s default.
pub const DEFAULT_LISTEN: SocketAddr = SocketAddr::new(std::net::IpAddr::V4(Ipv4Addr::LOCALHOST), 8080);

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
}

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
}

/// `serve --access-log` and `--access-log-format`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccessLogConfig {
    pub target: AccessLogTarget,
    pub format: AccessLogFormat,
}

/// Where the access log is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AccessLogTarget {
    Off,
    Stderr,
    /// Appended to this file, which is reopened on SIGHUP.
    File(PathBuf),
}

/// The form of an access line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccessLogFormat {
    /// `2026-11-24T13:00:00.123Z a1b2c3d4e5f6 127.0.0.1 GET localhost:8080 /path 200 5123 0.21ms`
    Quire,
    /// Apache's and nginx's combined log format, which log analysers read.
    Combined,
}

impl AccessLogConfig {
    /// No access log (in-process tests).
    pub fn off() -> AccessLogConfig {
        AccessLogConfig { target: AccessLogTarget::Off, format: AccessLogFormat::Quire }
    }

    /// From the flags' values: `off`, `stderr` or a path; `quire` or `combined`.
    pub fn parse(target: &str, format: &str) -> anyhow::Result<AccessLogConfig> {
        let target = match target {
            "off" => AccessLogTarget::Off,
            "stderr" => AccessLogTarget::Stderr,
            "" => bail!("--access-log must be off, stderr or a file's path"),
            path => AccessLogTarget::File(PathBuf::from(path)),
        };
        let format = match format {
            "quire" => AccessLogFormat::Quire,
            "combined" => AccessLogFormat::Combined,
            other => bail!("--access-log-format must be quire or combined, got {other:?}"),
        };
        Ok(AccessLogConfig { target, format })
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
        let oidc_client_id = args.oidc_client_id.clone().filter(|id| !id.trim().is_empty());
        let provider_name = match &args.oidc_name {
            Some(name) if !name.trim().is_empty() => name.trim().to_owned(),
            _ if oidc_client_id.is_none() && is_local_host(&host) => "Local".to_owned(),
            _ if args.oidc_issuer.trim_end_matches('/') == GOOGLE_ISSUER => "Google".to_owned(),
            _ => "OpenID".to_owned(),
        };
        if oidc_client_id.is_none() && !is_local_host(&host) {
            bail!(
                "--oidc-client-id (or QUIRE_OIDC_CLIENT_ID) is required when --host is not a localhost name: \
                 register Quire with your OpenID provider, with redirect URI {}://{host}/auth/callback",
                if https { "https" } else { "http" }
            );
        }
        for (flag, listen) in &listens {
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
        for (flag, url) in [("--support-url", &args.support_url), ("--emoji-cdn", &args.emoji_cdn)] {
            if let Some(url) = url {
                if !(url.starts_with("https://") || url.starts_with("http://")) {
                    bail!("{flag} must start with https:// or http://, got {url:?}");
                }
            }
        }
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
        })
    }

    /// A config for tests and tools: local sign-in, everything else default.
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
        }
    }

    /// A config for commands that work on the data directory without serving (`export`,
    /// `import`): the server's public address from `address`, everything else as [`Config::local`].
    pub fn offline(data_dir: &Path, address: &AddressArgs) -> anyhow::Result<Config> {
        let host = parse_host(&address.host).with_context(|| format!("--host {:?}", address.host))?;
        let host = without_default_port(host, address.https);
        let mut config = Config::local(data_dir, SocketAddr::from(([127, 0, 0, 1], 0)), &host);
        config.https = address.https;
        Ok(config)
    }

    /// `http` or `https`.
    pub fn scheme(&self) -> &'static str {
        if self.https { "https" } else { "http" }
    }

    /// The owner app's origin, e.g. `http://localhost:8080`.
    pub fn app_url(&self) -> String {
        format!("{}://{}", self.scheme(), self.host)
    }

    /// What image block URLs must start with: the image host's, or this server's `/media/`.
    pub fn image_prefix(&self) -> String {
        match self.imgur_client_id {
            Some(_) => "https://i.imgur.com/".to_owned(),
            None => format!("{}/media/", self.app_url()),
        }
    }

    /// A blog's ActivityPub actor id, `http://alice.localhost:8080/_quire/ap/actor`: on its
    /// subdomain whatever its custom domain, so that adding or removing a domain changes no
    /// follower's record (docs/federation.md).
    pub fn actor_id(&self, subdomain: &str) -> String {
        format!("{}://{subdomain}.{}/_quire/ap/actor", self.scheme(), self.host)
    }

    /// The ActivityPub id of a blog's post, `http://alice.localhost:8080/_quire/ap/posts/{short_id}`:
    /// not its permalink, which a new title or domain changes (the permalink is its `url`).
    pub fn ap_post_id(&self, subdomain: &str, short_id: &str) -> String {
        format!("{}://{subdomain}.{}/_quire/ap/posts/{short_id}", self.scheme(), self.host)
    }

    /// The instance's shared inbox, on the app host.
    pub fn shared_inbox(&self) -> String {
        format!("{}/_quire/ap/inbox", self.app_url())
    }

    /// A blog's public origin: `http://alice.localhost:8080`, or its verified custom domain's,
    /// `https://blog.example.org` (with the app host's port, if it has one).
    pub fn blog_origin(&self, address: &BlogAddress) -> String {
        match &address.domain {
            Some(domain) => match self.host.rsplit_once(':') {
                Some((_, port)) => format!("{}://{domain}:{port}", self.scheme()),
                None => format!("{}://{domain}", self.scheme()),
            },
            None => format!("{}://{}.{}", self.scheme(), address.subdomain, self.host),
        }
    }
}

/// The TLS settings of `serve`'s flags, refusing combinations that cannot work; `None` without
/// `--acme-email` and `--tls-cert`. `listen_given`: `--listen` was set (flag or environment).
fn tls_config(args: &TlsArgs, raw_host: &str, listen_given: bool) -> anyhow::Result<Option<TlsConfig>> {
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
            Some(AcmeConfig { email: email.to_owned(), directory, ca_root: args.acme_ca_root.clone() })
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
    if args.https_listen == args.http_listen {
        bail!("--https-listen and --http-listen must differ, both are {}", args.https_listen);
    }
    Ok(Some(TlsConfig {
        acme,
        cert,
        https_listen: args.https_listen,
        http_listen: args.http_listen,
        first_backoff: Duration::from_secs(600),
    }))
}

/// Normalizes a `host[:port]` value: lowercase, no scheme, no path, no trailing dot.
pub fn parse_host(raw: &str) -> anyhow::Result<String> {
    let host = raw.trim().to_ascii_lowercase();
    if host.contains("://") || host.contains('/') {
        bail!("give the host name only, like blog.example.com or localhost:8080 (no scheme, no path)");
    }
    let (name, port) = match host.rsplit_once(':') {
        Some((name, port)) => (name, Some(port)),
        None => (host.as_str(), None),
    };
    let name = name.trim_end_matches('.');
    let valid_name = !name.is_empty()
        && name.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        });
    if !valid_name {
        bail!("{name:?} is not a valid host name");
    }
    match port {
        Some(port) if port.parse::<u16>().is_err() => bail!("{port:?} is not a valid port"),
        Some(port) => Ok(format!("{name}:{port}")),
        None => Ok(name.to_owned()),
    }
}

/// Whether `url` is an `http://` URL of this machine: its host exactly `localhost`, `127.0.0.1`
/// or `[::1]`, with no user info (`http://localhost:1@evil.com` is evil.com's).
fn is_loopback_http(url: &str) -> bool {
    let Ok(url) = url::Url::parse(url) else { return false };
    let host_is_loopback = match url.host() {
        Some(Host::Domain(name)) => name == "localhost",
        Some(Host::Ipv4(ip)) => ip == Ipv4Addr::LOCALHOST,
        Some(Host::Ipv6(ip)) => ip == Ipv6Addr::LOCALHOST,
        None => false,
    };
    url.scheme() == "http" && url.username().is_empty() && url.password().is_none() && host_is_loopback
}

/// Drops the scheme's default port (`:443` with https, `:80` without): browsers leave it out
/// of the Host and Origin headers, so the app's origin must not name it either.
pub fn without_default_port(host: String, https: bool) -> String {
    let default = if https { ":443" } else { ":80" };
    match host.strip_suffix(default) {
        Some(name) => name.to_owned(),
        None => host,
    }
}

/// Whether a normalized host names this machine only (`localhost`, `*.localhost`, `127.0.0.1`).
pub fn is_local_host(host: &str) -> bool {
    let name = host.rsplit_once(':').map_or(host, |(name, _)| name);
    name == "localhost" || name.ends_with(".localhost") || name == "127.0.0.1"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{Cli, Command};
    use clap::Parser;

    /// `quire serve` flags as the command line gives them.
    fn serve_args(flags: &[&str]) -> ServeArgs {
        let cli = Cli::try_parse_from(["quire", "serve"].iter().chain(flags)).expect("flags parse");
        match cli.command {
            Command::Serve(args) => args,
            _ => unreachable!("serve was given"),
        }
    }

    #[test]
    fn the_local_issuer_is_refused_on_a_listen_address_other_machines_can_reach() {
        for listen in ["0.0.0.0:8080", "[::]:8080", "192.168.1.20:8080"] {
            let err = Config::from_serve_args(&serve_args(&["--listen", listen])).unwrap_err().to_string();
            assert!(err.starts_with("--listen") && err.contains("--oidc-client-id"), "{listen}: {err}");
        }
        for listen in ["127.0.0.1:8080", "127.0.0.2:8080", "[::1]:8080"] {
            assert!(Config::from_serve_args(&serve_args(&["--listen", listen])).is_ok(), "{listen}");
        }
        let provider = ["--listen", "0.0.0.0:8080", "--host", "blog.example.com", "--oidc-client-id", "id"];
        assert!(Config::from_serve_args(&serve_args(&provider)).is_ok(), "a real provider may listen anywhere");
    }

    #[cfg(debug_assertions)]
    #[test]
    fn the_test_only_loopback_allowance_needs_the_flag_and_a_loopback_listen_address() {
        assert!(!Config::from_serve_args(&serve_args(&[])).unwrap().fetch_allow_loopback, "off by default");
        for listen in ["127.0.0.1:8080", "[::1]:8080"] {
            let config = Config::from_serve_args(&serve_args(&["--test-only-fetch-loopback", "--listen", listen]));
            assert!(config.unwrap().fetch_allow_loopback, "{listen}");
        }
        let public = [
            "--test-only-fetch-loopback",
            "--listen",
            "0.0.0.0:8080",
            "--host",
            "blog.example.com",
            "--oidc-client-id",
            "id",
        ];
        let err = Config::from_serve_args(&serve_args(&public)).unwrap_err().to_string();
        assert!(err.starts_with("--test-only-fetch-loopback") && err.contains("0.0.0.0:8080"), "{err}");
    }

    #[cfg(debug_assertions)]
    #[test]
    fn the_test_only_dns_server_needs_loopback_addresses() {
        assert_eq!(Config::from_serve_args(&serve_args(&[])).unwrap().dns_server, None);
        let local = Config::from_serve_args(&serve_args(&["--test-only-dns-server", "127.0.0.1:5353"])).unwrap();
        assert_eq!(local.dns_server, Some("127.0.0.1:5353".parse().unwrap()));
        let err = Config::from_serve_args(&serve_args(&["--test-only-dns-server", "8.8.8.8:53"])).unwrap_err();
        assert!(err.to_string().starts_with("--test-only-dns-server"), "{err}");
        let public = [
            "--test-only-dns-server",
            "127.0.0.1:53",
            "--listen",
            "0.0.0.0:8080",
            "--host",
            "blog.example.com",
            "--oidc-client-id",
            "id",
        ];
        assert!(Config::from_serve_args(&serve_args(&public)).is_err());
    }

    #[cfg(not(debug_assertions))]
    #[test]
    fn a_release_build_has_no_test_only_dns_server_flag() {
        let err = Cli::try_parse_from(["quire", "serve", "--test-only-dns-server", "127.0.0.1:53"]).unwrap_err();
        assert_eq!(err.kind(), clap::error::ErrorKind::UnknownArgument);
    }

    #[cfg(debug_assertions)]
    #[test]
    fn the_test_only_delivery_retry_shortens_the_backoffs_minute() {
        assert_eq!(Config::from_serve_args(&serve_args(&[])).unwrap().delivery_retry_unit, Duration::from_secs(60));
        let fast = Config::from_serve_args(&serve_args(&["--test-only-delivery-retry-ms", "5"])).unwrap();
        assert_eq!(fast.delivery_retry_unit, Duration::from_millis(5));
    }

    #[cfg(not(debug_assertions))]
    #[test]
    fn a_release_build_has_no_delivery_retry_flag() {
        let err = Cli::try_parse_from(["quire", "serve", "--test-only-delivery-retry-ms", "5"]).unwrap_err();
        assert_eq!(err.kind(), clap::error::ErrorKind::UnknownArgument);
    }

    #[cfg(not(debug_assertions))]
    #[test]
    fn a_release_build_has_no_loopback_allowance_flag() {
        let err = Cli::try_parse_from(["quire", "serve", "--test-only-fetch-loopback"]).unwrap_err();
        assert_eq!(err.kind(), clap::error::ErrorKind::UnknownArgument);
    }

    #[test]
    fn an_http_issuer_must_be_exactly_this_machine() {
        let accepted = |issuer: &str| {
            Config::from_serve_args(&serve_args(&["--oidc-issuer", issuer, "--oidc-client-id", "id"])).is_ok()
        };
        for issuer in [
            "http://localhost",
            "http://localhost:8080/dev-idp",
            "http://127.0.0.1:9000",
            "http://[::1]:8080/x",
            "https://id.example.com",
        ] {
            assert!(accepted(issuer), "{issuer} is accepted");
        }
        for issuer in [
            "http://localhost:1@evil.com",
            "http://localhost@evil.com",
            "http://user@localhost",
            "http://localhost.evil.com",
            "http://127.0.0.1.nip.io",
            "http://evil.com/localhost",
            "http://id.example.com",
            "localhost:8080",
        ] {
            assert!(!accepted(issuer), "{issuer} is refused");
        }
    }

    #[test]
    fn hosts_are_normalized_and_bad_ones_refused() {
        assert_eq!(parse_host("Blog.Example.COM.").unwrap(), "blog.example.com");
        assert_eq!(parse_host("localhost:8080").unwrap(), "localhost:8080");
        assert!(parse_host("https://example.com").is_err());
        assert!(parse_host("example.com/blog").is_err());
        assert!(parse_host("exa mple.com").is_err());
        assert!(parse_host("example.com:99999").is_err());
        assert!(parse_host("").is_err());
    }

    #[test]
    fn the_schemes_default_port_is_left_out_of_the_host() {
        let config = |args: &[&str]| {
            let cli = crate::cli::Cli::try_parse_from([&["quire", "serve"], args].concat()).unwrap();
            let crate::cli::Command::Serve(serve) = cli.command else { unreachable!() };
            Config::from_serve_args(&serve).unwrap()
        };
        let https = config(&["--host", "Example.com:443", "--https", "--oidc-client-id", "id"]);
        assert_eq!((https.host.as_str(), https.app_url()), ("example.com", "https://example.com".to_owned()));
        assert_eq!(config(&["--host", "localhost:80"]).app_url(), "http://localhost");
        assert_eq!(config(&["--host", "localhost:443"]).host, "localhost:443", "443 is not http's default");
        assert_eq!(config(&["--host", "localhost:8080"]).host, "localhost:8080");
    }

    #[test]
    fn tls_flags_imply_https_and_refuse_what_cannot_work() {
        let acme = ["--acme-email", "admin@example.com", "--host", "example.com", "--oidc-client-id", "id"];
        let config = Config::from_serve_args(&serve_args(&acme)).unwrap();
        let tls = config.tls.as_ref().expect("TLS mode");
        assert!(config.https && config.app_url() == "https://example.com");
        assert_eq!(tls.acme.as_ref().unwrap().directory, crate::cli::LETS_ENCRYPT);
        assert_eq!(
            (tls.https_listen.to_string().as_str(), tls.http_listen.to_string().as_str()),
            ("[::]:443", "[::]:80")
        );
        assert!(Config::from_serve_args(&serve_args(&[])).unwrap().tls.is_none(), "no flag, no TLS");
        let refused = |extra: &[&str], base: &[&str]| {
            Config::from_serve_args(&serve_args(&[base, extra].concat())).unwrap_err().to_string()
        };
        assert!(refused(&["--listen", "127.0.0.1:8080"], &acme).starts_with("--listen is for plain HTTP"));
        assert!(refused(&["--acme-directory", "http://ca.example/dir"], &acme).starts_with("--acme-directory"));
        let local = ["--acme-email", "admin@example.com"];
        assert!(refused(&[], &local).contains("public --host"), "localhost gets no ACME certificate");
        let ip = ["--acme-email", "a@example.com", "--host", "192.0.2.1", "--oidc-client-id", "id"];
        assert!(refused(&[], &ip).contains("public --host"));
        assert!(
            refused(&["--acme-email", "nobody"], &["--host", "example.com", "--oidc-client-id", "id"])
                .starts_with("--acme-email")
        );
        assert!(refused(&["--tls-cert", "c.pem"], &[]).starts_with("--tls-cert needs --tls-key"));
        assert!(refused(&["--tls-key", "k.pem"], &[]).starts_with("--tls-key needs --tls-cert"));
        let static_local = ["--tls-cert", "c.pem", "--tls-key", "k.pem"];
        assert!(refused(&[], &static_local).starts_with("--https-listen [::]:443 can be reached"), "local sign-in");
        let loopback = ["--https-listen", "127.0.0.1:8443", "--http-listen", "127.0.0.1:8080"];
        let config = Config::from_serve_args(&serve_args(&[&static_local[..], &loopback].concat())).unwrap();
        assert!(config.https && config.tls.unwrap().acme.is_none(), "a certificate of one's own on localhost");
    }

    #[test]
    fn local_hosts_are_recognized() {
        assert!(is_local_host("localhost:8080"));
        assert!(is_local_host("quire.localhost"));
        assert!(!is_local_host("example.com"));
        assert!(!is_local_host("localhost.example.com"));
    }
}
