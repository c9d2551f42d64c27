//! The editor's preview: a post's blocks rendered by the public pages' own renderer, before
//! they are saved. The whole post page is rendered and held for the editor's frame on the blog's
//! own host (`http::blog::post_preview`: the blog's theme, custom CSS and embeds, as readers see
//! them); the blocks' HTML (`assets/templates/blocks.html`) comes too.

use poem::handler;
use poem::web::{Data, Json};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::domain::content::blocks::Body;
use crate::error::{Error, Result};
use crate::http::api::json::JsonBody;
use crate::http::blog::{post_preview, views};
use crate::http::owned_blog::OwnedBlog;
use crate::http::state::AppState;

/// `{body}`: the blocks as the editor holds them (the same shape a save sends).
#[derive(Debug, Deserialize)]
pub struct PreviewInput {
    body: Value,
}

/// `{title, html, page}`: the title the post would get, the HTML of its blocks as its public
/// page shows them (its first heading is the title, so it is not repeated), and the address of
/// the whole page, held for ten minutes.
#[derive(Serialize, TS)]
#[ts(export_to = "posts.ts", rename = "PostPreview")]
pub struct PreviewJson {
    title: String,
    html: String,
    /// The post page as readers will see it, on the blog's own host (`/post-preview/{token}`).
    page: String,
}

/// Renders the body it is sent, checked by the same rules as a save (a 422 when they fail).
/// Nothing is stored in the database.
#[handler]
pub async fn preview(
    OwnedBlog { blog, input: JsonBody(input), .. }: OwnedBlog<JsonBody<PreviewInput>>,
    state: Data<&AppState>,
) -> Result<Json<PreviewJson>> {
    let body = Body::parse(&input.body, state.blogs.rules()).map_err(Error::Invalid)?;
    let title = body.title();
    let page = post_preview::hold(&state, &blog, &body).await?;
    let html = views::blocks_html(&state, body).await?;
    Ok(Json(PreviewJson { title, html, page }))
}
