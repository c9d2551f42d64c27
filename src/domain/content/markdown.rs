//! Paragraph text is CommonMark. This renders it to the HTML readers see (public pages, feeds
//! and the editor's preview all call [`to_html`]), extracts its plain text (search, titles,
//! excerpts), and escapes old plain-text paragraphs so they keep rendering as they did.
//!
//! The renderer is ours, over pulldown-cmark's events, so that what can reach a page is a
//! short list of tags: `p`, `br`, `em`, `strong`, `code`, `pre`, `a`, `ul`, `ol`, `li`,
//! `blockquote`, `hr`. Every string is escaped; raw HTML is shown as text; a link whose URL
//! is not `http:`, `https:` or `mailto:` (after the parser decoded entities and escapes) is
//! shown as its text; images inside a paragraph become links to the image (pictures belong in
//! image blocks, which carry their size); headings inside a paragraph become bold lines (the
//! heading block makes sections). Nesting deeper than [`MAX_NESTING`] quotes and lists is
//! flattened into the deepest level shown. The parser keeps its own stack on the heap, and
//! this renderer walks its events in a loop, so no input recurses on the thread's stack.

use pulldown_cmark::{Event, LinkType, Options, Parser, Tag, TagEnd};

use crate::domain::content::blocks::markdown_url_allowed;
use crate::domain::content::html::escape_into;

/// Most block quotes and lists shown inside one another; deeper ones are flattened.
pub const MAX_NESTING: usize = 16;

/// What closes an open tag: the HTML to write, and what the tag was.
enum Open {
    /// A tag written; its closing HTML.
    Tag(&'static str),
    /// A link written: closing HTML, and it counts as an enclosing link.
    Link(&'static str),
    /// A tag not written (flattened, or a link whose URL is refused).
    Nothing,
    /// A list: whether it was written (its items follow it).
    List { shown: bool },
    /// A quote or list item: whether it was written.
    Container { shown: bool },
    /// Raw HTML shown as text in a paragraph.
    HtmlBlock,
}

/// The HTML of a paragraph's CommonMark `text`. Line breaks are kept as written.
pub fn to_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 4 + 16);
    let mut stack: Vec<Open> = Vec::new();
    let mut depth = 0usize;
    let mut links = 0usize;
    let mut html_block = String::new();
    for event in Parser::new_ext(text, Options::empty()) {
        match event {
            Event::Start(tag) => {
                let open = match tag {
                    Tag::Paragraph => open(&mut out, "<p>", "</p>"),
                    Tag::Heading { .. } => open(&mut out, "<p><strong>", "</strong></p>"),
                    Tag::BlockQuote(_) => {
                        depth += 1;
                        let shown = depth <= MAX_NESTING;
                        if shown {
                            out.push_str("<blockquote>");
                        }
                        Open::Container { shown }
                    }
                    Tag::List(start) => {
                        depth += 1;
                        let shown = depth <= MAX_NESTING;
                        if shown {
                            match start {
                                Some(1) => out.push_str("<ol>"),
                                Some(n) => out.push_str(&format!("<ol start=\"{n}\">")),
                                None => out.push_str("<ul>"),
                            }
                        }
                        Open::List { shown }
                    }
                    Tag::Item => {
                        let shown = matches!(stack.last(), Some(Open::List { shown: true }));
                        out.push_str(if shown { "<li>" } else { " " });
                        Open::Container { shown }
                    }
                    Tag::CodeBlock(_) => open(&mut out, "<pre><code>", "</code></pre>"),
                    Tag::HtmlBlock => Open::HtmlBlock,
                    Tag::Emphasis => open(&mut out, "<em>", "</em>"),
                    Tag::Strong => open(&mut out, "<strong>", "</strong>"),
                    Tag::Link { link_type, dest_url, .. } | Tag::Image { link_type, dest_url, .. } => {
                        let url = match link_type {
                            LinkType::Email => format!("mailto:{dest_url}"),
                            _ => dest_url.to_string(),
                        };
                        if links == 0 && markdown_url_allowed(&url) {
                            links += 1;
                            out.push_str("<a href=\"");
                            escape_into(&mut out, &url);
                            out.push_str("\" rel=\"nofollow ugc noopener\">");
                            Open::Link("</a>")
                        } else {
                            Open::Nothing
                        }
                    }
                    // Not enabled by the options above; shown as their text if they ever come.
                    _ => Open::Nothing,
                };
                stack.push(open);
            }
            Event::End(end) => {
                let closing = stack.pop();
                match closing {
                    Some(Open::Tag(html)) => out.push_str(html),
                    Some(Open::Link(html)) => {
                        links -= 1;
                        out.push_str(html);
                    }
                    Some(Open::List { shown }) => {
                        depth -= 1;
                        if shown {
                            out.push_str(if matches!(end, TagEnd::List(true)) { "</ol>" } else { "</ul>" });
                        }
                    }
                    Some(Open::Container { shown }) => {
                        if matches!(end, TagEnd::BlockQuote(_)) {
                            depth -= 1;
                        }
                        if shown {
                            out.push_str(if matches!(end, TagEnd::Item) { "</li>" } else { "</blockquote>" });
                        }
                    }
                    Some(Open::HtmlBlock) => {
                        out.push_str("<p>");
                        let lines: Vec<&str> = html_block.trim_end_matches('\n').split('\n').collect();
                        for (i, line) in lines.iter().enumerate() {
                            if i > 0 {
                                out.push_str("<br>");
                            }
                            escape_into(&mut out, line);
                        }
                        out.push_str("</p>");
                        html_block.clear();
                    }
                    Some(Open::Nothing) | None => {}
                }
                if matches!(end, TagEnd::Paragraph | TagEnd::Heading(_) | TagEnd::CodeBlock | TagEnd::HtmlBlock) {
                    out.push('\n');
                }
            }
            Event::Html(raw) if matches!(stack.last(), Some(Open::HtmlBlock)) => html_block.push_str(&raw),
            Event::Text(text) | Event::Html(text) | Event::InlineHtml(text) => escape_into(&mut out, &text),
            Event::Code(code) => {
                out.push_str("<code>");
                escape_into(&mut out, &code);
                out.push_str("</code>");
            }
            Event::SoftBreak | Event::HardBreak => out.push_str("<br>"),
            Event::Rule => out.push_str("<hr>\n"),
            Event::InlineMath(text) | Event::DisplayMath(text) | Event::FootnoteReference(text) => {
                escape_into(&mut out, &text)
            }
            Event::TaskListMarker(_) => {}
        }
    }
    out
}

fn open(out: &mut String, html: &str, closing: &'static str) -> Open {
    out.push_str(html);
    Open::Tag(closing)
}

/// The text of a paragraph's CommonMark `text` without its syntax: what search indexes and
/// what titles and excerpts show. Blocks and line breaks end lines.
pub fn plain_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for event in Parser::new_ext(text, Options::empty()) {
        match event {
            Event::Text(text) | Event::Code(text) | Event::Html(text) | Event::InlineHtml(text) => out.push_str(&text),
            Event::SoftBreak | Event::HardBreak => out.push('\n'),
            Event::End(TagEnd::Paragraph | TagEnd::Heading(_) | TagEnd::Item | TagEnd::CodeBlock)
                if !out.ends_with('\n') =>
            {
                out.push('\n');
            }
            _ => {}
        }
    }
    out.truncate(out.trim_end().len());
    out
}

/// The destinations of the links in a paragraph's CommonMark `text` (autolinks included), as
/// written: what the risk score counts.
pub fn link_urls(text: &str) -> Vec<String> {
    Parser::new_ext(text, Options::empty())
        .filter_map(|event| match event {
            Event::Start(Tag::Link { dest_url, .. }) => Some(dest_url.into_string()),
            _ => None,
        })
        .collect()
}

/// Plain `text` written so that, read as CommonMark, it shows the same characters on the same
/// lines: paragraphs written before they were Markdown go through this once (migration 4).
/// Only what would mean something is escaped (`\`, `` ` ``, `*`, `_`, `[`, `]`, `<`, an `&` that
/// starts an entity, and markers at the start of a line); leading spaces are dropped (they
/// never showed, and four of them would start a code block).
pub fn escape_plain(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let line = line.trim_start_matches([' ', '\t']);
        let digits = line.bytes().take_while(u8::is_ascii_digit).count();
        for (at, c) in line.char_indices() {
            let line_marker = (at == 0 && matches!(c, '#' | '>' | '-' | '+' | '=' | '~' | '|'))
                || (digits > 0 && digits <= 9 && at == digits && matches!(c, '.' | ')'));
            let entity = c == '&' && starts_entity(&line[at + 1..]);
            if line_marker || entity || matches!(c, '\\' | '`' | '*' | '_' | '[' | ']' | '<') {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out
}

/// Whether `rest` (what follows an `&`) would make it an entity or character reference.
fn starts_entity(rest: &str) -> bool {
    let name = rest.strip_prefix('#').unwrap_or(rest);
    let len = name.bytes().take_while(u8::is_ascii_alphanumeric).count();
    len > 0 && name[len..].starts_with(';')
}

#[cfg(test)]
mod tests;
