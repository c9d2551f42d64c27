//! Ghost's JSON export (Settings → Labs → Export; `{"db": [{"meta", "data"}]}` or a bare
//! `{"meta", "data"}`), read as a stream in two passes under [`MAX_JSON_BYTES`] and the
//! import's caps (one post at a time: memory stays bounded whatever the file holds). Bodies are read from
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
//! This file reads the export; `stream.rs` walks its JSON, `items.rs` yields its posts,
//! `types.rs` is the JSON of its rows, `post.rs` one post or page, `body.rs` its lexical or
//! mobiledoc body and cards.

mod body;
mod items;
mod post;
mod stream;
mod types;

use std::collections::HashMap;
use std::io::{Seek, SeekFrom};

use serde_json::Value;

use self::items::{Pending, Posts};
use self::stream::Walk;
use super::dates;
use crate::portable::convert::notes::{Notes, count};
use crate::portable::model::{Format, Read, Settings};
use crate::portable::{Export, Options, Unreadable};

/// Largest Ghost export read.
pub const MAX_JSON_BYTES: u64 = 512 * 1024 * 1024;
/// Ghost's placeholder for the site's own address.
const GHOST_URL: &str = "__GHOST_URL__";
/// The export, as messages name it.
const WHAT: &str = "This Ghost export";

/// Reads a Ghost export in two passes, each a stream ([`stream`]): the first checks the whole
/// file and keeps its small tables, refusing a file that is not a Ghost export, is cut off or
/// is over the caps of `options.limits`, before any item is yielded; the second reads the
/// posts one at a time as the items are asked for.
pub fn read<R: std::io::Read + Seek + Send + 'static>(mut input: R, options: &Options) -> Result<Export, Unreadable> {
    let limits = options.limits;
    let tables = Walk::scan(input.by_ref(), limits)?;
    input.seek(SeekFrom::Start(0)).map_err(super::io_error)?;
    let mut notes = Notes::default();
    if let Some(members) = tables.members.filter(|n| *n > 0) {
        notes.add(format!("{} not imported", count(members as usize, "member (subscriber)", "members (subscribers)")));
    }
    if options.site_url.is_none() && tables.uses_placeholder {
        notes.add(
            "Ghost names its images and links relative to its site: give the old site's address to import its images",
        );
    }
    let setting =
        |key: &str| tables.settings.iter().find(|s| s.key == key).and_then(|s| s.value.as_str()).map(str::to_owned);
    let read = Read {
        format: Format::Ghost,
        settings: Settings {
            subscribers: None,
            name: setting("title"),
            time_zone: setting("timezone"),
            site_url: options.site_url.as_ref().map(|u| u.as_str().trim_end_matches('/').to_owned()),
            ..Settings::default()
        },
        expected_items: Some(tables.posts),
        notes: notes.into_lines(),
    };
    let (tags, meta) = links(tables.tags, tables.posts_tags, tables.posts_meta);
    let pending =
        Pending { input: Box::new(input), limits, too_big: tables.too_big, tags, meta, site: options.site_url.clone() };
    Ok(Export { read, items: Box::new(Posts::new(pending)) })
}

/// Each post's tags (their order, name, and whether internal) and feature image's alt text and
/// caption, by the post's id.
#[allow(clippy::type_complexity)]
fn links(
    tags: Vec<types::Tag>,
    posts_tags: Vec<types::PostTag>,
    posts_meta: Vec<types::PostMeta>,
) -> (HashMap<String, Vec<(i64, String, bool)>>, HashMap<String, (String, String)>) {
    let tags: HashMap<String, types::Tag> = tags.into_iter().map(|t| (id(&t.id), t)).collect();
    let mut post_tags: HashMap<String, Vec<(i64, String, bool)>> = HashMap::new();
    for link in posts_tags {
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
    let meta = posts_meta
        .into_iter()
        .map(|m| {
            (id(&m.post_id), (m.feature_image_alt.unwrap_or_default(), m.feature_image_caption.unwrap_or_default()))
        })
        .collect();
    (post_tags, meta)
}

fn not_ghost() -> Unreadable {
    Unreadable::new("This JSON file is not a Ghost export: in Ghost, use Settings → Labs → Export your content")
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
