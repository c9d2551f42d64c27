//! What every handler shares, built once at start by `app`.

use std::sync::Arc;

use crate::auth::Auth;
use crate::blogs::Blogs;
use crate::config::Config;
use crate::db::Db;
use crate::fetch::Fetcher;
use crate::http::access_log::AccessLog;
use crate::http::blog::BlogSite;
use crate::http::ui::UiIndex;
use crate::search::SearchIndex;
use crate::tls::CertificateStates;

/// The server's shared state; cheap to clone.
#[derive(Clone)]
pub struct AppState {
    /// Settings.
    pub config: Arc<Config>,
    /// The database, for reads (and for writes that change no blog: sessions, users).
    pub db: Db,
    /// The write path: every change to what a blog shows.
    pub blogs: Arc<Blogs>,
    /// The posts' search index, for searches (the write path updates it).
    pub search: Arc<SearchIndex>,
    /// The rendered owner-app page.
    pub ui: Arc<UiIndex>,
    /// Sign-in: token verification, the local issuer, rate limits.
    pub auth: Arc<Auth>,
    /// The public blogs: page cache, themes, page-view counts.
    pub site: Arc<BlogSite>,
    /// The one client for requests to URLs others chose (imports, federation), and for the
    /// custom domains' TXT lookups.
    pub fetcher: Fetcher,
    /// The custom domains' certificates, as the API shows them (`NotManaged` behind a proxy).
    pub certificates: Arc<dyn CertificateStates>,
    /// Where each request's line goes (off in in-process tests).
    pub access_log: AccessLog,
}
