//! What one blog or one account may store. Each limit keeps a single account from making the
//! server's work per request, its memory or its disk grow without bound; the write path
//! (`blogs/`) enforces them, and docs/api.md lists them. What one blog may upload is the
//! operator's choice (`--upload-quota-mb`, `domain::public_instance::Quotas`).

/// Most posts a blog holds, drafts included. Also the most entries a sitemap lists.
pub const MAX_POSTS_PER_BLOG: u64 = 10_000;

/// The message of a post refused by [`MAX_POSTS_PER_BLOG`].
pub fn too_many_posts() -> String {
    format!("A blog can have at most {MAX_POSTS_PER_BLOG} posts")
}

/// `quire serve --page-cache-mb`'s default: the memory for rendered public pages (bench/README.md,
/// "The crawler's view", has the hit rates it gets).
pub const DEFAULT_PAGE_CACHE_MB: u64 = 64;

/// `quire serve --db-mmap-mb`'s default: none of the database file mapped. Mapped, an uncached
/// page costs 15 to 20% less CPU (bench/README.md, "The crawler's view"), but the resident size
/// counts the mapped pages once per reader connection (842 MB for a 200 MB database in
/// bench/run.sh, against its 60 MB target): the operator chooses it.
pub const DEFAULT_DB_MMAP_MB: u64 = 0;

/// `--uncached-renders-per-minute` and `--uncached-renders-burst`'s defaults: one client's public
/// pages rendered because they were not cached.
pub const DEFAULT_UNCACHED_RENDERS: (u32, u32) = (600, 120);

/// `quire serve --import-max-items`'s default.
pub const DEFAULT_IMPORT_MAX_ITEMS: u64 = 50_000;

/// `quire serve --import-max-item-mb`'s default.
pub const DEFAULT_IMPORT_MAX_ITEM_MB: u64 = 16;

/// Default of `--import-max-image-downloads`.
pub const DEFAULT_IMPORT_MAX_IMAGE_DOWNLOADS: u64 = 10_000;

/// Rows of each other table of an export a reader keeps (a Ghost export's tags, their links to
/// posts, posts' metadata, settings), as a multiple of [`ImportLimits::max_items`].
pub const IMPORT_ROWS_PER_ITEM: u64 = 4;

/// How much of one export an import takes in, so that one upload's memory stays bounded
/// (`quire serve --import-max-items`, `--import-max-item-mb`; docs/import.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImportLimits {
    /// Most posts and pages one export may hold; more refuses the file.
    pub max_items: u64,
    /// Most bytes one item (one post or page as the export writes it) may take; a larger one
    /// is skipped and reported.
    pub max_item_bytes: u64,
    /// Most images one import downloads from other servers, each attempt counted whether it
    /// succeeds or fails; the rest are not fetched and are reported.
    pub max_image_downloads: u64,
}

impl ImportLimits {
    /// Most rows of each other table of an export a reader keeps.
    pub fn max_rows(&self) -> u64 {
        self.max_items.saturating_mul(IMPORT_ROWS_PER_ITEM)
    }

    /// The message of an export refused for holding more than [`ImportLimits::max_items`].
    pub fn too_many_items(&self, what: &str) -> String {
        format!(
            "{what} holds more than {} posts and pages: Quire imports at most {} at once (the server's --import-max-items)",
            self.max_items, self.max_items
        )
    }

    /// [`ImportLimits::max_item_bytes`] in whole megabytes, for messages.
    pub fn max_item_mb(&self) -> u64 {
        self.max_item_bytes.div_ceil(1024 * 1024)
    }
}

impl Default for ImportLimits {
    fn default() -> ImportLimits {
        ImportLimits {
            max_items: DEFAULT_IMPORT_MAX_ITEMS,
            max_item_bytes: DEFAULT_IMPORT_MAX_ITEM_MB * 1024 * 1024,
            max_image_downloads: DEFAULT_IMPORT_MAX_IMAGE_DOWNLOADS,
        }
    }
}
