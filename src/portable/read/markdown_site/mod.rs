//! A zip of Markdown files with front matter: a Hugo, Jekyll or Zola site's sources or an
//! Obsidian vault. Each `.md` file is one post or page, read from the zip one at a time.
//!
//! - Title: `title`, else the file's name. Slug: `slug`, else Jekyll's `_posts/2015-01-12-slug.md`
//!   name, a page bundle's folder (`posts/slug/index.md`), or the file's name.
//! - Dates: `date` (or `publishDate` when later), else the date in a Jekyll file name;
//!   `lastmod`/`updated`/`last_modified_at` → updated.
//! - State: `draft: true`, `published: false`, `publish: false` or a file in `_drafts/` →
//!   draft; a date still to come → scheduled; a file with no date at all → draft (an Obsidian
//!   vault holds private notes), with a note; `unlisted: true` on a post → unlisted.
//! - Page: `type: page`, `layout: page`, a file under a `pages/` or `_pages/` folder, or one
//!   directly in Hugo's or Zola's `content/` folder.
//! - Tags: `tags`, `categories` and Zola's `taxonomies`. Old paths: `aliases`,
//!   `redirect_from`, `url`, `permalink`, else the generator's default (`/posts/slug/` for a
//!   Hugo section, `/2015/01/12/slug.html` for Jekyll).
//! - Images written relative to the file (or to the site's root, or Hugo's `static/`) that
//!   the zip holds become `file:<path in the zip>`; Obsidian's `![[image.png]]` is found by
//!   name anywhere in the vault and `[[Note|text]]` becomes its text. Hugo's `figure`,
//!   `youtube`, `vimeo`, `tweet`, `instagram` and `gist` shortcodes and Jekyll's
//!   `highlight` become what they show; other shortcodes and Liquid tags are removed and noted.
//!
//! This file opens the zip; `site.rs` reads the site's settings file, `items.rs` each post,
//! `paths.rs` what a path says and where an image is, `generator_syntax.rs` the shortcodes,
//! Liquid tags and wikilinks, `front_matter.rs` the settings block atop each file.

mod front_matter;
mod generator_syntax;
mod items;
mod paths;
mod site;

use std::collections::{HashMap, HashSet};
use std::io::{Read, Seek};

use time::OffsetDateTime;

use super::safe_zip::SafeZip;
use crate::portable::convert::notes::{Notes, count};
use crate::portable::model::{Format, Read as Header, Settings};
use crate::portable::{Export, Options, Unreadable};
use items::ItemsOf;
use site::Site;

/// Largest Markdown file read.
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// Folders of a site's sources that hold templates or tooling, not posts.
const SKIPPED_FOLDERS: &[&str] = &[
    "archetypes",
    "themes",
    "layouts",
    "_layouts",
    "_includes",
    "node_modules",
    ".obsidian",
    ".github",
    ".git",
    "templates",
    "vendor",
    ".trash",
    "public",
    "_site",
    "resources",
];
/// Files that describe the site rather than being part of it.
const SKIPPED_FILES: &[&str] = &["readme.md", "license.md", "changelog.md", "contributing.md", "code_of_conduct.md"];

/// Reads a zip of Markdown files. Refuses a zip with none, or one [`SafeZip`] refuses.
pub fn read<R: Read + Seek + Send + 'static>(input: R, options: &Options) -> Result<Export, Unreadable> {
    let mut zip = SafeZip::open(input)?;
    let mut notes = Notes::default();
    let mut files = Vec::new();
    let mut sections = 0;
    for name in zip.names() {
        if !is_markdown(name) {
            continue;
        }
        let lower = name.to_ascii_lowercase();
        let parts: Vec<&str> = lower.split('/').collect();
        if parts.iter().any(|p| SKIPPED_FOLDERS.contains(p)) || SKIPPED_FILES.contains(parts.last().unwrap_or(&"")) {
            continue;
        }
        if matches!(parts.last(), Some(&"_index.md"))
            || lower == "index.md"
            || lower.ends_with("/index.md") && parts.len() == 2 && parts[0] != "content"
        {
            sections += 1;
            continue;
        }
        files.push(name.clone());
    }
    if files.is_empty() {
        return Err(Unreadable::new(
            "This zip holds no Markdown (.md) files: Quire reads zips of a Hugo, Jekyll or Zola site or of an Obsidian vault",
        ));
    }
    if sections > 0 {
        notes.add(format!(
            "{} not imported (their lists are made by Quire)",
            count(sections, "section index page", "section index pages")
        ));
    }
    let site = Site::read(&mut zip, options);
    let names: HashSet<String> = zip.names().iter().cloned().collect();
    let mut by_file_name: HashMap<String, String> = HashMap::new();
    for name in zip.names() {
        let file = name.rsplit('/').next().unwrap_or(name).to_owned();
        by_file_name.entry(file).or_insert_with(|| name.clone());
    }
    let header = Header {
        format: Format::MarkdownZip,
        settings: Settings {
            subscribers: None,
            site_url: options.site_url.as_ref().map(|u| u.as_str().trim_end_matches('/').to_owned()),
            ..Settings::default()
        },
        expected_items: Some(files.len() as u64),
        notes: notes.into_lines(),
    };
    let items = ItemsOf { zip, files: files.into_iter(), names, by_file_name, site, now: OffsetDateTime::now_utc() };
    Ok(Export { read: header, items: Box::new(items) })
}

fn is_markdown(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    [".md", ".markdown", ".mdown", ".mkd"].iter().any(|ext| lower.ends_with(ext))
}

#[cfg(test)]
mod tests;
