//! Markdown to blocks (for Hugo, Jekyll, Zola and Obsidian files, WriteFreely and Bear Blog
//! bodies, Ghost's Markdown cards). Parsed with pulldown-cmark, as Quire's renderer parses
//! paragraphs, and cut at its top-level blocks:
//!
//! - top-level headings become heading blocks (their plain text);
//! - images become image blocks, lifted out of the text they stood in;
//! - a paragraph holding only a player's URL becomes that player's block;
//! - raw HTML blocks go through [`super::html`];
//! - everything else keeps the author's own Markdown (the source text itself, not a
//!   re-rendering), with relative and reference links rewritten as absolute inline links,
//!   since each paragraph block is rendered on its own.

use std::ops::Range;

use pulldown_cmark::{Event, LinkType, Options, Parser, Tag, TagEnd};

use super::builder::Builder;
use super::{Base, Converted, embeds, html};
use crate::domain::content::blocks::Block;

/// The blocks of a Markdown body. Relative addresses resolve with `base`.
pub fn to_blocks(source: &str, base: &Base) -> Converted {
    let mut out = Builder::default();
    let mut frames: Vec<Frame> = Vec::new();
    let mut heading = String::new();
    let mut html_block = String::new();
    let mut tags_removed = false;
    for (event, range) in Parser::new_ext(source, Options::empty()).into_offset_iter() {
        let depth = frames.len();
        match event {
            Event::Start(tag) => {
                if let Some(parent) = frames.last_mut() {
                    parent.touch(&range);
                }
                let kind = match tag {
                    Tag::Heading { .. } if depth == 0 => Kind::Heading,
                    Tag::HtmlBlock if depth == 0 => Kind::Html,
                    Tag::Link { link_type, dest_url, .. } => Kind::Link { link_type, dest: dest_url.to_string() },
                    Tag::Image { dest_url, title, .. } => {
                        Kind::Image { dest: dest_url.to_string(), title: title.to_string() }
                    }
                    _ if depth == 0 => Kind::Flow,
                    _ => Kind::Other,
                };
                frames.push(Frame { range, kind, rewrites: Vec::new(), inner: None, alt: String::new() });
            }
            Event::End(end) => {
                let Some(frame) = frames.pop() else { continue };
                let parent = frames.last_mut();
                match (frame.kind, parent) {
                    (Kind::Other, Some(parent)) => {
                        parent.rewrites.extend(frame.rewrites);
                        parent.touch(&frame.range);
                    }
                    (Kind::Image { dest, title }, parent) => {
                        // `![](https://youtu.be/...)` embeds a player in Obsidian: its block, not an image.
                        if let Some((block, note)) = embeds::lone_url(&dest) {
                            out.lifted.push(block);
                            if let Some(note) = note {
                                out.notes.add(note);
                            }
                        } else {
                            match base.image(&dest) {
                                Some(url) => out.lifted.push(Block::Image {
                                    url,
                                    alt: frame.alt.trim().to_owned(),
                                    caption: title,
                                }),
                                None => out.notes.add(format!("An image at {dest} could not be located")),
                            }
                        }
                        if let Some(parent) = parent {
                            parent.rewrites.push((frame.range.clone(), String::new()));
                            parent.touch(&frame.range);
                        }
                    }
                    (Kind::Link { link_type, dest }, Some(parent)) => {
                        let inner =
                            frame.inner.clone().map(|inner| apply(source, inner, &frame.rewrites)).unwrap_or_default();
                        let replacement = link(&inner, link_type, &dest, base, &mut out);
                        parent.rewrites.push((frame.range.clone(), replacement));
                        parent.touch(&frame.range);
                    }
                    (Kind::Heading, _) => {
                        let text = heading.split_whitespace().collect::<Vec<_>>().join(" ");
                        heading.clear();
                        if !text.is_empty() {
                            out.push(Block::Heading { text });
                        }
                        out.flush_lifted();
                    }
                    (Kind::Html, _) => {
                        let converted = html::to_blocks(&html_block, base);
                        html_block.clear();
                        out.flush_lifted();
                        out.flush_para();
                        out.notes.extend(converted.notes);
                        for block in converted.blocks {
                            match block {
                                Block::Paragraph { text } => out.add_flow(&text),
                                other => out.push(other),
                            }
                        }
                        out.flush_para();
                    }
                    (Kind::Flow, _) => {
                        let text = apply(source, frame.range.clone(), &frame.rewrites);
                        if matches!(end, TagEnd::Paragraph) && caption_of_image(&text, &mut out.lifted) {
                            out.flush_lifted();
                            continue;
                        }
                        let lone = matches!(end, TagEnd::Paragraph).then(|| lone_url(text.trim())).flatten();
                        match lone.and_then(|url| embeds::lone_url(&url)) {
                            Some((block, note)) => {
                                out.notes.extend(note.into_iter().collect());
                                out.push(block);
                            }
                            None => out.add_flow(text.trim_end()),
                        }
                        out.flush_lifted();
                    }
                    (Kind::Link { .. } | Kind::Other, None) => {}
                }
            }
            Event::Text(text) | Event::Code(text) => {
                if let Some(frame) = frames.last_mut() {
                    frame.touch(&range);
                    if let Kind::Image { .. } = frame.kind {
                        frame.alt.push_str(&text);
                    }
                }
                if frames.first().is_some_and(|f| matches!(f.kind, Kind::Heading)) {
                    heading.push_str(&text);
                }
            }
            Event::Html(raw) if frames.first().is_some_and(|f| matches!(f.kind, Kind::Html)) => {
                html_block.push_str(&raw)
            }
            Event::Html(raw) | Event::InlineHtml(raw) => {
                let Some(frame) = frames.last_mut() else { continue };
                frame.touch(&range);
                let lower = raw.trim_start().to_ascii_lowercase();
                let replacement = if lower.starts_with("<br") {
                    "\n".to_owned()
                } else if lower.starts_with("<!--") {
                    String::new()
                } else {
                    tags_removed = true;
                    let mut text = String::new();
                    html::push_escaped(&mut text, &html::plain_text(&raw));
                    text
                };
                frame.rewrites.push((range, replacement));
            }
            Event::SoftBreak | Event::HardBreak | Event::Rule | Event::TaskListMarker(_) => {
                if let Some(frame) = frames.last_mut() {
                    frame.touch(&range);
                }
                if frames.first().is_some_and(|f| matches!(f.kind, Kind::Heading)) {
                    heading.push(' ');
                }
                if frames.is_empty() {
                    out.add_flow(source[range].trim_end());
                }
            }
            Event::FootnoteReference(_) | Event::InlineMath(_) | Event::DisplayMath(_) => {
                if let Some(frame) = frames.last_mut() {
                    frame.touch(&range);
                }
            }
        }
    }
    if tags_removed {
        out.notes.add("HTML tags inside text were removed (their text was kept)");
    }
    out.finish()
}

/// Whether `text`, what is left of a paragraph once its one image was cut out, is an
/// emphasised line under it (`![A kite](kite.jpg)` then `*Over the hill*`, the caption as
/// Jekyll, Obsidian and WriteFreely posts write it); if so it becomes the image's caption.
fn caption_of_image(text: &str, lifted: &mut [Block]) -> bool {
    let line = text.trim();
    let emphasised = (line.starts_with('*') && line.ends_with('*') && !line.starts_with("**"))
        || (line.starts_with('_') && line.ends_with('_') && !line.starts_with("__"));
    match lifted {
        [Block::Image { caption, .. }]
            if caption.is_empty() && emphasised && line.len() > 2 && !line.contains('\n') =>
        {
            *caption = crate::domain::content::markdown::plain_text(line);
            true
        }
        _ => false,
    }
}

/// An element being read: a top-level block, a link or image inside one, or another
/// element whose rewrites go to its parent.
struct Frame {
    range: Range<usize>,
    kind: Kind,
    /// Parts of the source written differently (links made absolute, images cut out).
    rewrites: Vec<(Range<usize>, String)>,
    /// The source of its content (a link's text), from its first to its last event.
    inner: Option<Range<usize>>,
    /// An image's description (its text).
    alt: String,
}

impl Frame {
    fn touch(&mut self, range: &Range<usize>) {
        self.inner = Some(match &self.inner {
            Some(inner) => inner.start.min(range.start)..inner.end.max(range.end),
            None => range.clone(),
        });
    }
}

enum Kind {
    Heading,
    Html,
    Flow,
    Link { link_type: LinkType, dest: String },
    Image { dest: String, title: String },
    Other,
}

/// `source[range]` with the rewrites that fall inside it applied.
fn apply(source: &str, range: Range<usize>, rewrites: &[(Range<usize>, String)]) -> String {
    let mut rewrites: Vec<&(Range<usize>, String)> =
        rewrites.iter().filter(|(r, _)| r.start >= range.start && r.end <= range.end).collect();
    rewrites.sort_by_key(|(r, _)| r.start);
    let mut out = String::with_capacity(range.len());
    let mut at = range.start;
    for (r, replacement) in rewrites {
        if r.start < at {
            continue; // inside a rewrite already applied
        }
        out.push_str(&source[at..r.start]);
        out.push_str(replacement);
        at = r.end;
    }
    out.push_str(&source[at..range.end]);
    out
}

/// A link written as an inline link to an absolute address, or as its text when it can't be.
fn link(inner: &str, link_type: LinkType, dest: &str, base: &Base, out: &mut Builder) -> String {
    let text = inner.trim();
    if matches!(link_type, LinkType::Autolink | LinkType::Email) {
        let url = if link_type == LinkType::Email { format!("mailto:{dest}") } else { dest.to_owned() };
        return match base.link(&url) {
            Some(_) => format!("<{dest}>"),
            None => text.to_owned(),
        };
    }
    if text.is_empty() {
        return String::new();
    }
    match base.link(dest) {
        Some(url) => {
            let url = if url.contains(['(', ')', ' ', '<', '>']) {
                format!("<{}>", url.replace(['<', '>'], ""))
            } else {
                url
            };
            format!("[{text}]({url})")
        }
        None => {
            let lower = dest.trim().to_ascii_lowercase();
            if !dest.trim().is_empty() && !dest.starts_with('#') && !lower.starts_with("javascript:") {
                out.unlinked.push(dest.to_owned());
            }
            text.to_owned()
        }
    }
}

/// The URL a paragraph holds and nothing else (`https://...` or `<https://...>`).
fn lone_url(text: &str) -> Option<String> {
    let text = text.strip_prefix('<').and_then(|t| t.strip_suffix('>')).unwrap_or(text);
    let lower = text.to_ascii_lowercase();
    (!text.contains(char::is_whitespace) && (lower.starts_with("https://") || lower.starts_with("http://")))
        .then(|| text.to_owned())
}

#[cfg(test)]
mod tests;
