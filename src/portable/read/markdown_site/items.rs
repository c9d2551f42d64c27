//! The posts and pages of a Markdown site, one `.md` file at a time as the iterator yields
//! them: front matter read, then title, slug, dates, state, kind, tags and old paths, and the
//! body rewritten ([`super::generator_syntax`]) and converted to blocks.

use std::collections::{HashMap, HashSet};
use std::io::{Read, Seek};

use time::OffsetDateTime;

use super::MAX_FILE_BYTES;
use super::front_matter::{self, FrontMatter};
use super::generator_syntax::{rewrite, urlize};
use super::paths::{Path, find_file};
use super::site::Site;
use crate::portable::Problem;
use crate::portable::convert::notes::Notes;
use crate::portable::convert::{Base, markdown};
use crate::portable::model::{Kind, Post, State};
use crate::portable::read::safe_zip::SafeZip;

pub(super) struct ItemsOf<R> {
    pub(super) zip: SafeZip<R>,
    pub(super) files: std::vec::IntoIter<String>,
    pub(super) names: HashSet<String>,
    pub(super) by_file_name: HashMap<String, String>,
    pub(super) site: Site,
    pub(super) now: OffsetDateTime,
}

impl<R: Read + Seek> Iterator for ItemsOf<R> {
    type Item = Result<Post, Problem>;

    fn next(&mut self) -> Option<Self::Item> {
        let name = self.files.next()?;
        let bytes = match self.zip.read(&name, MAX_FILE_BYTES) {
            Ok(bytes) => bytes,
            Err(err) if err.0.contains("larger than Quire reads") => return Some(Err(Problem::item(&name, "", err.0))),
            Err(err) => {
                self.files = Vec::new().into_iter();
                return Some(Err(Problem::File(err)));
            }
        };
        let Ok(text) = String::from_utf8(bytes) else {
            return Some(Err(Problem::item(&name, "", "It is not UTF-8 text: not imported")));
        };
        Some(self.post(&name, text.trim_start_matches('\u{feff}')))
    }
}

impl<R> ItemsOf<R> {
    /// The address the generator gave the file: Jekyll's `permalink` pattern (its default
    /// `/:categories/:year/:month/:day/:title.html`), Hugo's `[permalinks]` for the section
    /// (else `/section/slug/`); dates in the site's zone.
    pub(super) fn default_path(
        &self,
        path: &Path,
        slug: &str,
        title: &str,
        date: Option<OffsetDateTime>,
        fm: &FrontMatter,
        kind: Kind,
    ) -> Option<String> {
        let local = date.map(|at| {
            at.to_offset(
                time::UtcOffset::from_whole_seconds(
                    self.site.zone.as_ref().map_or(0, |z| z.offset_at(at.unix_timestamp())),
                )
                .unwrap_or(time::UtcOffset::UTC),
            )
        });
        let fill = |pattern: &str, section: &str| -> Option<String> {
            let mut out = pattern.to_owned();
            if pattern.contains(":year") || pattern.contains(":month") || pattern.contains(":day") {
                let at = local?;
                out = out
                    .replace(":year", &format!("{:04}", at.year()))
                    .replace(":month", &format!("{:02}", at.month() as u8))
                    .replace(":day", &format!("{:02}", at.day()));
            }
            let categories: Vec<String> = fm.list("categories").iter().map(|c| urlize(c)).collect();
            let named_slug = fm.text("slug").map(|s| urlize(&s)).unwrap_or_else(|| urlize(title));
            let urlized_title = urlize(title);
            out = out
                .replace(":categories", &categories.join("/"))
                .replace(":output_ext", ".html")
                .replace(":sections", section)
                .replace(":section", section)
                .replace(":filename", &path.slug)
                .replace(":contentbasename", &path.slug)
                .replace(":slug", if self.site.jekyll { slug } else { &named_slug })
                .replace(":title", if self.site.jekyll { slug } else { &urlized_title });
            while out.contains("//") {
                out = out.replace("//", "/");
            }
            let encoded = url::Url::parse("http://x/").ok()?.join(&out).ok()?;
            Some(encoded.path().to_owned())
        };
        if self.site.jekyll {
            if kind == Kind::Page {
                return Some(format!("/{}.html", path.slug));
            }
            let pattern = match self.site.permalink.as_deref() {
                None | Some("date") => "/:categories/:year/:month/:day/:title:output_ext",
                Some("pretty") => "/:categories/:year/:month/:day/:title/",
                Some("ordinal" | "none") => "/:categories/:title:output_ext",
                Some(pattern) => pattern,
            };
            return fill(pattern, "");
        }
        let at = path.folders.iter().position(|f| f == "content")?;
        let mut sections: Vec<&str> = path.folders[at + 1..].iter().map(String::as_str).collect();
        if path.stem.eq_ignore_ascii_case("index") {
            sections.pop();
        }
        let section = sections.first().copied().unwrap_or("");
        match self
            .site
            .permalinks
            .text(section)
            .or_else(|| self.site.permalinks.text("page").filter(|_| kind == Kind::Page))
        {
            Some(pattern) => fill(&pattern, section),
            None => {
                let prefix: String = sections.iter().map(|s| format!("/{s}")).collect();
                Some(format!("{prefix}/{slug}/"))
            }
        }
    }

    pub(super) fn post(&self, name: &str, text: &str) -> Result<Post, Problem> {
        let (fm, body) = front_matter::split(text)
            .map_err(|why| Problem::item(name, "", format!("Its front matter could not be read: {why}")))?;
        let path = Path::of(name);
        let mut notes = Notes::default();
        let title = fm.text("title").unwrap_or_else(|| path.stem.clone());
        let slug = fm.text("slug").unwrap_or_else(|| path.slug.clone());
        let zone = self.site.zone.as_ref();
        let date = fm.date("date", zone).or(path.date);
        let published = match (date, fm.date("publishdate", zone).or_else(|| fm.date("publish_date", zone))) {
            (Some(date), Some(later)) if later > date => Some(later),
            (date, later) => date.or(later),
        };
        let draft = fm.flag("draft") == Some(true)
            || fm.flag("published") == Some(false)
            || fm.flag("publish") == Some(false)
            || path.in_folder(&["_drafts", "drafts"]);
        let layout = fm.text("type").or_else(|| fm.text("layout")).unwrap_or_default().to_ascii_lowercase();
        // Jekyll makes every file outside `_posts` and `_drafts` a page.
        let jekyll_page = self.site.jekyll && !path.in_folder(&["_posts", "_drafts"]);
        let kind =
            if layout == "page" || jekyll_page || path.in_folder(&["pages", "_pages"]) || path.directly_in_content() {
                Kind::Page
            } else {
                Kind::Post
            };
        let state = match published {
            _ if draft => State::Draft,
            Some(at) if at > self.now => State::Scheduled,
            Some(_) => State::Published,
            None if fm.flag("publish") == Some(true) || kind == Kind::Page => State::Published,
            None => {
                notes.add("It has no date: imported as a draft");
                State::Draft
            }
        };
        let mut tags = Vec::new();
        for tag in fm
            .list("tags")
            .into_iter()
            .chain(fm.list("categories"))
            .chain(fm.nested_list("taxonomies", "tags"))
            .chain(fm.nested_list("taxonomies", "categories"))
        {
            if !tags.contains(&tag) {
                tags.push(tag);
            }
        }
        let mut old_paths: Vec<String> = Vec::new();
        let explicit: Vec<String> = fm
            .list("aliases")
            .into_iter()
            .chain(fm.list("redirect_from"))
            .chain(fm.text("url"))
            .chain(fm.text("permalink"))
            .collect();
        let replaced = fm.text("url").into_iter().chain(fm.text("permalink")).any(|p| !p.contains(':'));
        let derived = if replaced { None } else { self.default_path(&path, &slug, &title, date, &fm, kind) };
        for old in explicit.into_iter().chain(derived) {
            if old.contains(':') || old.contains("{{") {
                continue; // a pattern (`/:year/:title/`) or a template, not a path
            }
            let old = if old.starts_with('/') { old } else { format!("/{old}") };
            if !old_paths.contains(&old) {
                old_paths.push(old);
            }
        }
        let source = rewrite(body, &mut notes);
        let dir = path.dir.clone();
        let names = &self.names;
        let by_file_name = &self.by_file_name;
        let root = &self.site.root;
        let resolve = move |src: &str| find_file(src, &dir, root, names, by_file_name);
        let converted = markdown::to_blocks(&source, &Base::with_files(self.site.url.as_ref(), &resolve));
        notes.extend(converted.notes);
        Ok(Post {
            source_id: name.to_owned(),
            kind,
            title,
            slug,
            blocks: converted.blocks,
            state,
            created_at: date,
            published_at: if state == State::Draft { None } else { published },
            updated_at: fm
                .date("lastmod", zone)
                .or_else(|| fm.date("updated", zone))
                .or_else(|| fm.date("last_modified_at", zone)),
            tags,
            old_paths,
            page_position: if kind == Kind::Page {
                fm.text("weight").or_else(|| fm.text("nav_order")).and_then(|w| w.parse().ok())
            } else {
                None
            },
            comments_closed: false,
            unlisted: kind == Kind::Post && fm.flag("unlisted") == Some(true),
            revisions: Vec::new(),
            notes: notes.into_lines(),
        })
    }
}
