//! The second pass over a WXR file: each post and page read again one at a time as the
//! iterator yields them, its status, dates, tags, categories and old addresses read, and its
//! body converted: WordPress's paragraph rule ([`super::paragraphs`]) and shortcodes
//! ([`super::shortcodes`]) first, then HTML to blocks.

use std::collections::HashMap;
use std::io::BufRead;

use url::Url;

use super::MAX_BODY_BYTES;
use super::paragraphs::autop;
use super::scan::Attachment;
use super::shortcodes::shortcodes;
use super::xml::{Found, Item, Wxr};
use crate::domain::content::blocks::Block;
use crate::portable::Problem;
use crate::portable::convert::links::path_under;
use crate::portable::convert::notes::Notes;
use crate::portable::convert::{Base, html};
use crate::portable::model::{Kind, Post, State};
use crate::portable::read::dates;

pub(super) struct ItemsOf<R> {
    pub(super) wxr: Wxr<R>,
    pub(super) attachments: HashMap<String, Attachment>,
    pub(super) site: Option<Url>,
    pub(super) stack: Vec<String>,
    pub(super) done: bool,
}

impl<R: BufRead> Iterator for ItemsOf<R> {
    type Item = Result<Post, Problem>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            match self.wxr.next(true, &mut self.stack) {
                Ok(Found::Item(item)) => {
                    if let Some(post) = self.post(item) {
                        return Some(post);
                    }
                }
                Ok(Found::Header(..)) => {}
                Ok(Found::End) => self.done = true,
                Err(err) => {
                    // The first pass read the same bytes whole: only a file changed since fails.
                    self.done = true;
                    return Some(Err(Problem::File(err)));
                }
            }
        }
        None
    }
}

impl<R> ItemsOf<R> {
    /// The post an item becomes, `None` for what is not imported (attachments, menus, ...).
    pub(super) fn post(&self, item: Item) -> Option<Result<Post, Problem>> {
        let kind = match item.get("wp:post_type") {
            "post" => Kind::Post,
            "page" => Kind::Page,
            _ => return None,
        };
        let status = item.get("wp:status");
        if matches!(status, "trash" | "auto-draft" | "inherit") {
            return None;
        }
        let id = item.get("wp:post_id").trim().to_owned();
        let title = html::plain_text(item.get("title"));
        if item.too_large {
            return Some(Err(Problem::item(
                id,
                title,
                format!("Its body is over {} MB: not imported", MAX_BODY_BYTES / 1024 / 1024),
            )));
        }
        let mut notes = Notes::default();
        let password = !item.get("wp:post_password").is_empty();
        let state = match status {
            _ if password => {
                notes.add("It was protected by a password in WordPress: imported as a draft");
                State::Draft
            }
            "publish" => State::Published,
            "future" => State::Scheduled,
            "private" => {
                notes.add("It was private in WordPress: imported as a draft");
                State::Draft
            }
            "pending" => {
                notes.add("It was pending review in WordPress: imported as a draft");
                State::Draft
            }
            _ => State::Draft,
        };
        let date = dates::parse(item.get("wp:post_date_gmt")).or_else(|| dates::parse(item.get("wp:post_date")));
        let published_at = match state {
            State::Draft => None,
            _ => date.or_else(|| dates::parse(item.get("pubDate"))),
        };
        let mut tags: Vec<String> = Vec::new();
        for (domain, nicename, name) in &item.categories {
            let name = html::plain_text(name);
            match domain.as_str() {
                "category" if nicename == "uncategorized" => {}
                "category" | "post_tag" => {
                    if !name.is_empty() && !tags.contains(&name) {
                        tags.push(name);
                    }
                }
                "post_format" => {}
                other => notes.add(format!("Its {other} “{name}” was not kept")),
            }
        }
        let slug = percent_decode(item.get("wp:post_name").trim());
        let mut old_paths = Vec::new();
        let link = item.get("link").trim();
        let mut add_path = |path: String| {
            if !old_paths.contains(&path) {
                old_paths.push(path);
            }
        };
        let link_path = path_under(link, self.site.as_ref());
        if let Some(path) = &link_path {
            add_path(path.clone());
        }
        if !id.is_empty() {
            add_path(format!("/?p={id}"));
            if kind == Kind::Page {
                add_path(format!("/?page_id={id}"));
            }
        }
        for (key, value) in &item.meta {
            if key == "_wp_old_slug"
                && let Some(path) = link_path.as_deref().filter(|p| !slug.is_empty() && p.contains(&slug))
            {
                add_path(path.replacen(&slug, &percent_decode(value), 1));
            }
        }
        let body = body(&item, &self.attachments, self.site.as_ref(), &mut notes);
        Some(Ok(Post {
            source_id: id,
            kind,
            title,
            slug,
            blocks: body,
            state,
            created_at: date,
            published_at,
            updated_at: dates::parse(item.get("wp:post_modified_gmt"))
                .or_else(|| dates::parse(item.get("wp:post_modified"))),
            tags,
            old_paths,
            page_position: (kind == Kind::Page).then(|| item.get("wp:menu_order").trim().parse().unwrap_or(0)),
            comments_closed: false,
            unlisted: false,
            revisions: Vec::new(),
            notes: notes.into_lines(),
        }))
    }
}

/// An item's blocks: its featured image first, then its body converted.
pub(super) fn body(
    item: &Item,
    attachments: &HashMap<String, Attachment>,
    site: Option<&Url>,
    notes: &mut Notes,
) -> Vec<Block> {
    let content = item.get("content:encoded");
    let id = item.get("wp:post_id").trim();
    let gutenberg = content.contains("<!-- wp:");
    let mut html = shortcodes(content, id, attachments, notes);
    if gutenberg {
        dynamic_blocks(content, notes);
    } else {
        html = autop(&html);
    }
    let converted = html::to_blocks(&html, &Base::site(site));
    notes.extend(converted.notes);
    let mut blocks = converted.blocks;
    let featured = item.meta.iter().find(|(k, _)| k == "_thumbnail_id").and_then(|(_, v)| attachments.get(v.trim()));
    if let Some(image) = featured {
        let url = Base::site(site).image(&image.url);
        if let Some(url) = url
            && !blocks.iter().any(|b| matches!(b, Block::Image { url: u, .. } if *u == url))
        {
            blocks.insert(0, Block::Image { url, alt: image.alt.clone(), caption: image.caption.clone() });
        }
    }
    blocks
}

/// Notes for block-editor blocks WordPress fills in when it shows the page (latest posts,
/// a reusable block): their comment holds no content to carry over.
pub(super) fn dynamic_blocks(content: &str, notes: &mut Notes) {
    for (at, _) in content.match_indices("<!-- wp:") {
        let rest = &content[at + 8..];
        let Some(end) = rest.find("-->") else { continue };
        let comment = &rest[..end];
        if !comment.trim_end().ends_with('/') {
            continue;
        }
        let name: String =
            comment.chars().take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '/' | '_')).collect();
        let name = name.trim_end_matches('/');
        if !matches!(name, "more" | "nextpage" | "separator" | "spacer") {
            notes.add(format!(
                "A WordPress block ({name}) that WordPress filled in when showing the page was not imported"
            ));
        }
    }
}

/// `%e6%97%a5` → `日` (WordPress stores non-ASCII slugs percent-encoded).
pub(super) fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let (Some(high), Some(low)) = (hex(bytes[i + 1]), hex(bytes[i + 2]))
        {
            out.push((high * 16 + low) as u8);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}
