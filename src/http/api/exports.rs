//! A blog's exports (docs/api.md, "Exports"): asked for, listed with their progress, downloaded
//! and deleted. The work runs in the background (`blogs::jobs`); these handlers only decode,
//! call the write path or read, and answer.

use anyhow::Context;
use poem::http::{StatusCode, header};
use poem::web::{Data, Json, Path};
use poem::{Body, IntoResponse, Response, handler};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::io::BufReader;

use crate::blogs::exports::ExportFormat;
use crate::blogs::jobs::{EXPORT, job_not_found};
use crate::db::blogs::Blog;
use crate::db::jobs::{self, Job};
use crate::error::{Error, Result};
use crate::http::api::json::JsonBody;
use crate::http::session::SignedIn;
use crate::http::state::AppState;

/// Bytes read from an export file at a time while it is streamed.
const READ_CHUNK: usize = 64 * 1024;

/// `POST .../exports` body.
#[derive(Debug, Deserialize)]
pub struct NewExport {
    format: String,
}

/// Starts an export (`{format: "archive" | "markdown" | "site"}`); answers 202 with it.
#[handler]
pub async fn create(
    signed_in: SignedIn,
    state: Data<&AppState>,
    Path(blog_id): Path<String>,
    JsonBody(body): JsonBody<NewExport>,
) -> Result<Response> {
    let blog = state.blogs.owned(signed_in.user.id, &blog_id).await?;
    let job = state.blogs.start_export(&blog, &body.format).await?;
    Ok(Json(json!({ "export": export_json(&blog, &job) })).with_status(StatusCode::ACCEPTED).into_response())
}

/// The blog's exports, newest first: `{exports: [...]}`.
#[handler]
pub async fn list(signed_in: SignedIn, state: Data<&AppState>, Path(blog_id): Path<String>) -> Result<Json<Value>> {
    let blog = state.blogs.owned(signed_in.user.id, &blog_id).await?;
    let id = blog.id;
    let exports = state.db.read(move |conn| jobs::list(conn, id, EXPORT)).await?;
    Ok(Json(json!({ "exports": exports.iter().map(|job| export_json(&blog, job)).collect::<Vec<_>>() })))
}

/// One export: `{export}`.
#[handler]
pub async fn show(
    signed_in: SignedIn,
    state: Data<&AppState>,
    Path((blog_id, export_id)): Path<(String, String)>,
) -> Result<Json<Value>> {
    let (blog, job) = owned_export(&state, &signed_in, &blog_id, &export_id).await?;
    Ok(Json(json!({ "export": export_json(&blog, &job) })))
}

/// The export's file, streamed from disk as an attachment.
#[handler]
pub async fn download(
    signed_in: SignedIn,
    state: Data<&AppState>,
    Path((blog_id, export_id)): Path<(String, String)>,
) -> Result<Response> {
    let (blog, job) = owned_export(&state, &signed_in, &blog_id, &export_id).await?;
    let not_ready = || Error::not_found("export", "This export is not ready to download");
    let file_name = job.result_file.as_deref().filter(|_| job.state == "done").ok_or_else(not_ready)?;
    let path = state.config.data_dir.export(file_name);
    let file = tokio::fs::File::open(&path).await.map_err(|_| not_ready())?;
    let length = file.metadata().await.with_context(|| format!("reading {}", path.display()))?.len();
    let name = offered_name(&blog, &job);
    Ok(Response::builder()
        .content_type("application/zip")
        .header(header::CONTENT_LENGTH, length)
        .header(header::CONTENT_DISPOSITION, format!("attachment; filename=\"{name}\""))
        .header(header::CACHE_CONTROL, "private, no-store")
        .body(Body::from_async_read(BufReader::with_capacity(READ_CHUNK, file))))
}

/// Deletes an export and its file (a running one stops).
#[handler]
pub async fn delete(
    signed_in: SignedIn,
    state: Data<&AppState>,
    Path((blog_id, export_id)): Path<(String, String)>,
) -> Result<Json<Value>> {
    let blog = state.blogs.owned(signed_in.user.id, &blog_id).await?;
    state.blogs.delete_export(&blog, &export_id).await?;
    Ok(Json(json!({})))
}

/// The caller's blog and its export `raw_id`; anything else is a 404.
async fn owned_export(state: &AppState, signed_in: &SignedIn, blog_id: &str, raw_id: &str) -> Result<(Blog, Job)> {
    let blog = state.blogs.owned(signed_in.user.id, blog_id).await?;
    let id: i64 = raw_id.parse().map_err(|_| job_not_found())?;
    let blog_id = blog.id;
    let job = state.db.read(move |conn| jobs::get(conn, blog_id, EXPORT, id)).await?.ok_or_else(job_not_found)?;
    Ok((blog, job))
}

/// The name the file is offered under: the blog and the day it was asked for.
fn offered_name(blog: &Blog, job: &Job) -> String {
    let day: String = job.created_at.chars().take(10).filter(char::is_ascii_digit).collect();
    ExportFormat::parse(&job.format).unwrap_or(ExportFormat::Archive).file_name(&blog.subdomain, &day)
}

/// An export as the API shows it.
fn export_json(blog: &Blog, job: &Job) -> Value {
    let done = job.state == "done";
    json!({
        "id": job.id,
        "format": job.format,
        "state": job.state,
        "progress": { "done": job.progress_done, "total": job.progress_total },
        "size": job.result_size,
        "fileName": offered_name(blog, job),
        "downloadUrl": done.then(|| format!("/api/my/blogs/{}/exports/{}/download", blog.id, job.id)),
        "error": job.error,
        "createdAt": job.created_at,
        "startedAt": job.started_at,
        "finishedAt": job.finished_at,
        "expiresAt": job.expires_at,
    })
}
