//! HTML to blocks. The HTML is parsed by html5ever (the WHATWG algorithm browsers use, so
//! broken markup is repaired the way a browser showed it), then walked once:
//!
//! - `h1`–`h6` become heading blocks (plain text);
//! - paragraphs, lists (nested), quotes, code, rules and tables become paragraph Markdown,
//!   with links, emphasis and inline code kept and every other Markdown character escaped;
//!   neighbouring ones share one paragraph block up to `MAX_PARAGRAPH` characters;
//! - images (with `figure`/`figcaption`) become image blocks, lifted out of the text they
//!   stood in; Spotify players and tweets their blocks; other players and frames link blocks;
//! - a paragraph holding only a player's URL (WordPress's oEmbed) becomes that player's block;
//! - scripts, styles, forms and event handlers are dropped, with a note when a reader would
//!   have seen something.
//!
//! Whatever is not carried over is listed in [`Converted::notes`]. Nesting deeper than
//! [`MAX_DEPTH`] elements is read as plain text, so no input recurses without bound.

use html5ever::tendril::TendrilSink;
use html5ever::tree_builder::TreeBuilderOpts;
use html5ever::{ParseOpts, parse_document};
use markup5ever_rcdom::{Handle, NodeData, RcDom};

use super::builder::Builder;
use super::{Base, Converted, embeds};
use crate::domain::blocks::Block;

/// Elements deeper than this are read as their text.
pub const MAX_DEPTH: usize = 64;
/// Markup nested deeper than this (by a quick count of its tags) is not parsed but read as text.
const MAX_PARSED_DEPTH: usize = 4_000;
/// Lists and quotes inside one another deeper than this are written without their markers.
const MAX_NESTING: usize = 12;

/// The blocks of an HTML body (a fragment or a whole document; only its `body` is read).
/// Relative addresses resolve with `base`.
pub fn to_blocks(html: &str, base: &Base) -> Converted {
    if nesting_depth(html) > MAX_PARSED_DEPTH {
        // The parser's work grows with the square of the depth: such markup is read as text.
        let mut out = Builder::default();
        for paragraph in strip_tags(html).split("\n\n") {
            out.add_flow(&escaped(&plain_text(paragraph)));
        }
        out.notes.add("The HTML was nested too deeply to read: only its text was kept");
        return out.finish();
    }
    let dom = parse(html);
    let mut converter = Converter::new(base);
    if let Some(body) = find(&dom.document, "body") {
        let mut run = String::new();
        for child in children(&body) {
            converter.section_node(&child, &mut run, 1);
        }
        converter.end_run(&mut run);
    }
    converter.finish()
}

/// The text of an HTML fragment (a title, a caption): entities decoded, tags dropped, white
/// space collapsed to single spaces.
pub fn plain_text(html: &str) -> String {
    if !html.contains(['<', '&']) {
        return collapse(html);
    }
    let dom = parse(html);
    find(&dom.document, "body").map(|body| collapse(&text_of(&body))).unwrap_or_default()
}

fn parse(html: &str) -> RcDom {
    // Scripting off: `noscript` is read as the markup a reader without scripts saw (lazy
    // loaders put the real `img` there).
    let opts = ParseOpts {
        tree_builder: TreeBuilderOpts { scripting_enabled: false, ..TreeBuilderOpts::default() },
        ..ParseOpts::default()
    };
    parse_document(RcDom::default(), opts).one(html)
}

struct Converter<'a> {
    base: &'a Base<'a>,
    out: Builder,
    /// Top-level lists so far: neighbouring lists alternate markers so they stay apart.
    lists: usize,
    /// Lists and quotes open around the element being written.
    nesting: usize,
    /// Links open around the element being written (links don't nest).
    in_link: bool,
}

impl<'a> Converter<'a> {
    fn new(base: &'a Base<'a>) -> Converter<'a> {
        Converter { base, out: Builder::default(), lists: 0, nesting: 0, in_link: false }
    }

    fn finish(self) -> Converted {
        self.out.finish()
    }

    // --- Blocks --------------------------------------------------------------------------

    /// Ends a run of inline content at the top level as paragraph text.
    fn end_run(&mut self, run: &mut String) {
        let text = tidy(run);
        run.clear();
        self.out.add_flow(&text);
        self.out.flush_lifted();
    }

    /// One node of a section (the body, a `div`, an `article`): headings, images and players
    /// become blocks; text and inline elements gather in `run`; paragraphs, lists and quotes
    /// go to the paragraph being filled.
    fn section_node(&mut self, node: &Handle, run: &mut String, depth: usize) {
        let Some(tag) = element(node, run, depth) else {
            return;
        };
        if is_inline(&tag) {
            self.inline(node, run, depth);
            return;
        }
        self.end_run(run);
        match tag.as_str() {
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                let text = collapse(&text_of(node));
                if !text.is_empty() {
                    self.out.push(Block::Heading { text });
                }
                self.lift_media_inside(node, depth);
                self.out.flush_lifted();
            }
            "img" | "picture" | "iframe" | "embed" | "object" | "video" | "audio" | "svg" | "canvas" => {
                if let Some(block) = self.media(node, &tag) {
                    self.out.push(block);
                }
            }
            "figure" => {
                self.out.flush_para();
                let start = self.out.blocks_mut().len();
                let mut inner = String::new();
                let mut caption = String::new();
                for child in children(node) {
                    if tag_is(&child, "figcaption") {
                        caption = collapse(&text_of(&child));
                    } else {
                        self.section_node(&child, &mut inner, depth + 1);
                    }
                }
                self.end_run(&mut inner);
                self.out.flush_para();
                let from = start.min(self.out.blocks_mut().len());
                let target = self.out.blocks_mut()[from..].iter_mut().rev().find_map(|block| match block {
                    Block::Image { caption, .. } if caption.is_empty() => Some(caption),
                    _ => None,
                });
                match target {
                    Some(slot) => *slot = caption,
                    None if !caption.is_empty() => self.out.add_flow(&escaped(&caption)),
                    None => {}
                }
            }
            "div" | "section" | "article" | "main" | "header" | "footer" | "aside" | "nav" | "center" | "body"
            | "html" | "hgroup" | "address" | "details" | "search" | "noscript" | "dialog" | "fieldset" => {
                if let Some(url) = lone_url(node) {
                    if let Some((block, note)) = embeds::lone_url(&url) {
                        self.out.notes.extend(note.into_iter().collect());
                        self.out.push(block);
                        return;
                    }
                }
                for child in children(node) {
                    self.section_node(&child, run, depth + 1);
                }
                self.end_run(run);
            }
            _ => {
                if let Some(markdown) = self.flow_block(node, &tag, depth) {
                    self.out.add_flow(&markdown);
                }
                self.out.flush_lifted();
            }
        }
    }

    // --- Paragraph Markdown --------------------------------------------------------------

    /// The Markdown of a block element inside text (a paragraph, a list, a quote), or `None`
    /// when it became blocks of its own or nothing.
    fn flow_block(&mut self, node: &Handle, tag: &str, depth: usize) -> Option<String> {
        if depth > MAX_DEPTH {
            return Some(escaped(&collapse(&text_of(node))));
        }
        match tag {
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "dt" | "summary" | "legend" => {
                let text = collapse(&text_of(node));
                self.lift_media_inside(node, depth);
                (!text.is_empty()).then(|| format!("**{}**", escaped(&text)))
            }
            "p" | "div" | "dd" | "section" | "article" | "figure" => {
                if let Some(url) = lone_url(node) {
                    if let Some((block, note)) = embeds::lone_url(&url) {
                        self.out.notes.extend(note.into_iter().collect());
                        self.out.lifted.push(block);
                        return None;
                    }
                }
                if tag == "figure" {
                    return self.figure_in_flow(node, depth);
                }
                Some(self.flow_children(node, depth))
            }
            "ul" | "ol" | "menu" => Some(self.list(node, tag == "ol", depth)),
            "blockquote" => {
                if let Some(tweet) = tweet_quote(node) {
                    self.out.lifted.push(tweet);
                    return None;
                }
                if has_class(node, "instagram-media") || has_class(node, "tiktok-embed") {
                    let url = attr(node, "data-instgrm-permalink").or_else(|| attr(node, "cite"));
                    if let Some((block, note)) = url.and_then(|u| embeds::from_frame(&u, "")) {
                        self.out.notes.extend(note.into_iter().collect());
                        self.out.lifted.push(block);
                        return None;
                    }
                }
                self.nesting += 1;
                let inner = self.flow_children(node, depth);
                self.nesting -= 1;
                if self.nesting >= MAX_NESTING {
                    return Some(inner);
                }
                Some(prefix_lines(&inner, "> ", ">"))
            }
            "pre" | "listing" | "xmp" | "plaintext" => code_block(node),
            "hr" => Some("---".to_owned()),
            "table" => self.table(node, depth),
            "img" | "picture" | "iframe" | "embed" | "object" | "video" | "audio" | "svg" | "canvas" => {
                if let Some(block) = self.media(node, tag) {
                    self.out.lifted.push(block);
                }
                None
            }
            "script" | "style" | "template" | "form" | "input" | "button" | "select" | "textarea" | "head"
            | "title" | "meta" | "link" | "base" => {
                self.dropped(node, tag);
                None
            }
            _ => Some(self.flow_children(node, depth)),
        }
    }

    /// The Markdown of an element's children: runs of inline content as paragraphs, block
    /// children in between, separated by blank lines.
    fn flow_children(&mut self, node: &Handle, depth: usize) -> String {
        let mut chunks: Vec<String> = Vec::new();
        let mut run = String::new();
        for child in children(node) {
            match tag(&child) {
                None => {
                    if let NodeData::Text { contents } = &child.data {
                        push_text(&mut run, &contents.borrow());
                    }
                }
                Some(tag) if is_inline(&tag) || depth + 1 > MAX_DEPTH => self.inline(&child, &mut run, depth + 1),
                Some(tag) => {
                    push_chunk(&mut chunks, &tidy(&run));
                    run.clear();
                    if let Some(markdown) = self.flow_block(&child, &tag, depth + 1) {
                        push_chunk(&mut chunks, &markdown);
                    }
                }
            }
        }
        push_chunk(&mut chunks, &tidy(&run));
        join_chunks(&chunks)
    }

    fn figure_in_flow(&mut self, node: &Handle, depth: usize) -> Option<String> {
        let start = self.out.lifted.len();
        let mut caption = String::new();
        let mut chunks = Vec::new();
        for child in children(node) {
            if tag_is(&child, "figcaption") {
                caption = collapse(&text_of(&child));
            } else if let Some(tag) = tag(&child) {
                if let Some(markdown) = self.flow_block(&child, &tag, depth + 1) {
                    push_chunk(&mut chunks, &markdown);
                }
            }
        }
        let target = self.out.lifted[start..].iter_mut().rev().find_map(|block| match block {
            Block::Image { caption, .. } if caption.is_empty() => Some(caption),
            _ => None,
        });
        match target {
            Some(slot) => *slot = caption,
            None if !caption.is_empty() => push_chunk(&mut chunks, &escaped(&caption)),
            None => {}
        }
        (!chunks.is_empty()).then(|| chunks.join("\n\n"))
    }

    fn list(&mut self, node: &Handle, ordered: bool, depth: usize) -> String {
        let start: i64 = attr(node, "start")
            .and_then(|s| s.trim().parse().ok())
            .filter(|n| (0..1_000_000_000).contains(n))
            .unwrap_or(1);
        if self.nesting == 0 {
            self.lists += 1;
        }
        let alternate = self.nesting == 0 && self.lists % 2 == 0;
        self.nesting += 1;
        let flat = self.nesting > MAX_NESTING;
        let mut items = Vec::new();
        let mut number = start;
        for child in children(node) {
            let content = match tag(&child).as_deref() {
                Some("li") => self.flow_children(&child, depth + 1),
                Some(other) => self.flow_block(&child, other, depth + 1).unwrap_or_default(),
                None => match &child.data {
                    NodeData::Text { contents } => escaped(&collapse(&contents.borrow())),
                    _ => String::new(),
                },
            };
            if content.trim().is_empty() {
                continue;
            }
            let marker = match (flat, ordered, alternate) {
                (true, _, _) => String::new(),
                (false, true, false) => format!("{number}."),
                (false, true, true) => format!("{number})"),
                (false, false, false) => "-".to_owned(),
                (false, false, true) => "*".to_owned(),
            };
            number += 1;
            items.push(if flat { content } else { item(&marker, &content) });
        }
        self.nesting -= 1;
        let loose = items.iter().any(|item| item.contains("\n\n"));
        items.join(if loose || flat { "\n\n" } else { "\n" })
    }

    fn table(&mut self, node: &Handle, depth: usize) -> Option<String> {
        let mut rows = Vec::new();
        let mut stack = vec![node.clone()];
        while let Some(current) = stack.pop() {
            for child in children(&current).into_iter().rev() {
                match tag(&child).as_deref() {
                    Some("tr") => stack.push(child),
                    Some("thead" | "tbody" | "tfoot") => stack.push(child),
                    Some("caption") => stack.push(child),
                    _ => {}
                }
            }
            match tag(&current).as_deref() {
                Some("tr") => {
                    let mut cells = Vec::new();
                    for cell in children(&current) {
                        if matches!(tag(&cell).as_deref(), Some("td" | "th")) {
                            let mut text = String::new();
                            for part in children(&cell) {
                                self.inline(&part, &mut text, depth + 2);
                            }
                            cells.push(tidy(&text).replace('\n', " "));
                        }
                    }
                    if cells.iter().any(|c| !c.trim().is_empty()) {
                        rows.push(cells.join(" | "));
                    }
                }
                Some("caption") => {
                    let text = collapse(&text_of(&current));
                    if !text.is_empty() {
                        rows.push(format!("*{}*", escaped(&text)));
                    }
                }
                _ => {}
            }
        }
        if rows.is_empty() {
            return None;
        }
        self.out.notes.add("A table was kept as lines of text, its cells separated by |");
        Some(rows.join("\n"))
    }

    // --- Inline Markdown -----------------------------------------------------------------

    fn inline(&mut self, node: &Handle, out: &mut String, depth: usize) {
        let Some(tag) = element(node, out, depth) else {
            return;
        };
        match tag.as_str() {
            "br" => {
                out.truncate(out.trim_end_matches(' ').len());
                out.push('\n');
            }
            "wbr" => {}
            "a" => self.link(node, out, depth),
            "em" | "i" | "cite" | "dfn" | "var" => self.wrap(node, out, "*", depth),
            "strong" | "b" => self.wrap(node, out, "**", depth),
            "code" | "kbd" | "samp" | "tt" => push_raw(out, &code_span(&text_of(node))),
            "q" => {
                push_raw(out, "“");
                self.inline_children(node, out, depth);
                push_raw(out, "”");
            }
            "img" | "picture" | "iframe" | "embed" | "object" | "video" | "audio" | "svg" | "canvas" => {
                if let Some(block) = self.media(node, &tag) {
                    self.out.lifted.push(block);
                }
            }
            "script" | "style" | "template" | "form" | "input" | "button" | "select" | "textarea" | "head"
            | "title" | "meta" | "link" | "base" => self.dropped(node, &tag),
            "math" => push_escaped(out, &collapse(&text_of(node))),
            _ if !is_inline(&tag) => {
                // A block inside inline content (a `div` in a link): its text, on its own line.
                if !out.trim_end_matches(' ').is_empty() && !out.ends_with('\n') {
                    out.push('\n');
                }
                self.inline_children(node, out, depth);
            }
            _ => self.inline_children(node, out, depth),
        }
    }

    fn inline_children(&mut self, node: &Handle, out: &mut String, depth: usize) {
        for child in children(node) {
            self.inline(&child, out, depth + 1);
        }
    }

    /// Emphasis around an element's Markdown, with its outer spaces moved outside.
    fn wrap(&mut self, node: &Handle, out: &mut String, delimiter: &str, depth: usize) {
        let mut inner = String::new();
        self.inline_children(node, &mut inner, depth);
        let core = inner.trim_matches([' ', '\n']);
        if core.is_empty() {
            push_raw(out, &inner);
            return;
        }
        let leading = &inner[..inner.len() - inner.trim_start_matches([' ', '\n']).len()];
        let trailing = &inner[inner.trim_end_matches([' ', '\n']).len()..];
        push_raw(out, leading);
        // Emphasis can't span a line break in the output: each line gets its own.
        let lines: Vec<String> = core
            .split('\n')
            .map(|line| {
                let line = line.trim();
                if line.is_empty() { String::new() } else { format!("{delimiter}{line}{delimiter}") }
            })
            .collect();
        push_raw(out, &lines.join("\n"));
        push_raw(out, trailing);
    }

    fn link(&mut self, node: &Handle, out: &mut String, depth: usize) {
        let href = attr(node, "href").unwrap_or_default();
        let was_in_link = self.in_link;
        self.in_link = true;
        let lifted_before = self.out.lifted.len();
        let mut inner = String::new();
        self.inline_children(node, &mut inner, depth);
        self.in_link = was_in_link;
        let text = inner.trim_matches([' ', '\n']).replace('\n', " ");
        if text.is_empty() {
            push_raw(out, &inner);
            let wrapped_image = self.out.lifted.len() > lifted_before;
            if wrapped_image && !href.trim().is_empty() && !points_at_image(&href) {
                self.out.notes.add(format!("The link around an image (to {}) was not kept", href.trim()));
            }
            return;
        }
        let target = if was_in_link { None } else { self.base.link(&href) };
        let leading = if inner.starts_with([' ', '\n']) { " " } else { "" };
        let trailing = if inner.ends_with([' ', '\n']) { " " } else { "" };
        push_raw(out, leading);
        match target {
            Some(url) => push_raw(out, &format!("[{text}]({})", destination(&url))),
            None => {
                let href = href.trim();
                let lower = href.to_ascii_lowercase();
                if !was_in_link && !href.is_empty() && !href.starts_with('#') && !lower.starts_with("javascript:") {
                    self.out.unlinked.push(href.to_owned());
                }
                push_raw(out, &text);
            }
        }
        push_raw(out, trailing);
    }

    // --- Images, players, what is dropped -----------------------------------------------

    /// Images and players inside an element that keeps only its text (a heading).
    fn lift_media_inside(&mut self, node: &Handle, depth: usize) {
        for child in children(node) {
            match tag(&child).as_deref() {
                Some(
                    tag @ ("img" | "picture" | "iframe" | "embed" | "object" | "video" | "audio" | "svg" | "canvas"),
                ) => {
                    if let Some(block) = self.media(&child, tag) {
                        self.out.lifted.push(block);
                    }
                }
                Some(_) if depth < MAX_DEPTH => self.lift_media_inside(&child, depth + 1),
                _ => {}
            }
        }
    }

    /// The block an image or player element becomes, with notes on what was not kept.
    fn media(&mut self, node: &Handle, tag: &str) -> Option<Block> {
        match tag {
            "img" => self.image(node),
            "picture" => {
                let img = find(node, "img")?;
                self.image(&img)
            }
            "iframe" | "embed" | "object" => {
                let src = attr(node, "src").or_else(|| attr(node, "data-src")).or_else(|| attr(node, "data"));
                let title = attr(node, "title").unwrap_or_default();
                let resolved = src.as_deref().and_then(|src| self.base.absolute(src.trim()));
                match resolved.and_then(|url| embeds::from_frame(url.as_str(), &title)) {
                    Some((block, note)) => {
                        if let Some(note) = note {
                            self.out.notes.add(note);
                        }
                        Some(block)
                    }
                    None => {
                        self.out.notes.add("An embedded frame without a web address was removed");
                        None
                    }
                }
            }
            "video" | "audio" => {
                let src = attr(node, "src").or_else(|| {
                    children(node).iter().find(|c| tag_is(c, "source")).and_then(|source| attr(source, "src"))
                });
                let what = if tag == "video" { "A video" } else { "An audio player" };
                match src.as_deref().and_then(|src| self.base.link(src)).filter(|url| url.starts_with("http")) {
                    Some(url) => {
                        self.out.notes.add(format!("{what} was kept as a link to its file"));
                        let title = attr(node, "title")
                            .map(|t| collapse(&t))
                            .filter(|t| !t.is_empty())
                            .unwrap_or_else(|| url.clone());
                        Some(Block::Link { url, title })
                    }
                    None => {
                        self.out.notes.add(format!("{what} whose file could not be located was removed"));
                        None
                    }
                }
            }
            "svg" => {
                self.out.notes.add("A drawing (SVG) inside the text was not kept");
                None
            }
            _ => {
                self.out.notes.add("A canvas (drawn by a script) was not kept");
                None
            }
        }
    }

    fn image(&mut self, node: &Handle) -> Option<Block> {
        if attr(node, "width").as_deref() == Some("1") && attr(node, "height").as_deref() == Some("1") {
            return None; // a tracking pixel
        }
        let candidates = ["src", "data-src", "data-lazy-src", "data-orig-file", "data-original"];
        let mut sources: Vec<String> = candidates.iter().filter_map(|name| attr(node, name)).collect();
        if let Some(srcset) = attr(node, "srcset").or_else(|| attr(node, "data-srcset")) {
            sources.extend(srcset.split(',').filter_map(|part| part.split_whitespace().next()).map(str::to_owned));
        }
        let alt = collapse(&attr(node, "alt").unwrap_or_default());
        match sources.iter().find_map(|src| self.base.image(src)) {
            Some(url) => Some(Block::Image { url, alt, caption: String::new() }),
            None => {
                match sources.first().map(|s| s.trim()) {
                    Some(src) if src.starts_with("data:") => {
                        self.out.notes.add("An image written into the HTML itself (a data: address) was not kept")
                    }
                    Some(src) if !src.is_empty() => {
                        self.out.notes.add(format!("An image at {} could not be located", shorten(src)))
                    }
                    _ => self.out.notes.add("An image without an address was removed"),
                }
                None
            }
        }
    }

    fn dropped(&mut self, node: &Handle, tag: &str) {
        match tag {
            "script" => {
                let src = attr(node, "src").unwrap_or_default();
                if let Some(gist) = gist(&src) {
                    self.out.lifted.push(gist);
                    self.out.notes.add("A GitHub gist was kept as a link to it");
                } else if !is_embed_loader(&src) {
                    self.out.notes.add("A script was removed: Quire posts run no scripts");
                }
            }
            "form" | "input" | "button" | "select" | "textarea" => {
                if tag != "input" || attr(node, "type").is_none_or(|t| !t.eq_ignore_ascii_case("hidden")) {
                    self.out.notes.add("A form was removed: Quire posts have no forms");
                }
            }
            _ => {}
        }
    }
}

/// How deeply the tags of `html` nest, counted quickly: void elements and those whose end
/// tag may be left out are not counted.
fn nesting_depth(html: &str) -> usize {
    const UNCOUNTED: [&str; 22] = [
        "br", "img", "hr", "input", "meta", "link", "area", "base", "col", "embed", "source", "track", "wbr", "param",
        "p", "li", "dt", "dd", "option", "tr", "td", "th",
    ];
    let (mut depth, mut deepest) = (0usize, 0usize);
    let bytes = html.as_bytes();
    let mut at = 0;
    while let Some(found) = html[at..].find('<') {
        let start = at + found + 1;
        at = start;
        let closing = bytes.get(start) == Some(&b'/');
        let name_start = if closing { start + 1 } else { start };
        let name_len = bytes[name_start.min(bytes.len())..].iter().take_while(|b| b.is_ascii_alphanumeric()).count();
        if name_len == 0 {
            continue;
        }
        let name = html[name_start..name_start + name_len].to_ascii_lowercase();
        if UNCOUNTED.contains(&name.as_str()) {
            continue;
        }
        let end = html[name_start..].find('>').map_or(html.len(), |i| name_start + i);
        if closing {
            depth = depth.saturating_sub(1);
        } else if !html[..end].ends_with('/') {
            depth += 1;
            deepest = deepest.max(depth);
        }
    }
    deepest
}

/// The text of `html` with its tags taken out and its entities left as written, paragraphs
/// (`p`, `br br`, block ends) separated by blank lines.
fn strip_tags(html: &str) -> String {
    let mut out = String::with_capacity(html.len() / 2);
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        let close = rest[open..].find('>').map_or(rest.len(), |i| open + i + 1);
        let tag = rest[open..close].to_ascii_lowercase();
        if tag.starts_with("</p") || tag.starts_with("<br") || tag.starts_with("</div") || tag.starts_with("</li") {
            out.push_str("\n\n");
        } else {
            out.push(' ');
        }
        rest = &rest[close..];
    }
    out.push_str(rest);
    out
}

// --- The tree ------------------------------------------------------------------------------

/// The tag of an element to convert; a text node, or an element past [`MAX_DEPTH`], is
/// written to `out` as text instead.
fn element(node: &Handle, out: &mut String, depth: usize) -> Option<String> {
    match tag(node) {
        Some(_) if depth > MAX_DEPTH => push_escaped(out, &collapse(&text_of(node))),
        Some(tag) => return Some(tag),
        None => {
            if let NodeData::Text { contents } = &node.data {
                push_text(out, &contents.borrow());
            }
        }
    }
    None
}

fn children(node: &Handle) -> Vec<Handle> {
    node.children.borrow().clone()
}

fn tag(node: &Handle) -> Option<String> {
    match &node.data {
        NodeData::Element { name, .. } => Some((&*name.local).to_ascii_lowercase()),
        _ => None,
    }
}

fn tag_is(node: &Handle, name: &str) -> bool {
    matches!(&node.data, NodeData::Element { name: n, .. } if (&*n.local).eq_ignore_ascii_case(name))
}

fn attr(node: &Handle, name: &str) -> Option<String> {
    match &node.data {
        NodeData::Element { attrs, .. } => {
            attrs.borrow().iter().find(|a| &*a.name.local == name).map(|a| a.value.to_string())
        }
        _ => None,
    }
}

fn has_class(node: &Handle, class: &str) -> bool {
    attr(node, "class").is_some_and(|classes| classes.split_whitespace().any(|c| c == class))
}

/// The first element named `name` at or under `node`, in document order.
fn find(node: &Handle, name: &str) -> Option<Handle> {
    let mut stack = vec![node.clone()];
    while let Some(current) = stack.pop() {
        if tag_is(&current, name) {
            return Some(current);
        }
        stack.extend(children(&current).into_iter().rev());
    }
    None
}

/// The text under `node` as a reader saw it (no scripts, styles or templates), `br` as a line
/// break. Walks without recursion.
fn text_of(node: &Handle) -> String {
    let mut out = String::new();
    let mut stack = vec![node.clone()];
    while let Some(current) = stack.pop() {
        match &current.data {
            NodeData::Text { contents } => out.push_str(&contents.borrow()),
            NodeData::Element { name, .. } => {
                let name: &str = &name.local;
                if matches!(name, "script" | "style" | "template" | "head" | "title") {
                    continue;
                }
                if name == "br" {
                    out.push('\n');
                }
                stack.extend(children(&current).into_iter().rev());
            }
            NodeData::Document => stack.extend(children(&current).into_iter().rev()),
            _ => {}
        }
    }
    out
}

/// Elements that sit inside running text.
fn is_inline(tag: &str) -> bool {
    matches!(
        tag,
        "a" | "abbr"
            | "acronym"
            | "b"
            | "bdi"
            | "bdo"
            | "big"
            | "br"
            | "cite"
            | "code"
            | "data"
            | "del"
            | "dfn"
            | "em"
            | "font"
            | "i"
            | "ins"
            | "kbd"
            | "label"
            | "mark"
            | "nobr"
            | "q"
            | "s"
            | "samp"
            | "small"
            | "span"
            | "strike"
            | "strong"
            | "sub"
            | "sup"
            | "time"
            | "tt"
            | "u"
            | "var"
            | "wbr"
            | "math"
            | "ruby"
            | "rt"
            | "rp"
            | "output"
            | "meter"
            | "progress"
    )
}

/// The URL an element holds and nothing else (a WordPress oEmbed line), if it does.
fn lone_url(node: &Handle) -> Option<String> {
    let mut stack = children(node);
    while let Some(current) = stack.pop() {
        match tag(&current).as_deref() {
            None => {}
            Some("a" | "span" | "br" | "p" | "div" | "strong" | "em" | "b" | "i") => stack.extend(children(&current)),
            Some(_) => return None,
        }
    }
    let text = collapse(&text_of(node));
    let lower = text.to_ascii_lowercase();
    (!text.contains(' ') && (lower.starts_with("https://") || lower.starts_with("http://"))).then_some(text)
}

/// A tweet block for Twitter's embed markup (`blockquote.twitter-tweet` with the status link).
fn tweet_quote(node: &Handle) -> Option<Block> {
    if !has_class(node, "twitter-tweet") && !has_class(node, "twitter-video") {
        return None;
    }
    let mut links = Vec::new();
    let mut stack = vec![node.clone()];
    while let Some(current) = stack.pop() {
        if tag_is(&current, "a") {
            links.extend(attr(&current, "href"));
        }
        stack.extend(children(&current));
    }
    links.iter().find_map(|href| match embeds::from_url(href, "") {
        Some(block @ Block::Tweet { .. }) => Some(block),
        _ => None,
    })
}

/// The widget scripts that only turn markup already read (a tweet's quote) into a player.
fn is_embed_loader(src: &str) -> bool {
    const LOADERS: [&str; 7] = [
        "platform.twitter.com/widgets.js",
        "instagram.com/embed.js",
        "tiktok.com/embed.js",
        "embedr.flickr.com",
        "s.imgur.com/min/embed.js",
        "connect.facebook.net",
        "embed.bsky.app",
    ];
    !src.is_empty() && LOADERS.iter().any(|loader| src.contains(loader))
}

/// A link block to a GitHub gist embedded with its script.
fn gist(src: &str) -> Option<Block> {
    let url = url::Url::parse(src.trim()).ok()?;
    if url.host_str()? != "gist.github.com" {
        return None;
    }
    let path = url.path().trim_end_matches(".js");
    let page = format!("https://gist.github.com{path}");
    Some(Block::Link { url: page.clone(), title: page })
}

fn points_at_image(href: &str) -> bool {
    let path = href.split(['?', '#']).next().unwrap_or("").to_ascii_lowercase();
    [".jpg", ".jpeg", ".png", ".gif", ".webp", ".avif", ".bmp", ".svg", ".heic"].iter().any(|ext| path.ends_with(ext))
}

fn shorten(text: &str) -> String {
    if text.chars().count() <= 120 {
        text.to_owned()
    } else {
        format!("{}…", text.chars().take(120).collect::<String>())
    }
}

// --- Writing Markdown ----------------------------------------------------------------------

/// HTML's white space collapsed to single spaces, trimmed.
fn collapse(text: &str) -> String {
    text.split_ascii_whitespace().collect::<Vec<_>>().join(" ")
}

/// Appends text as it reads in HTML: runs of white space as one space, Markdown escaped.
fn push_text(out: &mut String, text: &str) {
    let mut words = text.split(|c: char| c.is_ascii_whitespace()).peekable();
    while let Some(word) = words.next() {
        if !word.is_empty() {
            push_escaped(out, word);
        }
        if words.peek().is_some() && !out.ends_with([' ', '\n']) {
            out.push(' ');
        }
    }
}

/// Appends Markdown already written, without doubling a space.
fn push_raw(out: &mut String, markdown: &str) {
    let markdown =
        if out.ends_with([' ', '\n']) || out.is_empty() { markdown.trim_start_matches(' ') } else { markdown };
    out.push_str(markdown);
}

pub(crate) fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    push_escaped(&mut out, text);
    out
}

/// Appends `text` so that, read as CommonMark, it shows these very characters: what would
/// be syntax is escaped (inline markers anywhere, block markers at the start of a line).
pub(crate) fn push_escaped(out: &mut String, text: &str) {
    for (at, c) in text.char_indices() {
        let escape = match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' => true,
            '&' => starts_entity(&text[at + 1..]),
            '#' | '>' | '-' | '+' | '=' | '~' | '|' => {
                let before = out.trim_end_matches(' ');
                before.is_empty() || before.ends_with('\n')
            }
            '.' | ')' => {
                let before = out.trim_end_matches(|c: char| c.is_ascii_digit());
                let digits = out.len() - before.len();
                (1..=9).contains(&digits) && (before.is_empty() || before.ends_with('\n'))
            }
            _ => false,
        };
        if escape {
            out.push('\\');
        }
        out.push(c);
    }
}

fn starts_entity(rest: &str) -> bool {
    let name = rest.strip_prefix('#').unwrap_or(rest);
    let len = name.bytes().take_while(u8::is_ascii_alphanumeric).count();
    len > 0 && name[len..].starts_with(';')
}

/// Inline code, fenced with more backticks than it holds in a row.
fn code_span(text: &str) -> String {
    let text = text.replace(['\n', '\r'], " ");
    if text.trim().is_empty() {
        return String::new();
    }
    let fence = "`".repeat(longest_run(&text, '`') + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') || (text.starts_with(' ') && text.ends_with(' ')) {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// A fenced code block of a `pre`'s text, with the language its class names.
fn code_block(node: &Handle) -> Option<String> {
    let text = text_of(node).replace("\r\n", "\n");
    let text = text.trim_end_matches(['\n', ' ', '\t']).trim_start_matches('\n');
    if text.trim().is_empty() {
        return None;
    }
    let class = attr(node, "class")
        .into_iter()
        .chain(find(node, "code").and_then(|code| attr(&code, "class")))
        .collect::<Vec<_>>()
        .join(" ");
    let language = class
        .split(|c: char| c.is_whitespace() || c == ';')
        .find_map(|part| part.strip_prefix("language-").or_else(|| part.strip_prefix("lang-")))
        .or_else(|| class.split("brush:").nth(1).and_then(|rest| rest.split_whitespace().next()))
        .unwrap_or("")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '+' | '.' | '#'))
        .take(30)
        .collect::<String>();
    let fence = "`".repeat(longest_run(text, '`').max(2) + 1);
    Some(format!("{fence}{language}\n{text}\n{fence}"))
}

fn longest_run(text: &str, c: char) -> usize {
    let (mut longest, mut current) = (0, 0);
    for ch in text.chars() {
        current = if ch == c { current + 1 } else { 0 };
        longest = longest.max(current);
    }
    longest
}

/// A link destination, in angle brackets when it holds parentheses.
fn destination(url: &str) -> String {
    if url.contains(['(', ')', ' ']) { format!("<{url}>") } else { url.to_owned() }
}

/// Paragraph Markdown of an inline run: each line trimmed (leading spaces would start code),
/// blank lines at either end dropped.
fn tidy(markdown: &str) -> String {
    let lines: Vec<&str> = markdown.split('\n').map(|line| line.trim_matches(' ')).collect();
    let first = lines.iter().position(|l| !l.is_empty()).unwrap_or(lines.len());
    let last = lines.iter().rposition(|l| !l.is_empty()).map_or(first, |i| i + 1);
    lines[first..last.max(first)].join("\n")
}

/// Chunks of Markdown separated by blank lines, except that a list right after a line of
/// text follows it directly (a tight item with a nested list stays tight).
fn join_chunks(chunks: &[String]) -> String {
    let mut out = String::new();
    for (i, chunk) in chunks.iter().enumerate() {
        if i > 0 {
            let starts_list = ["- ", "* ", "1. ", "1) "].iter().any(|marker| chunk.starts_with(marker));
            let after_text = !chunks[i - 1].contains('\n') && !chunks[i - 1].starts_with(['>', '`', '-', '*']);
            out.push_str(if starts_list && after_text { "\n" } else { "\n\n" });
        }
        out.push_str(chunk);
    }
    out
}

fn push_chunk(chunks: &mut Vec<String>, markdown: &str) {
    if !markdown.trim().is_empty() {
        chunks.push(markdown.trim_matches('\n').to_owned());
    }
}

/// A list item: its marker, then its content with every further line indented under it.
fn item(marker: &str, content: &str) -> String {
    let pad = " ".repeat(marker.len() + 1);
    let mut out = format!("{marker} ");
    for (i, line) in content.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
            if !line.is_empty() {
                out.push_str(&pad);
            }
        }
        out.push_str(line);
    }
    out
}

fn prefix_lines(content: &str, prefix: &str, blank: &str) -> String {
    content
        .split('\n')
        .map(|line| if line.is_empty() { blank.to_owned() } else { format!("{prefix}{line}") })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
pub(crate) mod tests;
