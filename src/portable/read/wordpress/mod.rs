//! WordPress eXtended RSS (WXR 1.0–1.2, Tools → Export), read with an XML pull parser in two
//! passes over the file, so memory stays bounded whatever its size:
//!
//! 1. the whole file is checked (well-formed, not cut off, no DOCTYPE or entity
//!    declarations, no event over [`MAX_EVENT_BYTES`]) and its header, its attachments (id →
//!    address, alt text, caption) and the counts of what is not imported are read;
//! 2. the items are read again one at a time as [`Items`] yields them: posts and pages,
//!    each body converted from its HTML.
//!
//! Statuses: `publish` → published, `future` → scheduled, `draft`, `pending` and `private`
//! (and any password-protected post) → draft, with a note for the last three so nothing
//! private becomes public; `trash`, `auto-draft` and `inherit` are not imported. Bodies get
//! WordPress's own paragraph rule (wpautop: blank lines split paragraphs, single newlines are
//! line breaks) unless they are block-editor content, and its shortcodes `[caption]`,
//! `[gallery]`, `[embed]`, `[audio]`, `[video]` and Jetpack's `[youtube]`, `[tweet]`,
//! `[spotify]` are read; others are removed (their enclosed text kept) and noted.

mod items;
mod paragraphs;
mod scan;
mod shortcodes;
mod xml;

use std::io::{BufRead, Seek, SeekFrom};

use self::items::ItemsOf;
use self::xml::Wxr;
use crate::portable::convert::notes::{Notes, count};
use crate::portable::model::{Format, Read, Settings};
use crate::portable::{Export, Items, Options, Unreadable};

/// Largest single XML event (one text or CDATA section) read; larger ones refuse the file.
pub const MAX_EVENT_BYTES: u64 = 64 * 1024 * 1024;
/// Largest body of one item; a larger one is skipped and reported.
pub const MAX_BODY_BYTES: usize = 16 * 1024 * 1024;
/// Deepest element nesting read.
const MAX_XML_DEPTH: usize = 32;

/// Reads a WXR file. Refuses a file that is not one, is cut off, is not well-formed XML or
/// declares a DOCTYPE, before any item is yielded.
pub fn read<R: BufRead + Seek + Send + 'static>(mut input: R, options: &Options) -> Result<Export, Unreadable> {
    let scan = {
        let mut wxr = Wxr::new(&mut input);
        scan::scan(&mut wxr)?
    };
    input.seek(SeekFrom::Start(0)).map_err(super::io_error)?;
    let site = scan.blog_url.clone().or_else(|| options.site_url.clone());
    let mut notes = Notes::default();
    let mut others: Vec<(&String, &usize)> = scan.other_types.iter().collect();
    others.sort();
    for (kind, n) in others {
        let what = match kind.as_str() {
            "nav_menu_item" => count(*n, "menu entry", "menu entries"),
            "revision" => count(*n, "revision", "revisions"),
            "wp_block" => count(*n, "reusable block", "reusable blocks"),
            "trash" => count(*n, "post in the trash", "posts in the trash"),
            other => format!("{} of type {other}", count(*n, "item", "items")),
        };
        notes.add(format!("{what} not imported"));
    }
    if scan.comments > 0 {
        notes.add(format!("{} not imported: Quire has no comments", count(scan.comments, "comment", "comments")));
    }
    let read = Read {
        format: Format::WordPress,
        settings: Settings {
            subscribers: None,
            name: scan.title.clone().filter(|t| !t.is_empty()),
            site_url: site.as_ref().map(|u| u.to_string().trim_end_matches('/').to_owned()),
            ..Settings::default()
        },
        expected_items: Some(scan.items),
        notes: notes.into_lines(),
    };
    let items = ItemsOf { wxr: Wxr::new(input), attachments: scan.attachments, site, stack: Vec::new(), done: false };
    Ok(Export { read, items: Box::new(items) as Items })
}

#[cfg(test)]
mod tests;
