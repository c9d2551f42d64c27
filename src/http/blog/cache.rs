//! Rendered public pages, kept in memory with their gzip form, so a cached page is served
//! without touching the database or compressing anything.
//!
//! Every write that changes what a blog shows moves the blog to a new generation (the write
//! path calls [`PageGenerations::invalidate`]); a page rendered for an older generation is
//! never served. Renders read the generation *before* reading the database, so a render
//! racing a write stores its page under the old generation and the next request renders again.
//!
//! The cache holds at most 16 MB, and only `200` pages of at most 7 MiB each. Every 10 s the server
//! drops the pages of old generations (`PageCache::sweep`, from `App::run`), so the cache holds only
//! pages it can serve, not up to its 16 MB of dead ones.

use std::io::Write;
use std::sync::Arc;

use bytes::Bytes;
use poem::http::StatusCode;
use quick_cache::Weighter;
use sha2::{Digest, Sha256};

use crate::blogs::PageGenerations;

/// Memory the cache may use for pages.
const CAPACITY_BYTES: u64 = 16 * 1024 * 1024;
/// The cache's shards. quick_cache refuses an item heavier than one shard's hot space (97% of
/// the shard), and its default (four per core) would make that 1 MiB or less. Two fixed
/// shards keep 8 MiB each on any machine; lookups take a shard's read lock, so few shards
/// cost little.
const SHARDS: usize = 2;
/// The heaviest page the cache keeps (body, gzip form and key), below one shard's hot space.
/// Every page a request can make is lighter: the largest post a request can carry (1 MiB of
/// JSON) is about 5 MiB once escaped, and feeds and the sitemap are bounded (`feeds.rs`).
pub const MAX_PAGE_BYTES: u64 = 7 * 1024 * 1024;
/// What an entry costs besides its bytes: the page's fields, the key's, the Arc, the slot.
const ENTRY_OVERHEAD: usize = 256;
/// Bodies smaller than this are not worth compressing.
const GZIP_MIN: usize = 860;

/// A rendered response.
#[derive(Debug)]
pub struct Page {
    /// Status (200, 301 or a themed 404).
    pub status: StatusCode,
    /// Content-Type.
    pub content_type: &'static str,
    /// The body.
    pub body: Bytes,
    /// The body gzipped, when worth it.
    pub gzip: Option<Bytes>,
    /// Strong validator of the body.
    pub etag: String,
    /// Last-Modified, when known.
    pub last_modified: Option<String>,
    /// The page's Content-Security-Policy (HTML pages).
    pub csp: Option<String>,
    /// Redirect target (301).
    pub location: Option<String>,
    /// A `Link` header (a post's webmention endpoint).
    pub link: Option<String>,
    /// The post whose view this page counts (with the Page views addon).
    pub counts_view_of: Option<i64>,
    /// Content-addressed (a theme's CSS): cached by clients for a year.
    pub immutable: bool,
    /// Answered with `X-Robots-Tag: noindex` (an unlisted post's page).
    pub noindex: bool,
    /// The blog generation it was rendered for.
    pub generation: u64,
}

impl Page {
    /// A page with its validator and compressed form computed once.
    pub fn new(status: StatusCode, content_type: &'static str, body: String, generation: u64) -> Page {
        let etag = format!("\"{}\"", hex::encode(&Sha256::digest(body.as_bytes())[..12]));
        let gzip = (body.len() >= GZIP_MIN).then(|| gzip(body.as_bytes())).flatten();
        Page {
            status,
            content_type,
            body: Bytes::from(body),
            gzip,
            etag,
            last_modified: None,
            csp: None,
            location: None,
            link: None,
            counts_view_of: None,
            immutable: false,
            noindex: false,
            generation,
        }
    }

    /// The bytes it holds.
    fn weight(&self) -> usize {
        let text = |s: &Option<String>| s.as_ref().map_or(0, String::len);
        self.body.len()
            + self.gzip.as_ref().map_or(0, Bytes::len)
            + self.etag.len()
            + text(&self.last_modified)
            + text(&self.csp)
            + text(&self.location)
            + text(&self.link)
    }
}

/// gzip at the default level (6): on an 11 KB post page it is about a third faster than the
/// best level (0.68 ms against 0.99 ms) for 0.2% more bytes.
fn gzip(bytes: &[u8]) -> Option<Bytes> {
    let mut encoder =
        flate2::write::GzEncoder::new(Vec::with_capacity(bytes.len() / 2), flate2::Compression::default());
    encoder.write_all(bytes).ok()?;
    encoder.finish().ok().map(Bytes::from)
}

#[derive(Clone)]
struct ByBytes;

impl Weighter<(String, String), Arc<Page>> for ByBytes {
    fn weight(&self, key: &(String, String), page: &Arc<Page>) -> u64 {
        (key.0.len() + key.1.len() + page.weight() + ENTRY_OVERHEAD) as u64
    }
}

/// The cache of every blog's pages.
pub struct PageCache {
    pages: quick_cache::sync::Cache<(String, String), Arc<Page>, ByBytes>,
    generations: Arc<PageGenerations>,
}

impl PageCache {
    /// An empty cache whose pages are current while their blog's generation is.
    pub fn new(generations: Arc<PageGenerations>) -> PageCache {
        let options = quick_cache::OptionsBuilder::new()
            .estimated_items_capacity(2048)
            .weight_capacity(CAPACITY_BYTES)
            .shards(SHARDS)
            .build()
            .expect("the cache's options are complete");
        let pages = quick_cache::sync::Cache::with_options(options, ByBytes, Default::default(), Default::default());
        PageCache { pages, generations }
    }

    /// The blog's current generation.
    pub fn generation(&self, subdomain: &str) -> u64 {
        self.generations.current(subdomain)
    }

    /// The cached page for `path` (with its query) if it is of the blog's current generation.
    pub fn get(&self, subdomain: &str, path: &str) -> Option<Arc<Page>> {
        let page = self.pages.get(&(subdomain.to_owned(), path.to_owned()))?;
        (page.generation == self.generation(subdomain)).then_some(page)
    }

    /// Drops every page rendered for a generation that is no longer its blog's. Such a page is
    /// never served again, but the cache would keep it until its room was needed, so a busy
    /// blog's old pages would fill the whole capacity: swept, the cache holds what can be
    /// served and no more.
    pub fn sweep(&self) {
        self.pages.retain(|(subdomain, _), page| page.generation == self.generation(subdomain));
    }

    /// What the cached pages weigh, in bytes.
    #[cfg(test)]
    pub fn weight(&self) -> u64 {
        self.pages.weight()
    }

    /// Keeps a `200` page. Anything else (a redirect from a made-up slug, a 404) is cheap to
    /// work out again, and its path is whatever a visitor typed: keeping it would let visitors
    /// fill the cache and push real pages out.
    pub fn put(&self, subdomain: &str, path: &str, page: Arc<Page>) {
        if page.status != StatusCode::OK {
            return;
        }
        let key = (subdomain.to_owned(), path.to_owned());
        let weight = ByBytes.weight(&key, &page);
        if weight > MAX_PAGE_BYTES {
            tracing::warn!(subdomain, path, weight, "page too heavy to cache");
            return;
        }
        self.pages.insert(key, page);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_of_an_old_generation_is_never_served() {
        let generations = Arc::new(PageGenerations::default());
        let cache = PageCache::new(generations.clone());
        let generation = cache.generation("alice");
        cache.put("alice", "/", Arc::new(Page::new(StatusCode::OK, "text/html", "x".repeat(2000), generation)));
        assert!(cache.get("alice", "/").is_some());
        assert!(cache.get("alice", "/").unwrap().gzip.is_some());
        generations.invalidate("bob");
        assert!(cache.get("alice", "/").is_some(), "another blog's change does not matter");
        generations.invalidate("alice");
        assert!(cache.get("alice", "/").is_none());
    }

    #[test]
    fn a_sweep_drops_the_pages_of_old_generations_only() {
        let generations = Arc::new(PageGenerations::default());
        let cache = PageCache::new(generations.clone());
        let page = |subdomain: &str| {
            Arc::new(Page::new(StatusCode::OK, "text/html", "x".repeat(2000), cache.generation(subdomain)))
        };
        cache.put("alice", "/", page("alice"));
        cache.put("alice", "/post-abcd2345", page("alice"));
        cache.put("bob", "/", page("bob"));
        let both = cache.weight();
        cache.sweep();
        assert_eq!(cache.weight(), both, "current pages stay");
        generations.invalidate("alice");
        cache.sweep();
        assert!(cache.weight() < both / 2, "alice's old pages are gone: {} of {both}", cache.weight());
        assert!(cache.get("bob", "/").is_some());
    }

    #[test]
    fn redirects_under_made_up_paths_take_no_room() {
        let cache = PageCache::new(Arc::new(PageGenerations::default()));
        for i in 0..10_000 {
            let mut page = Page::new(StatusCode::MOVED_PERMANENTLY, "text/plain", String::new(), 0);
            page.location = Some("/real-slug-abcd2345".to_owned());
            cache.put("alice", &format!("/{}-{i}-abcd2345", "x".repeat(1000)), Arc::new(page));
        }
        assert_eq!(cache.weight(), 0);
    }

    #[test]
    fn a_page_weighs_its_key_and_every_byte_it_holds() {
        let cache = PageCache::new(Arc::new(PageGenerations::default()));
        let path = format!("/{}", "p".repeat(5000));
        cache.put("alice", &path, Arc::new(Page::new(StatusCode::OK, "text/html", "x".repeat(100), 0)));
        assert!(cache.weight() > 5100, "{}", cache.weight());
    }

    #[test]
    fn the_heaviest_page_allowed_is_kept() {
        let cache = PageCache::new(Arc::new(PageGenerations::default()));
        let mut page = Page::new(StatusCode::OK, "text/html", "x".repeat(MAX_PAGE_BYTES as usize - 4096), 0);
        page.gzip = None;
        cache.put("alice", "/", Arc::new(page));
        assert!(cache.get("alice", "/").is_some());
    }
}
