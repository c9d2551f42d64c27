//! The editor's preview: a post's blocks rendered by the public pages' own renderer, before
//! they are saved. The blocks go through `assets/templates/blocks.html`, the same template the
//! public post page uses, so the editor shows what readers will see.

use poem::handler;
use poem::web::{Data, Json};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::domain::content::blocks::Body;
use crate::error::{Error, Result};
use crate::http::api::json::JsonBody;
use crate::http::blog::views;
use crate::http::owned_blog::OwnedBlog;
use crate::http::state::AppState;

/// `{body}`: the blocks as the editor holds them (the same shape a save sends).
#[derive(Debug, Deserialize)]
pub struct PreviewInput {
    body: Value,
}

/// `{title, html}`: the title the post would get, and the HTML of its blocks as its public
/// page shows them (its first heading is the title, so it is not repeated).
#[derive(Serialize, TS)]
#[ts(export_to = "posts.ts", rename = "PostPreview")]
pub struct PreviewJson {
    title: String,
    html: String,
}

/// Renders the body it is sent, checked by the same rules as a save (a 422 when they fail).
/// Nothing is stored.
#[handler]
pub async fn preview(
    OwnedBlog { input: JsonBody(input), .. }: OwnedBlog<JsonBody<PreviewInput>>,
    state: Data<&AppState>,
) -> Result<Json<PreviewJson>> {
    let body = Body::parse(&input.body, state.blogs.rules()).map_err(Error::Invalid)?;
    let title = body.title();
    let html = views::blocks_html(&state, body).await?;
    Ok(Json(PreviewJson { title, html }))
}
