//! A blog's trash (issue 32, docs/revisions.md): deleted posts kept for 30 days, listed last
//! deleted first, restored through the write path or removed for good.

use poem::web::{Data, Json, Path};
use poem::{IntoResponse, Request, Response, handler};
use serde::Serialize;
use ts_rs::TS;

use crate::db::trash::{self, TrashEntry};
use crate::domain::paging::PageRequest;
use crate::error::{Error, Result};
use crate::http::api::answers::Empty;
use crate::http::api::fediverse::row_id;
use crate::http::api::paged;
use crate::http::api::posts::{OnePost, counted_post_json};
use crate::http::owned_blog::OwnedBlog;
use crate::http::state::AppState;

/// Entries per page by default.
const DEFAULT_PAGE_SIZE: u32 = 50;
/// Largest page size.
const MAX_PAGE_SIZE: u32 = 100;

/// One deleted post in the trash.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "trash.ts", rename = "TrashEntry")]
pub struct TrashEntryJson<'a> {
    id: i64,
    title: &'a str,
    /// When it was deleted.
    deleted_at: &'a str,
    /// When it is removed for good (30 days after its deletion).
    expires_at: &'a str,
    /// Whether it was published when deleted.
    published: bool,
    /// Whether it was a page.
    page: bool,
    /// Revisions kept with it.
    revisions: usize,
}

/// `{trash, total}`: a page of the blog's trash, last deleted first.
#[derive(Serialize, TS)]
#[ts(export_to = "trash.ts")]
pub struct ManyTrash<'a> {
    trash: Vec<TrashEntryJson<'a>>,
    /// Entries in all.
    total: u64,
}

fn entry_json(entry: &TrashEntry) -> TrashEntryJson<'_> {
    TrashEntryJson {
        id: entry.id,
        title: &entry.title,
        deleted_at: &entry.deleted_at,
        expires_at: &entry.expires_at,
        published: entry.post.version.published_at.is_some(),
        page: entry.post.version.page,
        revisions: entry.revisions,
    }
}

/// A page of the blog's trash (`?page=&page_size=`).
#[handler]
pub async fn list(req: &Request, OwnedBlog { blog, .. }: OwnedBlog, state: Data<&AppState>) -> Result<Response> {
    let request = PageRequest::parse(req.uri().query(), DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE).map_err(Error::BadRequest)?;
    let blog_id = blog.id;
    let (page, rows) = state
        .db
        .read(move |conn| {
            let page = request.within(trash::count(conn, blog_id)?).map_err(Error::BadRequest)?;
            Ok((page, trash::page(conn, blog_id, request.offset(), request.page_size)?))
        })
        .await?;
    let list = rows.iter().map(entry_json).collect();
    Ok(paged(Json(ManyTrash { trash: list, total: page.total }), page))
}

/// Brings a deleted post back; answers it.
#[handler]
pub async fn restore(
    OwnedBlog { blog, .. }: OwnedBlog,
    state: Data<&AppState>,
    Path((_, trash_id)): Path<(String, String)>,
) -> Result<Response> {
    let trash_id = row_id(&trash_id, crate::blogs::trash_not_found)?;
    let post = state.blogs.restore_from_trash(&blog, trash_id).await?;
    Ok(Json(OnePost { post: counted_post_json(&state, &blog, &post).await? }).into_response())
}

/// Removes a deleted post for good.
#[handler]
pub async fn purge(
    OwnedBlog { blog, .. }: OwnedBlog,
    state: Data<&AppState>,
    Path((_, trash_id)): Path<(String, String)>,
) -> Result<Json<Empty>> {
    let trash_id = row_id(&trash_id, crate::blogs::trash_not_found)?;
    state.blogs.purge_from_trash(&blog, trash_id).await?;
    Ok(Json(Empty {}))
}
