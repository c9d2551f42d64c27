//! Ghost's JSON export (Settings → Labs → Export; `{"db": [{"meta", "data"}]}` or a bare
//! `{"meta", "data"}`), parsed whole under [`MAX_JSON_BYTES`]. Bodies are read from
//! `lexical` (Ghost 5 and 6), else `mobiledoc` (Ghost 1–4), else `html` or `markdown`
//! (Ghost 0.x): their text nodes and sections are written as HTML and converted by
//! [`crate::portable::convert::html`], their cards become blocks (image, gallery, embed, bookmark, code, html,
//! markdown, callout, toggle, button, header, video, audio, file, product); cards that only
//! make sense on Ghost (signup forms, email-only content, the paywall) are noted.
//!
//! `published` → published, `scheduled` → scheduled, `draft` → draft; a post sent by email
//! only (`sent`) and one not for everyone (`visibility` other than `public`) → draft, with a
//! note. Tags keep Ghost's order; internal `#tags` are noted, not kept. `__GHOST_URL__` in
//! addresses is the old site's address given by the person importing ([`Options::site_url`]).
//!
//! This file reads the export; `types.rs` is its JSON, `post.rs` one post or page, `body.rs`
//! its lexical or mobiledoc body and cards.

mod body;
mod post;
mod types;

use std::collections::HashMap;

use serde_json::Value;

use self::post::convert;
use self::types::{File, Tag};
use super::dates;
use crate::portable::convert::notes::{Notes, count};
use crate::portable::model::{Format, Read, Settings};
use crate::portable::{Export, Options, Unreadable};

/// Largest Ghost export read.
pub const MAX_JSON_BYTES: u64 = 512 * 1024 * 1024;
/// Ghost's placeholder for the site's own address.
const GHOST_URL: &str = "__GHOST_URL__";

/// Reads a Ghost export. Refuses JSON that is not one.
pub fn read(input: impl std::io::Read, options: &Options) -> Result<Export, Unreadable> {
    let bytes = super::read_capped(input, MAX_JSON_BYTES, "This Ghost export")?;
    let file: File = super::json_of(&bytes, "This Ghost export")?;
    let uses_placeholder = options.site_url.is_none() && memchr_find(&bytes, GHOST_URL.as_bytes());
    drop(bytes);
    let data = match file {
        File { db: Some(mut dbs), .. } if !dbs.is_empty() => dbs.swap_remove(0).data,
        File { meta: Some(_), data: Some(data), .. } => data,
        _ => return Err(not_ghost()),
    };
    let mut notes = Notes::default();
    if let Some(members) = &data.members
        && !members.is_empty()
    {
        notes.add(format!("{} not imported", count(members.len(), "member (subscriber)", "members (subscribers)")));
    }
    if uses_placeholder {
        notes.add(
            "Ghost names its images and links relative to its site: give the old site's address to import its images",
        );
    }
    let setting =
        |key: &str| data.settings.iter().find(|s| s.key == key).and_then(|s| s.value.as_str()).map(str::to_owned);
    let tags: HashMap<String, &Tag> = data.tags.iter().map(|t| (id(&t.id), t)).collect();
    let mut post_tags: HashMap<String, Vec<(i64, String, bool)>> = HashMap::new();
    for link in &data.posts_tags {
        if let Some(tag) = tags.get(&id(&link.tag_id)) {
            let internal = tag.visibility.as_deref() == Some("internal") || tag.name.starts_with('#');
            post_tags.entry(id(&link.post_id)).or_default().push((
                link.sort_order.unwrap_or(0),
                tag.name.clone(),
                internal,
            ));
        }
    }
    for list in post_tags.values_mut() {
        list.sort_by_key(|(order, _, _)| *order);
    }
    let meta: HashMap<String, (String, String)> = data
        .posts_meta
        .into_iter()
        .map(|m| {
            (id(&m.post_id), (m.feature_image_alt.unwrap_or_default(), m.feature_image_caption.unwrap_or_default()))
        })
        .collect();
    let read = Read {
        format: Format::Ghost,
        settings: Settings {
            name: setting("title"),
            time_zone: setting("timezone"),
            site_url: options.site_url.as_ref().map(|u| u.as_str().trim_end_matches('/').to_owned()),
            ..Settings::default()
        },
        expected_items: Some(data.posts.len() as u64),
        notes: notes.into_lines(),
    };
    let site = options.site_url.clone();
    let items = data.posts.into_iter().map(move |post| convert(post, &post_tags, &meta, site.as_ref()));
    Ok(Export { read, items: Box::new(items) })
}

fn not_ghost() -> Unreadable {
    Unreadable::new("This JSON file is not a Ghost export: in Ghost, use Settings → Labs → Export your content")
}

fn memchr_find(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// Ghost's ids: strings (ObjectIds) since 1.0, numbers before.
fn id(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn date(value: &Value) -> Option<time::OffsetDateTime> {
    match value {
        Value::String(s) => dates::parse(s),
        Value::Number(n) => n.as_i64().and_then(dates::from_millis),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
