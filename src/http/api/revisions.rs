//! A post's history (issue 32, docs/revisions.md): its revisions, newest first and paged, each
//! with its full words so the owner app can diff, and the restore of one, which goes through the
//! update path ([`crate::blogs::Blogs::restore_revision`]).

use poem::web::{Data, Json, Path};
use poem::{IntoResponse, Request, Response, handler};
use serde::Serialize;
use serde_json::value::RawValue;
use ts_rs::TS;

use crate::db::posts;
use crate::db::revisions::{self, Revision};
use crate::domain::content::blocks::Body;
use crate::domain::content::visibility::Visibility;
use crate::domain::paging::PageRequest;
use crate::error::{Error, Result};
use crate::http::api::fediverse::row_id;
use crate::http::api::paged;
use crate::http::api::posts::{OnePost, counted_post_json};
use crate::http::owned_blog::OwnedBlog;
use crate::http::state::AppState;

/// Revisions per page by default.
const DEFAULT_PAGE_SIZE: u32 = 20;
/// Largest page size.
const MAX_PAGE_SIZE: u32 = 100;

/// A post's state as a revision recorded it.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "revisions.ts", rename = "RevisionState")]
pub struct StateJson<'a> {
    /// `draft`, `scheduled` or `published`.
    #[ts(type = "\"draft\" | \"scheduled\" | \"published\"")]
    status: &'static str,
    published_at: &'a Option<String>,
    scheduled_at: &'a Option<String>,
    #[ts(type = "\"public\" | \"unlisted\"")]
    visibility: &'static str,
    /// Whether it was a page.
    page: bool,
}

/// One revision: when, who, which write replaced it, the state and the full words it holds.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "revisions.ts", rename = "Revision")]
pub struct RevisionJson<'a> {
    id: i64,
    /// When the version it holds was replaced.
    created_at: &'a str,
    /// The user who replaced it (name, or email when they have none).
    author: &'a str,
    #[ts(type = "\"save\" | \"autosave\" | \"restore\"")]
    kind: &'static str,
    state: StateJson<'a>,
    title: &'a str,
    slug: &'a str,
    #[ts(as = "Body")]
    body: &'a RawValue,
    tags: &'a [String],
}

/// `{revisions, total}`: a page of a post's history, newest first.
#[derive(Serialize, TS)]
#[ts(export_to = "revisions.ts")]
pub struct ManyRevisions<'a> {
    revisions: Vec<RevisionJson<'a>>,
    /// Revisions of the post in all.
    total: u64,
}

fn revision_json(revision: &Revision) -> Result<RevisionJson<'_>> {
    let v = &revision.version;
    let body: &RawValue = serde_json::from_str(&v.body).map_err(|err| Error::Internal(err.into()))?;
    let status = match (&v.published_at, &v.scheduled_at) {
        (Some(_), _) => "published",
        (None, Some(_)) => "scheduled",
        (None, None) => "draft",
    };
    Ok(RevisionJson {
        id: revision.id,
        created_at: &revision.created_at,
        author: &revision.author,
        kind: revision.kind.as_str(),
        state: StateJson {
            status,
            published_at: &v.published_at,
            scheduled_at: &v.scheduled_at,
            visibility: Visibility::of(v.unlisted).as_str(),
            page: v.page,
        },
        title: &v.title,
        slug: &v.slug,
        body,
        tags: &v.tags,
    })
}

/// A page of the post's revisions, newest first (`?page=&page_size=`).
#[handler]
pub async fn list(
    req: &Request,
    OwnedBlog { blog, .. }: OwnedBlog,
    state: Data<&AppState>,
    Path((_, post_id)): Path<(String, String)>,
) -> Result<Response> {
    let request = PageRequest::parse(req.uri().query(), DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE).map_err(Error::BadRequest)?;
    let blog_id = blog.id;
    let (page, rows) = state
        .db
        .read(move |conn| {
            let post = posts::get(conn, blog_id, &post_id)?.ok_or_else(crate::blogs::post_not_found)?;
            let page = request.within(revisions::count(conn, post.id)?).map_err(Error::BadRequest)?;
            Ok((page, revisions::page(conn, post.id, request.offset(), request.page_size)?))
        })
        .await?;
    let revisions = rows.iter().map(revision_json).collect::<Result<_>>()?;
    Ok(paged(Json(ManyRevisions { revisions, total: page.total }), page))
}

/// Puts a revision's words back; answers the post as it now is.
#[handler]
pub async fn restore(
    OwnedBlog { blog, .. }: OwnedBlog,
    state: Data<&AppState>,
    Path((_, post_id, revision_id)): Path<(String, String, String)>,
) -> Result<Response> {
    let revision_id = row_id(&revision_id, crate::blogs::revision_not_found)?;
    let post = state.blogs.restore_revision(&blog, &post_id, revision_id).await?;
    Ok(Json(OnePost { post: counted_post_json(&state, &blog, &post).await? }).into_response())
}
