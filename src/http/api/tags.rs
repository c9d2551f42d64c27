//! A blog's tags, for the editor's suggestions; the `?tag=` filter of the post list.

use poem::handler;
use poem::web::{Data, Json, Path};
use serde_json::{Value, json};

use crate::db::tags;
use crate::domain::messages::Messages;
use crate::error::{Error, Result};
use crate::http::session::SignedIn;
use crate::http::state::AppState;

/// Every tag of the blog's posts (drafts included), most used first:
/// `{tags: [{name, posts}]}`.
#[handler]
pub async fn list(signed_in: SignedIn, state: Data<&AppState>, Path(blog_id): Path<String>) -> Result<Json<Value>> {
    let blog = state.blogs.owned(signed_in.user.id, &blog_id).await?;
    let id = blog.id;
    let tags = state.db.read(move |conn| tags::of_blog(conn, id)).await?;
    let tags: Vec<Value> = tags.into_iter().map(|t| json!({ "name": t.tag, "posts": t.posts })).collect();
    Ok(Json(json!({ "tags": tags })))
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
