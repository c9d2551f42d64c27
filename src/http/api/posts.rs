//! A blog's posts: list, create, read, update, delete, search (SPEC §7).

use std::sync::Arc;

use poem::http::StatusCode;
use poem::web::{Data, Json, Path};
use poem::{IntoResponse, Request, Response, handler};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::app::AppState;
use crate::auth::session::SignedIn;
use crate::config::Config;
use crate::db::blogs::Blog;
use crate::db::posts::{self, Post, PostWrite};
use crate::domain::blocks::{Body, Rules};
use crate::domain::paging::PageRequest;
use crate::domain::post::slug;
use crate::error::{Error, Result};
use crate::http::api::blogs::owned_blog;
use crate::http::api::json::JsonBody;
use crate::http::api::paged;
use crate::search::SearchIndex;

/// Posts per page by default (SPEC §9).
pub const DEFAULT_PAGE_SIZE: u32 = 10;
/// Largest page size (DESIGN §5).
pub const MAX_PAGE_SIZE: u32 = 100;
/// Most search results returned.
const SEARCH_LIMIT: usize = 50;
/// Longest search query.
const MAX_QUERY: usize = 500;

/// Create and update body: `{body: {type: "root", children}, draft}`.
#[derive(Debug, Deserialize)]
pub struct PostInput {
    body: Value,
    #[serde(default)]
    draft: bool,
}

/// Search body.
#[derive(Debug, Deserialize)]
pub struct SearchInput {
    query: String,
}

/// A page of the blog's posts, newest first, drafts included.
#[handler]
pub async fn list(req: &Request, signed_in: SignedIn, state: Data<&AppState>, Path(blog_id): Path<String>) -> Result<Response> {
    let (blog, _) = owned_blog(&state, &signed_in, &blog_id).await?;
    let request = PageRequest::parse(req.uri().query(), DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)?;
    let id = blog.id;
    // Counted views are written every few seconds; write them now so the owner sees them all.
    state.public.views.flush(&state.db).await;
    let (page, rows, counts) = state
        .db
        .read(move |conn| {
            let page = request.within(posts::count(conn, id)?)?;
            let rows = posts::page(conn, id, request.offset(), request.page_size)?;
            let counts = posts::views(conn, &rows.iter().map(|p| p.id).collect::<Vec<_>>())?;
            Ok((page, rows, counts))
        })
        .await?;
    let mut list = views(&state.config, &blog, &rows)?;
    for (json, post) in list.iter_mut().zip(&rows) {
        json["views"] = json!(counts.get(&post.id).copied().unwrap_or(0));
    }
    Ok(paged(json!({ "posts": list }), page))
}

/// Creates a post; the draft flag off publishes it.
#[handler]
pub async fn create(
    signed_in: SignedIn,
    state: Data<&AppState>,
    Path(blog_id): Path<String>,
    JsonBody(input): JsonBody<PostInput>,
) -> Result<Response> {
    let (blog, _) = owned_blog(&state, &signed_in, &blog_id).await?;
    let write = prepare(&state.config, &input)?;
    let search = state.search.clone();
    let blog_id = blog.id;
    let post = state
        .db
        .write(move |conn| {
            let (post, seq) = posts::create(conn, blog_id, &write)?;
            index(&search, &post, seq);
            Ok(post)
        })
        .await?;
    state.public.cache.invalidate(&blog.subdomain);
    Ok(Json(json!({ "post": view(&state.config, &blog, &post)? }))
        .with_status(StatusCode::CREATED)
        .into_response())
}

/// One post.
#[handler]
pub async fn show(signed_in: SignedIn, state: Data<&AppState>, Path((blog_id, post_id)): Path<(String, String)>) -> Result<Json<Value>> {
    let (blog, _) = owned_blog(&state, &signed_in, &blog_id).await?;
    let id = blog.id;
    let post = state.db.read(move |conn| posts::get(conn, id, &post_id)).await?.ok_or_else(post_not_found)?;
    Ok(Json(json!({ "post": view(&state.config, &blog, &post)? })))
}

/// Replaces a post's blocks; publishing sets `publishedAt` once and it stays.
#[handler]
pub async fn update(
    signed_in: SignedIn,
    state: Data<&AppState>,
    Path((blog_id, post_id)): Path<(String, String)>,
    JsonBody(input): JsonBody<PostInput>,
) -> Result<Json<Value>> {
    let (blog, _) = owned_blog(&state, &signed_in, &blog_id).await?;
    let write = prepare(&state.config, &input)?;
    let search = state.search.clone();
    let id = blog.id;
    let post = state
        .db
        .write(move |conn| {
            let (post, seq) = posts::update(conn, id, &post_id, &write)?.ok_or_else(post_not_found)?;
            index(&search, &post, seq);
            Ok(post)
        })
        .await?;
    state.public.cache.invalidate(&blog.subdomain);
    Ok(Json(json!({ "post": view(&state.config, &blog, &post)? })))
}

/// Deletes a post.
#[handler]
pub async fn delete(signed_in: SignedIn, state: Data<&AppState>, Path((blog_id, post_id)): Path<(String, String)>) -> Result<Json<Value>> {
    let (blog, _) = owned_blog(&state, &signed_in, &blog_id).await?;
    let search = state.search.clone();
    let id = blog.id;
    state
        .db
        .write(move |conn| {
            let (row_id, seq) = posts::delete(conn, id, &post_id)?.ok_or_else(post_not_found)?;
            if let Err(err) = search.remove(row_id, seq) {
                tracing::error!(error = format!("{err:#}"), "search index not updated; it is rebuilt at the next start");
            }
            Ok(())
        })
        .await?;
    state.public.cache.invalidate(&blog.subdomain);
    Ok(Json(json!({})))
}

/// Full-text search in the blog's posts, drafts included, best match first.
#[handler]
pub async fn find(
    signed_in: SignedIn,
    state: Data<&AppState>,
    Path(blog_id): Path<String>,
    JsonBody(input): JsonBody<SearchInput>,
) -> Result<Json<Value>> {
    let (blog, _) = owned_blog(&state, &signed_in, &blog_id).await?;
    let query = input.query.trim().to_owned();
    if query.is_empty() {
        return Err(Error::invalid("query", "Can't be blank"));
    }
    if query.chars().count() > MAX_QUERY {
        return Err(Error::invalid("query", format!("Should be at most {MAX_QUERY} characters")));
    }
    let search = state.search.clone();
    let id = blog.id;
    let ids = tokio::task::spawn_blocking(move || search.search(id, &query, false, SEARCH_LIMIT))
        .await
        .map_err(|err| Error::Internal(err.into()))??;
    let rows = state.db.read(move |conn| posts::by_ids(conn, id, &ids)).await?;
    Ok(Json(json!({ "posts": views(&state.config, &blog, &rows)? })))
}

/// Validates the input into what the store writes.
fn prepare(config: &Config, input: &PostInput) -> Result<PostWrite> {
    let rules = Rules { image_prefix: config.image_prefix() };
    let body = Body::parse(&input.body, &rules).map_err(Error::Invalid)?;
    let title = body.title();
    Ok(PostWrite {
        slug: slug(&title),
        title,
        body_json: serde_json::to_string(&body).map_err(|err| Error::Internal(err.into()))?,
        publish: !input.draft,
    })
}

/// Updates the index after a committed write; a failure is logged, never lost: the index is
/// rebuilt at the next start because its sequence falls behind.
fn index(search: &Arc<SearchIndex>, post: &Post, seq: i64) {
    let outcome = posts::index_doc(post).and_then(|doc| search.upsert(&doc, seq));
    if let Err(err) = outcome {
        tracing::error!(error = format!("{err:#}"), "search index not updated; it is rebuilt at the next start");
    }
}

fn post_not_found() -> Error {
    Error::not_found("post", "Post not found")
}

fn views(config: &Config, blog: &Blog, rows: &[Post]) -> Result<Vec<Value>> {
    rows.iter().map(|post| view(config, blog, post)).collect()
}

/// The API shape of a post.
pub fn view(config: &Config, blog: &Blog, post: &Post) -> Result<Value> {
    let body: Value = serde_json::from_str(&post.body_json).map_err(|err| Error::Internal(err.into()))?;
    Ok(json!({
        "shortId": post.short_id,
        "permalink": format!("{}/{}-{}", config.blog_url(&blog.subdomain), post.slug, post.short_id),
        "title": post.title,
        "publishedAt": post.published_at,
        "createdAt": post.created_at,
        "updatedAt": post.updated_at,
        "body": body,
    }))
}
