//! A blog's pages in navigation order, and their reordering.

use poem::handler;
use poem::web::{Data, Json, Path};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::db::pages::{self, PageEntry};
use crate::error::Result;
use crate::http::api::json::JsonBody;
use crate::http::session::SignedIn;
use crate::http::state::AppState;

/// The new order: each of the blog's pages' short ids once.
#[derive(Debug, Deserialize)]
pub struct OrderInput {
    pages: Vec<String>,
}

fn pages_json(pages: Vec<PageEntry>) -> Json<Value> {
    let pages: Vec<Value> = pages
        .into_iter()
        .map(|p| json!({ "shortId": p.short_id, "title": p.title, "path": format!("/{}", p.slug), "published": p.published }))
        .collect();
    Json(json!({ "pages": pages }))
}

/// The blog's pages, drafts included, in navigation order:
/// `{pages: [{shortId, title, path, published}]}`.
#[handler]
pub async fn list(signed_in: SignedIn, state: Data<&AppState>, Path(blog_id): Path<String>) -> Result<Json<Value>> {
    let blog = state.blogs.owned(signed_in.user.id, &blog_id).await?;
    let id = blog.id;
    Ok(pages_json(state.db.read(move |conn| pages::list(conn, id)).await?))
}

/// Puts the pages in the order given (`{pages: [shortId, ...]}`); answers the new list.
#[handler]
pub async fn reorder(
    signed_in: SignedIn,
    state: Data<&AppState>,
    Path(blog_id): Path<String>,
    JsonBody(input): JsonBody<OrderInput>,
) -> Result<Json<Value>> {
    let blog = state.blogs.owned(signed_in.user.id, &blog_id).await?;
    Ok(pages_json(state.blogs.reorder_pages(&blog, input.pages).await?))
}
