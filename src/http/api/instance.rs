//! `GET /api/instance`: what the landing page says of the instance (issue 33): the operator's
//! description (`--instance-description`) and the newest posts of the blogs listed there. Public
//! and read-only; it shows nothing the blogs' own public pages do not.

use poem::handler;
use poem::web::{Data, Json};
use serde::Serialize;
use ts_rs::TS;

use crate::db::front_page;
use crate::domain::content::markdown;
use crate::error::Result;
use crate::http::state::AppState;

/// Posts the landing page lists at most.
pub const FRONT_PAGE_POSTS: u32 = 15;

/// `{description, posts}`.
#[derive(Serialize, TS)]
#[ts(export_to = "instance.ts")]
pub struct InstanceAnswer {
    /// The operator's description as HTML, through the posts' Markdown renderer (raw HTML is
    /// shown as text); '' when there is none.
    description: String,
    /// The newest posts of the listed blogs, newest first.
    posts: Vec<FrontPostJson>,
}

/// A post on the landing page.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "instance.ts", rename = "FrontPost")]
pub struct FrontPostJson {
    title: String,
    /// Its public address (on its blog's custom domain when it has one).
    url: String,
    /// When it was published (ISO 8601, UTC).
    published_at: String,
    blog_name: String,
    /// Its blog's public address.
    blog_url: String,
}

/// The instance's description and the newest listed posts.
#[handler]
pub async fn show(state: Data<&AppState>) -> Result<Json<InstanceAnswer>> {
    let posts = state.db.read(|conn| front_page::newest(conn, FRONT_PAGE_POSTS)).await?;
    let description = state.config.public.description.as_ref().map(|page| markdown::to_html(&page.markdown));
    let posts = posts
        .into_iter()
        .map(|post| {
            let blog_url = state.config.blog_origin(&post.address);
            FrontPostJson {
                title: post.title,
                url: format!("{blog_url}{}", post.path),
                published_at: post.published_at,
                blog_name: post.blog_name,
                blog_url: format!("{blog_url}/"),
            }
        })
        .collect();
    Ok(Json(InstanceAnswer { description: description.unwrap_or_default(), posts }))
}
