//! Rendered public pages, kept in memory, so a cached page is served without touching the
//! database. A page is compressed only when a client asks for gzip, once: its gzip form is then
//! kept beside it ([`PageCache::put_gzip`]).
//!
//! Every write that changes what a blog shows moves the blog to a new generation (the write
//! path calls [`PageGenerations::invalidate`]); a page rendered for an older generation is
//! never served. Renders read the generation *before* reading the database, so a render
//! racing a write stores its page under the old generation and the next request renders again.
//!
//! The cache holds at most `--page-cache-mb` (64 MB by default), and only `200` pages of at most
//! 7 MiB each. Every 10 s the server drops the pages of old generations (`PageCache::sweep`, from
//! `App::run`), so the cache holds only pages it can serve, not dead ones, and logs its hits and
//! misses at the debug level (`RUST_LOG=quire::http::blog::cache=debug`).

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use bytes::Bytes;
use poem::http::StatusCode;
use quick_cache::Weighter;
use sha2::{Digest, Sha256};

use crate::blogs::PageGenerations;
use crate::db::public::PublicBlog;

/// Memory for the blogs read for pages ([`PageCache::blog`]): a few hundred bytes each, more
/// with a custom stylesheet.
const BLOGS_CAPACITY_BYTES: u64 = 8 * 1024 * 1024;

/// The cache's shards at most. quick_cache refuses an item heavier than one shard's hot space
/// (97% of the shard), and its default (four per core) would make that 1 MiB or less: each shard
/// holds 8 MiB at least (one shard under 16 MB, two at 16 MB to 31 MB...), so that the heaviest
/// page fits; lookups take a shard's read lock, so few shards cost little.
const MAX_SHARDS: u64 = 16;
/// A shard's smallest capacity.
const MIN_SHARD_BYTES: u64 = 8 * 1024 * 1024;
/// The heaviest page the cache keeps (body, gzip form and key), below one shard's hot space.
/// Every page a request can make is lighter: the largest post a request can carry (1 MiB of
/// JSON) is about 5 MiB once escaped, and feeds and the sitemap are bounded (`feeds.rs`).
pub const MAX_PAGE_BYTES: u64 = 7 * 1024 * 1024;
/// What an entry costs besides its bytes: the page's fields, the key's, the Arc, the slot.
const ENTRY_OVERHEAD: usize = 256;
/// Bodies smaller than this are not worth compressing.
const GZIP_MIN: usize = 860;

/// A rendered response.
#[derive(Debug, Clone)]
pub struct Page {
    /// Status (200, 301 or a themed 404).
    pub status: StatusCode,
    /// Content-Type.
    pub content_type: &'static str,
    /// The body.
    pub body: Bytes,
    /// The body gzipped, once a client asked for it ([`Page::with_gzip`]).
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
    /// Answered with `X-Robots-Tag: noai, noimageai` (a page of a blog that asks AI crawlers
    /// not to use it).
    pub noai: bool,
    /// The blog generation it was rendered for.
    pub generation: u64,
}

impl Page {
    /// A page with its validator computed once.
    pub fn new(status: StatusCode, content_type: &'static str, body: String, generation: u64) -> Page {
        let etag = format!("\"{}\"", hex::encode(&Sha256::digest(body.as_bytes())[..12]));
        Page {
            status,
            content_type,
            body: Bytes::from(body),
            gzip: None,
            etag,
            last_modified: None,
            csp: None,
            location: None,
            link: None,
            counts_view_of: None,
            immutable: false,
            noindex: false,
            noai: false,
            generation,
        }
    }

    /// Whether its body is worth compressing (it may be answered gzipped, so it varies by
    /// `Accept-Encoding`).
    pub fn compressible(&self) -> bool {
        self.body.len() >= GZIP_MIN
    }

    /// The page with its gzip form, when it is worth compressing and has none yet.
    pub fn with_gzip(&self) -> Option<Page> {
        if !self.compressible() || self.gzip.is_some() {
            return None;
        }
        Some(Page { gzip: Some(gzip(&self.body)?), ..self.clone() })
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

thread_local! {
    /// Each thread's deflate state, reset between pages: a fresh one is a few hundred KB of
    /// tables, allocated and freed for every page otherwise (bench/README.md, "The crawler's view").
    static DEFLATE: RefCell<flate2::Compress> =
        RefCell::new(flate2::Compress::new(flate2::Compression::default(), false));
}

/// The gzip header: no name, no time, no flags; the OS "unknown".
const GZIP_HEADER: [u8; 10] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255];

/// `bytes` gzipped at the default level (6): on an 11 KB post page it is about a third faster
/// than the best level (0.68 ms against 0.99 ms) for 0.2% more bytes. The deflate state is the
/// thread's, reused. None if deflate fails (it has no reason to, writing into a growing buffer):
/// the page is then answered uncompressed.
pub fn gzip(bytes: &[u8]) -> Option<Bytes> {
    let mut out = Vec::with_capacity(GZIP_HEADER.len() + bytes.len() / 2 + 64);
    out.extend_from_slice(&GZIP_HEADER);
    DEFLATE.with_borrow_mut(|deflate| {
        deflate.reset();
        loop {
            let read = deflate.total_in() as usize;
            out.reserve(bytes.len().saturating_sub(read) / 2 + 1024);
            match deflate.compress_vec(&bytes[read..], &mut out, flate2::FlushCompress::Finish) {
                Ok(flate2::Status::StreamEnd) => return Some(()),
                Ok(_) => {}
                Err(_) => return None,
            }
        }
    })?;
    let mut crc = flate2::Crc::new();
    crc.update(bytes);
    out.extend_from_slice(&crc.sum().to_le_bytes());
    out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
    Some(Bytes::from(out))
}

#[derive(Clone)]
struct ByBytes;

impl Weighter<(String, String), Arc<Page>> for ByBytes {
    fn weight(&self, key: &(String, String), page: &Arc<Page>) -> u64 {
        (key.0.len() + key.1.len() + page.weight() + ENTRY_OVERHEAD) as u64
    }
}

/// A blog as read for a page, with the generation it was read for.
#[derive(Clone)]
struct BlogEntry {
    generation: u64,
    blog: Arc<PublicBlog>,
}

#[derive(Clone)]
struct BlogBytes;

impl Weighter<String, BlogEntry> for BlogBytes {
    fn weight(&self, key: &String, entry: &BlogEntry) -> u64 {
        let blog = &entry.blog;
        let pages: usize = blog.pages.iter().map(|page| page.title.len() + page.slug.len() + 64).sum();
        (key.len() * 3 + blog.name.len() + blog.description.len() + blog.custom_css.len() + pages + 512) as u64
    }
}

/// The cache of every blog's pages, and of the blogs read for them.
pub struct PageCache {
    pages: quick_cache::sync::Cache<(String, String), Arc<Page>, ByBytes>,
    /// Each blog as its pages show it, read once per generation instead of once per render.
    blogs: quick_cache::sync::Cache<String, BlogEntry, BlogBytes>,
    generations: Arc<PageGenerations>,
    /// Lookups answered from the cache, and not, since the last report.
    hits: AtomicU64,
    misses: AtomicU64,
}

impl PageCache {
    /// An empty cache of `capacity` bytes (at least 1 MiB is useful) whose pages are current
    /// while their blog's generation is.
    pub fn new(generations: Arc<PageGenerations>, capacity: u64) -> PageCache {
        let shards = (capacity / MIN_SHARD_BYTES).clamp(1, MAX_SHARDS);
        // A shard's hot space must hold the heaviest page: a smaller cache is one shard of its size.
        let capacity = capacity.max(1024 * 1024);
        let options = quick_cache::OptionsBuilder::new()
            .estimated_items_capacity((capacity / 8192).clamp(256, 1 << 20) as usize)
            .weight_capacity(capacity)
            .shards(shards as usize)
            .build()
            .expect("the cache's options are complete");
        let pages = quick_cache::sync::Cache::with_options(options, ByBytes, Default::default(), Default::default());
        let blogs = quick_cache::sync::Cache::with_weighter(4096, BLOGS_CAPACITY_BYTES, BlogBytes);
        PageCache { pages, blogs, generations, hits: AtomicU64::new(0), misses: AtomicU64::new(0) }
    }

    /// The blog at `subdomain` as read for its current generation, if it was.
    pub fn blog(&self, subdomain: &str, generation: u64) -> Option<Arc<PublicBlog>> {
        self.blogs.get(subdomain).filter(|entry| entry.generation == generation).map(|entry| entry.blog)
    }

    /// Keeps `blog` as read for `generation` (read before the database, like a page's).
    pub fn put_blog(&self, generation: u64, blog: Arc<PublicBlog>) {
        self.blogs.insert(blog.subdomain.clone(), BlogEntry { generation, blog });
    }

    /// The blog's current generation.
    pub fn generation(&self, subdomain: &str) -> u64 {
        self.generations.current(subdomain)
    }

    /// The cached page for `path` (with its query) if it is of the blog's current generation.
    pub fn get(&self, subdomain: &str, path: &str) -> Option<Arc<Page>> {
        let found = self.pages.get(&(subdomain.to_owned(), path.to_owned()));
        let current = found.filter(|page| page.generation == self.generation(subdomain));
        let counter = if current.is_some() { &self.hits } else { &self.misses };
        counter.fetch_add(1, Ordering::Relaxed);
        current
    }

    /// Logs (at the debug level) the hits and misses since the last report, when there were any.
    pub fn report(&self) {
        let (hits, misses) = (self.hits.swap(0, Ordering::Relaxed), self.misses.swap(0, Ordering::Relaxed));
        if hits + misses > 0 {
            let (pages, bytes) = (self.pages.len(), self.pages.weight());
            tracing::debug!(hits, misses, pages, bytes, "page cache");
        }
    }

    /// Drops every page rendered for a generation that is no longer its blog's. Such a page is
    /// never served again, but the cache would keep it until its room was needed, so a busy
    /// blog's old pages would fill the whole capacity: swept, the cache holds what can be
    /// served and no more.
    pub fn sweep(&self) {
        self.pages.retain(|(subdomain, _), page| page.generation == self.generation(subdomain));
        self.blogs.retain(|subdomain, entry| entry.generation == self.generation(subdomain));
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

    /// `page` (cached under `path`) with its gzip form, computed now when it has none and kept
    /// in its place while it is current, so the page is compressed once.
    pub fn put_gzip(&self, subdomain: &str, path: Option<&str>, page: Arc<Page>) -> Arc<Page> {
        let Some(compressed) = page.with_gzip() else { return page };
        let compressed = Arc::new(compressed);
        if let Some(path) = path {
            self.put(subdomain, path, compressed.clone());
        }
        compressed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_of_an_old_generation_is_never_served() {
        let generations = Arc::new(PageGenerations::default());
        let cache = PageCache::new(generations.clone(), 16 << 20);
        let generation = cache.generation("alice");
        cache.put("alice", "/", Arc::new(Page::new(StatusCode::OK, "text/html", "x".repeat(2000), generation)));
        assert!(cache.get("alice", "/").is_some());
        assert!(cache.get("alice", "/").unwrap().gzip.is_none(), "compressed only when asked");
        generations.invalidate("bob");
        assert!(cache.get("alice", "/").is_some(), "another blog's change does not matter");
        generations.invalidate("alice");
        assert!(cache.get("alice", "/").is_none());
    }

    #[test]
    fn a_sweep_drops_the_pages_of_old_generations_only() {
        let generations = Arc::new(PageGenerations::default());
        let cache = PageCache::new(generations.clone(), 16 << 20);
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
        let cache = PageCache::new(Arc::new(PageGenerations::default()), 16 << 20);
        for i in 0..10_000 {
            let mut page = Page::new(StatusCode::MOVED_PERMANENTLY, "text/plain", String::new(), 0);
            page.location = Some("/real-slug-abcd2345".to_owned());
            cache.put("alice", &format!("/{}-{i}-abcd2345", "x".repeat(1000)), Arc::new(page));
        }
        assert_eq!(cache.weight(), 0);
    }

    #[test]
    fn a_page_weighs_its_key_and_every_byte_it_holds() {
        let cache = PageCache::new(Arc::new(PageGenerations::default()), 16 << 20);
        let path = format!("/{}", "p".repeat(5000));
        cache.put("alice", &path, Arc::new(Page::new(StatusCode::OK, "text/html", "x".repeat(100), 0)));
        assert!(cache.weight() > 5100, "{}", cache.weight());
    }

    #[test]
    fn the_heaviest_page_allowed_is_kept() {
        let cache = PageCache::new(Arc::new(PageGenerations::default()), 16 << 20);
        let mut page = Page::new(StatusCode::OK, "text/html", "x".repeat(MAX_PAGE_BYTES as usize - 4096), 0);
        page.gzip = None;
        cache.put("alice", "/", Arc::new(page));
        assert!(cache.get("alice", "/").is_some());
    }

    fn gunzip(bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(bytes), &mut out).unwrap();
        out
    }

    #[test]
    fn gzip_with_the_reused_state_round_trips_page_after_page() {
        let big: String = (0..40_000).map(|i| format!("word{} ", i % 997)).collect();
        for text in ["", "short", big.as_str(), "<p>after a big one</p>", big.as_str()] {
            assert_eq!(gunzip(&gzip(text.as_bytes()).unwrap()), text.as_bytes());
        }
        let noise: Vec<u8> = (0..200_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
        assert_eq!(gunzip(&gzip(&noise).unwrap()), noise);
    }

    #[test]
    fn a_page_is_compressed_once_when_asked_and_kept_with_its_gzip_form() {
        let generations = Arc::new(PageGenerations::default());
        let cache = PageCache::new(generations, 16 << 20);
        let page = Arc::new(Page::new(StatusCode::OK, "text/html", "y".repeat(5000), 0));
        cache.put("alice", "/", page.clone());
        let plain = cache.weight();
        let compressed = cache.put_gzip("alice", Some("/"), cache.get("alice", "/").unwrap());
        assert_eq!(gunzip(compressed.gzip.as_ref().unwrap()), page.body);
        let kept = cache.get("alice", "/").unwrap();
        assert!(kept.gzip.is_some() && cache.weight() > plain, "the gzip form is kept and weighed");
        assert!(Arc::ptr_eq(&cache.put_gzip("alice", Some("/"), kept.clone()), &kept), "not compressed again");
        let small = Arc::new(Page::new(StatusCode::OK, "text/html", "z".repeat(100), 0));
        assert!(cache.put_gzip("alice", Some("/small"), small).gzip.is_none(), "too small to be worth it");
    }

    #[test]
    fn hits_and_misses_are_counted_until_reported() {
        let cache = PageCache::new(Arc::new(PageGenerations::default()), 4 << 20);
        cache.put("alice", "/", Arc::new(Page::new(StatusCode::OK, "text/html", "x".repeat(100), 0)));
        assert!(cache.get("alice", "/").is_some() && cache.get("alice", "/other").is_none());
        assert_eq!((cache.hits.load(Ordering::Relaxed), cache.misses.load(Ordering::Relaxed)), (1, 1));
        cache.report();
        assert_eq!((cache.hits.load(Ordering::Relaxed), cache.misses.load(Ordering::Relaxed)), (0, 0));
    }
}
