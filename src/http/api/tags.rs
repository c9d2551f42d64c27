//! A blog's tags, for the editor's suggestions; the `?tag=` filter of the post list.

use poem::handler;
use poem::web::{Data, Json};
use serde::Serialize;
use ts_rs::TS;

use crate::db::tags;
use crate::domain::messages::Messages;
use crate::error::{Error, Result};
use crate::http::owned_blog::OwnedBlog;
use crate::http::state::AppState;

/// A tag and how many of the blog's posts have it.
#[derive(Serialize, TS)]
#[ts(export_to = "tags.ts", rename = "Tag")]
pub struct TagJson {
    name: String,
    posts: u64,
}

/// `{tags}`, most used first.
#[derive(Serialize, TS)]
#[ts(export_to = "tags.ts")]
pub struct Tags {
    tags: Vec<TagJson>,
}

/// Every tag of the blog's posts (drafts included), most used first:
/// `{tags: [{name, posts}]}`.
#[handler]
pub async fn list(OwnedBlog { blog, .. }: OwnedBlog, state: Data<&AppState>) -> Result<Json<Tags>> {
    let id = blog.id;
    let tags = state.db.read(move |conn| tags::of_blog(conn, id)).await?;
    Ok(Json(Tags { tags: tags.into_iter().map(|t| TagJson { name: t.tag, posts: t.posts }).collect() }))
}

/// The `tag` of a query string, normalized (`Rust` is `rust`); a 400 naming `tag` when it
/// cannot be a tag.
pub fn tag_param(query: Option<&str>) -> Result<Option<String>> {
    let params: Vec<(String, String)> = serde_urlencoded::from_str(query.unwrap_or("")).unwrap_or_default();
    let Some((_, raw)) = params.into_iter().find(|(key, _)| key == "tag") else { return Ok(None) };
    if raw.trim().is_empty() {
        return Ok(None);
    }
    crate::domain::content::tags::tag(&raw)
        .map(Some)
        .map_err(|message| Error::BadRequest(Messages::one("tag", message)))
}
