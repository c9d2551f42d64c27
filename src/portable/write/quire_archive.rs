//! The Quire archive (docs/archive.md): one zip that carries a whole blog to any Quire with
//! nothing lost. `quire-archive.json` first (the blog's settings and counts), then
//! `posts/<shortId>.json` for every post and page in creation order, then `images/<name>` for
//! every image the owner uploaded, then `subscribers.json` when the blog has confirmed email
//! subscribers, then `responses.json` when its posts have comments or webmentions, then
//! `trash.json` when its trash holds deleted posts. The import side reads it with the same types.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What `format` says in every Quire archive.
pub const FORMAT: &str = "quire-archive";
/// The version this Quire writes and the highest it reads.
pub const VERSION: u32 = 1;
/// The manifest's entry name, the first of the zip.
pub const MANIFEST: &str = "quire-archive.json";
/// The folder of the images, `images/<stored name>`.
pub const IMAGES: &str = "images/";
/// The confirmed email subscribers' entry, after the images, when there are any.
pub const SUBSCRIBERS: &str = "subscribers.json";
/// The comments and webmentions' entry, after the subscribers, when there are any.
pub const RESPONSES: &str = "responses.json";
/// The trash's entry (docs/revisions.md), the last of the zip, when the trash holds any post.
pub const TRASH: &str = "trash.json";

/// `trash.json`: the blog's deleted posts still in its trash, each with its revisions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArchiveTrash {
    /// Oldest deletion first.
    pub trash: Vec<crate::domain::content::revisions::Trashed>,
}

/// `responses.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArchiveResponses {
    /// Every comment and webmention of the blog's posts (held, approved and spam), post by post
    /// in the posts' order, oldest first within a post.
    pub responses: Vec<crate::portable::model::MovedResponse>,
}

/// `subscribers.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArchiveSubscribers {
    /// The confirmed subscribers, in the order they subscribed.
    pub subscribers: Vec<crate::portable::model::MovedSubscriber>,
}

/// `quire-archive.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    /// Always [`FORMAT`].
    pub format: String,
    /// [`VERSION`] when written here.
    pub version: u32,
    /// When it was written (stored form: UTC, milliseconds, `Z`).
    pub exported_at: String,
    /// `Quire <version>`.
    pub generator: String,
    /// The blog's settings.
    pub blog: ArchiveBlog,
    /// What the archive holds.
    pub counts: Counts,
}

/// The blog's settings in an archive.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ArchiveBlog {
    /// Its subdomain.
    pub subdomain: String,
    /// Its name.
    pub name: String,
    /// Its theme's slug.
    pub theme: String,
    /// Its tab icon's code, as `favicons.code`.
    pub icon: String,
    /// The slugs of its installed addons.
    pub addons: Vec<String>,
    /// The IANA zone of its dates.
    pub time_zone: String,
    /// When it was created.
    pub created_at: String,
    /// Who may comment: `off`, `held` or `trusted` (absent from an archive written before
    /// comments: the importing blog's setting stays).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comments_mode: Option<String>,
    /// Words that send a comment to Spam (absent as `commentsMode` is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocked_words: Option<Vec<String>>,
    /// Its custom stylesheet exactly as stored (issue 32; docs/custom-css.md), its images'
    /// URLs naming the old server; absent when it has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom_css: Option<String>,
    /// Its description (issue 33), absent when it has none or the archive is older.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Whether its owner listed it on the instance's landing page (issue 33; absent from an
    /// older archive: the importing blog's setting stays).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub listed: Option<bool>,
    /// Whether it asks AI crawlers not to use it, `allow` or `disallow` (issue 35; absent from
    /// an older archive: the importing blog's setting stays).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ai_crawlers: Option<String>,
}

/// How many posts, pages and images an archive holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Posts (drafts and scheduled ones included), pages left out.
    pub posts: u64,
    /// Pages.
    pub pages: u64,
    /// Image files.
    pub images: u64,
}

/// `posts/<shortId>.json`: one post or page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ArchivePost {
    /// Its short id.
    pub short_id: String,
    /// Its slug.
    pub slug: String,
    /// Its title.
    pub title: String,
    /// `post` or `page`.
    pub kind: String,
    /// A page's address and place in the navigation; absent for a post.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<ArchivePage>,
    /// `{"type": "root", "children": [...]}`, the blocks as stored, image URLs of uploads
    /// rewritten to `images/<name>`.
    pub body: Value,
    /// Its tags, in order.
    pub tags: Vec<String>,
    /// Creation time.
    pub created_at: String,
    /// Last change.
    pub updated_at: String,
    /// When it was published; null for a draft or a scheduled post.
    pub published_at: Option<String>,
    /// When it is to be published; null unless scheduled.
    pub scheduled_at: Option<String>,
    /// Old addresses that redirect to it (from an earlier import).
    #[serde(default)]
    pub old_paths: Vec<String>,
    /// Whether its comments are closed (false in an archive written before comments).
    #[serde(default)]
    pub comments_closed: bool,
    /// Whether it is unlisted (docs/unlisted.md; false in an archive written before it).
    #[serde(default)]
    pub unlisted: bool,
    /// Its revisions, oldest first (docs/revisions.md; absent when it has none), bodies as
    /// stored.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub revisions: Vec<crate::domain::content::revisions::Kept>,
}

/// A page's place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArchivePage {
    /// Its address without the slash: the page is at `/{slug}`.
    pub slug: String,
    /// Its place in the navigation (lower first).
    pub position: i64,
}

impl Manifest {
    /// Refuses what is not a Quire archive this Quire can read, with a message for the owner.
    pub fn check(&self) -> Result<(), String> {
        if self.format != FORMAT {
            return Err(format!("This is not a Quire archive (its format is {:?})", self.format));
        }
        if self.version > VERSION {
            return Err(format!(
                "This archive was written by a newer Quire (version {} of the format; this Quire reads up to {VERSION})",
                self.version
            ));
        }
        Ok(())
    }
}

/// The entry of a post or page.
pub fn post_entry(short_id: &str) -> String {
    format!("posts/{short_id}.json")
}

/// The entry of an image, by its stored name.
pub fn image_entry(name: &str) -> String {
    format!("{IMAGES}{name}")
}

/// A stored body as the archive carries it: the blocks exactly as stored, except that an image
/// block's `url` becomes `images/<name>` where `upload` recognizes one of the owner's uploads.
pub fn body(stored_json: &str, upload: impl Fn(&str) -> Option<String>) -> anyhow::Result<Value> {
    let mut body: Value = serde_json::from_str(stored_json)?;
    if let Some(children) = body.get_mut("children").and_then(Value::as_array_mut) {
        for block in children {
            if block.get("type").and_then(Value::as_str) != Some("image") {
                continue;
            }
            let Some(url) = block.pointer_mut("/value/url") else { continue };
            if let Some(name) = url.as_str().and_then(&upload) {
                *url = Value::String(image_entry(&name));
            }
        }
    }
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_upload_images_are_rewritten_and_everything_else_is_kept() {
        let stored = json!({"type": "root", "children": [
            {"type": "heading", "value": {"text": "Hi"}},
            {"type": "image", "value": {"url": "http://x/media/a.png", "alt": "A", "caption": ""}},
            {"type": "image", "value": {"url": "https://i.imgur.com/b.png"}},
        ]})
        .to_string();
        let out = body(&stored, |url| url.strip_prefix("http://x/media/").map(str::to_owned)).unwrap();
        assert_eq!(out["children"][0], json!({"type": "heading", "value": {"text": "Hi"}}));
        assert_eq!(out["children"][1]["value"], json!({"url": "images/a.png", "alt": "A", "caption": ""}));
        assert_eq!(out["children"][2]["value"], json!({"url": "https://i.imgur.com/b.png"}));
    }

    #[test]
    fn readers_refuse_other_formats_and_newer_versions() {
        let mut manifest = Manifest {
            format: FORMAT.into(),
            version: VERSION,
            exported_at: String::new(),
            generator: String::new(),
            blog: ArchiveBlog {
                subdomain: "a".into(),
                name: "A".into(),
                theme: "default".into(),
                icon: "1f4dd".into(),
                addons: vec![],
                time_zone: "UTC".into(),
                created_at: String::new(),
                comments_mode: None,
                blocked_words: None,
                custom_css: None,
                description: None,
                listed: None,
                ai_crawlers: None,
            },
            counts: Counts { posts: 0, pages: 0, images: 0 },
        };
        assert_eq!(manifest.check(), Ok(()));
        manifest.version = VERSION + 1;
        assert!(manifest.check().unwrap_err().contains("newer Quire"));
        manifest.format = "wordpress".into();
        assert!(manifest.check().unwrap_err().contains("not a Quire archive"));
    }
}
