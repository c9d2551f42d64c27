//! Public blogs at `{subdomain}.{host}`: server-rendered, cached, no script of our own.
//!
//! - `routes`: the request path to the page that answers it, through the cache.
//! - `views`: the HTML pages (index, post, search, not found).
//! - `preview_links`: a draft or scheduled post through its secret preview link (never cached).
//! - `feeds`: Atom and RSS feeds, sitemap, robots.txt and the tab icon.
//! - `responses`: a cached page as an HTTP answer (304, gzip, CSP, redirects).
//! - `cache`: rendered pages in memory, per blog generation.
//! - `templates`: template models and askama templates (`assets/templates/`).
//! - `themes`: the theme stylesheets.
//! - `view_counter`: the Page views addon's counter.
//! - `static_site`: the public pages rendered to files, for the static site export.
//! - `css_preview`: unsaved custom CSS on the blog's home page, for the theme panel's frame.
//! - `post_preview`: the editor's unsaved post as its page, for the editor's Preview frame.
//! - `held`: what those two previews hold in memory, bounded, for ten minutes.
//! - `render_limit`: the per-client limit on pages rendered because they were not cached.
//! - `subscribe`: email subscriptions: subscribe, confirm, unsubscribe (never cached).

mod cache;
mod comments;
pub mod css_preview;
mod feeds;
mod held;
pub mod post_preview;
mod preview_links;
mod render_limit;
mod responses;
mod routes;
pub mod static_site;
mod subscribe;
pub mod templates;
mod themes;
pub mod view_counter;
pub mod views;
mod webmention;

use std::sync::Arc;

use crate::blogs::PageGenerations;
use cache::PageCache;
pub use routes::{BlogHost, routes};
use themes::Themes;
use view_counter::ViewCounter;

/// What the public blogs share: the page cache, the theme styles and pending view counts.
pub struct BlogSite {
    cache: PageCache,
    /// Per-client limit on uncached renders.
    render_limit: render_limit::RenderLimiter,
    /// Page views not yet written.
    pub page_views: ViewCounter,
    themes: Themes,
    /// Unsaved custom CSS held for the theme panel's live preview.
    pub css_previews: css_preview::CssPreviews,
    /// The editor's unsaved posts rendered for its Preview.
    pub post_previews: post_preview::PostPreviews,
}

impl BlogSite {
    /// The site over the write path's blog generations (which decide what is cached), with a
    /// page cache of `cache_bytes`.
    /// `renders`: the uncached renders one client may have (per minute, in a burst).
    pub fn new(generations: Arc<PageGenerations>, cache_bytes: u64, renders: (u32, u32)) -> BlogSite {
        BlogSite {
            cache: PageCache::new(generations, cache_bytes),
            render_limit: render_limit::RenderLimiter::new(renders.0, renders.1),
            page_views: ViewCounter::default(),
            themes: Themes::default(),
            css_previews: Default::default(),
            post_previews: Default::default(),
        }
    }

    /// Frees the cached pages no request can be served again (see [`PageCache::sweep`]), and
    /// reports the cache's hits and misses (see [`PageCache::report`]).
    pub fn sweep_stale_pages(&self) {
        self.cache.sweep();
        self.cache.report();
    }
}
