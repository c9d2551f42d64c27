//! Importing a blog from an export, through the one write path: what a reader of the export
//! yields (`portable::model`) is normalized with Quire's rules (`portable::normalize`), its
//! images are downloaded (through the guarded fetcher) or read from the export and stored as
//! uploads, and its posts are written in batches: each batch in one SQLite transaction (posts,
//! tags, pages, the `imported_items` rows, the old addresses), indexed in one index commit,
//! then the blog's pages dropped from the cache. A report says what was imported, and every
//! item skipped or changed with the reason.
//!
//! Resumable: an item already imported into the blog (its `imported_items` row) is skipped,
//! so importing the same file again, or again after a crash, writes only what is missing; a
//! batch is written whole or not at all, so no post is ever half written.

use std::collections::{HashMap, HashSet};
use std::fmt::Display;
use std::sync::Arc;

use bytes::Bytes;
use time::OffsetDateTime;
use tokio::task::JoinSet;

use super::Blogs;
use crate::db::blogs::{self, Blog};
use crate::db::imports::{self, ImportWrite, Outcome};
use crate::db::posts;
use crate::db::{addons, exports};
use crate::db::{favicons, themes};
use crate::domain::content::blocks::{Block, Body};
use crate::domain::content::image::MAX_IMAGE_BYTES;
use crate::domain::content::schedule::stored;
use crate::domain::limits::{self, MAX_POSTS_PER_BLOG};
use crate::error::{Error, Result};
use crate::fetch::Fetcher;
use crate::portable::model::{Format, Kind, Post, Read, Settings, State};
use crate::portable::normalize::{self, item_name, link_or_text, lowercase_first, source_key};
use crate::portable::read::files::{ExportFiles, FILE_PREFIX};
use crate::portable::report::{EXPORT_ITEM, Report, SETTINGS_ITEM};
use crate::portable::write::quire_archive;

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
/// An image's bytes, or why there are none.
type Fetched = std::result::Result<Bytes, String>;
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
        let ImportSource { read, posts, files } = source;
        let mut report = Report::default();
        for note in &read.notes {
            report.line(EXPORT_ITEM, note.clone());
        }
        self.apply_settings(blog, &read.settings, &mut report).await?;
        let (total, format, read) = (read.expected_items, read.format, Arc::new(read));
        let (images, tags) = (HashMap::new(), HashSet::new());
        let mut run = Run { fetcher, files, format, report, images, tags, over_limit: 0, no_uploads: None };
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
        }
        let mut report = run.report;
        if run.over_limit > 0 {
            report.skipped += run.over_limit;
            let full = lowercase_first(&limits::too_many_posts());
            report.line(EXPORT_ITEM, format!("{} items were not imported: {full}", run.over_limit));
        }
        report.tags = run.tags.len() as u64;
        Ok(report)
    }

    /// Downloads the batch's images, then writes its items in one transaction.
    async fn import_batch(&self, blog: &Blog, batch: Vec<Readout>, run: &mut Run<'_>) -> Result<()> {
        let mut items = Vec::with_capacity(batch.len());
        for read in batch {
            match read {
                Ok(item) if item.post.blocks.is_empty() => {
                    run.report.skip(&item.name, "not imported: it has no title and no content");
                }
                Ok(item) => items.push(item),
                Err(message) => run.report.skip(EXPORT_ITEM, format!("an item could not be read: {message}")),
            }
        }
        // Skipped before their images are fetched: items already imported, and those past a
        // full blog (the write checks both again, in its transaction).
        let (blog_id, keys): (i64, Vec<String>) = (blog.id, items.iter().map(|item| item.key.clone()).collect());
        let (imported, count) = self
            .db
            .read(move |conn| Ok((imports::imported(conn, blog_id, &keys)?, posts::count(conn, blog_id)?)))
            .await?;
        let mut room = MAX_POSTS_PER_BLOG.saturating_sub(count);
        items.retain(|item| {
            if imported.contains(&item.key) {
                run.report.skip(&item.name, "already imported");
                false
            } else if room == 0 {
                run.over_limit += 1;
                false
            } else {
                room -= 1;
                true
            }
        });
        let urls: Vec<String> = {
            let mut seen = HashSet::new();
            items
                .iter()
                .flat_map(|item| item.post.blocks.iter())
                .filter_map(|block| match block {
                    Block::Image { url, .. } if !run.images.contains_key(url) && seen.insert(url) => Some(url.clone()),
                    _ => None,
                })
                .collect()
        };
        self.fetch_images(blog.user_id, urls, run).await?;
        let mut writes = Vec::with_capacity(items.len());
        let mut bodies = Vec::with_capacity(items.len());
        let mut names = Vec::with_capacity(items.len());
        let now = OffsetDateTime::now_utc();
        for mut item in items {
            item.post.blocks = with_images(std::mem::take(&mut item.post.blocks), &run.images, &mut item.changes);
            let value =
                serde_json::to_value(Body::from_blocks(std::mem::take(&mut item.post.blocks))).map_err(internal)?;
            let body = match Body::parse(&value, &self.rules) {
                Ok(body) => body,
                Err(messages) => {
                    let problems: Vec<&str> = messages.0.iter().map(|(_, message)| message.as_str()).collect();
                    run.report.skip(&item.name, format!("not imported: {}", problems.join("; ")));
                    continue;
                }
            };
            writes.push(import_write(&item, &body, run.format, now).map_err(internal)?);
            bodies.push(body);
            names.push((item.name, item.changes));
        }
        if writes.is_empty() {
            return Ok(());
        }
        let subdomain = blog.subdomain.clone();
        let outcomes = self
            .commit(move |conn, effects| {
                let (outcomes, seq) = imports::write_batch(conn, blog_id, &writes)?;
                if let Some(seq) = seq {
                    let written = outcomes.iter().zip(&bodies).filter_map(|(outcome, body)| match outcome {
                        Outcome::Written { post, .. } => Some((&**post, body)),
                        _ => None,
                    });
                    effects.index_posts(seq, written);
                }
                if outcomes.iter().any(|outcome| matches!(outcome, Outcome::Written { .. })) {
                    effects.invalidate(&subdomain);
                    effects.schedule_moved();
                }
                Ok(outcomes)
            })
            .await?;
        for (outcome, (name, mut changes)) in outcomes.into_iter().zip(names) {
            match outcome {
                Outcome::Written { post, changes: more, redirects } => {
                    if post.page_position.is_some() {
                        run.report.pages += 1;
                    } else {
                        run.report.posts += 1;
                    }
                    run.report.drafts += u64::from(post.published_at.is_none() && post.scheduled_at.is_none());
                    run.report.scheduled += u64::from(post.scheduled_at.is_some());
                    run.report.redirects += redirects;
                    run.tags.extend(post.tags);
                    changes.extend(more);
                    for change in changes {
                        run.report.line(&name, change);
                    }
                }
                Outcome::AlreadyImported => run.report.skip(&name, "already imported"),
                Outcome::BlogFull => run.over_limit += 1,
            }
        }
        Ok(())
    }

    /// Fetches each of `urls` (at most [`IMAGE_DOWNLOADS`] at once) and stores what it gets
    /// through the upload path (same bytes, one file; the account's upload limit holds),
    /// recording in `run` the stored URL or why there is none. Once nothing can be stored, the
    /// rest is not downloaded.
    async fn fetch_images(&self, user_id: i64, urls: Vec<String>, run: &mut Run<'_>) -> Result<()> {
        let prefix = self.rules.image_prefix.clone();
        if !prefix.ends_with("/media/") {
            run.no_uploads = Some("this server keeps images on Imgur, where an import cannot upload".to_owned());
        }
        let mut pending = urls.into_iter();
        let mut running = JoinSet::new();
        loop {
            while running.len() < IMAGE_DOWNLOADS {
                let Some(url) = pending.next() else { break };
                match &run.no_uploads {
                    Some(reason) => drop(run.images.insert(url, Err(reason.clone()))),
                    None => drop(running.spawn(download(run.fetcher.clone(), run.files.clone(), url))),
                }
            }
            let Some(finished) = running.join_next().await else { break };
            let (url, got) = finished.map_err(internal)?;
            let stored = match got {
                Ok(bytes) => match self.store_image(user_id, bytes).await {
                    Ok(name) => {
                        run.report.images += 1;
                        Ok(format!("{prefix}{name}"))
                    }
                    Err(err) => {
                        let full = err
                            .messages()
                            .is_some_and(|m| m.0.iter().any(|(_, said)| *said == limits::too_many_uploads()));
                        let reason = reason(err);
                        if full {
                            // No later image can be stored: they are not downloaded for nothing.
                            run.no_uploads = Some(reason.clone());
                        }
                        Err(reason)
                    }
                },
                Err(reason) => Err(reason),
            };
            run.images.insert(url, stored);
        }
        Ok(())
    }

    /// Stores the images of a Quire archive that no post names (an archive carries every
    /// image its owner uploaded), except those the owner has already: an archive names each
    /// image as uploads are stored, by the SHA-256 of its bytes.
    async fn store_other_images(&self, user_id: i64, run: &mut Run<'_>) -> Result<()> {
        let owned: HashSet<String> =
            self.db.read(move |conn| exports::image_names(conn, user_id)).await?.into_iter().collect();
        let files = run.files.clone();
        let listed = tokio::task::spawn_blocking(move || files.list(quire_archive::IMAGES)).await.map_err(internal)?;
        let urls: Vec<String> = listed
            .into_iter()
            .filter(|path| path.strip_prefix(quire_archive::IMAGES).is_none_or(|name| !owned.contains(name)))
            .map(|path| format!("{FILE_PREFIX}{path}"))
            .filter(|url| !run.images.contains_key(url))
            .collect();
        self.fetch_images(user_id, urls.clone(), run).await?;
        for url in urls {
            if let Some(Err(reason)) = run.images.get(&url) {
                let path = url.strip_prefix(FILE_PREFIX).unwrap_or(&url);
                run.report.line(EXPORT_ITEM, format!("the image {path} was not imported: {reason}"));
            }
        }
        Ok(())
    }

    /// Applies the settings the export carries (a Quire archive's name, theme, icon, addons and
    /// time zone; another platform's name at most) through the usual setters, each change in
    /// the report; one the server refuses is reported and left.
    async fn apply_settings(&self, blog: &Blog, settings: &Settings, report: &mut Report) -> Result<()> {
        let (blog_id, user_id) = (blog.id, blog.user_id);
        // As it is now (the caller's copy may be older than an earlier import's changes).
        let current = self.db.read(move |conn| blogs::owned(conn, blog_id, user_id)).await?;
        let blog = &current.ok_or_else(|| Error::not_found("blog", "Blog not found"))?;
        if let Some(name) =
            settings.name.as_deref().map(str::trim).filter(|name| !name.is_empty() && *name != blog.name)
        {
            let done = self.rename(blog, name).await;
            let applied = format!("the blog's name is now \"{name}\"");
            let refused = format!("the name \"{name}\" was not applied");
            settled(done, report, applied, refused)?;
        }
        if let Some(slug) = settings.theme.as_deref() {
            let wanted = slug.to_owned();
            match self.db.read(move |conn| themes::id_of_slug(conn, &wanted)).await? {
                Some(id) if id == blog.theme.id => {}
                Some(id) => {
                    let applied = format!("the theme is now {slug}");
                    let refused = format!("the theme {slug} was not applied");
                    settled(self.set_theme(blog, id).await, report, applied, refused)?;
                }
                None => {
                    report.line(SETTINGS_ITEM, format!("the theme \"{slug}\" is not one of this server's: not applied"))
                }
            }
        }
        if let Some(code) = settings.icon.as_deref() {
            let wanted = code.to_owned();
            match self.db.read(move |conn| favicons::id_of_code(conn, &wanted)).await? {
                Some(id) if id == blog.favicon.id => {}
                Some(id) => {
                    let applied = format!("the tab icon is now {code}");
                    let refused = format!("the tab icon {code} was not applied");
                    settled(self.set_favicon(blog, id).await, report, applied, refused)?;
                }
                None => {
                    report.line(
                        SETTINGS_ITEM,
                        format!("the tab icon \"{code}\" is not one of this server's: not applied"),
                    );
                }
            }
        }
        if let Some(zone) = settings.time_zone.as_deref().filter(|zone| *zone != blog.time_zone.name()) {
            let done = self.set_time_zone(blog, zone).await;
            let applied = format!("dates are now shown in {zone}");
            let refused = format!("the time zone \"{zone}\" was not applied");
            settled(done, report, applied, refused)?;
        }
        if let Some(wanted) = &settings.addons {
            let (installed, available) = self
                .db
                .read(move |conn| Ok((addons::list(conn, blog_id, true)?, addons::list(conn, blog_id, false)?)))
                .await?;
            for slug in
                wanted.iter().filter(|slug| !installed.iter().chain(&available).any(|addon| addon.slug == **slug))
            {
                report.line(SETTINGS_ITEM, format!("the addon \"{slug}\" is not one of this server's: not installed"));
            }
            for addon in available.iter().filter(|addon| wanted.contains(&addon.slug)) {
                let done = self.set_addon(blog, &addon.id.to_string(), true).await.map(|_| ());
                let name = &addon.name;
                let refused = format!("the addon {name} was not installed");
                settled(done, report, format!("the addon {name} is installed"), refused)?;
            }
            for addon in installed.iter().filter(|addon| !wanted.contains(&addon.slug)) {
                let done = self.set_addon(blog, &addon.id.to_string(), false).await.map(|_| ());
                let name = &addon.name;
                let refused = format!("the addon {name} was not uninstalled");
                settled(done, report, format!("the addon {name} is uninstalled"), refused)?;
            }
        }
        Ok(())
    }
}

/// Reads up to `size` items (fewer once they hold [`BATCH_BYTES`] of text) off the async
/// runtime (a reader parses as it goes) and normalizes them; gives the reader back, with
/// whether it has ended.
async fn read_batch<I, E>(mut posts: I, size: usize, read: Arc<Read>) -> Result<(I, Vec<Readout>, bool)>
where
    I: Iterator<Item = std::result::Result<Post, E>> + Send + 'static,
    E: Display + Send + 'static,
{
    tokio::task::spawn_blocking(move || {
        let now = OffsetDateTime::now_utc();
        let mut batch = Vec::with_capacity(size);
        let mut bytes = 0;
        while batch.len() < size && bytes < BATCH_BYTES {
            match posts.next() {
                None => return (posts, batch, true),
                Some(Ok(mut post)) => {
                    let (key, name) = (source_key(&read, &post), item_name(&post));
                    let changes = normalize::normalize(&mut post, now);
                    bytes += post.blocks.iter().map(text_bytes).sum::<usize>();
                    batch.push(Ok(Item { key, name, post, changes }));
                }
                Some(Err(err)) => batch.push(Err(err.to_string())),
            }
        }
        (posts, batch, false)
    })
    .await
    .map_err(internal)
}

/// The bytes of text a block holds.
fn text_bytes(block: &Block) -> usize {
    match block {
        Block::Heading { text } | Block::Paragraph { text } => text.len(),
        Block::Link { url, title } => url.len() + title.len(),
        Block::Image { url, alt, caption } => url.len() + alt.len() + caption.len(),
        Block::Spotify { url } | Block::Tweet { url } => url.len(),
    }
}

/// The bytes of one image: from the export for `file:<path>`, else downloaded.
async fn download(fetcher: Fetcher, files: Arc<dyn ExportFiles>, url: String) -> (String, Fetched) {
    let got = if let Some(path) = url.strip_prefix(FILE_PREFIX) {
        let path = path.to_owned();
        tokio::task::spawn_blocking(move || files.read(&path, MAX_IMAGE_BYTES))
            .await
            .unwrap_or_else(|_| Err("the file could not be read".to_owned()))
            .map(Bytes::from)
    } else if url.starts_with("http://") || url.starts_with("https://") {
        fetcher.get_image(&url).await.map(|image| image.bytes).map_err(|err| err.to_string())
    } else {
        Err("it is neither an http(s) address nor a file of the export".to_owned())
    };
    (url, got)
}

/// The blocks with each image's URL replaced by its stored image's, or, when it could not be
/// had, the image replaced by a link to its old address (text for a file of the export) with
/// a line saying why.
fn with_images(blocks: Vec<Block>, images: &HashMap<String, Stored>, changes: &mut Vec<String>) -> Vec<Block> {
    let mut out = Vec::with_capacity(blocks.len());
    for block in blocks {
        let Block::Image { url, alt, caption } = block else {
            out.push(block);
            continue;
        };
        match images.get(&url) {
            Some(Ok(stored)) => out.push(Block::Image { url: stored.clone(), alt, caption }),
            failed => {
                let reason = match failed {
                    Some(Err(reason)) => reason.as_str(),
                    _ => "it was not fetched",
                };
                let name = url.rsplit('/').find(|part| !part.is_empty()).unwrap_or(&url);
                let described = [alt.as_str(), caption.as_str()].into_iter().find(|t| !t.trim().is_empty());
                let title = described.unwrap_or(name);
                let web = url.starts_with("http://") || url.starts_with("https://");
                match link_or_text(if web { &url } else { "" }, title) {
                    Some(link @ Block::Link { .. }) => {
                        changes.push(format!("image {url} kept as a link: {reason}"));
                        out.push(link);
                    }
                    Some(text) => {
                        changes.push(format!("image {url} kept as text: {reason}"));
                        out.push(text);
                    }
                    None => changes.push(format!("image {url} left out: {reason}")),
                }
            }
        }
    }
    out
}

/// What the write of one normalized item with its final `body` stores.
fn import_write(item: &Item, body: &Body, format: Format, now: OffsetDateTime) -> serde_json::Result<ImportWrite> {
    let post = &item.post;
    let created = post.created_at.unwrap_or(now);
    let at = post.published_at.unwrap_or(created);
    Ok(ImportWrite {
        source_key: item.key.clone(),
        short_id: (format == Format::QuireArchive).then(|| post.source_id.clone()),
        slug: post.slug.clone(),
        title: body.title(),
        body_json: serde_json::to_string(body)?,
        page: post.kind == Kind::Page,
        page_position: post.page_position,
        tags: post.tags.clone(),
        created_at: stored(created),
        updated_at: stored(post.updated_at.unwrap_or(created)),
        published_at: (post.state == State::Published).then(|| stored(at)),
        scheduled_at: (post.state == State::Scheduled).then(|| stored(at)),
        old_paths: post.old_paths.clone(),
    })
}

/// Why an image could not be stored, for the report: the upload path's own message (not an
/// image, the account's upload limit reached). A fault of the server is logged and said plainly.
fn reason(err: Error) -> String {
    match err {
        Error::Internal(err) => {
            tracing::error!(error = format!("{err:#}"), "an imported image could not be stored");
            "it could not be stored on this server".to_owned()
        }
        refused => lowercase_first(&messages(&refused)),
    }
}

/// Reports a setting applied (`done`), or refused with the setter's message (`failed`); a
/// fault of the server stops the import.
fn settled(result: Result<()>, report: &mut Report, done: String, failed: String) -> Result<()> {
    match result {
        Ok(()) => report.line(SETTINGS_ITEM, done),
        Err(Error::Internal(err)) => return Err(Error::Internal(err)),
        Err(refused) => report.line(SETTINGS_ITEM, format!("{failed}: {}", lowercase_first(&messages(&refused)))),
    }
    Ok(())
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
