//! A post's preview link: create (the URL is shown once), see whether one exists, revoke.
//! Writes go through the write path ([`crate::blogs::Blogs`]); see docs/api.md.

use poem::http::StatusCode;
use poem::web::{Data, Json, Path};
use poem::{IntoResponse, Response, handler};
use serde_json::{Value, json};

use crate::db::{posts, preview_links};
use crate::error::Result;
use crate::http::session::SignedIn;
use crate::http::state::AppState;

/// Creates a new preview link for a draft or scheduled post, replacing its old one.
#[handler]
pub async fn create(
    signed_in: SignedIn,
    state: Data<&AppState>,
    Path((blog_id, post_id)): Path<(String, String)>,
) -> Result<Response> {
    let blog = state.blogs.owned(signed_in.user.id, &blog_id).await?;
    let link = state.blogs.create_preview_link(&blog, &post_id).await?;
    let url = format!("{}/preview/{}", state.config.blog_origin(&blog.address()), link.token);
    let body = json!({ "previewLink": { "url": url, "createdAt": link.created_at } });
    Ok(Json(body).with_status(StatusCode::CREATED).into_response())
}

/// Whether the post has a preview link, and since when (its secret is not kept).
#[handler]
pub async fn show(
    signed_in: SignedIn,
    state: Data<&AppState>,
    Path((blog_id, post_id)): Path<(String, String)>,
) -> Result<Json<Value>> {
    let blog = state.blogs.owned(signed_in.user.id, &blog_id).await?;
    let id = blog.id;
    let created_at = state
        .db
        .read(move |conn| {
            let post = posts::get(conn, id, &post_id)?.ok_or_else(crate::blogs::post_not_found)?;
            preview_links::created_at(conn, post.id)
        })
        .await?;
    Ok(Json(json!({ "previewLink": created_at.map(|at| json!({ "createdAt": at })) })))
}

/// Revokes the post's preview link; revoking when there is none is fine.
#[handler]
pub async fn revoke(
    signed_in: SignedIn,
    state: Data<&AppState>,
    Path((blog_id, post_id)): Path<(String, String)>,
) -> Result<Json<Value>> {
    let blog = state.blogs.owned(signed_in.user.id, &blog_id).await?;
    state.blogs.revoke_preview_link(&blog, &post_id).await?;
    Ok(Json(json!({})))
}
