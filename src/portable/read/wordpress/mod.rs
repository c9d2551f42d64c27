//! WordPress eXtended RSS (WXR 1.0–1.2, Tools → Export), read with an XML pull parser in two
//! passes over the file, so memory stays bounded whatever its size:
//!
//! 1. the whole file is checked (well-formed, not cut off, no DOCTYPE or entity
//!    declarations, no event over [`MAX_EVENT_BYTES`]) and its header, its attachments (id →
//!    address, alt text, caption) and the counts of what is not imported are read;
//! 2. the items are read again one at a time as [`Items`] yields them: posts and pages,
//!    each body converted from its HTML.
//!
//! Statuses: `publish` → published, `future` → scheduled, `draft`, `pending` and `private`
//! (and any password-protected post) → draft, with a note for the last three so nothing
//! private becomes public; `trash`, `auto-draft` and `inherit` are not imported. Bodies get
//! WordPress's own paragraph rule (wpautop: blank lines split paragraphs, single newlines are
//! line breaks) unless they are block-editor content, and its shortcodes `[caption]`,
//! `[gallery]`, `[embed]`, `[audio]`, `[video]` and Jetpack's `[youtube]`, `[tweet]`,
//! `[spotify]` are read; others are removed (their enclosed text kept) and noted.

use std::collections::HashMap;
use std::io::{BufRead, Seek, SeekFrom};

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};
use url::Url;

use super::dates;
use crate::domain::blocks::Block;
use crate::portable::convert::links::path_under;
use crate::portable::convert::notes::{Notes, count};
use crate::portable::convert::{Base, embeds, html};
use crate::portable::model::{Format, Kind, Post, Read, Settings, State};
use crate::portable::{Export, Items, Options, Problem, Unreadable};

/// Largest single XML event (one text or CDATA section) read; larger ones refuse the file.
pub const MAX_EVENT_BYTES: u64 = 64 * 1024 * 1024;
/// Largest body of one item; a larger one is skipped and reported.
pub const MAX_BODY_BYTES: usize = 16 * 1024 * 1024;
/// Deepest element nesting read.
const MAX_XML_DEPTH: usize = 32;

/// Reads a WXR file. Refuses a file that is not one, is cut off, is not well-formed XML or
/// declares a DOCTYPE, before any item is yielded.
pub fn read<R: BufRead + Seek + Send + 'static>(mut input: R, options: &Options) -> Result<Export, Unreadable> {
    let scan = {
        let mut wxr = Wxr::new(&mut input);
        scan(&mut wxr)?
    };
    input.seek(SeekFrom::Start(0)).map_err(super::io_error)?;
    let site = scan.blog_url.clone().or_else(|| options.site_url.clone());
    let mut notes = Notes::default();
    let mut others: Vec<(&String, &usize)> = scan.other_types.iter().collect();
    others.sort();
    for (kind, n) in others {
        let what = match kind.as_str() {
            "nav_menu_item" => count(*n, "menu entry", "menu entries"),
            "revision" => count(*n, "revision", "revisions"),
            "wp_block" => count(*n, "reusable block", "reusable blocks"),
            "trash" => count(*n, "post in the trash", "posts in the trash"),
            other => format!("{} of type {other}", count(*n, "item", "items")),
        };
        notes.add(format!("{what} not imported"));
    }
    if scan.comments > 0 {
        notes.add(format!("{} not imported: Quire has no comments", count(scan.comments, "comment", "comments")));
    }
    let read = Read {
        format: Format::WordPress,
        settings: Settings {
            name: scan.title.clone().filter(|t| !t.is_empty()),
            site_url: site.as_ref().map(|u| u.to_string().trim_end_matches('/').to_owned()),
            ..Settings::default()
        },
        expected_items: Some(scan.items),
        notes: notes.into_lines(),
    };
    let items = ItemsOf { wxr: Wxr::new(input), attachments: scan.attachments, site, stack: Vec::new(), done: false };
    Ok(Export { read, items: Box::new(items) as Items })
}

// --- The XML, streamed -------------------------------------------------------------------

/// A `BufRead` that refuses to hand out more than [`MAX_EVENT_BYTES`] between two resets:
/// the parser buffers one event whole, so this bounds its memory.
struct Capped<R> {
    inner: R,
    since_reset: u64,
}

impl<R: BufRead> std::io::Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.since_reset += n as u64;
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Capped<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.since_reset > MAX_EVENT_BYTES {
            return Err(std::io::Error::other("event too large"));
        }
        self.inner.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        self.since_reset += amount as u64;
        self.inner.consume(amount);
    }
}

struct Wxr<R> {
    reader: Reader<Capped<R>>,
    buf: Vec<u8>,
}

/// A failure of the XML itself, as the message the person importing sees.
type XmlResult<T> = Result<T, Unreadable>;

/// One element's text and attributes, read whole.
#[derive(Debug, Default)]
struct Item {
    fields: HashMap<String, String>,
    categories: Vec<(String, String, String)>,
    meta: Vec<(String, String)>,
    comments: usize,
    too_large: bool,
}

impl Item {
    fn get(&self, name: &str) -> &str {
        self.fields.get(name).map_or("", String::as_str)
    }
}

enum Found {
    /// A channel-level field (`title`, `link`, `wp:base_blog_url`, ...) and its text.
    Header(String, String),
    Item(Item),
    End,
}

impl<R: BufRead> Wxr<R> {
    fn new(input: R) -> Wxr<R> {
        let mut reader = Reader::from_reader(Capped { inner: input, since_reset: 0 });
        let config = reader.config_mut();
        config.check_end_names = true;
        config.expand_empty_elements = false;
        Wxr { reader, buf: Vec::new() }
    }

    fn event(&mut self) -> XmlResult<Event<'static>> {
        self.buf.clear();
        self.reader.get_mut().since_reset = 0;
        let at = self.reader.buffer_position();
        match self.reader.read_event_into(&mut self.buf) {
            Ok(Event::DocType(_)) => Err(Unreadable::new(
                "This file declares a DOCTYPE, which WordPress exports never do: Quire does not read it (entities are never expanded)",
            )),
            Ok(event) => Ok(event.into_owned()),
            Err(quick_xml::Error::Io(err)) if err.to_string().contains("event too large") => {
                Err(Unreadable::new(format!(
                    "This WordPress export has a single entry over {} MB (near byte {at}): Quire does not read it",
                    MAX_EVENT_BYTES / 1024 / 1024
                )))
            }
            Err(err) => Err(Unreadable::new(format!(
                "This WordPress export is not well-formed XML near byte {}: {err}",
                self.reader.error_position()
            ))),
        }
    }

    /// The next header field or item of the channel.
    fn next(&mut self, keep_body: bool, stack: &mut Vec<String>) -> XmlResult<Found> {
        loop {
            match self.event()? {
                Event::Start(start) => {
                    let name = name_of(&start);
                    if stack.is_empty() && name != "rss" {
                        return Err(not_wxr());
                    }
                    if stack.len() == 2 && name == "item" {
                        return self.item(keep_body).map(Found::Item);
                    }
                    if stack.len() == 2 {
                        let text = self.text(&name, usize::MAX)?.0;
                        return Ok(Found::Header(name, text));
                    }
                    stack.push(name);
                    if stack.len() > MAX_XML_DEPTH {
                        return Err(Unreadable::new("This WordPress export nests its elements too deeply to be one"));
                    }
                }
                Event::Empty(start) if stack.is_empty() => {
                    let _ = start;
                    return Err(not_wxr());
                }
                Event::End(_) => {
                    stack.pop();
                }
                Event::Eof if stack.is_empty() => return Ok(Found::End),
                Event::Eof => return Err(cut_off()),
                _ => {}
            }
        }
    }

    /// The text of the element just opened, up to its end (nested elements' text included),
    /// and whether it was longer than `max` bytes (then cut).
    fn text(&mut self, name: &str, max: usize) -> XmlResult<(String, bool)> {
        let mut text = String::new();
        let mut depth = 0usize;
        let mut cut = false;
        loop {
            let piece = match self.event()? {
                Event::Text(t) => t.xml10_content().into_owned(),
                Event::CData(c) => c.xml10_content().into_owned(),
                Event::GeneralRef(r) => match r.resolve_char_ref() {
                    Ok(Some(c)) => c.to_string(),
                    _ => {
                        let name = r.xml10_content();
                        quick_xml::escape::resolve_predefined_entity(&name)
                            .map_or_else(|| format!("&{name};"), str::to_owned)
                    }
                },
                Event::Start(_) => {
                    depth += 1;
                    if depth > MAX_XML_DEPTH {
                        return Err(Unreadable::new("This WordPress export nests its elements too deeply to be one"));
                    }
                    continue;
                }
                Event::End(end) => {
                    if depth == 0 {
                        debug_assert_eq!(end.name().as_ref(), name);
                        return Ok((text, cut));
                    }
                    depth -= 1;
                    continue;
                }
                Event::Eof => return Err(cut_off()),
                _ => continue,
            };
            if text.len() + piece.len() > max {
                cut = true;
            } else {
                text.push_str(&piece);
            }
        }
    }

    /// An `item`, just opened, read to its end. Its body (`content:encoded`) is kept only
    /// when asked for.
    fn item(&mut self, keep_body: bool) -> XmlResult<Item> {
        let mut item = Item::default();
        loop {
            match self.event()? {
                Event::Start(start) => {
                    let name = name_of(&start);
                    match name.as_str() {
                        "content:encoded" if !keep_body => {
                            self.text(&name, 0)?;
                        }
                        "content:encoded" => {
                            let (text, cut) = self.text(&name, MAX_BODY_BYTES)?;
                            item.too_large |= cut;
                            item.fields.insert(name, text);
                        }
                        "category" => {
                            let domain = attribute(&start, "domain");
                            let nicename = attribute(&start, "nicename");
                            let (text, _) = self.text(&name, 4096)?;
                            item.categories.push((domain, nicename, text));
                        }
                        "wp:postmeta" => {
                            let (key, value) = self.pair("wp:meta_key", "wp:meta_value")?;
                            item.meta.push((key, value));
                        }
                        "wp:comment" => {
                            item.comments += 1;
                            self.text(&name, 0)?;
                        }
                        _ => {
                            let (text, _) = self.text(&name, 1024 * 1024)?;
                            item.fields.insert(name, text);
                        }
                    }
                }
                Event::End(_) => return Ok(item),
                Event::Eof => return Err(cut_off()),
                _ => {}
            }
        }
    }

    /// The texts of two children (`wp:meta_key`, `wp:meta_value`) of the element just opened.
    fn pair(&mut self, first: &str, second: &str) -> XmlResult<(String, String)> {
        let (mut a, mut b) = (String::new(), String::new());
        loop {
            match self.event()? {
                Event::Start(start) => {
                    let name = name_of(&start);
                    let (text, _) = self.text(&name, 1024 * 1024)?;
                    if name == first {
                        a = text;
                    } else if name == second {
                        b = text;
                    }
                }
                Event::End(_) => return Ok((a, b)),
                Event::Eof => return Err(cut_off()),
                _ => {}
            }
        }
    }
}

fn name_of(start: &BytesStart) -> String {
    start.name().as_ref().to_owned()
}

fn attribute(start: &BytesStart, name: &str) -> String {
    start
        .attributes()
        .flatten()
        .find(|a| a.key.as_ref() == name)
        .and_then(|a| a.normalized_value(quick_xml::XmlVersion::Implicit1_0).ok().map(|v| v.into_owned()))
        .unwrap_or_default()
}

fn not_wxr() -> Unreadable {
    Unreadable::new(
        "This file is not a WordPress export: in WordPress, use Tools → Export and upload the .xml file it gives",
    )
}

fn cut_off() -> Unreadable {
    Unreadable::new(
        "This WordPress export is cut off before its end (the download may have stopped): export it again and upload the whole file",
    )
}

// --- Pass 1 ------------------------------------------------------------------------------

struct Attachment {
    url: String,
    alt: String,
    caption: String,
    parent: String,
}

#[derive(Default)]
struct Scan {
    title: Option<String>,
    blog_url: Option<Url>,
    attachments: HashMap<String, Attachment>,
    items: u64,
    comments: usize,
    other_types: HashMap<String, usize>,
}

fn scan<R: BufRead>(wxr: &mut Wxr<R>) -> Result<Scan, Unreadable> {
    let mut scan = Scan::default();
    let mut stack = Vec::new();
    let mut wxr_version = false;
    let (mut link, mut base_blog, mut base_site) = (None, None, None);
    loop {
        match wxr.next(false, &mut stack)? {
            Found::Header(name, text) => match name.as_str() {
                "title" => scan.title = Some(html::plain_text(&text)),
                "link" => link = Url::parse(text.trim()).ok(),
                "wp:base_blog_url" => base_blog = Url::parse(text.trim()).ok(),
                "wp:base_site_url" => base_site = Url::parse(text.trim()).ok(),
                "wp:wxr_version" => wxr_version = true,
                _ => {}
            },
            Found::Item(item) => {
                if !wxr_version && item.fields.contains_key("wp:post_type") {
                    wxr_version = true;
                }
                scan.comments += item.comments;
                match (item.get("wp:post_type"), item.get("wp:status")) {
                    ("attachment", _) => {
                        let alt = item
                            .meta
                            .iter()
                            .find(|(k, _)| k == "_wp_attachment_image_alt")
                            .map(|(_, v)| v.clone())
                            .unwrap_or_default();
                        scan.attachments.insert(
                            item.get("wp:post_id").to_owned(),
                            Attachment {
                                url: item.get("wp:attachment_url").trim().to_owned(),
                                alt,
                                caption: html::plain_text(item.get("excerpt:encoded")),
                                parent: item.get("wp:post_parent").to_owned(),
                            },
                        );
                    }
                    ("post" | "page", "trash") => *scan.other_types.entry("trash".into()).or_default() += 1,
                    ("post" | "page", "auto-draft" | "inherit") => {}
                    ("post" | "page", _) => scan.items += 1,
                    (other, _) => *scan.other_types.entry(other.to_owned()).or_default() += 1,
                }
            }
            Found::End => break,
        }
    }
    if !wxr_version {
        return Err(Unreadable::new(
            "This is an RSS feed, not a WordPress export: in WordPress, use Tools → Export and upload the .xml file it gives",
        ));
    }
    scan.blog_url = base_blog.or(link).or(base_site);
    Ok(scan)
}

// --- Pass 2 ------------------------------------------------------------------------------

struct ItemsOf<R> {
    wxr: Wxr<R>,
    attachments: HashMap<String, Attachment>,
    site: Option<Url>,
    stack: Vec<String>,
    done: bool,
}

impl<R: BufRead> Iterator for ItemsOf<R> {
    type Item = Result<Post, Problem>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            match self.wxr.next(true, &mut self.stack) {
                Ok(Found::Item(item)) => {
                    if let Some(post) = self.post(item) {
                        return Some(post);
                    }
                }
                Ok(Found::Header(..)) => {}
                Ok(Found::End) => self.done = true,
                Err(err) => {
                    // The first pass read the same bytes whole: only a file changed since fails.
                    self.done = true;
                    return Some(Err(Problem::File(err)));
                }
            }
        }
        None
    }
}

impl<R> ItemsOf<R> {
    /// The post an item becomes, `None` for what is not imported (attachments, menus, ...).
    fn post(&self, item: Item) -> Option<Result<Post, Problem>> {
        let kind = match item.get("wp:post_type") {
            "post" => Kind::Post,
            "page" => Kind::Page,
            _ => return None,
        };
        let status = item.get("wp:status");
        if matches!(status, "trash" | "auto-draft" | "inherit") {
            return None;
        }
        let id = item.get("wp:post_id").trim().to_owned();
        let title = html::plain_text(item.get("title"));
        if item.too_large {
            return Some(Err(Problem::item(
                id,
                title,
                format!("Its body is over {} MB: not imported", MAX_BODY_BYTES / 1024 / 1024),
            )));
        }
        let mut notes = Notes::default();
        let password = !item.get("wp:post_password").is_empty();
        let state = match status {
            _ if password => {
                notes.add("It was protected by a password in WordPress: imported as a draft");
                State::Draft
            }
            "publish" => State::Published,
            "future" => State::Scheduled,
            "private" => {
                notes.add("It was private in WordPress: imported as a draft");
                State::Draft
            }
            "pending" => {
                notes.add("It was pending review in WordPress: imported as a draft");
                State::Draft
            }
            _ => State::Draft,
        };
        let date = dates::parse(item.get("wp:post_date_gmt")).or_else(|| dates::parse(item.get("wp:post_date")));
        let published_at = match state {
            State::Draft => None,
            _ => date.or_else(|| dates::parse(item.get("pubDate"))),
        };
        let mut tags: Vec<String> = Vec::new();
        for (domain, nicename, name) in &item.categories {
            let name = html::plain_text(name);
            match domain.as_str() {
                "category" if nicename == "uncategorized" => {}
                "category" | "post_tag" => {
                    if !name.is_empty() && !tags.contains(&name) {
                        tags.push(name);
                    }
                }
                "post_format" => {}
                other => notes.add(format!("Its {other} “{name}” was not kept")),
            }
        }
        let slug = percent_decode(item.get("wp:post_name").trim());
        let mut old_paths = Vec::new();
        let link = item.get("link").trim();
        let mut add_path = |path: String| {
            if !old_paths.contains(&path) {
                old_paths.push(path);
            }
        };
        let link_path = path_under(link, self.site.as_ref());
        if let Some(path) = &link_path {
            add_path(path.clone());
        }
        if !id.is_empty() {
            add_path(format!("/?p={id}"));
            if kind == Kind::Page {
                add_path(format!("/?page_id={id}"));
            }
        }
        for (key, value) in &item.meta {
            if key == "_wp_old_slug" {
                if let Some(path) = link_path.as_deref().filter(|p| !slug.is_empty() && p.contains(&slug)) {
                    add_path(path.replacen(&slug, &percent_decode(value), 1));
                }
            }
        }
        let body = body(&item, &self.attachments, self.site.as_ref(), &mut notes);
        Some(Ok(Post {
            source_id: id,
            kind,
            title,
            slug,
            blocks: body,
            state,
            created_at: date,
            published_at,
            updated_at: dates::parse(item.get("wp:post_modified_gmt"))
                .or_else(|| dates::parse(item.get("wp:post_modified"))),
            tags,
            old_paths,
            page_position: (kind == Kind::Page).then(|| item.get("wp:menu_order").trim().parse().unwrap_or(0)),
            notes: notes.into_lines(),
        }))
    }
}

/// An item's blocks: its featured image first, then its body converted.
fn body(item: &Item, attachments: &HashMap<String, Attachment>, site: Option<&Url>, notes: &mut Notes) -> Vec<Block> {
    let content = item.get("content:encoded");
    let id = item.get("wp:post_id").trim();
    let gutenberg = content.contains("<!-- wp:");
    let mut html = shortcodes(content, id, attachments, notes);
    if gutenberg {
        dynamic_blocks(content, notes);
    } else {
        html = autop(&html);
    }
    let converted = html::to_blocks(&html, &Base::site(site));
    notes.extend(converted.notes);
    let mut blocks = converted.blocks;
    let featured = item.meta.iter().find(|(k, _)| k == "_thumbnail_id").and_then(|(_, v)| attachments.get(v.trim()));
    if let Some(image) = featured {
        let url = Base::site(site).image(&image.url);
        if let Some(url) = url {
            if !blocks.iter().any(|b| matches!(b, Block::Image { url: u, .. } if *u == url)) {
                blocks.insert(0, Block::Image { url, alt: image.alt.clone(), caption: image.caption.clone() });
            }
        }
    }
    blocks
}

/// Notes for block-editor blocks WordPress fills in when it shows the page (latest posts,
/// a reusable block): their comment holds no content to carry over.
fn dynamic_blocks(content: &str, notes: &mut Notes) {
    for (at, _) in content.match_indices("<!-- wp:") {
        let rest = &content[at + 8..];
        let Some(end) = rest.find("-->") else { continue };
        let comment = &rest[..end];
        if !comment.trim_end().ends_with('/') {
            continue;
        }
        let name: String =
            comment.chars().take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '/' | '_')).collect();
        let name = name.trim_end_matches('/');
        if !matches!(name, "more" | "nextpage" | "separator" | "spacer") {
            notes.add(format!(
                "A WordPress block ({name}) that WordPress filled in when showing the page was not imported"
            ));
        }
    }
}

// --- Shortcodes --------------------------------------------------------------------------

/// Shortcodes WordPress core and common plugins register: removed (with a note) even
/// without attributes. Any other `[name attr="..."]` or `[name]...[/name]` counts too;
/// a bare `[word]` is left as text, as WordPress leaves unknown ones.
const KNOWN_SHORTCODES: &[&str] = &[
    "playlist",
    "contact-form",
    "contact-form-7",
    "wpforms",
    "gravityform",
    "ninja_form",
    "mc4wp_form",
    "toc",
    "ez-toc",
    "sitemap",
    "archives",
    "recent-posts",
    "wp_caption",
];

/// The body with its shortcodes replaced by the HTML they stood for.
fn shortcodes(content: &str, id: &str, attachments: &HashMap<String, Attachment>, notes: &mut Notes) -> String {
    let mut out = String::with_capacity(content.len());
    let mut rest = content;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        rest = &rest[open..];
        if let Some(escaped) = rest.strip_prefix("[[") {
            // `[[name]]` is WordPress's way to write a shortcode as text.
            if let Some(end) = escaped.find("]]") {
                out.push('[');
                out.push_str(&escaped[..end]);
                out.push(']');
                rest = &escaped[end + 2..];
                continue;
            }
        }
        let Some((name, attrs, tag_len)) = shortcode_tag(rest) else {
            out.push('[');
            rest = &rest[1..];
            continue;
        };
        let closing = format!("[/{name}]");
        let after = &rest[tag_len..];
        let enclosed = after.find(&closing).filter(|_| !attrs.trim_end().ends_with('/'));
        let known = KNOWN_SHORTCODES.contains(&name.as_str())
            || matches!(
                name.as_str(),
                "caption" | "embed" | "gallery" | "audio" | "video" | "youtube" | "vimeo" | "tweet" | "spotify"
            );
        if !known && enclosed.is_none() && !attrs.contains('=') {
            out.push('[');
            rest = &rest[1..];
            continue;
        }
        let (inner, consumed) = match enclosed {
            Some(end) => (&after[..end], tag_len + end + closing.len()),
            None => ("", tag_len),
        };
        out.push_str(&shortcode(&name, &attrs, inner, id, attachments, notes));
        rest = &rest[consumed..];
    }
    out.push_str(rest);
    out
}

/// `[name attrs]` at the start of `text`: its name, attributes and length.
fn shortcode_tag(text: &str) -> Option<(String, String, usize)> {
    let body = text.strip_prefix('[')?;
    let name_len = body.bytes().take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-')).count();
    if name_len == 0 || !body.as_bytes()[0].is_ascii_alphabetic() {
        return None;
    }
    let after_name = &body[name_len..];
    if !after_name.starts_with([' ', ']', '=', '/']) {
        return None;
    }
    let close = after_name.find(']')?;
    if after_name[..close].contains(['[', '\n']) && !after_name[..close].contains('"') {
        return None;
    }
    Some((body[..name_len].to_ascii_lowercase(), after_name[..close].to_owned(), 1 + name_len + close + 1))
}

/// `key="value"` pairs of a shortcode, and its first bare value (`[youtube URL]`).
fn shortcode_attrs(attrs: &str) -> (HashMap<String, String>, String) {
    let mut map = HashMap::new();
    let mut bare = String::new();
    let mut rest = attrs.trim().trim_start_matches('=').trim_end_matches('/');
    while !rest.trim().is_empty() {
        rest = rest.trim_start();
        let key_len = rest.bytes().take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-')).count();
        let (key, after) = rest.split_at(key_len);
        if key_len > 0 && after.starts_with('=') {
            let after = &after[1..];
            let (value, remaining) = match after.chars().next() {
                Some(q @ ('"' | '\'')) => {
                    let end = after[1..].find(q).map_or(after.len(), |i| i + 1);
                    (&after[1..end], after.get(end + 1..).unwrap_or(""))
                }
                _ => after.split_once(' ').unwrap_or((after, "")),
            };
            map.insert(key.to_ascii_lowercase(), value.to_owned());
            rest = remaining;
        } else {
            let (value, remaining) = rest.split_once(' ').unwrap_or((rest, ""));
            if bare.is_empty() {
                bare = value.trim_matches(['"', '\'']).to_owned();
            }
            rest = remaining;
        }
    }
    (map, bare)
}

fn shortcode(
    name: &str,
    attrs: &str,
    inner: &str,
    id: &str,
    attachments: &HashMap<String, Attachment>,
    notes: &mut Notes,
) -> String {
    let (map, bare) = shortcode_attrs(attrs);
    let attr = |key: &str| map.get(key).cloned().unwrap_or_default();
    let escape = crate::domain::html::escape;
    match name {
        "caption" | "wp_caption" => {
            // `[caption]<a><img></a> The caption[/caption]`, or the caption as an attribute.
            let trimmed = inner.trim_start();
            let lower = trimmed.to_ascii_lowercase();
            let split = if lower.starts_with("<a") {
                lower.find("</a>").map_or(0, |i| i + 4)
            } else if lower.starts_with("<img") {
                lower.find('>').map_or(0, |i| i + 1)
            } else {
                0
            };
            let (media, text) = trimmed.split_at(split);
            let caption = if text.trim().is_empty() { attr("caption") } else { text.to_owned() };
            format!("<figure>{media}<figcaption>{caption}</figcaption></figure>")
        }
        "embed" => format!("\n\n<p>{}</p>\n\n", escape(inner.trim())),
        "youtube" | "vimeo" | "tweet" => {
            let url = if bare.is_empty() { attr("url") } else { bare.clone() };
            let url = match (name, url.bytes().all(|b| b.is_ascii_digit())) {
                ("tweet", true) => format!("https://twitter.com/i/status/{url}"),
                ("vimeo", true) => format!("https://vimeo.com/{url}"),
                _ => url,
            };
            format!("\n\n<p>{}</p>\n\n", escape(url.trim()))
        }
        "spotify" => {
            let uri = if bare.is_empty() { attr("id") } else { bare.clone() };
            match embeds::spotify_uri(&uri) {
                Some(Block::Spotify { url }) => format!("\n\n<p>{}</p>\n\n", escape(&url)),
                _ => format!("\n\n<p>{}</p>\n\n", escape(uri.trim())),
            }
        }
        "audio" | "video" => {
            let src = ["src", "mp3", "m4a", "ogg", "wav", "mp4", "m4v", "webm", "ogv", "flv"]
                .iter()
                .map(|k| attr(k))
                .find(|v| !v.is_empty())
                .unwrap_or_else(|| inner.trim().to_owned());
            format!("<{name} src=\"{}\"></{name}>", escape(&src))
        }
        "gallery" => {
            let ids: Vec<String> =
                attr("ids").split(',').map(|s| s.trim().to_owned()).filter(|s| !s.is_empty()).collect();
            let mut images: Vec<&Attachment> = ids.iter().filter_map(|id| attachments.get(id)).collect();
            if ids.is_empty() {
                let mut attached: Vec<(&String, &Attachment)> =
                    attachments.iter().filter(|(_, a)| a.parent == id).collect();
                attached.sort_by_key(|(key, _)| key.parse::<u64>().unwrap_or(0));
                images = attached.into_iter().map(|(_, a)| a).collect();
            }
            if images.len() < ids.len() {
                notes.add("A gallery names images that are not in the export: those were not imported");
            }
            images
                .iter()
                .map(|a| {
                    format!(
                        "<figure><img src=\"{}\" alt=\"{}\"><figcaption>{}</figcaption></figure>",
                        escape(&a.url),
                        escape(&a.alt),
                        escape(&a.caption)
                    )
                })
                .collect()
        }
        _ => {
            notes.add(format!("A WordPress shortcode [{name}] was removed (it needs a WordPress plugin)"));
            inner.to_owned()
        }
    }
}

// --- wpautop -----------------------------------------------------------------------------

/// Block-level tags: a chunk starting with one is not wrapped in `<p>`, and a newline next
/// to one is not a line break (WordPress's `$allblocks`).
const BLOCK_TAGS: &[&str] = &[
    "table",
    "thead",
    "tfoot",
    "caption",
    "col",
    "colgroup",
    "tbody",
    "tr",
    "td",
    "th",
    "div",
    "dl",
    "dd",
    "dt",
    "ul",
    "ol",
    "li",
    "pre",
    "form",
    "map",
    "area",
    "blockquote",
    "address",
    "math",
    "style",
    "p",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "fieldset",
    "legend",
    "section",
    "article",
    "aside",
    "hgroup",
    "header",
    "footer",
    "nav",
    "figure",
    "figcaption",
    "details",
    "menu",
    "summary",
    "iframe",
    "script",
    "noscript",
    "video",
    "audio",
    "object",
    "embed",
];

/// WordPress's paragraph rule for classic posts: blank lines split paragraphs, single
/// newlines are line breaks, except inside `pre`, `script` and `style` and next to blocks.
fn autop(content: &str) -> String {
    let content = content.replace("\r\n", "\n").replace('\r', "\n");
    let mut out = String::with_capacity(content.len() + content.len() / 8);
    let mut rest = content.as_str();
    loop {
        let lower = rest.to_ascii_lowercase();
        let protected = ["<pre", "<script", "<style"].iter().filter_map(|t| lower.find(t).map(|i| (i, *t))).min();
        let Some((start, tag)) = protected else {
            out.push_str(&paragraphs(rest));
            break;
        };
        out.push_str(&paragraphs(&rest[..start]));
        let closing = format!("</{}>", &tag[1..]);
        let end = lower[start..].find(&closing).map_or(rest.len(), |i| start + i + closing.len());
        out.push_str(&rest[start..end]);
        rest = &rest[end..];
    }
    out
}

fn paragraphs(text: &str) -> String {
    let mut out = String::new();
    let normalized: Vec<&str> = text.split('\n').map(|l| if l.trim().is_empty() { "" } else { l }).collect();
    for chunk in normalized.join("\n").split("\n\n") {
        let chunk = chunk.trim();
        if chunk.is_empty() {
            continue;
        }
        let lines: Vec<&str> = chunk.split('\n').collect();
        let mut joined = String::new();
        for (i, line) in lines.iter().enumerate() {
            joined.push_str(line);
            if let Some(next) = lines.get(i + 1) {
                let after_block = ends_with_block_tag(line);
                let before_block = starts_with_block_tag(next);
                joined.push_str(if after_block || before_block { "\n" } else { "<br>\n" });
            }
        }
        if starts_with_block_tag(chunk) {
            out.push_str(&joined);
        } else {
            out.push_str("<p>");
            out.push_str(&joined);
            out.push_str("</p>");
        }
        out.push('\n');
    }
    out
}

fn starts_with_block_tag(text: &str) -> bool {
    let text = text.trim_start();
    let Some(rest) = text.strip_prefix('<') else { return false };
    if rest.starts_with("!--") {
        return true;
    }
    let rest = rest.trim_start_matches('/');
    let name: String = rest.chars().take_while(char::is_ascii_alphanumeric).collect::<String>().to_ascii_lowercase();
    BLOCK_TAGS.contains(&name.as_str())
}

fn ends_with_block_tag(text: &str) -> bool {
    let text = text.trim_end();
    if !text.ends_with('>') {
        return false;
    }
    if text.ends_with("-->") {
        return true;
    }
    text.rfind('<').is_some_and(|at| starts_with_block_tag(&text[at..]))
}

/// `%e6%97%a5` → `日` (WordPress stores non-ASCII slugs percent-encoded).
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(high), Some(low)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((high * 16 + low) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

#[cfg(test)]
mod tests;
