//! Rendered public pages, kept in memory with their gzip form, so a cached page is served
//! without touching the database or compressing anything.
//!
//! Every write that changes what a blog shows moves the blog to a new generation (the write
//! path calls [`PageGenerations::invalidate`]); a page rendered for an older generation is
//! never served. Renders read the generation *before* reading the database, so a render
//! racing a write stores its page under the old generation and the next request renders again.

use std::io::Write;
use std::sync::Arc;

use poem::http::StatusCode;
use bytes::Bytes;
use sha2::{Digest, Sha256};

use crate::blogs::PageGenerations;

/// Memory the cache may use for pages.
const CAPACITY_BYTES: u64 = 8 * 1024 * 1024;
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
    /// The post whose view this page counts (with the Page views addon).
    pub counts_view_of: Option<i64>,
    /// Content-addressed (a theme's CSS): cached by clients for a year.
    pub immutable: bool,
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
            counts_view_of: None,
            immutable: false,
            generation,
        }
    }

    fn weight(&self) -> u64 {
        (self.body.len() + self.gzip.as_ref().map_or(0, Bytes::len) + 512) as u64
    }
}

fn gzip(bytes: &[u8]) -> Option<Bytes> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::with_capacity(bytes.len() / 2), flate2::Compression::best());
    encoder.write_all(bytes).ok()?;
    encoder.finish().ok().map(Bytes::from)
}

#[derive(Clone)]
struct ByBytes;

impl quick_cache::Weighter<(String, String), Arc<Page>> for ByBytes {
    fn weight(&self, _key: &(String, String), page: &Arc<Page>) -> u64 {
        page.weight()
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
        PageCache { pages: quick_cache::sync::Cache::with_weighter(2048, CAPACITY_BYTES, ByBytes), generations }
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

    /// Keeps a page.
    pub fn put(&self, subdomain: &str, path: &str, page: Arc<Page>) {
        self.pages.insert((subdomain.to_owned(), path.to_owned()), page);
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
}
