//! WriteFreely's JSON export (Account → Export → JSON; write.as too): `{"username",
//! "collections": [{"alias", "title", "url", "posts": [...]}], "posts": [...]}`, parsed whole
//! under [`MAX_JSON_BYTES`]. A blog's posts are published (scheduled when `created` is still
//! to come); the top-level `posts`, outside any blog, are WriteFreely's drafts. Bodies are
//! Markdown; tags are the body's hashtags as WriteFreely extracted them. The old path is the
//! post's address on its blog, `/<alias>/<slug>`. WriteFreely exports no pages (pinned posts
//! are not marked) and no images (bodies link them where they are).

use serde::Deserialize;
use time::OffsetDateTime;

use super::dates;
use crate::portable::convert::links::path_under;
use crate::portable::convert::{Base, markdown};
use crate::portable::model::{Format, Kind, Post, Read, Settings, State};
use crate::portable::{Export, Options, Problem, Unreadable};

/// Largest WriteFreely export read.
pub const MAX_JSON_BYTES: u64 = 256 * 1024 * 1024;

#[derive(Deserialize)]
struct File {
    username: Option<String>,
    #[serde(default)]
    collections: Option<Vec<Collection>>,
    #[serde(default)]
    posts: Option<Vec<WfPost>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Collection {
    alias: String,
    title: String,
    url: String,
    posts: Option<Vec<WfPost>>,
}

#[derive(Deserialize, Default, Clone)]
#[serde(default)]
struct WfPost {
    id: String,
    slug: Option<String>,
    created: Option<String>,
    updated: Option<String>,
    title: Option<String>,
    body: String,
    tags: Option<Vec<String>>,
}

/// Reads a WriteFreely export. Refuses JSON that is not one.
pub fn read(input: impl std::io::Read, options: &Options) -> Result<Export, Unreadable> {
    let bytes = super::read_capped(input, MAX_JSON_BYTES, "This WriteFreely export")?;
    let file: File = super::json_of(&bytes, "This WriteFreely export")?;
    drop(bytes);
    if file.username.is_none() && file.collections.is_none() {
        return Err(Unreadable::new(
            "This JSON file is not a WriteFreely export: in WriteFreely, use Account → Export → JSON",
        ));
    }
    let collections = file.collections.unwrap_or_default();
    let mut entries: Vec<(Option<url::Url>, String, WfPost)> = Vec::new();
    for collection in &collections {
        let url = url::Url::parse(&collection.url).ok();
        for post in collection.posts.iter().flatten() {
            entries.push((url.clone(), collection.alias.clone(), post.clone()));
        }
    }
    let drafts: Vec<WfPost> = file.posts.unwrap_or_default();
    let first = collections.first();
    let read = Read {
        format: Format::WriteFreely,
        settings: Settings {
            subscribers: None,
            name: first.map(|c| c.title.clone()).filter(|t| !t.is_empty()),
            site_url: first
                .and_then(|c| url::Url::parse(&c.url).ok())
                .map(|u| u.as_str().trim_end_matches('/').to_owned()),
            ..Settings::default()
        },
        expected_items: Some((entries.len() + drafts.len()) as u64),
        notes: if collections.len() > 1 {
            vec![format!("The export holds {} blogs: their posts are all imported into this one", collections.len())]
        } else {
            Vec::new()
        },
    };
    let site = options.site_url.clone();
    let now = OffsetDateTime::now_utc();
    let published = entries.into_iter().map(move |(blog, _alias, post)| Ok(convert(post, blog.as_ref(), true, now)));
    let drafts = drafts.into_iter().map(move |post| Ok(convert(post, site.as_ref(), false, now)));
    Ok(Export { read, items: Box::new(published.chain(drafts).map(|r: Result<Post, Problem>| r)) })
}

fn convert(post: WfPost, blog: Option<&url::Url>, in_blog: bool, now: OffsetDateTime) -> Post {
    let created = post.created.as_deref().and_then(dates::parse);
    let state = match created {
        _ if !in_blog => State::Draft,
        Some(at) if at > now => State::Scheduled,
        _ => State::Published,
    };
    let slug = post.slug.clone().unwrap_or_default();
    let old_paths = match (blog, slug.is_empty()) {
        (Some(blog), false) => {
            blog.join(&slug).ok().and_then(|url| path_under(url.as_str(), None)).into_iter().collect()
        }
        _ => Vec::new(),
    };
    let converted = markdown::to_blocks(&post.body, &Base::site(blog));
    Post {
        source_id: post.id,
        kind: Kind::Post,
        title: post.title.unwrap_or_default(),
        slug,
        blocks: converted.blocks,
        state,
        created_at: created,
        published_at: if state == State::Draft { None } else { created },
        updated_at: post.updated.as_deref().and_then(dates::parse),
        tags: post.tags.unwrap_or_default(),
        old_paths,
        page_position: None,
        comments_closed: false,
        unlisted: false,
        revisions: Vec::new(),
        notes: converted.notes,
    }
}
