//! A blog's pages in navigation order, and their reordering.

use poem::handler;
use poem::web::{Data, Json};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::db::pages::{self, PageEntry};
use crate::error::Result;
use crate::http::api::json::JsonBody;
use crate::http::owned_blog::OwnedBlog;
use crate::http::state::AppState;

/// The new order: each of the blog's pages' short ids once.
#[derive(Debug, Deserialize)]
pub struct OrderInput {
    pages: Vec<String>,
}

/// A page in the blog's navigation.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "pages.ts", rename = "Page")]
pub struct PageJson {
    short_id: String,
    title: String,
    /// `/{slug}`.
    path: String,
    published: bool,
}

/// `{pages}`, in navigation order.
#[derive(Serialize, TS)]
#[ts(export_to = "pages.ts")]
pub struct Pages {
    pages: Vec<PageJson>,
}

fn pages_json(pages: Vec<PageEntry>) -> Json<Pages> {
    let page = |p: PageEntry| PageJson {
        short_id: p.short_id,
        title: p.title,
        path: format!("/{}", p.slug),
        published: p.published,
    };
    Json(Pages { pages: pages.into_iter().map(page).collect() })
}

/// The blog's pages, drafts included, in navigation order:
/// `{pages: [{shortId, title, path, published}]}`.
#[handler]
pub async fn list(OwnedBlog { blog, .. }: OwnedBlog, state: Data<&AppState>) -> Result<Json<Pages>> {
    let id = blog.id;
    Ok(pages_json(state.db.read(move |conn| pages::list(conn, id)).await?))
}

/// Puts the pages in the order given (`{pages: [shortId, ...]}`); answers the new list.
#[handler]
pub async fn reorder(
    OwnedBlog { blog, input: JsonBody(input), .. }: OwnedBlog<JsonBody<OrderInput>>,
    state: Data<&AppState>,
) -> Result<Json<Pages>> {
    Ok(pages_json(state.blogs.reorder_pages(&blog, input.pages).await?))
}
