//! Building the server: data directory, database, listener, shared state.

use std::future::Future;
use std::net::TcpListener;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use poem::listener::TcpAcceptor;

use crate::auth::Auth;
use crate::blogs::{Blogs, PageGenerations, ServedNames};
use crate::config::Config;
use crate::data_dir::{DataDir, DataDirLock};
use crate::db::Db;
use crate::fetch::Fetcher;
use crate::domain::blocks::Rules;
use crate::http;
use crate::http::blog::BlogSite;
use crate::http::blog::static_site::StaticSite;
use crate::http::state::AppState;
use crate::http::ui::UiIndex;
use crate::search::SearchIndex;

/// How often counted page views are written (and an idle index writer closed, and the cached
/// pages of old generations freed).
const VIEW_FLUSH_INTERVAL: Duration = Duration::from_secs(10);
/// How long the search index writer stays open after the last write.
const WRITER_IDLE: Duration = Duration::from_secs(30);
/// Requests one HTTP/2 connection may have in flight. poem leaves it unlimited, and each may
/// hold a capped body in memory, so one connection could otherwise hold thousands of them.
const HTTP2_MAX_STREAMS: u32 = 100;

/// A server ready to run: data dir locked, database migrated, port bound.
pub struct App {
    acceptor: TcpAcceptor,
    state: AppState,
    port: u16,
    _lock: DataDirLock,
}

impl App {
    /// Prepares everything that can fail before serving. A `--host` ending in `:0`
    /// takes the bound port (tests bind port 0).
    pub async fn build(mut config: Config) -> anyhow::Result<App> {
        let lock = config.data_dir.lock()?;
        let data_dir = config.data_dir.clone();
        let (db, search) = tokio::task::spawn_blocking(move || open_storage(&data_dir)).await??;
        let search = Arc::new(search);

        let listener = TcpListener::bind(config.listen).with_context(|| {
            format!("cannot listen on {} (is another server using this port?)", config.listen)
        })?;
        listener.set_nonblocking(true)?;
        let port = listener.local_addr()?.port();
        if let Some(name) = config.host.strip_suffix(":0") {
            config.host = format!("{name}:{port}");
        }
        let acceptor = TcpAcceptor::from_std(listener)?;
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
        let served = Arc::new(ServedNames::load(&db, &config.host).await?);
        let blogs = Arc::new(Blogs::new(db.clone(), search.clone(), generations.clone(), config.data_dir.clone(), rules, served));
        // Before serving: the posts that came due while the server was down.
        let published = blogs.publish_due().await?;
        if published > 0 {
            tracing::info!(posts = published, "scheduled posts that came due while stopped were published");
        }
        // Before the job runner starts: jobs a stopped server was running start over.
        blogs.recover_jobs().await?;
        Ok(App {
            acceptor,
            state: AppState {
                config: Arc::new(config),
                db,
                blogs,
                search,
                ui,
                auth,
                site: Arc::new(BlogSite::new(generations)),
                fetcher,
                certificates: Arc::new(crate::domain::custom_domain::NotManaged),
            },
            port,
            _lock: lock,
        })
    }

    /// The bound port.
    pub fn port(&self) -> u16 {
        self.port
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
        let domain_checks = tokio::spawn(crate::blogs::domains::run(self.state.blogs.clone(), self.state.fetcher.clone()));
        let served = poem::Server::new_with_acceptor(self.acceptor)
            .http2_max_concurrent_streams(HTTP2_MAX_STREAMS)
            .run_with_graceful_shutdown(endpoint, shutdown, Some(Duration::from_secs(10)))
            .await;
        flusher.abort();
        scheduler.abort();
        jobs.abort();
        domain_checks.abort();
        self.state.site.page_views.flush(&self.state.db).await;
        let search = self.state.search.clone();
        let _ = tokio::task::spawn_blocking(move || search.close_idle_writer(Duration::ZERO)).await;
        served?;
        Ok(())
    }
}

/// Opens the database (migrated) and the search index, rebuilding the index when it is
/// missing or behind the database: what `serve` writes through, and `quire import` too.
pub fn open_storage(data_dir: &DataDir) -> anyhow::Result<(Db, SearchIndex)> {
    let db = Db::open_and_migrate(data_dir)?;
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
