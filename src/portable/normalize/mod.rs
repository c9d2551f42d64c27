//! Imported posts made to follow Quire's rules, every change said in words for the report.
//! Readers carry over what a source holds without applying Quire's limits (see [`model`]);
//! [`normalize`] is the one place that applies them:
//!
//! - the title becomes the post's first heading (a Quire post's title is its first heading),
//!   unless the body gives that title already (as a Quire archive's always does);
//! - tags and categories become tags (`domain::tags::from_source`: "Road Trip" → `road-trip`,
//!   "Café" → `cafe`), internal tags (`#hidden`) are left out, duplicates merged, tags past
//!   the tenth left out;
//! - the slug is kept when it is one as Quire makes them, else made from it or the title;
//! - paragraphs over the limit are split at blank lines (then at a line or word break),
//!   headings over theirs become paragraphs, a body over the block limit has neighbouring
//!   paragraphs joined and then its end cut; empty blocks are left out;
//! - Spotify and tweet blocks whose URL breaks their prefix rule become links, links that
//!   cannot be links become text; alt texts, captions and link texts are cut to their limits;
//! - old paths become redirect keys (`domain::old_paths`);
//! - the state follows the dates: a scheduled time already past publishes at that time.
//!
//! Image blocks keep their source URL: downloading them is the importer's (`blogs/imports.rs`),
//! which then checks the whole body with `Body::parse` and the blog's rules.
//!
//! [`model`]: super::model

use time::{Duration, OffsetDateTime};

use super::model::{Post, Read, State};
use crate::domain::blocks::{
    Block, Body, MAX_ALT, MAX_BLOCKS, MAX_CAPTION, MAX_HEADING, MAX_PARAGRAPH, MAX_URL, Rules,
};
use crate::domain::markdown::escape_plain;
use crate::domain::old_paths;
use crate::domain::post::{is_slug, slug};
use crate::domain::schedule::{self, MAX_DAYS_AHEAD};
use crate::domain::tags::{self, MAX_TAGS};

/// Most lines one item adds to the report (an export can hold thousands of broken embeds in
/// one post): the rest are counted in one last line.
pub const MAX_ITEM_LINES: usize = 50;
/// Most old addresses one item keeps (a post has a handful); the rest are reported.
pub const MAX_OLD_PATHS: usize = 50;
/// Tags past the tenth named in the report line that says they were left out.
const TAGS_NAMED: usize = 10;

/// The key under which an item is remembered as imported into a blog: the same item of the
/// same export (same system, same old site, same source id) has the same key however often
/// it is read, so importing a file again skips what is there.
pub fn source_key(read: &Read, post: &Post) -> String {
    let site = read.settings.site_url.as_deref().unwrap_or_default().trim().trim_end_matches('/');
    format!("{}|{site}|{}", read.format.key(), post.source_id)
}

/// How a report names an item: its title, or its source id when it has none.
pub fn item_name(post: &Post) -> String {
    let title = clean_title(&post.title);
    if title.is_empty() { post.source_id.clone() } else { title }
}

/// Makes `post` follow Quire's rules (see the module's text) as of `now`; returns what changed
/// and what its reader could not carry over (its notes), one sentence each.
pub fn normalize(post: &mut Post, now: OffsetDateTime) -> Vec<String> {
    let mut lines = std::mem::take(&mut post.notes);
    post.title = clean_title(&post.title);
    if chars(&post.title) > MAX_HEADING {
        post.title = cut(&post.title, MAX_HEADING);
        lines.push(format!("the title was cut to {MAX_HEADING} characters"));
    }
    post.blocks = blocks(&post.title, std::mem::take(&mut post.blocks), &mut lines);
    post.tags = imported_tags(&post.tags, &mut lines);
    post.slug = imported_slug(post, &mut lines);
    post.old_paths = redirect_keys(&post.old_paths, &mut lines);
    dates(post, now, &mut lines);
    if lines.len() > MAX_ITEM_LINES {
        let more = lines.len() - MAX_ITEM_LINES;
        lines.truncate(MAX_ITEM_LINES);
        lines.push(format!("and {more} more changes like these"));
    }
    lines
}

/// A link block to `url` showing `title`, or, when `url` cannot be a link block's (not http(s),
/// spaces, too long), a paragraph with the title and the address as text. `None` when there
/// is nothing to show.
pub fn link_or_text(url: &str, title: &str) -> Option<Block> {
    let (url, title) = (url.trim(), cut(title.trim(), MAX_URL));
    let link = Block::Link { url: url.to_owned(), title: title.clone() };
    if link.problem(&no_image_rules()).is_none() {
        return Some(link);
    }
    let text = match (title.is_empty(), url.is_empty()) {
        (true, true) => return None,
        (true, false) => url.to_owned(),
        (false, true) => title,
        (false, false) => format!("{title} ({url})"),
    };
    Some(Block::Paragraph { text: cut(&escape_plain(&text), MAX_PARAGRAPH) })
}

/// Rules for checking blocks other than images (whose prefix is the blog's).
fn no_image_rules() -> Rules {
    Rules { image_prefix: String::new() }
}

/// Plain text on one line: runs of white space (line breaks included) become one space.
fn clean_title(title: &str) -> String {
    title.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The first `max` characters of `text`.
fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => text[..at].to_owned(),
        None => text.to_owned(),
    }
}

fn chars(text: &str) -> usize {
    text.chars().count()
}

/// The body: the title as its first heading (unless the body gives that title already), then
/// each block made to follow its rules.
fn blocks(title: &str, given: Vec<Block>, lines: &mut Vec<String>) -> Vec<Block> {
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

fn heading(text: &str, out: &mut Vec<Block>, lines: &mut Vec<String>) {
    if chars(text) <= MAX_HEADING {
        out.push(Block::Heading { text: text.to_owned() });
        return;
    }
    lines.push(format!("a heading longer than {MAX_HEADING} characters became a paragraph"));
    paragraph(escape_plain(text), out, lines);
}

fn paragraph(text: String, out: &mut Vec<Block>, lines: &mut Vec<String>) {
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
fn embed(block: Block, kind: &str, out: &mut Vec<Block>, lines: &mut Vec<String>) {
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

/// `message` with its first letter in lowercase, to follow a colon in a report's sentence.
pub fn lowercase_first(message: &str) -> String {
    let mut chars = message.chars();
    chars.next().map(|first| first.to_lowercase().chain(chars).collect()).unwrap_or_default()
}

/// Paragraph text in parts of at most [`MAX_PARAGRAPH`] characters: cut at blank lines, the
/// parts packed back together while they fit; a part that cannot fit is cut at its last line
/// break or space before the limit (or at the limit, in the second half of it none is).
fn split_paragraph(text: &str) -> Vec<String> {
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

fn hard_split(mut rest: &str) -> Vec<String> {
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
fn fit_block_count(blocks: &mut Vec<Block>, lines: &mut Vec<String>) {
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

/// The source's tags and categories as Quire tags, in the source's order.
fn imported_tags(given: &[String], lines: &mut Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    // The source's name that gave each tag in `out`, to tell a real merge from a repeat.
    let mut named_by: Vec<String> = Vec::new();
    let (mut over, mut unnamed): (Vec<String>, usize) = (Vec::new(), 0);
    for raw in given {
        let trimmed = raw.trim();
        if trimmed.is_empty() {
            continue;
        }
        if tags::is_internal(trimmed) {
            lines.push(format!("the internal tag {trimmed} was left out"));
            continue;
        }
        let Some(tag) = tags::from_source(trimmed) else {
            lines.push(format!("the tag \"{trimmed}\" was left out: it has no letter or digit a tag can keep"));
            continue;
        };
        if let Some(at) = out.iter().position(|t| *t == tag) {
            if !named_by[at].eq_ignore_ascii_case(trimmed) {
                lines.push(format!("the tags \"{}\" and \"{trimmed}\" were merged into {tag}", named_by[at]));
            }
            continue;
        }
        if out.len() == MAX_TAGS {
            if over.contains(&tag) {
            } else if over.len() < TAGS_NAMED {
                over.push(tag);
            } else {
                unnamed += 1;
            }
            continue;
        }
        if tag != trimmed.to_ascii_lowercase() {
            lines.push(format!("the tag \"{trimmed}\" became {tag}"));
        }
        out.push(tag);
        named_by.push(trimmed.to_owned());
    }
    if !over.is_empty() {
        let more = if unnamed > 0 { format!(" and {unnamed} more") } else { String::new() };
        lines.push(format!("a post has at most {MAX_TAGS} tags: {}{more} left out", over.join(", ")));
    }
    out
}

/// The source's slug when it is one as Quire makes them (percent-encoding undone first),
/// else one made from it, else from the title (as the post's first heading gives it).
fn imported_slug(post: &mut Post, lines: &mut Vec<String>) -> String {
    let given = percent_encoding::percent_decode_str(post.slug.trim()).decode_utf8_lossy().into_owned();
    if is_slug(&given) {
        return given;
    }
    let made = if given.chars().any(char::is_alphanumeric) {
        slug(&given)
    } else {
        let body = Body::from_blocks(std::mem::take(&mut post.blocks));
        let made = slug(&body.title());
        post.blocks = body.children;
        made
    };
    if !given.is_empty() {
        lines.push(format!("the slug \"{given}\" became {made}"));
    }
    made
}

/// The old paths as redirect keys, each once.
fn redirect_keys(given: &[String], lines: &mut Vec<String>) -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    let mut over = 0;
    for path in given {
        match old_paths::key(path) {
            Some(key) if keys.contains(&key) => {}
            Some(_) if keys.len() == MAX_OLD_PATHS => over += 1,
            Some(key) => keys.push(key),
            None => {
                let path = cut(path, 200);
                lines.push(format!(
                    "the old address \"{path}\" cannot be redirected: it is not a path of an item on the old site"
                ));
            }
        }
    }
    if over > 0 {
        lines.push(format!("{over} more old addresses were not kept: an item keeps at most {MAX_OLD_PATHS}"));
    }
    keys
}

/// Every date filled in, and the state they allow: a scheduled time already past publishes
/// at that time; one with no time, or more than `MAX_DAYS_AHEAD` days ahead, stays a draft.
fn dates(post: &mut Post, now: OffsetDateTime, lines: &mut Vec<String>) {
    match post.state {
        State::Draft => post.published_at = None,
        State::Published => {
            if post.published_at.is_none() {
                post.published_at = match post.created_at {
                    Some(created) => Some(created),
                    None => {
                        lines.push("no publication date: published at the time of the import".to_owned());
                        Some(now)
                    }
                };
            }
        }
        State::Scheduled => match post.published_at {
            None => {
                lines.push("scheduled without a time: imported as a draft".to_owned());
                post.state = State::Draft;
            }
            Some(at) if at <= now => {
                lines.push(format!(
                    "was scheduled for {}, which has passed: published at that time",
                    schedule::stored(at)
                ));
                post.state = State::Published;
            }
            Some(at) if at > now + Duration::days(MAX_DAYS_AHEAD) => {
                lines.push(format!("scheduled more than {MAX_DAYS_AHEAD} days ahead: imported as a draft"));
                post.state = State::Draft;
                post.published_at = None;
            }
            Some(_) => {}
        },
    }
    let created = post.created_at.or(post.published_at.filter(|at| *at <= now)).unwrap_or(now);
    post.created_at = Some(created);
    post.updated_at =
        Some(post.updated_at.or(post.published_at.filter(|_| post.state == State::Published)).unwrap_or(created));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::portable::model::{Format, Kind, Settings};
    use time::macros::datetime;

    const NOW: OffsetDateTime = datetime!(2026-11-24 12:00 UTC);

    fn post(title: &str, blocks: Vec<Block>) -> Post {
        Post {
            source_id: "12".into(),
            kind: Kind::Post,
            title: title.into(),
            slug: String::new(),
            blocks,
            state: State::Published,
            created_at: None,
            published_at: Some(datetime!(2015-03-14 09:26 UTC)),
            updated_at: None,
            tags: Vec::new(),
            old_paths: Vec::new(),
            page_position: None,
            notes: Vec::new(),
        }
    }

    fn para(text: &str) -> Block {
        Block::Paragraph { text: text.into() }
    }

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn the_title_becomes_the_first_heading_once() {
        let mut p = post("Hello\n  from the  harbour", vec![para("Text")]);
        assert!(normalize(&mut p, NOW).is_empty());
        assert_eq!(p.blocks, vec![Block::Heading { text: "Hello from the harbour".into() }, para("Text")]);
        assert_eq!(p.slug, "hello-from-the-harbour");
        let mut again = post("Hello from the harbour", p.blocks.clone());
        normalize(&mut again, NOW);
        assert_eq!(again.blocks, p.blocks, "a body that starts with its title keeps one heading");
        // A Quire post may start with a paragraph: its title is then read from the body.
        let note = vec![para("Just a *note*\n\nand more"), Block::Heading { text: "Later".into() }];
        let mut quire = post("Later", note.clone());
        normalize(&mut quire, NOW);
        assert_eq!(quire.blocks, note, "a body that gives its title is kept as it is");
        let mut plain = post("Just a note", vec![para("Just a *note*")]);
        normalize(&mut plain, NOW);
        assert_eq!(plain.blocks, vec![para("Just a *note*")], "as is a paragraph whose plain text is the title");
    }

    #[test]
    fn tags_are_transliterated_merged_and_capped_each_change_said() {
        let mut p = post("T", vec![]);
        p.tags = strings(&["Travel", "Road Trip", "Café", "travel", "#hidden", "road-trip", "!!!", "Écriture"]);
        let lines = normalize(&mut p, NOW);
        assert_eq!(p.tags, strings(&["travel", "road-trip", "cafe", "ecriture"]));
        assert_eq!(
            lines,
            strings(&[
                "the tag \"Road Trip\" became road-trip",
                "the tag \"Café\" became cafe",
                "the internal tag #hidden was left out",
                "the tags \"Road Trip\" and \"road-trip\" were merged into road-trip",
                "the tag \"!!!\" was left out: it has no letter or digit a tag can keep",
                "the tag \"Écriture\" became ecriture",
            ])
        );
        let mut many = post("T", vec![]);
        many.tags = (0..13).map(|n| format!("t{n}")).collect();
        let lines = normalize(&mut many, NOW);
        assert_eq!(many.tags.len(), MAX_TAGS);
        assert_eq!(lines, strings(&["a post has at most 10 tags: t10, t11, t12 left out"]));
    }

    #[test]
    fn slugs_are_kept_when_valid_and_made_otherwise() {
        let cases = [
            ("my-post", "my-post", false),
            ("", "hello-world", false),
            ("Crème Brûlée", "creme-brulee", true),
            ("cr%C3%A8me-br%C3%BBl%C3%A9e", "creme-brulee", true),
            ("日本", "ri-ben", true),
            ("!!!", "hello-world", true),
        ];
        for (given, want, said) in cases {
            let mut p = post("Hello, World", vec![]);
            p.slug = given.into();
            let lines = normalize(&mut p, NOW);
            assert_eq!(p.slug, want, "{given}");
            assert_eq!(!lines.is_empty(), said, "{given}: {lines:?}");
        }
    }

    #[test]
    fn long_paragraphs_split_at_blank_lines_then_hard() {
        let third = "word ".repeat(1900);
        let text = format!("{third}\n\n{third}\n\n{third}");
        let mut p = post("", vec![para(&text)]);
        let lines = normalize(&mut p, NOW);
        assert_eq!(p.blocks, vec![para(&format!("{third}\n\n{third}")), para(&third)], "packed at blank lines");
        assert_eq!(
            lines,
            strings(&["a paragraph of 28504 characters was split into 2 (a paragraph holds at most 20000)"])
        );
        let solid = "x".repeat(MAX_PARAGRAPH * 2 + 5);
        let mut p = post("", vec![para(&solid)]);
        normalize(&mut p, NOW);
        let lengths: Vec<usize> = p
            .blocks
            .iter()
            .map(|b| match b {
                Block::Paragraph { text } => chars(text),
                _ => 0,
            })
            .collect();
        assert_eq!(lengths, vec![MAX_PARAGRAPH, MAX_PARAGRAPH, 5]);
        let words = "word ".repeat(MAX_PARAGRAPH / 4);
        for part in split_paragraph(&words) {
            assert!(chars(&part) <= MAX_PARAGRAPH && part.ends_with("word"), "cut at a space");
        }
    }

    #[test]
    fn too_many_blocks_are_joined_then_cut() {
        let mut p = post("T", (0..MAX_BLOCKS + 50).map(|n| para(&format!("p{n}"))).collect());
        let lines = normalize(&mut p, NOW);
        assert_eq!(p.blocks.len(), MAX_BLOCKS);
        assert_eq!(lines, strings(&["51 paragraphs were joined to their neighbours: a post holds at most 500 blocks"]));
        let links = (0..MAX_BLOCKS + 2)
            .map(|n| Block::Link { url: format!("https://e.com/{n}"), title: String::new() })
            .collect();
        let mut p = post("T", links);
        let lines = normalize(&mut p, NOW);
        assert_eq!(p.blocks.len(), MAX_BLOCKS);
        assert_eq!(lines, strings(&["the last 3 blocks were left out: a post holds at most 500 blocks"]));
    }

    #[test]
    fn bad_embeds_and_links_become_links_or_text_and_limits_cut() {
        let mut p = post(
            "T",
            vec![
                Block::Spotify { url: "https://open.spotify.com/track/1".into() },
                Block::Spotify { url: "spotify:track:1".into() },
                Block::Tweet { url: "https://mobile.twitter.com/jack/status/20".into() },
                Block::Link { url: "javascript:alert(1)".into(), title: "Click".into() },
                Block::Heading { text: "  ".into() },
                Block::Heading { text: "h".repeat(MAX_HEADING + 1) },
                Block::Image { url: "https://e.com/a.png".into(), alt: "a".repeat(MAX_ALT + 9), caption: "c".into() },
            ],
        );
        let lines = normalize(&mut p, NOW);
        assert_eq!(p.blocks[1], Block::Spotify { url: "https://open.spotify.com/track/1".into() });
        assert_eq!(p.blocks[2], para("spotify:track:1"));
        assert_eq!(
            p.blocks[3],
            Block::Link { url: "https://mobile.twitter.com/jack/status/20".into(), title: String::new() }
        );
        assert_eq!(p.blocks[4], para("Click (javascript:alert(1))"));
        assert!(matches!(&p.blocks[5], Block::Paragraph { text } if chars(text) == MAX_HEADING + 1));
        assert!(matches!(&p.blocks[6], Block::Image { alt, .. } if chars(alt) == MAX_ALT));
        assert_eq!(
            lines,
            strings(&[
                "the Spotify embed spotify:track:1 is kept as text: its address should start with https://open.spotify.com/",
                "the tweet embed https://mobile.twitter.com/jack/status/20 is kept as a link: its address should start with https://twitter.com/ or https://x.com/",
                "the link to javascript:alert(1) is kept as text: a link block's address starts with http:// or https:// and has no spaces or quotes",
                "a heading longer than 300 characters became a paragraph",
                "the alt text of image https://e.com/a.png was cut to 1000 characters",
                "1 empty block was left out",
            ])
        );
    }

    #[test]
    fn states_follow_the_dates() {
        let mut scheduled = post("T", vec![]);
        scheduled.state = State::Scheduled;
        scheduled.published_at = Some(datetime!(2030-01-01 09:00 UTC));
        assert!(normalize(&mut scheduled, NOW).is_empty());
        assert_eq!((scheduled.state, scheduled.created_at), (State::Scheduled, Some(NOW)));
        let mut past = post("T", vec![]);
        past.state = State::Scheduled;
        past.published_at = Some(datetime!(2020-01-01 09:00 UTC));
        assert_eq!(
            normalize(&mut past, NOW),
            strings(&["was scheduled for 2020-01-01T09:00:00.000Z, which has passed: published at that time"])
        );
        assert_eq!(past.state, State::Published);
        let mut timeless = post("T", vec![]);
        timeless.state = State::Scheduled;
        timeless.published_at = None;
        normalize(&mut timeless, NOW);
        assert_eq!(timeless.state, State::Draft);
        let mut draft = post("T", vec![]);
        draft.state = State::Draft;
        draft.created_at = Some(datetime!(2020-05-01 08:00 UTC));
        normalize(&mut draft, NOW);
        assert_eq!((draft.published_at, draft.updated_at), (None, Some(datetime!(2020-05-01 08:00 UTC))));
        let mut undated = post("T", vec![]);
        undated.published_at = None;
        assert_eq!(
            normalize(&mut undated, NOW),
            strings(&["no publication date: published at the time of the import"])
        );
        assert_eq!(undated.published_at, Some(NOW));
    }

    #[test]
    fn what_an_item_adds_to_the_report_is_bounded() {
        let mut p =
            post(&"t".repeat(MAX_HEADING + 5), (0..200).map(|n| Block::Tweet { url: format!("x{n}") }).collect());
        p.tags = (0..1000).map(|n| format!("t{n}")).collect();
        p.old_paths = (0..200).map(|n| format!("/p{n}")).collect();
        let lines = normalize(&mut p, NOW);
        assert_eq!(lines.len(), MAX_ITEM_LINES + 1);
        assert_eq!(lines[0], "the title was cut to 300 characters");
        assert_eq!(lines[MAX_ITEM_LINES], "and 153 more changes like these");
        assert_eq!(p.old_paths.len(), MAX_OLD_PATHS);
        let mut tagged = post("T", vec![]);
        tagged.tags = (0..1000).map(|n| format!("t{n}")).collect();
        let tags = normalize(&mut tagged, NOW);
        assert_eq!(
            tags,
            strings(&[
                "a post has at most 10 tags: t10, t11, t12, t13, t14, t15, t16, t17, t18, t19 and 980 more left out"
            ])
        );
    }

    #[test]
    fn old_paths_become_keys_and_notes_come_first() {
        let mut p = post("T", vec![]);
        p.notes = strings(&["a comment was not imported"]);
        p.old_paths = strings(&["/2015/03/hello/", "/2015/03/hello", "/?p=12", "/", "https://old.example.com/hello"]);
        let lines = normalize(&mut p, NOW);
        assert_eq!(p.old_paths, strings(&["/2015/03/hello", "/?p=12", "/hello"]));
        assert_eq!(
            lines,
            strings(&[
                "a comment was not imported",
                "the old address \"/\" cannot be redirected: it is not a path of an item on the old site",
            ])
        );
    }

    #[test]
    fn source_keys_name_the_system_the_site_and_the_item() {
        let read = |format, site: Option<&str>| Read {
            format,
            settings: Settings { site_url: site.map(str::to_owned), ..Settings::default() },
            expected_items: None,
            notes: Vec::new(),
        };
        let p = post("T", vec![]);
        assert_eq!(
            source_key(&read(Format::WordPress, Some("http://old.example.com/")), &p),
            "wordpress|http://old.example.com|12"
        );
        assert_ne!(
            source_key(&read(Format::WordPress, Some("http://other.example.com")), &p),
            source_key(&read(Format::WordPress, None), &p)
        );
        assert_eq!(source_key(&read(Format::QuireArchive, None), &p), "quire||12");
    }
}
