//! The JSON of a Ghost export as serde reads it: `{"db": [{"meta", "data"}]}` or a bare
//! `{"meta", "data"}`, with the posts, tags, their links, posts' meta and the settings
//! Quire reads; every other field is ignored.

use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize)]
pub(super) struct File {
    pub(super) db: Option<Vec<Db>>,
    pub(super) meta: Option<Value>,
    pub(super) data: Option<Data>,
}

#[derive(Deserialize)]
pub(super) struct Db {
    pub(super) data: Data,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub(super) struct Data {
    pub(super) posts: Vec<GhostPost>,
    pub(super) tags: Vec<Tag>,
    pub(super) posts_tags: Vec<PostTag>,
    pub(super) posts_meta: Vec<PostMeta>,
    pub(super) settings: Vec<Setting>,
    pub(super) members: Option<Vec<serde::de::IgnoredAny>>,
}

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
