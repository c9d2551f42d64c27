//! The first pass over a WXR file: the blog's title and address, its attachments (id →
//! address, alt text, caption, which image blocks and `[gallery]` need before any item is
//! read) and the counts of what is not imported (comments, menus, revisions).

use std::collections::HashMap;
use std::io::BufRead;

use url::Url;

use super::xml::{Found, Wxr};
use crate::portable::Unreadable;
use crate::portable::convert::html;

pub(super) struct Attachment {
    pub(super) url: String,
    pub(super) alt: String,
    pub(super) caption: String,
    pub(super) parent: String,
}

#[derive(Default)]
pub(super) struct Scan {
    pub(super) title: Option<String>,
    pub(super) blog_url: Option<Url>,
    pub(super) attachments: HashMap<String, Attachment>,
    pub(super) items: u64,
    pub(super) comments: usize,
    pub(super) other_types: HashMap<String, usize>,
}

pub(super) fn scan<R: BufRead>(wxr: &mut Wxr<R>) -> Result<Scan, Unreadable> {
    let mut scan = Scan::default();
    let mut stack = Vec::new();
    let mut wxr_version = false;
    let (mut link, mut base_blog, mut base_site) = (None, None, None);
    loop {
        match wxr.next(false, &mut stack)? {
            Found::Header(name, text) => match name.as_str() {
                "title" => scan.title = Some(html::plain_text(&text)),
                "link" => link = Url::parse(text.trim()).ok(),
                "wp:base_blog_url" => base_blog = Url::parse(text.trim()).ok(),
                "wp:base_site_url" => base_site = Url::parse(text.trim()).ok(),
                "wp:wxr_version" => wxr_version = true,
                _ => {}
            },
            Found::Item(item) => {
                if !wxr_version && item.fields.contains_key("wp:post_type") {
                    wxr_version = true;
                }
                scan.comments += item.comments;
                match (item.get("wp:post_type"), item.get("wp:status")) {
                    ("attachment", _) => {
                        let alt = item
                            .meta
                            .iter()
                            .find(|(k, _)| k == "_wp_attachment_image_alt")
                            .map(|(_, v)| v.clone())
                            .unwrap_or_default();
                        scan.attachments.insert(
                            item.get("wp:post_id").to_owned(),
                            Attachment {
                                url: item.get("wp:attachment_url").trim().to_owned(),
                                alt,
                                caption: html::plain_text(item.get("excerpt:encoded")),
                                parent: item.get("wp:post_parent").to_owned(),
                            },
                        );
                    }
                    ("post" | "page", "trash") => *scan.other_types.entry("trash".into()).or_default() += 1,
                    ("post" | "page", "auto-draft" | "inherit") => {}
                    ("post" | "page", _) => scan.items += 1,
                    (other, _) => *scan.other_types.entry(other.to_owned()).or_default() += 1,
                }
            }
            Found::End => break,
        }
    }
    if !wxr_version {
        return Err(Unreadable::new(
            "This is an RSS feed, not a WordPress export: in WordPress, use Tools → Export and upload the .xml file it gives",
        ));
    }
    scan.blog_url = base_blog.or(link).or(base_site);
    Ok(scan)
}
