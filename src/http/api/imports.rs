//! A blog's imports (docs/api.md, "Imports"): the upload that starts one, listed with their
//! progress and reports, and forgotten. The upload's body is not buffered by the middleware:
//! it streams to the write path (`Blogs::start_import`), which writes it to disk with a cap.

use poem::http::StatusCode;
use poem::web::{Data, Json, Path, Query};
use poem::{Body, IntoResponse, Response, handler};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::blogs::jobs::IMPORT;
use crate::blogs::{ImportRequest, import_not_found};
use crate::db::blogs::Blog;
use crate::db::jobs::{self, Job};
use crate::error::Result;
use crate::http::api::answers::{Empty, Progress};
use crate::http::owned_blog::OwnedBlog;
use crate::http::state::AppState;

/// `POST .../imports` query.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NewImport {
    file_name: Option<String>,
    site_url: Option<String>,
}

/// An import as the API shows it.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "imports.ts", rename = "Import")]
pub struct ImportJson<'a> {
    id: i64,
    /// The export's format, as recognized (`portable::Format::key`).
    #[ts(type = r#""wordpress" | "ghost" | "writefreely" | "bearblog" | "markdown" | "quire""#)]
    format: &'a str,
    /// The uploaded file's name, as sent.
    file_name: &'a Option<String>,
    /// `queued`, `running`, `done` or `failed`.
    #[ts(type = r#""queued" | "running" | "done" | "failed""#)]
    state: &'a str,
    progress: Progress,
    error: &'a Option<String>,
    /// What was imported and what was not (the import report), once done.
    #[ts(type = "unknown")]
    report: Option<Value>,
    created_at: &'a str,
    started_at: &'a Option<String>,
    finished_at: &'a Option<String>,
    expires_at: &'a Option<String>,
}

/// `{import}`.
#[derive(Serialize, TS)]
#[ts(export_to = "imports.ts")]
pub struct OneImport<'a> {
    import: ImportJson<'a>,
}

/// `{imports}`, newest first.
#[derive(Serialize, TS)]
#[ts(export_to = "imports.ts")]
pub struct Imports<'a> {
    imports: Vec<ImportJson<'a>>,
}

/// Receives an export (the body is the file) and queues its import; answers 202 with it.
#[handler]
pub async fn create(
    OwnedBlog { blog, input: Query(query), .. }: OwnedBlog<Query<NewImport>>,
    state: Data<&AppState>,
    body: Body,
) -> Result<Response> {
    let request = ImportRequest { file_name: query.file_name, site_url: query.site_url };
    let job = state.blogs.start_import(&blog, request, body.into_async_read()).await?;
    Ok(Json(OneImport { import: import_json(&job) }).with_status(StatusCode::ACCEPTED).into_response())
}

/// The blog's imports, newest first: `{imports: [...]}`.
#[handler]
pub async fn list(OwnedBlog { blog, .. }: OwnedBlog, state: Data<&AppState>) -> Result<Response> {
    let id = blog.id;
    let imports = state.db.read(move |conn| jobs::list(conn, id, IMPORT)).await?;
    Ok(Json(Imports { imports: imports.iter().map(import_json).collect() }).into_response())
}

/// One import: `{import}`.
#[handler]
pub async fn show(
    OwnedBlog { blog, .. }: OwnedBlog,
    state: Data<&AppState>,
    Path((_, import_id)): Path<(String, String)>,
) -> Result<Response> {
    let job = owned_import(&state, &blog, &import_id).await?;
    Ok(Json(OneImport { import: import_json(&job) }).into_response())
}

/// Forgets an import (a running one stops after its current batch).
#[handler]
pub async fn delete(
    OwnedBlog { blog, .. }: OwnedBlog,
    state: Data<&AppState>,
    Path((_, import_id)): Path<(String, String)>,
) -> Result<Json<Empty>> {
    state.blogs.delete_import(&blog, &import_id).await?;
    Ok(Json(Empty {}))
}

/// The blog's import `raw_id`; anything else is a 404.
async fn owned_import(state: &AppState, blog: &Blog, raw_id: &str) -> Result<Job> {
    let id: i64 = raw_id.parse().map_err(|_| import_not_found())?;
    let blog_id = blog.id;
    state.db.read(move |conn| jobs::get(conn, blog_id, IMPORT, id)).await?.ok_or_else(import_not_found)
}

/// An import as the API shows it.
fn import_json(job: &Job) -> ImportJson<'_> {
    let report = job.report.as_deref().and_then(|text| serde_json::from_str::<Value>(text).ok());
    ImportJson {
        id: job.id,
        format: &job.format,
        file_name: &job.input_name,
        state: &job.state,
        progress: Progress { done: job.progress_done, total: job.progress_total },
        error: &job.error,
        report,
        created_at: &job.created_at,
        started_at: &job.started_at,
        finished_at: &job.finished_at,
        expires_at: &job.expires_at,
    }
}
