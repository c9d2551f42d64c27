//! Building the server: data directory, database, listener, shared state.
//!
//! `App::build` opens the data directory (its lock), the database and the index (`open_storage`,
//! which `quire import` uses too: migrations, the search index rebuilt when behind, image sizes
//! backfilled), binds the listeners, builds one `Fetcher` and the shared `AppState`, and before
//! serving publishes the scheduled posts that came due while the server was stopped and recovers
//! the jobs a stop interrupted. The listeners: `--listen` (plain HTTP, `http::serve`), or, when
//! Quire serves HTTPS itself, the HTTPS and port-80 listeners, run as two poem servers under one
//! shutdown (`serve_tls`; every HTTPS answer gets `Strict-Transport-Security`). `App::run` starts
//! the server's tasks beside it: the
//! scheduler, the job runner, the custom domains' recheck task, the delivery worker, the mail sender, and a 10 s
//! timer that writes page views, drops stale cached pages and closes the idle index writer.
//!
//! With the TLS manager, `follow_served_names` listens to `ServedNames::changes`: a name added (a
//! blog created, a custom domain verified) is ordered ahead (`Manager::prefetch`), so its first
//! reader does not wait; a name removed is forgotten with its files (`Manager::forget`). The
//! manager asks whether a name is served through a `tls::NamePolicy` closure over
//! `ServedNames::allows`, so `tls` does not depend on `blogs`.

use std::future::Future;
use std::net::TcpListener;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use poem::EndpointExt;
use poem::listener::TcpAcceptor;

use crate::auth::Auth;
use crate::blogs::{Blogs, NameChange, PageGenerations, ServedNames};
use crate::config::{AccessLogTarget, Config};
use crate::data_dir::{DataDir, DataDirLock};
use crate::db::Db;
use crate::domain::content::blocks::Rules;
use crate::fetch::Fetcher;
use crate::http;
use crate::http::access_log::AccessLog;
use crate::http::blog::BlogSite;
use crate::http::blog::static_site::StaticSite;
use crate::http::state::AppState;
use crate::http::ui::UiIndex;
use crate::media_store::MediaStore;
use crate::search::SearchIndex;
use crate::tls::{CertificateStates, NotManaged};
use crate::tls::{NamePolicy, Tls, TlsAcceptor};

/// How often counted page views are written (and an idle index writer closed, and the cached
/// pages of old generations freed).
const VIEW_FLUSH_INTERVAL: Duration = Duration::from_secs(10);
/// How long the search index writer stays open after the last write.
const WRITER_IDLE: Duration = Duration::from_secs(30);
/// Requests one HTTP/2 connection may have in flight. poem leaves it unlimited, and each may
/// hold a capped body in memory, so one connection could otherwise hold thousands of them.
const HTTP2_MAX_STREAMS: u32 = 100;
/// HTTPS answers ask browsers to use https for a year. Without includeSubDomains: a custom
/// domain's parent is not Quire's.
const HSTS: &str = "max-age=31536000";

/// Where a server listens.
enum Listeners {
    /// Plain HTTP on `--listen` (behind a proxy), served by `http::serve`.
    Plain(tokio::net::TcpListener),
    /// HTTPS and port 80, with `--acme-email` or `--tls-cert`.
    Tls(TlsListeners),
}

/// The listeners of a server that serves HTTPS itself.
struct TlsListeners {
    https: TlsAcceptor,
    http: TcpAcceptor,
    http_port: u16,
    tls: Tls,
    allows: NamePolicy,
    /// The served names' changes: a new name's certificate is ordered ahead, a dropped one forgotten.
    changes: tokio::sync::broadcast::Receiver<NameChange>,
}

/// A server ready to run: data dir locked, database migrated, port bound.
pub struct App {
    acceptor: Listeners,
    state: AppState,
    port: u16,
    _lock: DataDirLock,
}

impl App {
    /// Prepares everything that can fail before serving. A `--host` ending in `:0`
    /// takes the bound port (tests bind port 0).
    pub async fn build(mut config: Config) -> anyhow::Result<App> {
        // First, so that a log file Quire cannot write stops it before anything else starts.
        let access_log = AccessLog::start(&config.access_log)?;
        if matches!(config.access_log.target, AccessLogTarget::File(_)) {
            reopen_on_hangup(access_log.clone())?;
        }
        let lock = config.data_dir.lock()?;
        let data_dir = config.data_dir.clone();
        let (db, search) = tokio::task::spawn_blocking(move || open_storage(&data_dir)).await??;
        db.map_reads(config.db_mmap_bytes);
        let search = Arc::new(search);

        let listen = config.tls.as_ref().map_or(config.listen, |tls| tls.https_listen);
        let listener = bind(listen)?;
        let port = listener.local_addr()?.port();
        if let Some(name) = config.host.strip_suffix(":0") {
            config.host = format!("{name}:{port}");
        }
        let served = Arc::new(ServedNames::load(&db, &config.host).await?);
        let acceptor = match &config.tls {
            None => Listeners::Plain(tokio::net::TcpListener::from_std(listener)?),
            Some(tls_config) => {
                let http = bind(tls_config.http_listen)?;
                let http_port = http.local_addr()?.port();
                let names = served.clone();
                let allows: NamePolicy = Arc::new(move |name: &str| names.allows(name));
                let changes = served.changes();
                let tls = Tls::from_config(&config, allows.clone(), &db)?.expect("config.tls is set");
                let https = TlsAcceptor::start(
                    tokio::net::TcpListener::from_std(listener)?,
                    tls.certificates.clone(),
                    tls_config.handshakes,
                )?;
                Listeners::Tls(TlsListeners {
                    https,
                    http: TcpAcceptor::from_std(http)?,
                    http_port,
                    tls,
                    allows,
                    changes,
                })
            }
        };
        if config.fetch_allow_loopback {
            tracing::warn!(
                "test-only: requests to URLs others chose (imported images, federation) may reach this machine's \
                 loopback addresses (127.0.0.0/8, ::1); never run a real server like this"
            );
        }
        let fetcher = Fetcher::new(&config)?;
        let ui = Arc::new(UiIndex::render(&config)?);
        let auth = Arc::new(Auth::from_config(&config)?);
        let generations = Arc::new(PageGenerations::default());
        let rules = Rules { image_prefix: config.image_prefix() };
        let config = Arc::new(config);
        let blogs = Arc::new(Blogs::new(
            db.clone(),
            search.clone(),
            generations.clone(),
            config.data_dir.clone(),
            MediaStore::open(&config.data_dir, &config.uploads)?,
            rules,
            served,
            config.clone(),
        ));
        // Before serving: the posts that came due while the server was down.
        let published = blogs.publish_due().await?;
        if published > 0 {
            tracing::info!(posts = published, "scheduled posts that came due while stopped were published");
        }
        // Before the job runner starts: jobs a stopped server was running start over.
        blogs.recover_jobs().await?;
        let certificates: Arc<dyn CertificateStates> = match &acceptor {
            Listeners::Tls(tls) => match tls.tls.manager() {
                Some(manager) => manager.clone(),
                None => Arc::new(NotManaged),
            },
            Listeners::Plain(_) => Arc::new(NotManaged),
        };
        let (page_cache_bytes, renders) = (config.page_cache_bytes, config.uncached_renders);
        Ok(App {
            acceptor,
            state: AppState {
                config,
                db,
                blogs,
                search,
                ui,
                auth,
                site: Arc::new(BlogSite::new(generations, page_cache_bytes, renders)),
                fetcher,
                certificates,
                access_log,
            },
            port,
            _lock: lock,
        })
    }

    /// The bound port (HTTPS's when the server serves it itself).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The port-80 listener's port, when the server serves HTTPS itself.
    pub fn http_port(&self) -> Option<u16> {
        match &self.acceptor {
            Listeners::Tls(tls) => Some(tls.http_port),
            Listeners::Plain(_) => None,
        }
    }

    /// The TLS side (certificates, the ACME manager), when the server serves HTTPS itself.
    pub fn tls(&self) -> Option<&Tls> {
        match &self.acceptor {
            Listeners::Tls(tls) => Some(&tls.tls),
            Listeners::Plain(_) => None,
        }
    }

    /// What the server's handlers share: the write path, the fetcher, ... (for in-process
    /// tools and tests that act as a handler would, such as an import).
    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// The owner app's URL.
    pub fn url(&self) -> String {
        self.state.config.app_url()
    }

    /// Serves until `shutdown` resolves, then lets requests in flight finish (10 s at most).
    pub async fn run(self, shutdown: impl Future<Output = ()>) -> anyhow::Result<()> {
        let endpoint = http::endpoint(self.state.clone());
        let state = self.state.clone();
        let flusher = tokio::spawn(async move {
            let mut every = tokio::time::interval(VIEW_FLUSH_INTERVAL);
            loop {
                every.tick().await;
                state.site.page_views.flush(&state.db).await;
                state.site.sweep_stale_pages();
                let search = state.search.clone();
                let _ = tokio::task::spawn_blocking(move || search.close_idle_writer(WRITER_IDLE)).await;
            }
        });
        let scheduler = tokio::spawn(crate::blogs::schedule::run(self.state.blogs.clone()));
        let site = Arc::new(StaticSite::new(self.state.config.as_ref().clone()));
        let jobs = tokio::spawn(crate::blogs::jobs::run(self.state.blogs.clone(), site, self.state.fetcher.clone()));
        let domain_checks =
            tokio::spawn(crate::blogs::domains::run(self.state.blogs.clone(), self.state.fetcher.clone()));
        let admin_requests = tokio::spawn(crate::blogs::review::run_requests(self.state.blogs.clone()));
        let webmentions =
            tokio::spawn(crate::blogs::webmentions::run(self.state.blogs.clone(), self.state.fetcher.clone()));
        let mailings = self
            .state
            .config
            .mail_enabled()
            .then(|| tokio::spawn(crate::blogs::subscriptions::run_mailings(self.state.blogs.clone())));
        let retry_unit = self.state.config.delivery_retry_unit;
        let deliveries = tokio::spawn(crate::blogs::federation::delivery::run(
            self.state.blogs.clone(),
            self.state.fetcher.clone(),
            retry_unit,
        ));
        let mail = self.state.config.mail.clone().map(|mail| {
            tokio::spawn(crate::mail::sender::run(
                self.state.db.clone(),
                mail,
                self.state.config.public.admins.clone(),
                self.state.blogs.mail_changed(),
            ))
        });
        let served = match self.acceptor {
            Listeners::Plain(listener) => {
                http::serve::serve_plain(listener, endpoint, HTTP2_MAX_STREAMS, shutdown, Duration::from_secs(10)).await
            }
            Listeners::Tls(listeners) => serve_tls(listeners, endpoint, &self.state.config.host, shutdown).await,
        };
        flusher.abort();
        scheduler.abort();
        jobs.abort();
        domain_checks.abort();
        deliveries.abort();
        if let Some(mail) = mail {
            mail.abort();
        }
        admin_requests.abort();
        webmentions.abort();
        if let Some(mailings) = mailings {
            mailings.abort();
        }
        self.state.site.page_views.flush(&self.state.db).await;
        let search = self.state.search.clone();
        let _ = tokio::task::spawn_blocking(move || search.close_idle_writer(Duration::ZERO)).await;
        // The last requests' lines, still queued for the log's writer thread.
        let access_log = self.state.access_log.clone();
        let _ = tokio::task::spawn_blocking(move || access_log.flush()).await;
        served?;
        Ok(())
    }
}

/// Orders a certificate ahead for each name the server starts answering on (a blog created, a
/// custom domain verified), so its first reader does not wait, and forgets each name it stops
/// answering on (its certificate leaves memory and the data directory).
async fn follow_served_names(
    manager: Arc<crate::tls::Manager>,
    mut changes: tokio::sync::broadcast::Receiver<NameChange>,
) {
    use tokio::sync::broadcast::error::RecvError;
    loop {
        match changes.recv().await {
            Ok(NameChange::Added(name)) => manager.prefetch(&name),
            Ok(NameChange::Removed(name)) => manager.forget(&name),
            // Missed changes only cost a wait at a first handshake, or a stale certificate on disk.
            Err(RecvError::Lagged(missed)) => tracing::warn!(missed, "missed changes of the served names"),
            Err(RecvError::Closed) => return,
        }
    }
}

/// Binds `addr` (non-blocking), with a clear error when it is taken.
fn bind(addr: std::net::SocketAddr) -> anyhow::Result<TcpListener> {
    let listener = TcpListener::bind(addr)
        .with_context(|| format!("cannot listen on {addr} (is another server using this port?)"))?;
    listener.set_nonblocking(true)?;
    Ok(listener)
}

/// Serves HTTPS (with HSTS) and the port-80 endpoint under one shutdown, and runs the
/// certificate timers, until `shutdown` resolves.
async fn serve_tls(
    listeners: TlsListeners,
    endpoint: poem::endpoint::BoxEndpoint<'static, poem::Response>,
    host: &str,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let TlsListeners { https, http, tls, allows, changes, .. } = listeners;
    let mut timers = tls.spawn_timers(crate::tls::manager::RENEW_CHECK);
    if let Some(manager) = tls.manager() {
        timers.push(tokio::spawn(follow_served_names(manager.clone(), changes)));
    }
    let https_port = host.rsplit_once(':').and_then(|(_, port)| port.parse().ok());
    let plain = crate::http::acme_http::PlainHttp { manager: tls.manager().cloned(), allows, https_port };
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let wait = |mut stopped: tokio::sync::watch::Receiver<bool>| async move {
        let _ = stopped.wait_for(|stop| *stop).await;
    };
    let secure = endpoint.with(poem::middleware::SetHeader::new().overriding("strict-transport-security", HSTS));
    let https = poem::Server::new_with_acceptor(https)
        .name("https")
        .http2_max_concurrent_streams(HTTP2_MAX_STREAMS)
        .run_with_graceful_shutdown(secure, wait(stopped.clone()), Some(Duration::from_secs(10)));
    let http = poem::Server::new_with_acceptor(http).name("http").run_with_graceful_shutdown(
        plain,
        wait(stopped),
        Some(Duration::from_secs(10)),
    );
    let signal = async {
        shutdown.await;
        let _ = stop.send(true);
    };
    let (https, http, ()) = tokio::join!(https, http, signal);
    for timer in timers {
        timer.abort();
    }
    https.and(http)
}

/// Opens the database (migrated) and the search index, rebuilding the index when it is
/// missing or behind the database: what `serve` writes through, and `quire import` too.
pub fn open_storage(data_dir: &DataDir) -> anyhow::Result<(Db, SearchIndex)> {
    // A database holding data is backed up before it is migrated (data/backups/).
    let db =
        Db::open_and_migrate_with(data_dir, |from, to| crate::backup::before_migration(data_dir, from, to).map(drop))?;
    let index = SearchIndex::open(&data_dir.index()).context("opening the search index")?;
    let mut conn = crate::db::open_connection(db.path(), false)?;
    let sized = crate::blogs::backfill_image_sizes(&conn, data_dir)?;
    if sized > 0 {
        tracing::info!(images = sized, "image sizes read");
    }
    if let Some(count) = crate::blogs::index::sync(&index, &mut conn, false, false)? {
        tracing::info!(posts = count, "search index rebuilt from the database");
    }
    Ok((db, index))
}

/// Reopens the access log's file on SIGHUP, after a log rotation renamed it.
fn reopen_on_hangup(access_log: AccessLog) -> anyhow::Result<()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut hangup = signal(SignalKind::hangup())?;
        tokio::spawn(async move {
            while hangup.recv().await.is_some() {
                access_log.reopen();
            }
        });
    }
    #[cfg(not(unix))]
    let _ = access_log;
    Ok(())
}
