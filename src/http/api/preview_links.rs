//! A post's preview link: create (the URL is shown once), see whether one exists, revoke.
//! Writes go through the write path ([`crate::blogs::Blogs`]); see docs/api.md.

use poem::http::StatusCode;
use poem::web::{Data, Json, Path};
use poem::{IntoResponse, Response, handler};
use serde::Serialize;
use ts_rs::TS;

use crate::db::{posts, preview_links};
use crate::error::Result;
use crate::http::api::answers::Empty;
use crate::http::owned_blog::OwnedBlog;
use crate::http::state::AppState;

/// `{previewLink}` with its URL, shown only right after it is made (only its hash is kept).
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "preview-links.ts")]
pub struct CreatedPreviewLink {
    preview_link: NewPreviewLink,
}

/// A new preview link.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "preview-links.ts")]
pub struct NewPreviewLink {
    url: String,
    created_at: String,
}

/// `{previewLink}`: since when the post has one (without its URL), or null.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "preview-links.ts")]
pub struct PreviewLinkState {
    preview_link: Option<PreviewLinkSince>,
}

/// When a post's preview link was made.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "preview-links.ts")]
pub struct PreviewLinkSince {
    created_at: String,
}

/// Creates a new preview link for a draft or scheduled post, replacing its old one.
#[handler]
pub async fn create(
    OwnedBlog { blog, .. }: OwnedBlog,
    state: Data<&AppState>,
    Path((_, post_id)): Path<(String, String)>,
) -> Result<Response> {
    let link = state.blogs.create_preview_link(&blog, &post_id).await?;
    let url = format!("{}/preview/{}", state.config.blog_origin(&blog.address()), link.token);
    let body = CreatedPreviewLink { preview_link: NewPreviewLink { url, created_at: link.created_at } };
    Ok(Json(body).with_status(StatusCode::CREATED).into_response())
}

/// Whether the post has a preview link, and since when (its secret is not kept).
#[handler]
pub async fn show(
    OwnedBlog { blog, .. }: OwnedBlog,
    state: Data<&AppState>,
    Path((_, post_id)): Path<(String, String)>,
) -> Result<Json<PreviewLinkState>> {
    let id = blog.id;
    let created_at = state
        .db
        .read(move |conn| {
            let post = posts::get(conn, id, &post_id)?.ok_or_else(crate::blogs::post_not_found)?;
            preview_links::created_at(conn, post.id)
        })
        .await?;
    Ok(Json(PreviewLinkState { preview_link: created_at.map(|created_at| PreviewLinkSince { created_at }) }))
}

/// Revokes the post's preview link; revoking when there is none is fine.
#[handler]
pub async fn revoke(
    OwnedBlog { blog, .. }: OwnedBlog,
    state: Data<&AppState>,
    Path((_, post_id)): Path<(String, String)>,
) -> Result<Json<Empty>> {
    state.blogs.revoke_preview_link(&blog, &post_id).await?;
    Ok(Json(Empty {}))
}
