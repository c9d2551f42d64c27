//! The tree walk: a section's nodes become heading, image and player blocks, and the
//! paragraphs, lists, quotes, code, rules and tables around them become paragraph Markdown,
//! gathered by the [`Builder`](super::Builder) into paragraph blocks.

use markup5ever_rcdom::{Handle, NodeData};

use super::Converter;
use super::dom::{attr, children, element, has_class, is_inline, tag, tag_is, text_of};
use super::escape::{code_block, collapse, escaped, item, join_chunks, prefix_lines, push_chunk, push_text, tidy};
use super::media::{lone_url, tweet_quote};
use super::{MAX_DEPTH, MAX_NESTING};
use crate::domain::content::blocks::Block;
use crate::portable::convert::embeds;

impl Converter<'_> {
    /// Ends a run of inline content at the top level as paragraph text.
    pub(super) fn end_run(&mut self, run: &mut String) {
        let text = tidy(run);
        run.clear();
        self.out.add_flow(&text);
        self.out.flush_lifted();
    }

    /// One node of a section (the body, a `div`, an `article`): headings, images and players
    /// become blocks; text and inline elements gather in `run`; paragraphs, lists and quotes
    /// go to the paragraph being filled.
    pub(super) fn section_node(&mut self, node: &Handle, run: &mut String, depth: usize) {
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
                if let Some(url) = lone_url(node)
                    && let Some((block, note)) = embeds::lone_url(&url)
                {
                    self.out.notes.extend(note.into_iter().collect());
                    self.out.push(block);
                    return;
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

    /// The Markdown of a block element inside text (a paragraph, a list, a quote), or `None`
    /// when it became blocks of its own or nothing.
    pub(super) fn flow_block(&mut self, node: &Handle, tag: &str, depth: usize) -> Option<String> {
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
                if let Some(url) = lone_url(node)
                    && let Some((block, note)) = embeds::lone_url(&url)
                {
                    self.out.notes.extend(note.into_iter().collect());
                    self.out.lifted.push(block);
                    return None;
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
    pub(super) fn flow_children(&mut self, node: &Handle, depth: usize) -> String {
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

    pub(super) fn figure_in_flow(&mut self, node: &Handle, depth: usize) -> Option<String> {
        let start = self.out.lifted.len();
        let mut caption = String::new();
        let mut chunks = Vec::new();
        for child in children(node) {
            if tag_is(&child, "figcaption") {
                caption = collapse(&text_of(&child));
            } else if let Some(tag) = tag(&child)
                && let Some(markdown) = self.flow_block(&child, &tag, depth + 1)
            {
                push_chunk(&mut chunks, &markdown);
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

    pub(super) fn list(&mut self, node: &Handle, ordered: bool, depth: usize) -> String {
        let start: i64 = attr(node, "start")
            .and_then(|s| s.trim().parse().ok())
            .filter(|n| (0..1_000_000_000).contains(n))
            .unwrap_or(1);
        if self.nesting == 0 {
            self.lists += 1;
        }
        let alternate = self.nesting == 0 && self.lists.is_multiple_of(2);
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

    pub(super) fn table(&mut self, node: &Handle, depth: usize) -> Option<String> {
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
}
