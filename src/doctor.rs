//! `quire doctor`: checks the set-up `quire serve` would start with and prints one line a check,
//! with what to do when it fails. It changes nothing: the database is opened read-only, the
//! ports are bound and let go at once, the data directory's lock is only looked at, and the one
//! file it writes to prove the directory writable is a temporary file removed at once.
//!
//! The checks, in order: the flags, the data directory (exists, writable, free space, the
//! database's schema version), the ports, DNS (the host and a random name under it, and to this
//! machine when Quire gets its own certificates), the sign-in provider (discovery document and
//! keys), the ACME CA's directory, the SMTP relay, the uploads' bucket (a file written, read
//! back and deleted: the one thing it writes outside the data directory), Litestream's replica
//! (its newest transaction against the database's last write), and the clock (against the `Date` of the
//! provider's or the CA's answer: an ID token's `iat` check fails on a skewed clock).

use std::ffi::OsString;
use std::fmt::Write as _;
use std::net::{IpAddr, SocketAddr, TcpListener, UdpSocket};
use std::path::Path;
use std::time::{Duration, SystemTime};

use anyhow::{Context, anyhow, bail};
use clap::parser::ValueSource;
use clap::{ArgAction, CommandFactory, FromArgMatches};
use rusqlite::OpenFlags;

use crate::cli::{Cli, Command, DoctorArgs};
use crate::config::{Config, is_local_host};
use crate::data_dir::{DB_FILE, DataDir, LOCK_FILE};
use crate::db::{check_is_quire, migrate};

/// Free space below which the data directory's check fails.
pub const MIN_FREE_BYTES: u64 = 512 * 1024 * 1024;
/// The clock may differ from a remote server's `Date` by this much (ID tokens' `iat` and `exp`
/// are checked with a minute's leeway).
pub const MAX_CLOCK_SKEW: Duration = Duration::from_secs(30);
/// How long one remote check may take.
const REMOTE_TIMEOUT: Duration = Duration::from_secs(10);

/// One check's outcome.
enum Outcome {
    Pass(String),
    /// Not relevant to this set-up (counts as passed).
    Skip(String),
    /// What is wrong, and what to do about it.
    Fail(String, String),
}

struct Report {
    lines: Vec<(&'static str, Outcome)>,
}

impl Report {
    fn add(&mut self, name: &'static str, outcome: Outcome) {
        let line = match &outcome {
            Outcome::Pass(what) => format!("ok    {name}: {what}"),
            Outcome::Skip(what) => format!("skip  {name}: {what}"),
            Outcome::Fail(what, fix) => format!("FAIL  {name}: {what}. Fix: {fix}"),
        };
        println!("{line}");
        self.lines.push((name, outcome));
    }

    fn failed(&self) -> usize {
        self.lines.iter().filter(|(_, outcome)| matches!(outcome, Outcome::Fail(..))).count()
    }
}

/// `quire doctor`: runs every check, prints one line each and a summary; fails (exit status 1)
/// when any check failed.
pub fn run_command(args: &DoctorArgs) -> anyhow::Result<()> {
    let args = match &args.env_file {
        Some(file) => with_env_file(file)?,
        None => args.clone(),
    };
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let report = runtime.block_on(check_all(&args));
    let total = report.lines.len();
    match report.failed() {
        0 => {
            println!("All {total} checks passed.");
            Ok(())
        }
        failed => bail!("{failed} of {total} checks failed"),
    }
}

async fn check_all(doctor: &DoctorArgs) -> Report {
    let args = &doctor.serve;
    let mut report = Report { lines: Vec::new() };
    let config = match Config::from_serve_args(args) {
        Ok(config) => {
            report.add("flags", Outcome::Pass("quire serve accepts them".to_owned()));
            Some(config)
        }
        Err(err) => {
            report.add("flags", Outcome::Fail(format!("{err:#}"), "correct the flag (quire serve --help)".to_owned()));
            None
        }
    };
    let dir = args.data_dir.dir();
    report.add("data directory", data_directory(&dir));
    let Some(config) = config else {
        return report;
    };
    report.add("ports", ports(&config));
    report.add("DNS", dns(&config).await);
    let mut dates = Vec::new();
    report.add("sign-in", sign_in(&config, &mut dates).await);
    report.add("ACME", acme(&config, &mut dates).await);
    report.add("mail", mail(&config).await);
    report.add("uploads", uploads(&config).await);
    let max_lag = Duration::from_secs(doctor.replica_max_lag_secs);
    report.add("replica", replica(&config, doctor.replica.as_deref(), max_lag).await);
    report.add("clock", clock(&dates));
    report
}

/// Re-reads the command line with the settings of `file` (`QUIRE_X=value` lines) given for the
/// flags the command line does not set.
fn with_env_file(file: &Path) -> anyhow::Result<DoctorArgs> {
    let text = std::fs::read_to_string(file).with_context(|| format!("cannot read --env-file {}", file.display()))?;
    let settings = parse_env_file(&text).with_context(|| format!("--env-file {}", file.display()))?;
    let argv: Vec<OsString> = std::env::args_os().collect();
    let command = Cli::command();
    let matches = command.clone().try_get_matches_from(&argv)?;
    let Some(("doctor", doctor)) = matches.subcommand() else {
        bail!("--env-file belongs to quire doctor");
    };
    let doctor_command =
        command.find_subcommand("doctor").ok_or_else(|| anyhow!("quire has no doctor subcommand"))?.clone();
    let mut extra: Vec<OsString> = Vec::new();
    for (name, value) in &settings {
        let Some(arg) =
            doctor_command.get_arguments().find(|arg| arg.get_env().is_some_and(|env| env == name.as_str()))
        else {
            bail!("{name} is not a setting of quire serve");
        };
        let id = arg.get_id().as_str();
        if doctor.value_source(id) == Some(ValueSource::CommandLine) {
            continue;
        }
        let long = arg.get_long().ok_or_else(|| anyhow!("{name} has no flag"))?;
        match arg.get_action() {
            ArgAction::SetTrue => {
                if matches!(value.to_ascii_lowercase().as_str(), "1" | "true" | "yes" | "on") {
                    extra.push(format!("--{long}").into());
                }
            }
            // A list (`--trusted-proxy`) takes its comma-separated values one flag each.
            _ if arg.get_value_delimiter() == Some(',') => {
                extra.extend(value.split(',').map(|part| format!("--{long}={part}").into()));
            }
            _ => extra.push(format!("--{long}={value}").into()),
        }
    }
    let mut argv = argv;
    argv.extend(extra);
    let matches = Cli::command().try_get_matches_from(argv)?;
    match Cli::from_arg_matches(&matches)?.command {
        Command::Doctor(args) => Ok(args),
        _ => bail!("--env-file belongs to quire doctor"),
    }
}

/// The `NAME=value` lines of an environment file, as systemd reads them: blank lines and `#`
/// comments skipped, an optional `export `, values optionally in single or double quotes.
fn parse_env_file(text: &str) -> anyhow::Result<Vec<(String, String)>> {
    let mut settings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        let line = line.strip_prefix("export ").unwrap_or(line);
        let (name, value) =
            line.split_once('=').ok_or_else(|| anyhow!("line {}: expected NAME=value, got {line:?}", number + 1))?;
        let value = value.trim();
        let value = [('"', '"'), ('\'', '\'')]
            .iter()
            .find_map(|(open, close)| value.strip_prefix(*open).and_then(|v| v.strip_suffix(*close)))
            .unwrap_or(value);
        settings.push((name.trim().to_owned(), value.to_owned()));
    }
    Ok(settings)
}

fn data_directory(dir: &DataDir) -> Outcome {
    let root = dir.root();
    let shown = root.display();
    let meta = match std::fs::metadata(root) {
        Ok(meta) => meta,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            return Outcome::Fail(
                format!("{shown} does not exist"),
                format!(
                    "create it, owned by the user quire runs as (sudo install -d -m 0700 -o USER {shown}); \
                     the Debian package's quire.service has systemd make /var/lib/quire"
                ),
            );
        }
        Err(err) => return Outcome::Fail(format!("cannot read {shown}: {err}"), "check its permissions".to_owned()),
    };
    if !meta.is_dir() {
        return Outcome::Fail(format!("{shown} is not a directory"), "give --data-dir a directory".to_owned());
    }
    // A temporary file, removed when dropped: the only write the doctor makes.
    if let Err(err) = tempfile::Builder::new().prefix(".quire-doctor-").tempfile_in(root) {
        return Outcome::Fail(
            format!("cannot write in {shown}: {err}"),
            format!(
                "give it to the user quire runs as (sudo chown -R USER {shown}), on a file system mounted read-write"
            ),
        );
    }
    let mut summary = String::from("writable");
    match rustix::fs::statvfs(root) {
        Ok(stats) => {
            let free = stats.f_bavail.saturating_mul(stats.f_frsize);
            let _ = write!(summary, ", {} free", crate::progress::human(free));
            if free < MIN_FREE_BYTES {
                return Outcome::Fail(
                    format!("{shown} has only {} free", crate::progress::human(free)),
                    format!(
                        "free space there (at least {}; old exports, logs, backups/)",
                        crate::progress::human(MIN_FREE_BYTES)
                    ),
                );
            }
        }
        Err(err) => {
            return Outcome::Fail(
                format!("cannot read the free space of {shown}: {err}"),
                "check the mount".to_owned(),
            );
        }
    }
    if let Err(err) = dir.check_database_or_fresh() {
        return Outcome::Fail(format!("{err:#}"), "restore the database or move the folder away".to_owned());
    }
    let database = dir.database();
    if !database.exists() {
        let _ = write!(summary, ", no {DB_FILE} yet (quire serve creates it)");
        return Outcome::Pass(format!("{shown}: {summary}"));
    }
    match schema_version(&database) {
        Ok(version) if version > migrate::latest_version() => Outcome::Fail(
            format!(
                "{} has schema version {version}, written by a newer quire than this one (which knows {})",
                database.display(),
                migrate::latest_version()
            ),
            "run the newer quire binary, or go back with the backup taken before the upgrade (README, Upgrading)"
                .to_owned(),
        ),
        Ok(version) if version < migrate::latest_version() => {
            let pending = migrate::latest_version() - version;
            Outcome::Pass(format!(
                "{shown}: {summary}, schema version {version}; quire serve backs it up to {} and applies {pending} \
                 migration{}",
                dir.backups().display(),
                if pending == 1 { "" } else { "s" }
            ))
        }
        Ok(version) => Outcome::Pass(format!("{shown}: {summary}, schema version {version} (up to date)")),
        Err(err) => Outcome::Fail(
            format!("{:#}", err),
            "restore a backup (quire restore), or move the file away to start afresh".to_owned(),
        ),
    }
}

/// The database's schema version, read without writing anything. A read-only connection to a
/// WAL database makes its `-wal` and `-shm` files when they are missing (no server runs), so
/// then the file is opened as immutable (nothing else writes it); while they exist, through them.
fn schema_version(path: &Path) -> anyhow::Result<i64> {
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    let absolute = std::path::absolute(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut uri =
        url::Url::from_file_path(&absolute).map_err(|()| anyhow!("cannot read {}", path.display()))?.to_string();
    if !Path::new(&wal).exists() {
        uri.push_str("?immutable=1");
    }
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX | OpenFlags::SQLITE_OPEN_URI;
    let conn = rusqlite::Connection::open_with_flags(&uri, flags)
        .with_context(|| format!("cannot open {}", path.display()))?;
    // The same check serve makes before it migrates.
    check_is_quire(&conn, path).with_context(|| format!("reading {}", path.display()))?;
    Ok(migrate::current_version(&conn)?)
}

/// Whether another process (a running `quire serve`) holds the data directory's lock. Opens the
/// lock file only if it exists, so nothing is created.
fn data_dir_in_use(dir: &DataDir) -> bool {
    match std::fs::File::open(dir.root().join(LOCK_FILE)) {
        Ok(file) => matches!(file.try_lock(), Err(std::fs::TryLockError::WouldBlock)),
        Err(_) => false,
    }
}

fn ports(config: &Config) -> Outcome {
    let listens: Vec<(&str, SocketAddr)> = match &config.tls {
        Some(tls) => vec![("--https-listen", tls.https_listen), ("--http-listen", tls.http_listen)],
        None => vec![("--listen", config.listen)],
    };
    let shown = listens.iter().map(|(_, addr)| addr.to_string()).collect::<Vec<_>>().join(" and ");
    if data_dir_in_use(&config.data_dir) {
        return Outcome::Skip(format!("not bound: a running quire uses the data directory (and {shown})"));
    }
    for (flag, addr) in &listens {
        if let Err(err) = TcpListener::bind(addr) {
            return match err.kind() {
                std::io::ErrorKind::AddrInUse => Outcome::Fail(
                    format!("{addr} is in use by another program"),
                    format!("stop it (sudo ss -ltnp 'sport = :{}' names it), or give another {flag}", addr.port()),
                ),
                std::io::ErrorKind::PermissionDenied => Outcome::Fail(
                    format!("not allowed to bind {addr}: ports below 1024 need a privilege"),
                    "run quire under systemd with AmbientCapabilities=CAP_NET_BIND_SERVICE (the package's \
                     quire.service does), or sudo setcap cap_net_bind_service=+ep on the binary"
                        .to_owned(),
                ),
                _ => Outcome::Fail(format!("cannot bind {addr}: {err}"), format!("give another {flag}")),
            };
        }
    }
    Outcome::Pass(format!("{shown} free to listen on"))
}

async fn dns(config: &Config) -> Outcome {
    let name = config.host.rsplit_once(':').map_or(config.host.as_str(), |(name, _)| name).to_owned();
    if is_local_host(&name) {
        return Outcome::Skip(format!("{name} is this machine (browsers resolve *.localhost themselves)"));
    }
    if name.parse::<IpAddr>().is_ok() {
        return Outcome::Skip(format!("{name} is an address"));
    }
    let random = format!("doctor-{:08x}.{name}", rand::random::<u32>());
    let mut found = Vec::new();
    for lookup in [&name, &random] {
        match tokio::time::timeout(REMOTE_TIMEOUT, tokio::net::lookup_host((lookup.as_str(), 443))).await {
            Ok(Ok(addrs)) => {
                let addrs: Vec<IpAddr> = addrs.map(|addr| addr.ip()).collect();
                if addrs.is_empty() {
                    return dns_fail(lookup, &name, "has no address");
                }
                found.push((lookup.clone(), addrs));
            }
            Ok(Err(err)) => return dns_fail(lookup, &name, &format!("does not resolve ({err})")),
            Err(_) => return dns_fail(lookup, &name, "did not resolve within 10 s"),
        }
    }
    let own_certificates = config.tls.as_ref().is_some_and(|tls| tls.acme.is_some());
    if own_certificates {
        for (lookup, addrs) in &found {
            // An address of this machine is one a socket can be bound to.
            if !addrs.iter().any(|ip| UdpSocket::bind((*ip, 0)).is_ok()) {
                let shown = addrs.iter().map(IpAddr::to_string).collect::<Vec<_>>().join(", ");
                return Outcome::Fail(
                    format!("{lookup} resolves to {shown}, none of them an address of this machine"),
                    format!(
                        "point the A/AAAA records of {name} and *.{name} at this machine (the CA connects there \
                         to check each name; behind a 1:1 NAT, check the address is forwarded here)"
                    ),
                );
            }
        }
    }
    let shown = found[0].1.iter().map(IpAddr::to_string).collect::<Vec<_>>().join(", ");
    Outcome::Pass(format!(
        "{name} resolves to {shown}, and so does a blog's name ({random}){}",
        if own_certificates { ", addresses of this machine" } else { "" }
    ))
}

fn dns_fail(lookup: &str, name: &str, what: &str) -> Outcome {
    Outcome::Fail(
        format!("{lookup} {what}"),
        format!("add A (and AAAA) records for {name} and a wildcard *.{name} pointing at this machine"),
    )
}

/// A plain client for servers the operator chose (the sign-in provider).
fn http_client() -> anyhow::Result<reqwest::Client> {
    Ok(reqwest::Client::builder()
        .timeout(REMOTE_TIMEOUT)
        .user_agent(concat!("quire-doctor/", env!("CARGO_PKG_VERSION")))
        .build()?)
}

/// GETs `url` and reads its JSON, noting the answer's `Date`.
async fn get_json(
    http: &reqwest::Client,
    url: &str,
    dates: &mut Vec<(String, SystemTime)>,
) -> Result<serde_json::Value, String> {
    let response = http.get(url).send().await.map_err(|err| format!("cannot reach {url}: {}", error_chain(&err)))?;
    if let Some(date) = response
        .headers()
        .get(reqwest::header::DATE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| httpdate::parse_http_date(value).ok())
    {
        let server = reqwest::Url::parse(url).ok().and_then(|u| u.host_str().map(str::to_owned)).unwrap_or_default();
        dates.push((server, date));
    }
    let status = response.status();
    if !status.is_success() {
        return Err(format!("{url} answered {status}"));
    }
    let body = response.bytes().await.map_err(|err| format!("reading {url}: {err}"))?;
    serde_json::from_slice(&body).map_err(|_| format!("{url} did not answer JSON"))
}

/// An error with its causes, on one line.
fn error_chain(err: &dyn std::error::Error) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        let _ = write!(text, ": {cause}");
        source = cause.source();
    }
    text
}

async fn sign_in(config: &Config, dates: &mut Vec<(String, SystemTime)>) -> Outcome {
    if config.oidc_client_id.is_none() {
        return Outcome::Skip(
            "the local issuer signs people in (a localhost --host without --oidc-client-id); a public instance \
             needs --oidc-issuer and --oidc-client-id"
                .to_owned(),
        );
    }
    let issuer = &config.oidc_issuer;
    let fix = "check --oidc-issuer, and that this machine reaches it (DNS, firewall, outgoing HTTPS)".to_owned();
    let http = match http_client() {
        Ok(http) => http,
        Err(err) => return Outcome::Fail(format!("{err:#}"), fix),
    };
    let url = format!("{issuer}/.well-known/openid-configuration");
    let discovery = match get_json(&http, &url, dates).await {
        Ok(json) => json,
        Err(what) => return Outcome::Fail(what, fix),
    };
    let discovery: crate::auth::oidc::Discovery = match serde_json::from_value(discovery) {
        Ok(discovery) => discovery,
        Err(err) => return Outcome::Fail(format!("{url} is not an OpenID discovery document: {err}"), fix),
    };
    if discovery.issuer.trim_end_matches('/') != issuer {
        return Outcome::Fail(
            format!("{url} names the issuer {:?}, not {issuer:?}", discovery.issuer),
            "give --oidc-issuer exactly as the provider names itself".to_owned(),
        );
    }
    let keys = match get_json(&http, &discovery.jwks_uri, dates).await {
        Ok(json) => json,
        Err(what) => return Outcome::Fail(what, fix),
    };
    let count = keys.get("keys").and_then(serde_json::Value::as_array).map_or(0, Vec::len);
    if count == 0 {
        return Outcome::Fail(
            format!("{} holds no signing keys", discovery.jwks_uri),
            "check the provider's set-up".to_owned(),
        );
    }
    Outcome::Pass(format!(
        "{issuer} answers its discovery document and {count} signing key{}; client ID set",
        if count == 1 { "" } else { "s" }
    ))
}

async fn acme(config: &Config, dates: &mut Vec<(String, SystemTime)>) -> Outcome {
    let Some(acme) = config.tls.as_ref().and_then(|tls| tls.acme.as_ref()) else {
        return Outcome::Skip("no --acme-email: Quire gets no certificates itself".to_owned());
    };
    let fix = "check --acme-directory (and --acme-ca-root), and that this machine reaches it".to_owned();
    let http = match crate::tls::acme::ca_http_client(acme.ca_root.as_deref()) {
        Ok(http) => http,
        Err(err) => return Outcome::Fail(format!("{err:#}"), fix),
    };
    match get_json(&http, &acme.directory, dates).await {
        Ok(directory) => {
            let missing: Vec<&str> =
                ["newNonce", "newAccount", "newOrder"].into_iter().filter(|key| directory.get(key).is_none()).collect();
            if missing.is_empty() {
                Outcome::Pass(format!("{} answers", acme.directory))
            } else {
                Outcome::Fail(format!("{} is not an ACME directory (no {})", acme.directory, missing.join(", ")), fix)
            }
        }
        Err(what) => Outcome::Fail(what, fix),
    }
}

async fn mail(config: &Config) -> Outcome {
    let Some(mail) = &config.mail else {
        return Outcome::Skip("no --smtp-url: Quire sends no mail".to_owned());
    };
    let fix = "check --smtp-url (host, port, security, user and password) and that this machine reaches the relay \
               (quire mail test ADDRESS sends one message)"
        .to_owned();
    let connector = match crate::mail::connection::Connector::new(mail) {
        Ok(connector) => connector,
        Err(err) => return Outcome::Fail(format!("{err:#}"), fix),
    };
    match tokio::time::timeout(REMOTE_TIMEOUT * 3, connector.connect()).await {
        Ok(Ok(mut connection)) => {
            let _ = connection.quit().await;
            Outcome::Pass(format!("the relay {} answered and took the greeting (and the login)", connector.name()))
        }
        Ok(Err(err)) => Outcome::Fail(format!("the relay {}: {err}", connector.name()), fix),
        Err(_) => Outcome::Fail(format!("the relay {} did not answer within 30 s", connector.name()), fix),
    }
}

/// With `--uploads-url`: a small file written to the bucket, read back and deleted.
async fn uploads(config: &Config) -> Outcome {
    let Some(bucket) = &config.uploads.bucket else {
        return Outcome::Skip("no --uploads-url: images are kept in the data directory's uploads/".to_owned());
    };
    let fix = "check --uploads-url, AWS_ENDPOINT_URL, AWS_DEFAULT_REGION and the credentials: their key must be \
               allowed to put, get, list and delete objects in the bucket"
        .to_owned();
    let store = match crate::media_store::MediaStore::open(&config.data_dir, &config.uploads) {
        Ok(store) => store,
        Err(err) => return Outcome::Fail(format!("{err:#}"), fix),
    };
    match tokio::time::timeout(bucket.timeout * 2, store.probe()).await {
        Ok(Ok(took)) => Outcome::Pass(format!(
            "{} took a file, gave it back and deleted it ({} ms)",
            bucket.url(),
            took.as_millis()
        )),
        Ok(Err(err)) => Outcome::Fail(err.to_string(), fix),
        Err(_) => {
            Outcome::Fail(format!("{} did not answer within {} s", bucket.url(), (bucket.timeout * 2).as_secs()), fix)
        }
    }
}

/// With `--replica`: the replica's newest transaction against the database's last write.
async fn replica(config: &Config, url: Option<&str>, max_lag: Duration) -> Outcome {
    let Some(url) = url else {
        return Outcome::Skip("no --replica: give Litestream's replica URL to check that it is fresh".to_owned());
    };
    let fix = "check that Litestream runs (systemctl status quire: it runs quire serve under litestream replicate; \
               or journalctl for its log) and reaches the replica with its credentials (docs/replication.md)"
        .to_owned();
    let freshness =
        match tokio::time::timeout(REMOTE_TIMEOUT * 3, crate::replication::freshness(&config.data_dir, url)).await {
            Ok(Ok(freshness)) => freshness,
            Ok(Err(err)) => return Outcome::Fail(format!("{err:#}"), fix),
            Err(_) => return Outcome::Fail(format!("the replica {url} did not answer within 30 s"), fix),
        };
    let Some((txid, _)) = freshness.replicated else {
        return Outcome::Fail(format!("the replica {url} holds nothing replicated yet"), fix);
    };
    if let Some(waiting) = freshness.waiting()
        && waiting > max_lag
    {
        return Outcome::Fail(
            format!(
                "the replica {url} is behind: the database was written {} s ago and the replica's newest file \
                 (transaction {txid}) is older",
                waiting.as_secs()
            ),
            fix,
        );
    }
    let local = match freshness.local {
        Some(local) if local > txid => format!(" (Litestream holds transaction {local} here, on its way)"),
        _ => String::new(),
    };
    Outcome::Pass(format!(
        "{url} holds transaction {txid} and every write of the database older than {} s{local}",
        max_lag.as_secs()
    ))
}

fn clock(dates: &[(String, SystemTime)]) -> Outcome {
    let Some((server, date)) = dates.first() else {
        return Outcome::Skip("no remote server answered with its time to compare with".to_owned());
    };
    let now = SystemTime::now();
    let (skew, direction) = match now.duration_since(*date) {
        Ok(ahead) => (ahead, "ahead of"),
        Err(behind) => (behind.duration(), "behind"),
    };
    // `Date` has whole seconds: a second of it is rounding.
    if skew > MAX_CLOCK_SKEW + Duration::from_secs(1) {
        return Outcome::Fail(
            format!("this machine's clock is {} s {direction} {server}'s", skew.as_secs()),
            "turn on time synchronization (sudo timedatectl set-ntp true): sign-in tokens are refused on a \
             skewed clock"
                .to_owned(),
        );
    }
    Outcome::Pass(format!("within {} s of {server}'s", skew.as_secs()))
}
