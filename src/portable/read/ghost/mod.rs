//! Ghost's JSON export (Settings → Labs → Export; `{"db": [{"meta", "data"}]}` or a bare
//! `{"meta", "data"}`), parsed whole under [`MAX_JSON_BYTES`]. Bodies are read from
//! `lexical` (Ghost 5 and 6), else `mobiledoc` (Ghost 1–4), else `html` or `markdown`
//! (Ghost 0.x): their text nodes and sections are written as HTML and converted by
//! [`crate::portable::convert::html`], their cards become blocks (image, gallery, embed, bookmark, code, html,
//! markdown, callout, toggle, button, header, video, audio, file, product); cards that only
//! make sense on Ghost (signup forms, email-only content, the paywall) are noted.
//!
//! `published` → published, `scheduled` → scheduled, `draft` → draft; a post sent by email
//! only (`sent`) and one not for everyone (`visibility` other than `public`) → draft, with a
//! note. Tags keep Ghost's order; internal `#tags` are noted, not kept. `__GHOST_URL__` in
//! addresses is the old site's address given by the person importing ([`Options::site_url`]).

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;
use url::Url;

use super::dates;
use crate::domain::blocks::Block;
use crate::domain::html::escape;
use crate::portable::convert::builder::Builder;
use crate::portable::convert::notes::{Notes, count};
use crate::portable::convert::{Base, Converted, embeds, html, markdown};
use crate::portable::model::{Format, Kind, Post, Read, Settings, State};
use crate::portable::{Export, Options, Problem, Unreadable};

/// Largest Ghost export read.
pub const MAX_JSON_BYTES: u64 = 512 * 1024 * 1024;
/// Ghost's placeholder for the site's own address.
const GHOST_URL: &str = "__GHOST_URL__";

#[derive(Deserialize)]
struct File {
    db: Option<Vec<Db>>,
    meta: Option<Value>,
    data: Option<Data>,
}

#[derive(Deserialize)]
struct Db {
    data: Data,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Data {
    posts: Vec<GhostPost>,
    tags: Vec<Tag>,
    posts_tags: Vec<PostTag>,
    posts_meta: Vec<PostMeta>,
    settings: Vec<Setting>,
    members: Option<Vec<serde::de::IgnoredAny>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct GhostPost {
    id: Value,
    title: Option<String>,
    slug: Option<String>,
    lexical: Option<String>,
    mobiledoc: Option<String>,
    html: Option<String>,
    markdown: Option<String>,
    feature_image: Option<String>,
    #[serde(rename = "type")]
    kind: Option<String>,
    page: Value,
    status: Option<String>,
    visibility: Option<String>,
    created_at: Value,
    updated_at: Value,
    published_at: Value,
    codeinjection_head: Option<String>,
    codeinjection_foot: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Tag {
    id: Value,
    name: String,
    visibility: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct PostTag {
    post_id: Value,
    tag_id: Value,
    sort_order: Option<i64>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct PostMeta {
    post_id: Value,
    feature_image_alt: Option<String>,
    feature_image_caption: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Setting {
    key: String,
    value: Value,
}

/// Reads a Ghost export. Refuses JSON that is not one.
pub fn read(input: impl std::io::Read, options: &Options) -> Result<Export, Unreadable> {
    let bytes = super::read_capped(input, MAX_JSON_BYTES, "This Ghost export")?;
    let file: File = super::json_of(&bytes, "This Ghost export")?;
    let uses_placeholder = options.site_url.is_none() && memchr_find(&bytes, GHOST_URL.as_bytes());
    drop(bytes);
    let data = match file {
        File { db: Some(mut dbs), .. } if !dbs.is_empty() => dbs.swap_remove(0).data,
        File { meta: Some(_), data: Some(data), .. } => data,
        _ => return Err(not_ghost()),
    };
    let mut notes = Notes::default();
    if let Some(members) = &data.members {
        if !members.is_empty() {
            notes.add(format!("{} not imported", count(members.len(), "member (subscriber)", "members (subscribers)")));
        }
    }
    if uses_placeholder {
        notes.add(
            "Ghost names its images and links relative to its site: give the old site's address to import its images",
        );
    }
    let setting =
        |key: &str| data.settings.iter().find(|s| s.key == key).and_then(|s| s.value.as_str()).map(str::to_owned);
    let tags: HashMap<String, &Tag> = data.tags.iter().map(|t| (id(&t.id), t)).collect();
    let mut post_tags: HashMap<String, Vec<(i64, String, bool)>> = HashMap::new();
    for link in &data.posts_tags {
        if let Some(tag) = tags.get(&id(&link.tag_id)) {
            let internal = tag.visibility.as_deref() == Some("internal") || tag.name.starts_with('#');
            post_tags.entry(id(&link.post_id)).or_default().push((
                link.sort_order.unwrap_or(0),
                tag.name.clone(),
                internal,
            ));
        }
    }
    for list in post_tags.values_mut() {
        list.sort_by_key(|(order, _, _)| *order);
    }
    let meta: HashMap<String, (String, String)> = data
        .posts_meta
        .into_iter()
        .map(|m| {
            (id(&m.post_id), (m.feature_image_alt.unwrap_or_default(), m.feature_image_caption.unwrap_or_default()))
        })
        .collect();
    let read = Read {
        format: Format::Ghost,
        settings: Settings {
            name: setting("title"),
            time_zone: setting("timezone"),
            site_url: options.site_url.as_ref().map(|u| u.as_str().trim_end_matches('/').to_owned()),
            ..Settings::default()
        },
        expected_items: Some(data.posts.len() as u64),
        notes: notes.into_lines(),
    };
    let site = options.site_url.clone();
    let items = data.posts.into_iter().map(move |post| convert(post, &post_tags, &meta, site.as_ref()));
    Ok(Export { read, items: Box::new(items) })
}

fn not_ghost() -> Unreadable {
    Unreadable::new("This JSON file is not a Ghost export: in Ghost, use Settings → Labs → Export your content")
}

fn memchr_find(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// Ghost's ids: strings (ObjectIds) since 1.0, numbers before.
fn id(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn date(value: &Value) -> Option<time::OffsetDateTime> {
    match value {
        Value::String(s) => dates::parse(s),
        Value::Number(n) => n.as_i64().and_then(dates::from_millis),
        _ => None,
    }
}

fn convert(
    post: GhostPost,
    tags: &HashMap<String, Vec<(i64, String, bool)>>,
    meta: &HashMap<String, (String, String)>,
    site: Option<&Url>,
) -> Result<Post, Problem> {
    let source_id = id(&post.id);
    let title = post.title.clone().unwrap_or_default();
    let mut notes = Notes::default();
    let fill = |text: &str| text.replace(GHOST_URL, site.map_or("", |s| s.as_str().trim_end_matches('/')));
    let base = Base::site(site);
    let mut out = Builder::default();
    let body = if let Some(lexical) = post.lexical.as_deref().filter(|s| !s.trim().is_empty()) {
        let doc: Value = serde_json::from_str(&fill(lexical))
            .map_err(|_| Problem::item(&source_id, &title, "Its body (lexical) is not valid JSON: not imported"))?;
        let mut body = Body::new(&base);
        body.lexical(doc.get("root").unwrap_or(&Value::Null), 0);
        body.finish()
    } else if let Some(mobiledoc) = post.mobiledoc.as_deref().filter(|s| !s.trim().is_empty()) {
        let doc: Value = serde_json::from_str(&fill(mobiledoc))
            .map_err(|_| Problem::item(&source_id, &title, "Its body (mobiledoc) is not valid JSON: not imported"))?;
        let mut body = Body::new(&base);
        body.mobiledoc(&doc);
        body.finish()
    } else if let Some(html) = post.html.as_deref().filter(|s| !s.trim().is_empty()) {
        html::to_blocks(&fill(html), &base)
    } else {
        markdown::to_blocks(&fill(post.markdown.as_deref().unwrap_or("")), &base)
    };
    if let Some(src) = post.feature_image.as_deref().filter(|s| !s.is_empty()) {
        let (alt, caption) = meta.get(&source_id).cloned().unwrap_or_default();
        match base.image(&fill(src)) {
            Some(url) => out.push(Block::Image { url, alt, caption: html::plain_text(&caption) }),
            None => notes.add(format!("Its feature image ({src}) could not be located")),
        }
    }
    for block in body.blocks {
        match block {
            Block::Paragraph { text } => out.add_flow(&text),
            other => out.push(other),
        }
    }
    notes.extend(body.notes);
    if post.codeinjection_head.as_deref().is_some_and(|c| !c.trim().is_empty())
        || post.codeinjection_foot.as_deref().is_some_and(|c| !c.trim().is_empty())
    {
        notes.add("Its code injection was not imported: Quire posts run no scripts");
    }
    let visibility = post.visibility.as_deref().unwrap_or("public");
    let status = post.status.as_deref().unwrap_or("draft");
    let state = match status {
        _ if visibility != "public" => {
            notes.add(format!("It was for {visibility} only in Ghost: imported as a draft"));
            State::Draft
        }
        "published" => State::Published,
        "scheduled" => State::Scheduled,
        "sent" => {
            notes.add("It was sent by email only: imported as a draft");
            State::Draft
        }
        _ => State::Draft,
    };
    let mut tag_names = Vec::new();
    for (_, name, internal) in tags.get(&source_id).into_iter().flatten() {
        if *internal {
            notes.add(format!("Its internal tag {name} was not kept"));
        } else if !tag_names.contains(name) {
            tag_names.push(name.clone());
        }
    }
    let page = post.kind.as_deref() == Some("page") || post.page == Value::Bool(true) || post.page == Value::from(1);
    let slug = post.slug.clone().unwrap_or_default();
    let converted = out.finish();
    notes.extend(converted.notes);
    Ok(Post {
        source_id,
        kind: if page { Kind::Page } else { Kind::Post },
        title,
        old_paths: if slug.is_empty() { Vec::new() } else { vec![format!("/{slug}/")] },
        slug,
        blocks: converted.blocks,
        state,
        created_at: date(&post.created_at),
        published_at: if state == State::Draft { None } else { date(&post.published_at) },
        updated_at: date(&post.updated_at),
        tags: tag_names,
        page_position: None,
        notes: notes.into_lines(),
    })
}

/// A body being built from lexical nodes or mobiledoc sections: HTML gathered and converted
/// in one go, cards' blocks placed between.
struct Body<'a> {
    base: &'a Base<'a>,
    html: String,
    out: Builder,
}

impl<'a> Body<'a> {
    fn new(base: &'a Base<'a>) -> Body<'a> {
        Body { base, html: String::new(), out: Builder::default() }
    }

    fn flush_html(&mut self) {
        if !self.html.trim().is_empty() {
            let converted = html::to_blocks(&std::mem::take(&mut self.html), self.base);
            self.add(converted);
        }
        self.html.clear();
    }

    fn add(&mut self, converted: Converted) {
        self.out.notes.extend(converted.notes);
        for block in converted.blocks {
            match block {
                Block::Paragraph { text } => self.out.add_flow(&text),
                other => self.out.push(other),
            }
        }
    }

    fn block(&mut self, block: Block) {
        self.flush_html();
        self.out.push(block);
    }

    fn finish(mut self) -> Converted {
        self.flush_html();
        self.out.finish()
    }

    // --- Lexical -------------------------------------------------------------------------

    fn lexical(&mut self, node: &Value, depth: usize) {
        if depth > html::MAX_DEPTH {
            return;
        }
        let kind = node.get("type").and_then(Value::as_str).unwrap_or("");
        let children = || node.get("children").and_then(Value::as_array).into_iter().flatten();
        let wrap = |this: &mut Self, open: &str, close: &str| {
            this.html.push_str(open);
            for child in children() {
                this.lexical(child, depth + 1);
            }
            this.html.push_str(close);
        };
        match kind {
            "root" => wrap(self, "", ""),
            "paragraph" => wrap(self, "<p>", "</p>"),
            "heading" | "extended-heading" => {
                let tag = node
                    .get("tag")
                    .and_then(Value::as_str)
                    .filter(|t| matches!(*t, "h1" | "h2" | "h3" | "h4" | "h5" | "h6"))
                    .unwrap_or("h2");
                wrap(self, &format!("<{tag}>"), &format!("</{tag}>"));
            }
            "quote" | "extended-quote" | "aside" => wrap(self, "<blockquote>", "</blockquote>"),
            "list" => {
                let ordered = node.get("listType").and_then(Value::as_str) == Some("number");
                let start = node.get("start").and_then(Value::as_i64).unwrap_or(1);
                if ordered {
                    wrap(self, &format!("<ol start=\"{start}\">"), "</ol>")
                } else {
                    wrap(self, "<ul>", "</ul>")
                }
            }
            "listitem" => wrap(self, "<li>", "</li>"),
            "text" | "extended-text" => {
                let text = escape(node.get("text").and_then(Value::as_str).unwrap_or(""));
                let format = node.get("format").and_then(Value::as_u64).unwrap_or(0);
                let tags: Vec<&str> = [
                    (1, "strong"),
                    (2, "em"),
                    (4, "s"),
                    (8, "u"),
                    (16, "code"),
                    (32, "sub"),
                    (64, "sup"),
                    (128, "mark"),
                ]
                .iter()
                .filter(|(bit, _)| format & bit != 0)
                .map(|(_, tag)| *tag)
                .collect();
                for tag in &tags {
                    self.html.push_str(&format!("<{tag}>"));
                }
                self.html.push_str(&text);
                for tag in tags.iter().rev() {
                    self.html.push_str(&format!("</{tag}>"));
                }
            }
            "link" | "autolink" => {
                let url = escape(node.get("url").and_then(Value::as_str).unwrap_or(""));
                wrap(self, &format!("<a href=\"{url}\">"), "</a>");
            }
            "linebreak" => self.html.push_str("<br>"),
            "tab" => self.html.push(' '),
            "horizontalrule" => self.html.push_str("<hr>"),
            "hashtag" | "mention" => wrap(self, "", ""),
            _ => self.card(kind, node),
        }
    }

    // --- Mobiledoc -----------------------------------------------------------------------

    fn mobiledoc(&mut self, doc: &Value) {
        let list = |key: &str| doc.get(key).and_then(Value::as_array).cloned().unwrap_or_default();
        let (markups, atoms, cards) = (list("markups"), list("atoms"), list("cards"));
        for section in list("sections") {
            let Some(parts) = section.as_array() else { continue };
            match parts.first().and_then(Value::as_u64) {
                Some(1) => {
                    let tag = parts.get(1).and_then(Value::as_str).unwrap_or("p").to_ascii_lowercase();
                    let tag = if matches!(
                        tag.as_str(),
                        "p" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "blockquote" | "aside" | "pull-quote"
                    ) {
                        tag
                    } else {
                        "p".to_owned()
                    };
                    let tag = if tag == "aside" || tag == "pull-quote" { "blockquote".to_owned() } else { tag };
                    self.html.push_str(&format!("<{tag}>"));
                    self.markers(parts.get(2), &markups, &atoms);
                    self.html.push_str(&format!("</{tag}>"));
                }
                Some(2) => {
                    let src = escape(parts.get(1).and_then(Value::as_str).unwrap_or(""));
                    self.html.push_str(&format!("<img src=\"{src}\">"));
                }
                Some(3) => {
                    let tag = if parts.get(1).and_then(Value::as_str) == Some("ol") { "ol" } else { "ul" };
                    self.html.push_str(&format!("<{tag}>"));
                    for item in parts.get(2).and_then(Value::as_array).into_iter().flatten() {
                        self.html.push_str("<li>");
                        self.markers(Some(item), &markups, &atoms);
                        self.html.push_str("</li>");
                    }
                    self.html.push_str(&format!("</{tag}>"));
                }
                Some(10) => {
                    let card = parts.get(1).and_then(Value::as_u64).and_then(|i| cards.get(i as usize));
                    if let Some(card) = card.and_then(Value::as_array) {
                        let name = card.first().and_then(Value::as_str).unwrap_or("");
                        let payload = card.get(1).cloned().unwrap_or(Value::Null);
                        self.card(name.trim_start_matches("card-"), &payload);
                    }
                }
                _ => {}
            }
        }
    }

    /// Mobiledoc markers: `[type, opened markups, closed count, value]`.
    fn markers(&mut self, markers: Option<&Value>, markups: &[Value], atoms: &[Value]) {
        let mut open: Vec<String> = Vec::new();
        for marker in markers.and_then(Value::as_array).into_iter().flatten() {
            let Some(marker) = marker.as_array() else { continue };
            for index in marker.get(1).and_then(Value::as_array).into_iter().flatten() {
                let markup = index.as_u64().and_then(|i| markups.get(i as usize)).and_then(Value::as_array);
                let tag = markup.and_then(|m| m.first()).and_then(Value::as_str).unwrap_or("span").to_ascii_lowercase();
                let tag: String = tag.chars().filter(char::is_ascii_alphanumeric).collect();
                let attrs = markup.and_then(|m| m.get(1)).and_then(Value::as_array).cloned().unwrap_or_default();
                let href = attrs
                    .chunks(2)
                    .find(|pair| pair.first().and_then(Value::as_str) == Some("href"))
                    .and_then(|pair| pair.get(1))
                    .and_then(Value::as_str);
                match href {
                    Some(href) if tag == "a" => self.html.push_str(&format!("<a href=\"{}\">", escape(href))),
                    _ => self.html.push_str(&format!("<{tag}>")),
                }
                open.push(tag);
            }
            let value = marker.get(3);
            match marker.first().and_then(Value::as_u64) {
                Some(1) => {
                    let atom =
                        value.and_then(Value::as_u64).and_then(|i| atoms.get(i as usize)).and_then(Value::as_array);
                    match atom.and_then(|a| a.first()).and_then(Value::as_str) {
                        Some("soft-return") => self.html.push_str("<br>"),
                        _ => self
                            .html
                            .push_str(&escape(atom.and_then(|a| a.get(1)).and_then(Value::as_str).unwrap_or(""))),
                    }
                }
                _ => self.html.push_str(&escape(value.and_then(Value::as_str).unwrap_or(""))),
            }
            let closed = marker.get(2).and_then(Value::as_u64).unwrap_or(0);
            for _ in 0..closed {
                if let Some(tag) = open.pop() {
                    self.html.push_str(&format!("</{tag}>"));
                }
            }
        }
        while let Some(tag) = open.pop() {
            self.html.push_str(&format!("</{tag}>"));
        }
    }

    // --- Cards, from either format -------------------------------------------------------

    fn card(&mut self, name: &str, card: &Value) {
        let text = |key: &str| card.get(key).and_then(Value::as_str).unwrap_or("").to_owned();
        match name {
            "image" => self.image(card),
            "gallery" => {
                for image in card.get("images").and_then(Value::as_array).into_iter().flatten() {
                    self.image(image);
                }
                if !text("caption").is_empty() {
                    self.html.push_str(&format!("<p>{}</p>", text("caption")));
                }
            }
            "embed" => {
                let url = text("url");
                let title = card.get("metadata").and_then(|m| m.get("title")).and_then(Value::as_str).unwrap_or("");
                match embeds::from_frame(&url, title) {
                    Some((block, note)) => {
                        if let Some(note) = note {
                            self.out.notes.add(note);
                        }
                        self.block(block);
                    }
                    None => {
                        let html = text("html");
                        self.html.push_str(&html);
                    }
                }
                if !text("caption").is_empty() {
                    self.html.push_str(&format!("<p>{}</p>", text("caption")));
                }
            }
            "bookmark" => {
                let url = text("url");
                let title = card
                    .get("metadata")
                    .and_then(|m| m.get("title"))
                    .and_then(Value::as_str)
                    .unwrap_or(&url)
                    .to_owned();
                match self.base.link(&url).filter(|u| u.starts_with("http")) {
                    Some(url) => self.block(Block::Link { url, title }),
                    None => self.out.notes.add(format!("A bookmark card to {url} could not be kept")),
                }
            }
            "code" | "codeblock" => {
                let language = escape(&text("language"));
                self.html.push_str(&format!(
                    "<pre><code class=\"language-{language}\">{}</code></pre>",
                    escape(&text("code"))
                ));
                if !text("caption").is_empty() {
                    self.html.push_str(&format!("<p>{}</p>", text("caption")));
                }
            }
            "html" => self.html.push_str(&text("html")),
            "markdown" => {
                self.flush_html();
                let converted = markdown::to_blocks(&text("markdown"), self.base);
                self.add(converted);
            }
            "callout" => self.html.push_str(&format!(
                "<blockquote><p>{} {}</p></blockquote>",
                escape(&text("calloutEmoji")),
                text("calloutText")
            )),
            "toggle" => self.html.push_str(&format!("<p><strong>{}</strong></p>{}", text("heading"), text("content"))),
            "button" => self.html.push_str(&format!(
                "<p><a href=\"{}\">{}</a></p>",
                escape(&text("buttonUrl")),
                escape(&text("buttonText"))
            )),
            "header" => {
                self.html.push_str(&format!("<h2>{}</h2><p>{}</p>", text("header"), text("subheader")));
                if !text("buttonUrl").is_empty() {
                    self.html.push_str(&format!(
                        "<p><a href=\"{}\">{}</a></p>",
                        escape(&text("buttonUrl")),
                        escape(&text("buttonText"))
                    ));
                }
            }
            "product" => {
                let image = text("productImageSrc");
                if !image.is_empty() {
                    self.html.push_str(&format!("<img src=\"{}\">", escape(&image)));
                }
                self.html.push_str(&format!("<h3>{}</h3>{}", text("productTitle"), text("productDescription")));
                if !text("productUrl").is_empty() {
                    self.html.push_str(&format!(
                        "<p><a href=\"{}\">{}</a></p>",
                        escape(&text("productUrl")),
                        escape(&text("productButton"))
                    ));
                }
            }
            "video" | "audio" | "file" => {
                let src = text("src");
                let title = [text("title"), text("fileTitle"), text("fileName")]
                    .into_iter()
                    .find(|t| !t.is_empty())
                    .unwrap_or_else(|| src.clone());
                match self.base.link(&src).filter(|u| u.starts_with("http")) {
                    Some(url) => {
                        self.out.notes.add(format!("A {name} card was kept as a link to its file"));
                        self.block(Block::Link { url, title });
                    }
                    None => self.out.notes.add(format!("A {name} card whose file could not be located was removed")),
                }
            }
            "hr" => self.html.push_str("<hr>"),
            "paywall" => self
                .out
                .notes
                .add("Its members-only marker (the paywall) was removed: all of it is public once published"),
            "" => {}
            other => self.out.notes.add(format!("A Ghost {other} card was not imported")),
        }
    }

    fn image(&mut self, card: &Value) {
        let text = |key: &str| card.get(key).and_then(Value::as_str).unwrap_or("").to_owned();
        self.html.push_str(&format!(
            "<figure><img src=\"{}\" alt=\"{}\"><figcaption>{}</figcaption></figure>",
            escape(&text("src")),
            escape(&text("alt")),
            text("caption")
        ));
    }
}

#[cfg(test)]
mod tests;
