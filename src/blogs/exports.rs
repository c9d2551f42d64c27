//! Writing a blog's export: a Quire archive, Markdown files, or its static site, as one zip
//! (docs/export.md). [`write`] is the one function the background jobs (`jobs.rs`) and
//! `quire export` both call. It reads the blog inside one read transaction (so the export is
//! one moment of the blog, and its counts are right) a page of posts at a time, and streams
//! every entry into the zip file: nothing holds the whole blog in memory.
//!
//! The static site is rendered by the public pages' own templates: this layer cannot name
//! `http`, so the renderer is handed in as a [`SiteRenderer`] (`http::blog::static_site`).

use std::collections::HashSet;
use std::fs::File;
use std::io::{BufWriter, Seek, Write};

use anyhow::{Context, anyhow};
use rusqlite::Connection;

use crate::db::exports::{self, After, BlogSettings};
use crate::db::posts::Post;
use crate::db::revisions::{self, Kept};
use crate::db::{redirects, subscribers, trash};
use crate::domain::content::blocks::{Block, Body};
use crate::domain::content::custom_css::rebase_media;
use crate::domain::content::image::ImageType;
use crate::domain::content::schedule;
use crate::media_store::MediaStore;
use crate::portable::model::MovedSubscriber;
use crate::portable::write::markdown_site::{self, Item};
use crate::portable::write::quire_archive::{self, ArchivePage, ArchivePost, Counts, Manifest};
use crate::portable::write::zip::ZipOut;

/// Posts read from the database at a time.
const POSTS_PER_READ: u32 = 50;

/// What an export makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    /// The Quire archive: everything, for another Quire.
    Archive,
    /// Markdown files with front matter, for static site generators.
    Markdown,
    /// The public pages as files, for any static host.
    Site,
}

impl ExportFormat {
    /// Every format, in the order the owner app offers them.
    pub const ALL: [ExportFormat; 3] = [ExportFormat::Archive, ExportFormat::Markdown, ExportFormat::Site];

    /// The format named `name` (`archive`, `markdown`, `site`).
    pub fn parse(name: &str) -> Option<ExportFormat> {
        ExportFormat::ALL.into_iter().find(|format| format.name() == name)
    }

    /// Its name in the API and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ExportFormat::Archive => "archive",
            ExportFormat::Markdown => "markdown",
            ExportFormat::Site => "site",
        }
    }

    /// The file name it is offered under, for the blog `subdomain` exported on `day`
    /// (`YYYYMMDD`): `alice-20261122.quire.zip`, `alice-20261122-markdown.zip`, `alice-20261122-site.zip`.
    pub fn file_name(self, subdomain: &str, day: &str) -> String {
        match self {
            ExportFormat::Archive => format!("{subdomain}-{day}.quire.zip"),
            ExportFormat::Markdown => format!("{subdomain}-{day}-markdown.zip"),
            ExportFormat::Site => format!("{subdomain}-{day}-site.zip"),
        }
    }

    /// The message for a name that is no format.
    pub fn unknown() -> String {
        "Should be archive, markdown or site".to_owned()
    }
}

/// Renders a blog's public pages into files with the live site's templates, for the static
/// site export.
pub trait SiteRenderer: Send + Sync {
    /// Renders every public page of the blog `subdomain`, read with `conn`, into `out`.
    fn render(&self, conn: &Connection, subdomain: &str, out: &mut dyn SiteOut) -> anyhow::Result<()>;
}

/// Where a [`SiteRenderer`] puts the site.
pub trait SiteOut {
    /// A file of the site, at `path` (relative: `index.html`, `tags/rust/index.html`).
    fn file(&mut self, path: &str, bytes: &[u8]) -> anyhow::Result<()>;
    /// An uploaded image (its stored name) the pages show at `media/<name>`; added once.
    fn image(&mut self, name: &str) -> anyhow::Result<()>;
    /// `done` of the blog's `total` posts and pages are rendered.
    fn progress(&mut self, done: u64, total: u64) -> anyhow::Result<()>;
}

/// Told `(done, total)` as an export goes; an error stops it (the job was deleted, or the
/// server is stopping).
pub type OnProgress<'a> = &'a mut dyn FnMut(u64, u64) -> anyhow::Result<()>;

/// Writes the export of the blog `subdomain` as `format` into `out`; returns the file's size.
pub fn write(
    conn: &Connection,
    media: &MediaStore,
    subdomain: &str,
    format: ExportFormat,
    site: &dyn SiteRenderer,
    out: File,
    on_progress: OnProgress<'_>,
) -> anyhow::Result<u64> {
    // One read transaction: the counts, the posts and the settings are the same moment.
    let tx = conn.unchecked_transaction()?;
    let blog = exports::blog_settings(&tx, subdomain)?.ok_or_else(|| anyhow!("there is no blog {subdomain}"))?;
    let mut zip = ZipOut::new(BufWriter::with_capacity(64 * 1024, out));
    match format {
        ExportFormat::Archive => write_archive(&tx, media, &blog, &mut zip, on_progress)?,
        ExportFormat::Markdown => write_markdown(&tx, media, &blog, &mut zip, on_progress)?,
        ExportFormat::Site => {
            let mut out = SiteZip { zip: &mut zip, media, images: HashSet::new(), on_progress };
            site.render(&tx, subdomain, &mut out)?;
        }
    }
    let file = zip.finish()?.into_inner().map_err(|err| err.into_error()).context("writing the export")?;
    file.sync_all().context("writing the export")?;
    Ok(file.metadata()?.len())
}

/// The stored name of an upload of this server or any Quire (`.../media/<hash>.<ext>`).
pub fn upload_name(url: &str) -> Option<&str> {
    let (_, name) = url.rsplit_once(crate::domain::paths::MEDIA_PREFIX)?;
    ImageType::of_stored_name(name).map(|_| name)
}

/// Calls `each` with every post and page of the blog in creation order, reading
/// [`POSTS_PER_READ`] at a time.
fn for_each_post(
    conn: &Connection,
    blog_id: i64,
    mut each: impl FnMut(Post) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut after: After = None;
    loop {
        let posts = exports::posts_after(conn, blog_id, &after, POSTS_PER_READ)?;
        let Some(last) = posts.last() else { return Ok(()) };
        after = Some((last.created_at.clone(), last.id));
        for post in posts {
            each(post)?;
        }
    }
}

/// The owner's uploaded images whose files are there, by stored name.
fn uploads(conn: &Connection, media: &MediaStore, user_id: i64) -> anyhow::Result<Vec<String>> {
    let mut present = Vec::new();
    for name in exports::image_names(conn, user_id)? {
        if media.exists_blocking(&name)? {
            present.push(name);
        }
    }
    Ok(present)
}

fn add_upload<W: Write + Seek>(zip: &mut ZipOut<W>, media: &MediaStore, entry: &str, name: &str) -> anyhow::Result<()> {
    let bytes =
        media.get_blocking(name)?.ok_or_else(|| anyhow!("the upload {name} is gone from {}", media.describe()))?;
    zip.stored(entry, &mut bytes.as_ref())
}

fn write_archive<W: Write + Seek>(
    conn: &Connection,
    media: &MediaStore,
    blog: &BlogSettings,
    zip: &mut ZipOut<W>,
    on_progress: OnProgress<'_>,
) -> anyhow::Result<()> {
    let (posts, pages) = exports::counts(conn, blog.id)?;
    let images = uploads(conn, media, blog.user_id)?;
    let owned: HashSet<&str> = images.iter().map(String::as_str).collect();
    let mut settings = blog.settings.clone();
    // The stylesheet's uploads are named by their archive path, as an image block's are.
    settings.custom_css = settings.custom_css.map(|css| {
        rebase_media(&css, crate::domain::paths::MEDIA_PREFIX, quire_archive::IMAGES, |name| owned.contains(name))
    });
    let manifest = Manifest {
        format: quire_archive::FORMAT.to_owned(),
        version: quire_archive::VERSION,
        exported_at: schedule::stored(time::OffsetDateTime::now_utc()),
        generator: format!("Quire {}", env!("CARGO_PKG_VERSION")),
        blog: settings,
        counts: Counts { posts, pages, images: images.len() as u64 },
    };
    zip.text(quire_archive::MANIFEST, &serde_json::to_vec_pretty(&manifest)?)?;
    let upload = |url: &str| upload_name(url).filter(|name| owned.contains(name)).map(str::to_owned);
    let total = posts + pages + images.len() as u64;
    let mut done = 0;
    for_each_post(conn, blog.id, |post| {
        let entry = ArchivePost {
            kind: if post.page_position.is_some() { "page" } else { "post" }.to_owned(),
            page: post.page_position.map(|position| ArchivePage { slug: post.slug.clone(), position }),
            body: quire_archive::body(&post.body_json, upload)
                .with_context(|| format!("the body of post {}", post.short_id))?,
            old_paths: redirects::of_post(conn, post.id)?,
            comments_closed: post.comments_closed,
            unlisted: post.unlisted,
            revisions: revisions::all_kept(conn, post.id)?.into_iter().map(|r| Kept { user_id: None, ..r }).collect(),
            short_id: post.short_id,
            slug: post.slug,
            title: post.title,
            tags: post.tags,
            created_at: post.created_at,
            updated_at: post.updated_at,
            published_at: post.published_at,
            scheduled_at: post.scheduled_at,
        };
        zip.text(&quire_archive::post_entry(&entry.short_id), &serde_json::to_vec_pretty(&entry)?)?;
        done += 1;
        on_progress(done, total)
    })?;
    for name in &images {
        add_upload(zip, media, &quire_archive::image_entry(name), name)?;
        done += 1;
        on_progress(done, total)?;
    }
    let subscribers: Vec<MovedSubscriber> = subscribers::confirmed_for_archive(conn, blog.id)?
        .into_iter()
        .map(|(email, created_at, confirmed_at)| MovedSubscriber { email, created_at, confirmed_at })
        .collect();
    if !subscribers.is_empty() {
        let list = quire_archive::ArchiveSubscribers { subscribers };
        zip.text(quire_archive::SUBSCRIBERS, &serde_json::to_vec_pretty(&list)?)?;
    }
    let responses = exports::responses_for_archive(conn, blog.id)?;
    if !responses.is_empty() {
        let list = quire_archive::ArchiveResponses { responses };
        zip.text(quire_archive::RESPONSES, &serde_json::to_vec_pretty(&list)?)?;
    }
    let trash = trash::all(conn, blog.id)?;
    if !trash.is_empty() {
        zip.text(quire_archive::TRASH, &serde_json::to_vec_pretty(&quire_archive::ArchiveTrash { trash })?)?;
    }
    on_progress(total, total)
}

fn write_markdown<W: Write + Seek>(
    conn: &Connection,
    media: &MediaStore,
    blog: &BlogSettings,
    zip: &mut ZipOut<W>,
    on_progress: OnProgress<'_>,
) -> anyhow::Result<()> {
    let (posts, pages) = exports::counts(conn, blog.id)?;
    let owned: HashSet<String> = uploads(conn, media, blog.user_id)?.into_iter().collect();
    zip.text("README.md", markdown_site::readme(&blog.settings.name).as_bytes())?;
    zip.text("posts/_index.md", markdown_site::section_index("Posts").as_bytes())?;
    zip.text("pages/_index.md", markdown_site::section_index("Pages").as_bytes())?;
    let total = posts + pages;
    let mut done = 0;
    for_each_post(conn, blog.id, |post| {
        let body = Body::from_json(&post.body_json).with_context(|| format!("the body of post {}", post.short_id))?;
        let upload = |url: &str| upload_name(url).filter(|name| owned.contains(*name)).map(str::to_owned);
        let item = Item {
            title: &post.title,
            slug: match post.page_position {
                Some(_) => post.slug.clone(),
                None => format!("{}-{}", post.slug, post.short_id),
            },
            date: post.published_at.as_deref().or(post.scheduled_at.as_deref()).unwrap_or(&post.created_at),
            tags: &post.tags,
            draft: post.published_at.is_none() && post.scheduled_at.is_none(),
            unlisted: post.unlisted,
            page_position: post.page_position,
            blocks: &body.children,
        };
        let folder = item.folder();
        zip.text(&format!("{folder}index.md"), item.document(upload).as_bytes())?;
        let mut added = HashSet::new();
        for block in &body.children {
            let Block::Image { url, .. } = block else { continue };
            if let Some(name) = upload(url).filter(|name| added.insert(name.clone())) {
                add_upload(zip, media, &format!("{folder}{name}"), &name)?;
            }
        }
        done += 1;
        on_progress(done, total)
    })?;
    on_progress(total, total)
}

/// The static site's files going into the zip, each image once.
struct SiteZip<'a, W: Write + Seek> {
    zip: &'a mut ZipOut<W>,
    media: &'a MediaStore,
    images: HashSet<String>,
    on_progress: OnProgress<'a>,
}

impl<W: Write + Seek> SiteOut for SiteZip<'_, W> {
    fn file(&mut self, path: &str, bytes: &[u8]) -> anyhow::Result<()> {
        self.zip.text(path, bytes)
    }

    fn image(&mut self, name: &str) -> anyhow::Result<()> {
        if !self.images.insert(name.to_owned()) {
            return Ok(());
        }
        // A page may show an image whose file is gone: the site keeps its link.
        let Some(bytes) = self.media.get_blocking(name)? else { return Ok(()) };
        self.zip.stored(&format!("media/{name}"), &mut bytes.as_ref())
    }

    fn progress(&mut self, done: u64, total: u64) -> anyhow::Result<()> {
        (self.on_progress)(done, total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_have_names_and_file_names() {
        for format in ExportFormat::ALL {
            assert_eq!(ExportFormat::parse(format.name()), Some(format));
        }
        assert_eq!(ExportFormat::parse("pdf"), None);
        assert_eq!(ExportFormat::Archive.file_name("alice", "20261122"), "alice-20261122.quire.zip");
        assert_eq!(ExportFormat::Site.file_name("alice", "20261122"), "alice-20261122-site.zip");
    }

    #[test]
    fn uploads_are_told_by_their_stored_name_under_media() {
        let name = format!("{}.png", "ab".repeat(32));
        assert_eq!(upload_name(&format!("http://localhost:8080/media/{name}")), Some(name.as_str()));
        assert_eq!(upload_name("https://i.imgur.com/abc.png"), None);
        assert_eq!(upload_name("http://x/media/../quire.db"), None);
    }
}
