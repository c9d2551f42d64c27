//! A zip of Markdown files with front matter: a Hugo, Jekyll or Zola site's sources or an
//! Obsidian vault. Each `.md` file is one post or page, read from the zip one at a time.
//!
//! - Title: `title`, else the file's name. Slug: `slug`, else Jekyll's `_posts/2015-01-12-slug.md`
//!   name, a page bundle's folder (`posts/slug/index.md`), or the file's name.
//! - Dates: `date` (or `publishDate` when later), else the date in a Jekyll file name;
//!   `lastmod`/`updated`/`last_modified_at` → updated.
//! - State: `draft: true`, `published: false`, `publish: false` or a file in `_drafts/` →
//!   draft; a date still to come → scheduled; a file with no date at all → draft (an Obsidian
//!   vault holds private notes), with a note.
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

mod front_matter;

use std::collections::{HashMap, HashSet};
use std::io::{Read, Seek};

use time::OffsetDateTime;

use self::front_matter::FrontMatter;
use super::safe_zip::SafeZip;
use crate::domain::time_zone::TimeZone;
use crate::portable::convert::notes::{Notes, count};
use crate::portable::convert::{Base, markdown};
use crate::portable::model::{Format, Kind, Post, Read as Header, Settings, State};
use crate::portable::{Export, Options, Problem, Unreadable};

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

struct ItemsOf<R> {
    zip: SafeZip<R>,
    files: std::vec::IntoIter<String>,
    names: HashSet<String>,
    by_file_name: HashMap<String, String>,
    site: Site,
    now: OffsetDateTime,
}

/// What the site's own settings file says (Jekyll's `_config.yml`, Hugo's `hugo.toml` or
/// `config.toml`, Zola's `config.toml`), and where it sits.
#[derive(Default)]
struct Site {
    /// The folder holding the settings file (`harbour-notes/`), empty at the zip's root.
    root: String,
    jekyll: bool,
    zone: Option<TimeZone>,
    /// Jekyll's `permalink`.
    permalink: Option<String>,
    /// Hugo's `[permalinks]`, by section.
    permalinks: FrontMatter,
    url: Option<url::Url>,
}

impl Site {
    fn read<R: Read + Seek>(zip: &mut SafeZip<R>, options: &Options) -> Site {
        const CONFIGS: [(&str, bool); 6] = [
            ("_config.yml", false),
            ("hugo.toml", true),
            ("config.toml", true),
            ("hugo.yaml", false),
            ("config.yaml", false),
            ("config.yml", false),
        ];
        let found = zip
            .names()
            .iter()
            .filter_map(|name| {
                let (dir, file) = name.rsplit_once('/').map_or(("", name.as_str()), |(d, f)| (d, f));
                let depth = if dir.is_empty() { 0 } else { dir.split('/').count() };
                CONFIGS
                    .iter()
                    .find(|(config, _)| *config == file)
                    .filter(|_| depth <= 1)
                    .map(|(config, toml)| (name.clone(), dir.to_owned(), *config, *toml))
            })
            .min_by_key(|(name, ..)| name.len());
        let mut site = Site { url: options.site_url.clone(), ..Site::default() };
        let zone_name = |fm: &FrontMatter| fm.text("timezone").or_else(|| fm.text("time_zone"));
        if let Some((name, dir, file, toml)) = found {
            site.root = if dir.is_empty() { dir } else { format!("{dir}/") };
            site.jekyll = file == "_config.yml";
            let settings = zip
                .read(&name, 256 * 1024)
                .ok()
                .and_then(|bytes| String::from_utf8(bytes).ok())
                .and_then(|text| front_matter::config(&text, toml).ok())
                .unwrap_or_default();
            site.zone = zone_name(&settings).and_then(|z| TimeZone::parse(&z).ok());
            site.permalink = settings.text("permalink");
            site.permalinks = settings.table("permalinks");
        }
        if !site.jekyll {
            site.jekyll = zip.names().iter().any(|n| n.contains("_posts/"));
        }
        if site.zone.is_none() {
            site.zone = options.time_zone.as_deref().and_then(|z| TimeZone::parse(z).ok());
        }
        site
    }
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
    fn default_path(
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

    fn post(&self, name: &str, text: &str) -> Result<Post, Problem> {
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
            notes: notes.into_lines(),
        })
    }
}

/// Where a file sits in the zip, and what its path says.
struct Path {
    /// Its folder (`content/posts`), without a trailing `/`.
    dir: String,
    /// The folders above it, lowercased.
    folders: Vec<String>,
    /// Its name without extension (and without a Jekyll date).
    stem: String,
    /// Its slug: the stem, or a page bundle's folder.
    slug: String,
    /// The date in a Jekyll file name.
    date: Option<OffsetDateTime>,
}

impl Path {
    fn of(name: &str) -> Path {
        let (dir, file) = name.rsplit_once('/').unwrap_or(("", name));
        let folders: Vec<String> = dir.split('/').filter(|p| !p.is_empty()).map(str::to_ascii_lowercase).collect();
        let stem = file.rsplit_once('.').map_or(file, |(stem, _)| stem);
        let (date, stem) = match (stem.get(..10).and_then(super::dates::parse), stem.get(10..11)) {
            (Some(date), Some("-")) => (Some(date), &stem[11..]),
            _ => (None, stem),
        };
        let slug = if stem.eq_ignore_ascii_case("index") { dir.rsplit('/').next().unwrap_or(stem) } else { stem };
        Path { dir: dir.to_owned(), folders, stem: stem.to_owned(), slug: slug.to_owned(), date }
    }

    fn in_folder(&self, names: &[&str]) -> bool {
        self.folders.iter().any(|f| names.contains(&f.as_str()))
    }

    /// A Hugo or Zola file right in `content/`: a page, not a section's post.
    fn directly_in_content(&self) -> bool {
        let content = self.folders.iter().position(|f| f == "content");
        content.is_some_and(|at| {
            at + 1 == self.folders.len() || (at + 2 == self.folders.len() && self.stem.eq_ignore_ascii_case("index"))
        })
    }
}

/// The zip path of an image written as `src` in a file of folder `dir`, as `file:<path>`.
fn find_file(
    src: &str,
    dir: &str,
    site_root: &str,
    names: &HashSet<String>,
    by_file_name: &HashMap<String, String>,
) -> Option<String> {
    let src = src.split(['?', '#']).next().unwrap_or(src);
    let src = percent_decoded(src);
    let mut candidates = Vec::new();
    if let Some(rooted) = src.strip_prefix('/') {
        // The site's root: the folder of its settings file, else the one holding `content/`
        // or `_posts/`, else the zip's root.
        let parts: Vec<&str> = dir.split('/').collect();
        let root = if !site_root.is_empty() {
            site_root.to_owned()
        } else {
            parts
                .iter()
                .position(|p| matches!(*p, "content" | "_posts" | "_drafts" | "_pages"))
                .map_or(String::new(), |at| parts[..at].iter().map(|p| format!("{p}/")).collect())
        };
        candidates.extend(
            [format!("{root}{rooted}"), format!("{root}static/{rooted}"), format!("{root}assets/{rooted}")].map(Some),
        );
    } else {
        candidates.push(normalize(&format!("{dir}/{src}")));
        candidates.push(normalize(&src));
    }
    candidates
        .into_iter()
        .flatten()
        .find(|c| names.contains(c))
        .or_else(|| (!src.contains('/')).then(|| by_file_name.get(&src).cloned()).flatten())
        .map(|path| format!("file:{path}"))
}

/// `a/b/../c` → `a/c`; `None` when it climbs out of the zip.
fn normalize(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    Some(parts.join("/"))
}

fn percent_decoded(text: &str) -> String {
    if text.contains('%') {
        url::Url::parse(&format!("file:///{text}"))
            .ok()
            .and_then(|u| u.to_file_path().ok())
            .map(|p| p.to_string_lossy().trim_start_matches('/').to_owned())
            .unwrap_or_else(|| text.to_owned())
    } else {
        text.to_owned()
    }
}

// --- Generator syntax --------------------------------------------------------------------

/// The body with Hugo shortcodes, Jekyll Liquid tags and Obsidian links written as the
/// Markdown they show. Lines inside fenced code are left alone.
fn rewrite(body: &str, notes: &mut Notes) -> String {
    let mut out = String::with_capacity(body.len());
    let mut fence: Option<String> = None;
    for line in body.split_inclusive('\n') {
        let trimmed = line.trim();
        if let Some(open) = &fence {
            if open == "{%" && trimmed.starts_with("{%") && trimmed.contains("endhighlight") {
                fence = None;
                out.push_str("```\n");
                continue;
            }
            if trimmed.starts_with(open.as_str()) {
                fence = None;
            }
            out.push_str(line);
            continue;
        }
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = Some(trimmed[..3].to_owned());
            out.push_str(line);
            continue;
        }
        if let Some(replaced) = hugo_shortcode(trimmed, notes).or_else(|| liquid(trimmed, notes)) {
            out.push_str(&replaced);
            out.push('\n');
            if replaced.starts_with("```") && replaced != "```" {
                fence = Some("{%".to_owned());
            }
            continue;
        }
        out.push_str(&wikilinks(line));
    }
    out
}

/// A line that is a Hugo shortcode (`{{< youtube ID >}}`) as the Markdown it shows.
fn hugo_shortcode(line: &str, notes: &mut Notes) -> Option<String> {
    let inner = line
        .strip_prefix("{{<")
        .and_then(|l| l.strip_suffix(">}}"))
        .or_else(|| line.strip_prefix("{{%").and_then(|l| l.strip_suffix("%}}")))?
        .trim();
    let (name, args) = inner.split_once(char::is_whitespace).unwrap_or((inner, ""));
    let (named, positional) = shortcode_args(args);
    let arg =
        |key: &str, at: usize| named.get(key).cloned().or_else(|| positional.get(at).cloned()).unwrap_or_default();
    Some(match name {
        "figure" | "img" | "image" => {
            let caption = named.get("caption").or_else(|| named.get("title")).cloned().unwrap_or_default();
            format!(
                "![{}](<{}> \"{}\")",
                named.get("alt").cloned().unwrap_or_default(),
                arg("src", 0),
                caption.replace('"', "'")
            )
        }
        "youtube" => format!("https://www.youtube.com/watch?v={}", arg("id", 0)),
        "vimeo" => format!("https://vimeo.com/{}", arg("id", 0)),
        "tweet" | "x" | "twitter" => {
            let user = named.get("user").cloned().unwrap_or_else(|| "i".to_owned());
            let id = named.get("id").cloned().unwrap_or_else(|| positional.last().cloned().unwrap_or_default());
            format!("https://twitter.com/{user}/status/{id}")
        }
        "instagram" => format!("https://www.instagram.com/p/{}/", arg("id", 0)),
        "gist" => format!("<https://gist.github.com/{}/{}>", arg("user", 0), arg("id", 1)),
        closing if closing.starts_with('/') => String::new(),
        other => {
            notes.add(format!("A Hugo shortcode ({other}) was removed"));
            String::new()
        }
    })
}

/// A line that is a Liquid tag (`{% highlight ruby %}`) as the Markdown it shows.
fn liquid(line: &str, notes: &mut Notes) -> Option<String> {
    let inner = line.strip_prefix("{%")?.strip_suffix("%}")?.trim().trim_matches('-').trim();
    let (name, args) = inner.split_once(char::is_whitespace).unwrap_or((inner, ""));
    Some(match name {
        "highlight" => format!("```{}", args.split_whitespace().next().unwrap_or("")),
        "endhighlight" => "```".to_owned(),
        "raw" | "endraw" | "comment" | "endcomment" => String::new(),
        other => {
            notes.add(format!("A Liquid tag ({other}) was removed"));
            String::new()
        }
    })
}

fn shortcode_args(args: &str) -> (HashMap<String, String>, Vec<String>) {
    let mut named = HashMap::new();
    let mut positional = Vec::new();
    let mut rest = args.trim();
    while !rest.is_empty() {
        let key_len = rest.find(|c: char| c == '=' || c.is_whitespace()).unwrap_or(rest.len());
        let (key, after) = rest.split_at(key_len);
        let (value, remaining, is_named) = if let Some(value) = after.strip_prefix('=') {
            let (v, r) = quoted(value);
            (v, r, true)
        } else {
            let (v, r) = quoted(rest);
            (v, r, false)
        };
        if is_named {
            named.insert(key.to_ascii_lowercase(), value);
        } else {
            positional.push(value);
        }
        if remaining.len() >= rest.len() {
            break;
        }
        rest = remaining.trim_start();
    }
    (named, positional)
}

/// A value at the start of `text` (quoted or up to white space) and what follows.
fn quoted(text: &str) -> (String, &str) {
    match text.chars().next() {
        Some(q @ ('"' | '\'' | '`')) => match text[1..].find(q) {
            Some(end) => (text[1..1 + end].to_owned(), &text[2 + end..]),
            None => (text[1..].to_owned(), ""),
        },
        _ => {
            let end = text.find(char::is_whitespace).unwrap_or(text.len());
            (text[..end].to_owned(), &text[end..])
        }
    }
}

/// Hugo's `urlize`: lowercased, spaces to hyphens, punctuation other than `-`, `_` and `.`
/// dropped (letters of every script kept).
fn urlize(text: &str) -> String {
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') => Some(c),
            _ => None,
        })
        .collect()
}

/// Obsidian's links: `![[image.png|300]]` → an image, `[[Note|text]]` → `text`.
fn wikilinks(line: &str) -> String {
    if !line.contains("[[") {
        return line.to_owned();
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(open) = rest.find("[[") {
        let Some(close) = rest[open..].find("]]").map(|i| open + i) else { break };
        let embed = open > 0 && rest.as_bytes()[open - 1] == b'!';
        out.push_str(&rest[..if embed { open - 1 } else { open }]);
        let inner = &rest[open + 2..close];
        let (target, label) = inner.split_once('|').unwrap_or((inner, ""));
        if embed {
            // `![[image.png|300]]` gives a width, `![[image.png|text]]` its description.
            let alt = if label.trim().bytes().all(|b| b.is_ascii_digit() || b == b'x') { "" } else { label.trim() };
            out.push_str(&format!(
                "![{}](<{}>)",
                crate::portable::convert::html::escaped(alt),
                target.trim().replace(['<', '>'], "")
            ));
        } else {
            let text = if label.is_empty() { target.split('#').next().unwrap_or(target) } else { label };
            out.push_str(&crate::portable::convert::html::escaped(text.trim()));
        }
        rest = &rest[close + 2..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests;
