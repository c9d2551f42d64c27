//! A Ghost body to blocks: lexical nodes (Ghost 5 and 6) and mobiledoc sections (Ghost 1–4)
//! are written as HTML and converted in one go, and their cards become blocks between (image,
//! gallery, embed, bookmark, code, html, markdown, callout, toggle, button, header, video,
//! audio, file, product); cards that only make sense on Ghost are noted.

use serde_json::Value;

use crate::domain::content::blocks::Block;
use crate::domain::content::html::escape;
use crate::portable::convert::builder::Builder;
use crate::portable::convert::{Base, Converted, embeds, html, markdown};

/// A body being built from lexical nodes or mobiledoc sections: HTML gathered and converted
/// in one go, cards' blocks placed between.
pub(super) struct Body<'a> {
    pub(super) base: &'a Base<'a>,
    pub(super) html: String,
    pub(super) out: Builder,
}

impl<'a> Body<'a> {
    pub(super) fn new(base: &'a Base<'a>) -> Body<'a> {
        Body { base, html: String::new(), out: Builder::default() }
    }

    pub(super) fn flush_html(&mut self) {
        if !self.html.trim().is_empty() {
            let converted = html::to_blocks(&std::mem::take(&mut self.html), self.base);
            self.add(converted);
        }
        self.html.clear();
    }

    pub(super) fn add(&mut self, converted: Converted) {
        self.out.notes.extend(converted.notes);
        for block in converted.blocks {
            match block {
                Block::Paragraph { text } => self.out.add_flow(&text),
                other => self.out.push(other),
            }
        }
    }

    pub(super) fn block(&mut self, block: Block) {
        self.flush_html();
        self.out.push(block);
    }

    pub(super) fn finish(mut self) -> Converted {
        self.flush_html();
        self.out.finish()
    }

    // --- Lexical -------------------------------------------------------------------------

    pub(super) fn lexical(&mut self, node: &Value, depth: usize) {
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

    pub(super) fn mobiledoc(&mut self, doc: &Value) {
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
    pub(super) fn markers(&mut self, markers: Option<&Value>, markups: &[Value], atoms: &[Value]) {
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

    pub(super) fn card(&mut self, name: &str, card: &Value) {
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

    pub(super) fn image(&mut self, card: &Value) {
        let text = |key: &str| card.get(key).and_then(Value::as_str).unwrap_or("").to_owned();
        self.html.push_str(&format!(
            "<figure><img src=\"{}\" alt=\"{}\"><figcaption>{}</figcaption></figure>",
            escape(&text("src")),
            escape(&text("alt")),
            text("caption")
        ));
    }
}
