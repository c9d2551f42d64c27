//! Inline HTML as Markdown: line breaks, emphasis, inline code and links (which don't nest),
//! with images inside a link lifted out as blocks.

use markup5ever_rcdom::Handle;

use super::Converter;
use super::dom::{attr, children, element, is_inline, text_of};
use super::escape::{code_span, collapse, destination, push_escaped, push_raw};
use super::media::points_at_image;

impl Converter<'_> {
    pub(super) fn inline(&mut self, node: &Handle, out: &mut String, depth: usize) {
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

    pub(super) fn inline_children(&mut self, node: &Handle, out: &mut String, depth: usize) {
        for child in children(node) {
            self.inline(&child, out, depth + 1);
        }
    }

    /// Emphasis around an element's Markdown, with its outer spaces moved outside.
    pub(super) fn wrap(&mut self, node: &Handle, out: &mut String, delimiter: &str, depth: usize) {
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

    pub(super) fn link(&mut self, node: &Handle, out: &mut String, depth: usize) {
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
}
