//! Building the server: data directory, database, listener, shared state.

use std::fs::File;
use std::future::Future;
use std::net::TcpListener;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, bail};
use poem::listener::TcpAcceptor;

use crate::auth::Auth;
use crate::config::Config;
use crate::db::Db;
use crate::http;
use crate::http::blog::Public;
use crate::http::ui::UiIndex;
use crate::search::{INDEX_DIR, SearchIndex};

/// The data directory's upload folder.
pub const UPLOADS_DIR: &str = "uploads";
const LOCK_FILE: &str = "quire.lock";
/// How often counted page views are written (and an idle index writer closed).
const VIEW_FLUSH_INTERVAL: Duration = Duration::from_secs(10);
/// How long the search index writer stays open after the last write.
const WRITER_IDLE: Duration = Duration::from_secs(30);

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    /// Settings.
    pub config: Arc<Config>,
    /// The database.
    pub db: Db,
    /// The rendered owner-app page.
    pub ui: Arc<UiIndex>,
    /// Sign-in: token verification, the local issuer, rate limits.
    pub auth: Arc<Auth>,
    /// The posts' search index.
    pub search: Arc<SearchIndex>,
    /// Public pages: cache, themes, view counts.
    pub public: Arc<Public>,
}

/// A server ready to run: data dir locked, database migrated, port bound.
pub struct App {
    acceptor: TcpAcceptor,
    state: AppState,
    port: u16,
    _lock: File,
}

impl App {
    /// Prepares everything that can fail before serving. A `--host` ending in `:0`
    /// takes the bound port (tests bind port 0).
    pub async fn build(mut config: Config) -> anyhow::Result<App> {
        let lock = lock_data_dir(&config.data_dir)?;
        let data_dir = config.data_dir.clone();
        let (db, search) = tokio::task::spawn_blocking(move || open_storage(&data_dir)).await??;

        let listener = TcpListener::bind(config.listen).with_context(|| {
            format!("cannot listen on {} (is another server using this port?)", config.listen)
        })?;
        listener.set_nonblocking(true)?;
        let port = listener.local_addr()?.port();
        if let Some(name) = config.host.strip_suffix(":0") {
            config.host = format!("{name}:{port}");
        }
        let acceptor = TcpAcceptor::from_std(listener)?;
        let ui = Arc::new(UiIndex::render(&config)?);
        let auth = Arc::new(Auth::from_config(&config)?);
        Ok(App {
            acceptor,
            state: AppState {
                config: Arc::new(config),
                db,
                ui,
                auth,
                search: Arc::new(search),
                public: Arc::new(Public::default()),
            },
            port,
            _lock: lock,
        })
    }

    /// The bound port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The owner app's URL.
    pub fn url(&self) -> String {
        self.state.config.app_url()
    }

    /// The shared state (tests use it to reach the database).
    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Serves until `shutdown` resolves, then lets requests in flight finish (10 s at most).
    pub async fn run(self, shutdown: impl Future<Output = ()>) -> anyhow::Result<()> {
        let endpoint = http::endpoint(self.state.clone());
        let state = self.state.clone();
        let flusher = tokio::spawn(async move {
            let mut every = tokio::time::interval(VIEW_FLUSH_INTERVAL);
            loop {
                every.tick().await;
                state.public.views.flush(&state.db).await;
                let search = state.search.clone();
                let _ = tokio::task::spawn_blocking(move || search.close_idle_writer(WRITER_IDLE)).await;
            }
        });
        let served = poem::Server::new_with_acceptor(self.acceptor)
            .run_with_graceful_shutdown(endpoint, shutdown, Some(Duration::from_secs(10)))
            .await;
        flusher.abort();
        self.state.public.views.flush(&self.state.db).await;
        let search = self.state.search.clone();
        let _ = tokio::task::spawn_blocking(move || search.close_idle_writer(Duration::ZERO)).await;
        served?;
        Ok(())
    }
}

/// Opens the database (migrated) and the search index, rebuilding the index when it is
/// missing or behind the database.
fn open_storage(data_dir: &Path) -> anyhow::Result<(Db, SearchIndex)> {
    let db = Db::open_and_migrate(data_dir)?;
    let index = SearchIndex::open(&data_dir.join(INDEX_DIR)).context("opening the search index")?;
    let mut conn = crate::db::open_connection(db.path(), false)?;
    if let Some(count) = crate::reindex::sync(&index, &mut conn, false, false)? {
        tracing::info!(posts = count, "search index rebuilt from the database");
    }
    Ok((db, index))
}

/// Creates the data directory and its uploads folder, and takes its lock so two servers
/// (or a server and a restore) never share it.
pub fn lock_data_dir(data_dir: &Path) -> anyhow::Result<File> {
    std::fs::create_dir_all(data_dir.join(UPLOADS_DIR))
        .with_context(|| format!("cannot create data directory {}", data_dir.display()))?;
    let path = data_dir.join(LOCK_FILE);
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .with_context(|| format!("cannot write in data directory {}", data_dir.display()))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => bail!(
            "another quire process is using data directory {}; stop it first",
            data_dir.display()
        ),
        Err(std::fs::TryLockError::Error(err)) => {
            Err(err).with_context(|| format!("cannot lock {}", path.display()))
        }
    }
}
