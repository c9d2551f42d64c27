//! The rows of a Ghost export's tables as serde reads them (`stream.rs` walks the file to
//! them): the posts, tags, their links, posts' meta and the settings Quire reads; every other
//! field is ignored.

use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize, Default)]
#[serde(default)]
pub(super) struct GhostPost {
    pub(super) id: Value,
    pub(super) title: Option<String>,
    pub(super) slug: Option<String>,
    pub(super) lexical: Option<String>,
    pub(super) mobiledoc: Option<String>,
    pub(super) html: Option<String>,
    pub(super) markdown: Option<String>,
    pub(super) feature_image: Option<String>,
    #[serde(rename = "type")]
    pub(super) kind: Option<String>,
    pub(super) page: Value,
    pub(super) status: Option<String>,
    pub(super) visibility: Option<String>,
    pub(super) created_at: Value,
    pub(super) updated_at: Value,
    pub(super) published_at: Value,
    pub(super) codeinjection_head: Option<String>,
    pub(super) codeinjection_foot: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub(super) struct Tag {
    pub(super) id: Value,
    pub(super) name: String,
    pub(super) visibility: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub(super) struct PostTag {
    pub(super) post_id: Value,
    pub(super) tag_id: Value,
    pub(super) sort_order: Option<i64>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub(super) struct PostMeta {
    pub(super) post_id: Value,
    pub(super) feature_image_alt: Option<String>,
    pub(super) feature_image_caption: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub(super) struct Setting {
    pub(super) key: String,
    pub(super) value: Value,
}
