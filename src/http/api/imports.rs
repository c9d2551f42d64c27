//! A blog's imports (docs/api.md, "Imports"): the upload that starts one, listed with their
//! progress and reports, and forgotten. The upload's body is not buffered by the middleware:
//! it streams to the write path (`Blogs::start_import`), which writes it to disk with a cap.

use poem::http::StatusCode;
use poem::web::{Data, Json, Path, Query};
use poem::{Body, IntoResponse, Response, handler};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::blogs::jobs::IMPORT;
use crate::blogs::{ImportRequest, import_not_found};
use crate::db::blogs::Blog;
use crate::db::jobs::{self, Job};
use crate::error::Result;
use crate::http::session::SignedIn;
use crate::http::state::AppState;

/// `POST .../imports` query.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NewImport {
    file_name: Option<String>,
    site_url: Option<String>,
}

/// Receives an export (the body is the file) and queues its import; answers 202 with it.
#[handler]
pub async fn create(
    signed_in: SignedIn,
    state: Data<&AppState>,
    Path(blog_id): Path<String>,
    Query(query): Query<NewImport>,
    body: Body,
) -> Result<Response> {
    let blog = state.blogs.owned(signed_in.user.id, &blog_id).await?;
    let request = ImportRequest { file_name: query.file_name, site_url: query.site_url };
    let job = state.blogs.start_import(&blog, request, body.into_async_read()).await?;
    Ok(Json(json!({ "import": import_json(&job) })).with_status(StatusCode::ACCEPTED).into_response())
}

/// The blog's imports, newest first: `{imports: [...]}`.
#[handler]
pub async fn list(signed_in: SignedIn, state: Data<&AppState>, Path(blog_id): Path<String>) -> Result<Json<Value>> {
    let blog = state.blogs.owned(signed_in.user.id, &blog_id).await?;
    let id = blog.id;
    let imports = state.db.read(move |conn| jobs::list(conn, id, IMPORT)).await?;
    Ok(Json(json!({ "imports": imports.iter().map(import_json).collect::<Vec<_>>() })))
}

/// One import: `{import}`.
#[handler]
pub async fn show(
    signed_in: SignedIn,
    state: Data<&AppState>,
    Path((blog_id, import_id)): Path<(String, String)>,
) -> Result<Json<Value>> {
    let blog = state.blogs.owned(signed_in.user.id, &blog_id).await?;
    let job = owned_import(&state, &blog, &import_id).await?;
    Ok(Json(json!({ "import": import_json(&job) })))
}

/// Forgets an import (a running one stops after its current batch).
#[handler]
pub async fn delete(
    signed_in: SignedIn,
    state: Data<&AppState>,
    Path((blog_id, import_id)): Path<(String, String)>,
) -> Result<Json<Value>> {
    let blog = state.blogs.owned(signed_in.user.id, &blog_id).await?;
    state.blogs.delete_import(&blog, &import_id).await?;
    Ok(Json(json!({})))
}

/// The blog's import `raw_id`; anything else is a 404.
async fn owned_import(state: &AppState, blog: &Blog, raw_id: &str) -> Result<Job> {
    let id: i64 = raw_id.parse().map_err(|_| import_not_found())?;
    let blog_id = blog.id;
    state.db.read(move |conn| jobs::get(conn, blog_id, IMPORT, id)).await?.ok_or_else(import_not_found)
}

/// An import as the API shows it.
fn import_json(job: &Job) -> Value {
    let report = job.report.as_deref().and_then(|text| serde_json::from_str::<Value>(text).ok());
    json!({
        "id": job.id,
        "format": job.format,
        "fileName": job.input_name,
        "state": job.state,
        "progress": { "done": job.progress_done, "total": job.progress_total },
        "error": job.error,
        "report": report,
        "createdAt": job.created_at,
        "startedAt": job.started_at,
        "finishedAt": job.finished_at,
        "expiresAt": job.expires_at,
    })
}
