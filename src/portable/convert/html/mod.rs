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
//!
//! This file parses and starts the walk; the walk itself is `walk.rs` (sections, paragraphs,
//! lists, quotes, tables), `inline.rs` (emphasis, code, links) and `media.rs` (images, players,
//! what is dropped), over `dom.rs` (reading the tree) and `escape.rs` (writing Markdown).

mod dom;
mod escape;
mod inline;
mod media;
mod walk;

use html5ever::tendril::TendrilSink;
use html5ever::tree_builder::TreeBuilderOpts;
use html5ever::{ParseOpts, parse_document};
use markup5ever_rcdom::RcDom;

use super::builder::Builder;
use super::{Base, Converted};
use dom::{children, find, text_of};
use escape::collapse;
pub(crate) use escape::{escaped, push_escaped};

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

#[cfg(test)]
pub(crate) mod tests;
