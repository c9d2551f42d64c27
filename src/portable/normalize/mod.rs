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
//! Image blocks keep their source URL: downloading them is the importer's (`blogs/imports/`),
//! which then checks the whole body with `Body::parse` and the blog's rules.
//!
//! This file holds the entry points and the post's other fields (tags, slug, old paths,
//! dates); `blocks.rs` the blocks.
//!
//! [`model`]: super::model

mod blocks;

use time::{Duration, OffsetDateTime};

use self::blocks::blocks;
use super::model::{Post, Read, State};
use crate::domain::blog::old_paths;
use crate::domain::blog::post_address::{is_slug, slug};
use crate::domain::content::blocks::{Block, Body, MAX_HEADING, MAX_PARAGRAPH, MAX_URL, Rules};
use crate::domain::content::markdown::escape_plain;
use crate::domain::content::schedule::{self, MAX_DAYS_AHEAD};
use crate::domain::content::tags::{self, MAX_TAGS};

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

/// Blocks pasted into the editor (issue 33), made to follow the same rules as an import's body
/// (no title heading added); with what changed, one sentence each. Image blocks keep their URL.
pub fn pasted_blocks(given: Vec<Block>) -> (Vec<Block>, Vec<String>) {
    let mut lines = Vec::new();
    let blocks = blocks("", given, &mut lines);
    (blocks, lines)
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

/// `message` with its first letter in lowercase, to follow a colon in a report's sentence.
pub fn lowercase_first(message: &str) -> String {
    let mut chars = message.chars();
    chars.next().map(|first| first.to_lowercase().chain(chars).collect()).unwrap_or_default()
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
mod tests;
