//! The body made to follow Quire's rules: the title as its first heading (unless the body
//! gives it already), paragraphs over the limit split, headings over theirs made paragraphs,
//! embeds that break their prefix rule made links, empty blocks left out, and a body over
//! [`MAX_BLOCKS`] blocks joined and then cut. Each change is a line for the report.

use super::{chars, cut, link_or_text, lowercase_first, no_image_rules};
use crate::domain::content::blocks::{
    Block, Body, MAX_ALT, MAX_BLOCKS, MAX_CAPTION, MAX_HEADING, MAX_PARAGRAPH, MAX_URL,
};
use crate::domain::content::markdown::escape_plain;

/// The body: the title as its first heading (unless the body gives that title already), then
/// each block made to follow its rules.
pub(super) fn blocks(title: &str, given: Vec<Block>, lines: &mut Vec<String>) -> Vec<Block> {
    let mut out = Vec::with_capacity(given.len() + 1);
    let starts_with_title = matches!(given.first(), Some(Block::Heading { text }) if text.trim() == title);
    // A body Quire already reads this title from (its first heading, else its first
    // paragraph's first line): a Quire archive's posts, whose title was read from their body,
    // and which may start with a paragraph. A heading added there would change the post.
    let body = Body::from_blocks(given);
    let gives_title = body.title() == title;
    let given = body.children;
    if !title.is_empty() && !starts_with_title && !gives_title {
        heading(title, &mut out, lines);
    }
    let mut empty = 0;
    for block in given {
        match block {
            Block::Heading { text } if text.trim().is_empty() => empty += 1,
            Block::Heading { text } => heading(text.trim(), &mut out, lines),
            Block::Paragraph { text } if text.trim().is_empty() => empty += 1,
            Block::Paragraph { text } => paragraph(text, &mut out, lines),
            Block::Link { url, title } => {
                if chars(&title) > MAX_URL {
                    lines.push(format!("the text of the link to {url} was cut to {MAX_URL} characters"));
                }
                match link_or_text(&url, &title) {
                    Some(block @ Block::Link { .. }) => out.push(block),
                    Some(text) => {
                        let rule = "a link block's address starts with http:// or https:// and has no spaces or quotes";
                        lines.push(format!("the link to {url} is kept as text: {rule}"));
                        out.push(text);
                    }
                    None => empty += 1,
                }
            }
            Block::Image { url, alt, caption } => {
                if chars(&alt) > MAX_ALT {
                    lines.push(format!("the alt text of image {url} was cut to {MAX_ALT} characters"));
                }
                if chars(&caption) > MAX_CAPTION {
                    lines.push(format!("the caption of image {url} was cut to {MAX_CAPTION} characters"));
                }
                let (alt, caption) = (cut(&alt, MAX_ALT), cut(&caption, MAX_CAPTION));
                out.push(Block::Image { url: url.trim().to_owned(), alt, caption });
            }
            Block::Spotify { url } => embed(Block::Spotify { url }, "Spotify", &mut out, lines),
            Block::Tweet { url } => embed(Block::Tweet { url }, "tweet", &mut out, lines),
        }
    }
    if empty > 0 {
        lines.push(format!("{empty} empty {} left out", if empty == 1 { "block was" } else { "blocks were" }));
    }
    fit_block_count(&mut out, lines);
    out
}

pub(super) fn heading(text: &str, out: &mut Vec<Block>, lines: &mut Vec<String>) {
    if chars(text) <= MAX_HEADING {
        out.push(Block::Heading { text: text.to_owned() });
        return;
    }
    lines.push(format!("a heading longer than {MAX_HEADING} characters became a paragraph"));
    paragraph(escape_plain(text), out, lines);
}

pub(super) fn paragraph(text: String, out: &mut Vec<Block>, lines: &mut Vec<String>) {
    let length = chars(&text);
    if length <= MAX_PARAGRAPH {
        out.push(Block::Paragraph { text });
        return;
    }
    let parts = split_paragraph(&text);
    lines.push(format!(
        "a paragraph of {length} characters was split into {} (a paragraph holds at most {MAX_PARAGRAPH})",
        parts.len()
    ));
    out.extend(parts.into_iter().map(|text| Block::Paragraph { text }));
}

/// A Spotify or tweet block, or a link to its URL when the URL breaks the block's rule.
pub(super) fn embed(block: Block, kind: &str, out: &mut Vec<Block>, lines: &mut Vec<String>) {
    let (Block::Spotify { url } | Block::Tweet { url }) = &block else { unreachable!("embed takes embeds") };
    let Some(problem) = block.problem(&no_image_rules()) else {
        out.push(block);
        return;
    };
    match link_or_text(url, "") {
        Some(link) => {
            let kept = if matches!(link, Block::Link { .. }) { "a link" } else { "text" };
            lines.push(format!("the {kind} embed {url} is kept as {kept}: its address {}", lowercase_first(&problem)));
            out.push(link);
        }
        None => lines.push(format!("an empty {kind} embed was left out")),
    }
}

/// Paragraph text in parts of at most [`MAX_PARAGRAPH`] characters: cut at blank lines, the
/// parts packed back together while they fit; a part that cannot fit is cut at its last line
/// break or space before the limit (or at the limit, in the second half of it none is).
pub(super) fn split_paragraph(text: &str) -> Vec<String> {
    let mut chunks: Vec<String> = Vec::new();
    let mut chunk = String::new();
    for line in text.split('\n') {
        if line.trim().is_empty() {
            chunks.push(std::mem::take(&mut chunk));
        } else {
            if !chunk.is_empty() {
                chunk.push('\n');
            }
            chunk.push_str(line);
        }
    }
    chunks.push(chunk);
    let mut parts: Vec<String> = Vec::new();
    let (mut current, mut current_chars) = (String::new(), 0);
    for chunk in chunks.into_iter().filter(|c| !c.trim().is_empty()) {
        let length = chars(&chunk);
        if !current.is_empty() && current_chars + 2 + length > MAX_PARAGRAPH {
            parts.push(std::mem::take(&mut current));
            current_chars = 0;
        }
        if length > MAX_PARAGRAPH {
            parts.extend(hard_split(&chunk));
            continue;
        }
        if !current.is_empty() {
            current.push_str("\n\n");
            current_chars += 2;
        }
        current.push_str(&chunk);
        current_chars += length;
    }
    if !current.is_empty() {
        parts.push(current);
    }
    parts
}

pub(super) fn hard_split(mut rest: &str) -> Vec<String> {
    let mut parts = Vec::new();
    while let Some((limit, _)) = rest.char_indices().nth(MAX_PARAGRAPH) {
        let head = &rest[..limit];
        let at = head.rfind(['\n', ' ']).filter(|&at| at > limit / 2).map_or(limit, |at| at + 1);
        parts.push(rest[..at].trim_end().to_owned());
        rest = &rest[at..];
    }
    parts.push(rest.trim_end().to_owned());
    parts.retain(|part| !part.trim().is_empty());
    parts
}

/// Joins neighbouring paragraphs (while they fit in one) until the body has at most
/// [`MAX_BLOCKS`] blocks, then cuts what is still past it.
pub(super) fn fit_block_count(blocks: &mut Vec<Block>, lines: &mut Vec<String>) {
    if blocks.len() <= MAX_BLOCKS {
        return;
    }
    let given = blocks.len();
    let mut excess = given - MAX_BLOCKS;
    let mut out: Vec<Block> = Vec::with_capacity(MAX_BLOCKS);
    for block in blocks.drain(..) {
        if excess > 0
            && let (Block::Paragraph { text }, Some(Block::Paragraph { text: last })) = (&block, out.last_mut())
            && chars(last) + 2 + chars(text) <= MAX_PARAGRAPH
        {
            last.push_str("\n\n");
            last.push_str(text);
            excess -= 1;
            continue;
        }
        out.push(block);
    }
    let joined = given - out.len();
    if joined > 0 {
        lines.push(format!(
            "{joined} paragraphs were joined to their neighbours: a post holds at most {MAX_BLOCKS} blocks"
        ));
    }
    if out.len() > MAX_BLOCKS {
        let cut = out.len() - MAX_BLOCKS;
        lines.push(format!("the last {cut} blocks were left out: a post holds at most {MAX_BLOCKS} blocks"));
        out.truncate(MAX_BLOCKS);
    }
    *blocks = out;
}
