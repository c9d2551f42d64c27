//! What one blog or one account may store. Each limit keeps a single account from making the
//! server's work per request, its memory or its disk grow without bound; the write path
//! (`blogs/`) enforces them, and docs/api.md lists them.

/// Most posts a blog holds, drafts included. Also the most entries a sitemap lists.
pub const MAX_POSTS_PER_BLOG: u64 = 10_000;

/// Most megabytes (MiB) of images one account may upload to the built-in image host.
pub const MAX_UPLOAD_MB_PER_USER: u64 = 200;

/// [`MAX_UPLOAD_MB_PER_USER`] in bytes.
pub const MAX_UPLOAD_BYTES_PER_USER: u64 = MAX_UPLOAD_MB_PER_USER * 1024 * 1024;

/// The message of a post refused by [`MAX_POSTS_PER_BLOG`].
pub fn too_many_posts() -> String {
    format!("A blog can have at most {MAX_POSTS_PER_BLOG} posts")
}

/// The message of an image refused by [`MAX_UPLOAD_MB_PER_USER`].
pub fn too_many_uploads() -> String {
    format!("An account can upload at most {MAX_UPLOAD_MB_PER_USER} MB of images")
}
