//! Importing a blog from an export, through the one write path: what a reader of the export
//! yields (`portable::model`) is normalized with Quire's rules (`portable::normalize`), its
//! images are downloaded (through the guarded fetcher) or read from the export and stored as
//! uploads, and its posts are written in batches: each batch in one SQLite transaction (posts,
//! tags, pages, the `imported_items` rows, the old addresses, a Quire archive's comments and
//! webmentions of those posts), indexed in one index commit,
//! then the blog's pages dropped from the cache. A report says what was imported, and every
//! item skipped or changed with the reason.
//!
//! Resumable: an item already imported into the blog (its `imported_items` row) is skipped,
//! so importing the same file again, or again after a crash, writes only what is missing; a
//! batch is written whole or not at all, so no post is ever half written.
//!
//! Each batch follows the write path's steps once (`Blogs::commit`): one transaction writes the
//! whole batch and bumps `search_state.posts_seq` once, one index commit
//! (`SearchIndex::upsert_many`) follows inside the writer's closure, then one invalidation of the
//! blog's pages.
//!
//! This file runs an import and holds what its parts share; `batch` reads and writes the
//! items a batch at a time, `images` fetches and stores their images, `settings` applies the
//! export's settings.

mod batch;
mod images;
mod settings;

use std::collections::{HashMap, HashSet};
use std::fmt::Display;
use std::sync::Arc;

use self::batch::read_batch;
use super::Blogs;
use crate::db::blogs::Blog;
use crate::domain::limits;
use crate::error::{Error, Result};
use crate::fetch::Fetcher;
use crate::portable::model::{Format, MovedResponse, Post, Read};
use crate::portable::normalize::lowercase_first;
use crate::portable::read::files::ExportFiles;
use crate::portable::report::{EXPORT_ITEM, RESPONSES_ITEM, Report};

/// Posts written per transaction and per search-index commit, unless told otherwise. Each
/// commit costs a disk flush of the database and of the index, so batches make a large import
/// fast (2,000 posts in a debug build: 35 posts/s one by one, 530 by 20, 2,500 by 100, 3,000 by
/// 200, 3,100 by 500; docs/import.md).
pub const BATCH: usize = 200;
/// A batch ends early once its posts' text reaches this many bytes, so a batch of long posts
/// holds a bounded amount of memory.
pub const BATCH_BYTES: usize = 8 * 1024 * 1024;
/// Images downloaded (or read from the export) at once.
const IMAGE_DOWNLOADS: usize = 4;

/// What an import reads: what the reader found in the export, the items it yields (an item it
/// cannot read is an `Err` whose text the report shows; the import goes on with the next), and
/// the files inside the export, for image blocks whose URL is `file:<path>`.
pub struct ImportSource<I> {
    /// The export's format, settings and notes.
    pub read: Read,
    /// Its posts and pages, in the order to write them.
    pub posts: I,
    /// Its files ([`crate::portable::read::files::NoFiles`] when it has none).
    pub files: Arc<dyn ExportFiles>,
}

/// How an import runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImportOptions {
    /// Posts per transaction and index commit (at least 1).
    pub batch: usize,
}

impl Default for ImportOptions {
    fn default() -> ImportOptions {
        ImportOptions { batch: BATCH }
    }
}

/// Where an import stands, after each batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImportProgress {
    /// Items handled: written or skipped.
    pub done: u64,
    /// Items the reader expects to yield, when it knows.
    pub total: Option<u64>,
}

/// An item as read: normalized, or why the reader could not read it.
type Readout = std::result::Result<Item, String>;
/// A stored image's URL, or why there is none.
type Stored = std::result::Result<String, String>;

/// One item of the export, read and normalized.
struct Item {
    key: String,
    name: String,
    post: Post,
    changes: Vec<String>,
}

/// One import under way: where it gets images from, and what it keeps between its batches.
struct Run<'a> {
    fetcher: &'a Fetcher,
    files: Arc<dyn ExportFiles>,
    format: Format,
    report: Report,
    /// Each image URL met so far: the stored image's URL, or why it could not be had.
    images: HashMap<String, Stored>,
    /// Tags of the posts written.
    tags: HashSet<String>,
    /// Items not written because the blog is full.
    over_limit: u64,
    /// Why no image can be stored any more (the account's upload limit reached, or images kept
    /// on Imgur): later images are not downloaded.
    no_uploads: Option<String>,
    /// Images downloaded from other servers so far, failed attempts included.
    downloads: u64,
    /// The comments and webmentions of the export's posts not written yet, by the post's id in
    /// the export (a Quire archive's `responses.json`): each batch adds those of its posts.
    responses: HashMap<String, Vec<MovedResponse>>,
    /// Responses added so far.
    responses_added: u64,
    /// Responses left out because their post was not written.
    responses_left: u64,
}

impl Blogs {
    /// Imports `source` into `blog`: its settings (where the export has them), then its items
    /// in batches of `options.batch`, downloading images with `fetcher`. After each batch,
    /// `progress` is told where the import stands; it returns false to stop there (what was
    /// written stays, and importing again brings in the rest). Fails only on a fault of the
    /// server (the database): everything the export gets wrong is in the report.
    pub async fn import<I, E>(
        &self,
        blog: &Blog,
        fetcher: &Fetcher,
        source: ImportSource<I>,
        options: ImportOptions,
        mut progress: impl FnMut(ImportProgress) -> bool + Send,
    ) -> Result<Report>
    where
        I: Iterator<Item = std::result::Result<Post, E>> + Send + 'static,
        E: Display + Send + 'static,
    {
        let ImportSource { mut read, posts, files } = source;
        let mut report = Report::default();
        for note in &read.notes {
            report.line(EXPORT_ITEM, note.clone());
        }
        self.apply_settings(blog, &read.settings, &mut report).await?;
        self.import_subscribers(blog, &read.settings, &mut report).await?;
        let mut responses: HashMap<String, Vec<MovedResponse>> = HashMap::new();
        for response in read.settings.responses.take().unwrap_or_default() {
            responses.entry(response.post.clone()).or_default().push(response);
        }
        let trash = read.settings.trash.take().unwrap_or_default();
        let (total, format, read) = (read.expected_items, read.format, Arc::new(read));
        let (images, tags) = (HashMap::new(), HashSet::new());
        let mut run = Run {
            fetcher,
            files,
            format,
            report,
            images,
            tags,
            over_limit: 0,
            no_uploads: None,
            downloads: 0,
            responses,
            responses_added: 0,
            responses_left: 0,
        };
        let (mut done, mut stopped) = (0, false);
        let mut posts = Some(posts);
        loop {
            let reader = posts.take().expect("the reader is put back after each batch");
            let (rest, batch, exhausted) = read_batch(reader, options.batch.max(1), read.clone()).await?;
            if batch.is_empty() {
                break; // the reader has ended, and the last batch was reported
            }
            done += batch.len() as u64;
            self.import_batch(blog, batch, &mut run).await?;
            if run.over_limit > 0 && !exhausted {
                // The blog is full: the rest is only counted.
                let left = tokio::task::spawn_blocking(move || rest.count() as u64).await.map_err(internal)?;
                run.over_limit += left;
                done += left;
            } else {
                posts = Some(rest);
            }
            let go_on = progress(ImportProgress { done, total });
            if exhausted || posts.is_none() {
                break;
            }
            if !go_on {
                let line = "the import stopped before the end of the export: importing it again brings in the rest";
                run.report.line(EXPORT_ITEM, line);
                stopped = true;
                break;
            }
        }
        if format == Format::QuireArchive && !stopped {
            self.store_other_images(blog.user_id, &mut run).await?;
            // After the images: the stylesheet may name only uploads the owner has here.
            self.import_custom_css(blog, read.settings.custom_css.as_deref(), &mut run.report).await?;
            self.import_trash(blog, trash, &mut run.report).await?;
        }
        let mut report = run.report;
        if run.over_limit > 0 {
            report.skipped += run.over_limit;
            let full = lowercase_first(&limits::too_many_posts());
            report.line(EXPORT_ITEM, format!("{} items were not imported: {full}", run.over_limit));
        }
        report.tags = run.tags.len() as u64;
        if run.responses_added > 0 {
            report.line(RESPONSES_ITEM, format!("{} added", run.responses_added));
        }
        let left = run.responses_left + run.responses.values().map(|list| list.len() as u64).sum::<u64>();
        if left > 0 && !stopped {
            report.line(RESPONSES_ITEM, format!("{left} left out with their posts"));
        }
        Ok(report)
    }
}

/// The messages of an error the client would see, joined.
fn messages(err: &Error) -> String {
    let Some(messages) = err.messages() else { return "something went wrong on this server".to_owned() };
    messages.0.iter().map(|(_, message)| message.as_str()).collect::<Vec<_>>().join("; ")
}

/// A fault of the server (a task that panicked, JSON that would not serialize).
fn internal(err: impl std::error::Error + Send + Sync + 'static) -> Error {
    Error::Internal(err.into())
}
