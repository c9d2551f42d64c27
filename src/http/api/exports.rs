//! A blog's exports (docs/api.md, "Exports"): asked for, listed with their progress, downloaded
//! and deleted. The work runs in the background (`blogs::jobs`); these handlers only decode,
//! call the write path or read, and answer.

use anyhow::Context;
use poem::http::{StatusCode, header};
use poem::web::{Data, Json, Path};
use poem::{Body, IntoResponse, Response, handler};
use serde::{Deserialize, Serialize};
use tokio::io::BufReader;
use ts_rs::TS;

use crate::blogs::exports::ExportFormat;
use crate::blogs::jobs::{EXPORT, job_not_found};
use crate::db::blogs::Blog;
use crate::db::jobs::{self, Job};
use crate::error::{Error, Result};
use crate::http::api::answers::{Empty, Progress};
use crate::http::api::json::JsonBody;
use crate::http::owned_blog::OwnedBlog;
use crate::http::state::AppState;

/// Bytes read from an export file at a time while it is streamed.
const READ_CHUNK: usize = 64 * 1024;

/// `POST .../exports` body.
#[derive(Debug, Deserialize)]
pub struct NewExport {
    format: String,
}

/// An export as the API shows it.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "exports.ts", rename = "Export")]
pub struct ExportJson<'a> {
    id: i64,
    /// `archive`, `markdown` or `site`.
    #[ts(type = r#""archive" | "markdown" | "site""#)]
    format: &'a str,
    /// `queued`, `running`, `done` or `failed`.
    #[ts(type = r#""queued" | "running" | "done" | "failed""#)]
    state: &'a str,
    progress: Progress,
    /// The file's size in bytes, once done.
    size: Option<i64>,
    /// The name the file is offered under.
    file_name: String,
    /// Where to download it, once done.
    download_url: Option<String>,
    error: &'a Option<String>,
    created_at: &'a str,
    started_at: &'a Option<String>,
    finished_at: &'a Option<String>,
    expires_at: &'a Option<String>,
}

/// `{export}`.
#[derive(Serialize, TS)]
#[ts(export_to = "exports.ts")]
pub struct OneExport<'a> {
    export: ExportJson<'a>,
}

/// `{exports}`, newest first.
#[derive(Serialize, TS)]
#[ts(export_to = "exports.ts")]
pub struct Exports<'a> {
    exports: Vec<ExportJson<'a>>,
}

/// Starts an export (`{format: "archive" | "markdown" | "site"}`); answers 202 with it.
#[handler]
pub async fn create(
    OwnedBlog { blog, input: JsonBody(body), .. }: OwnedBlog<JsonBody<NewExport>>,
    state: Data<&AppState>,
) -> Result<Response> {
    let job = state.blogs.start_export(&blog, &body.format).await?;
    Ok(Json(OneExport { export: export_json(&blog, &job) }).with_status(StatusCode::ACCEPTED).into_response())
}

/// The blog's exports, newest first: `{exports: [...]}`.
#[handler]
pub async fn list(OwnedBlog { blog, .. }: OwnedBlog, state: Data<&AppState>) -> Result<Response> {
    let id = blog.id;
    let exports = state.db.read(move |conn| jobs::list(conn, id, EXPORT)).await?;
    Ok(Json(Exports { exports: exports.iter().map(|job| export_json(&blog, job)).collect() }).into_response())
}

/// One export: `{export}`.
#[handler]
pub async fn show(
    OwnedBlog { blog, .. }: OwnedBlog,
    state: Data<&AppState>,
    Path((_, export_id)): Path<(String, String)>,
) -> Result<Response> {
    let job = blog_export(&state, &blog, &export_id).await?;
    Ok(Json(OneExport { export: export_json(&blog, &job) }).into_response())
}

/// The export's file, streamed from disk as an attachment.
#[handler]
pub async fn download(
    OwnedBlog { blog, .. }: OwnedBlog,
    state: Data<&AppState>,
    Path((_, export_id)): Path<(String, String)>,
) -> Result<Response> {
    let job = blog_export(&state, &blog, &export_id).await?;
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
    OwnedBlog { blog, .. }: OwnedBlog,
    state: Data<&AppState>,
    Path((_, export_id)): Path<(String, String)>,
) -> Result<Json<Empty>> {
    state.blogs.delete_export(&blog, &export_id).await?;
    Ok(Json(Empty {}))
}

/// The blog's export `raw_id`; anything else is a 404.
async fn blog_export(state: &AppState, blog: &Blog, raw_id: &str) -> Result<Job> {
    let id: i64 = raw_id.parse().map_err(|_| job_not_found())?;
    let blog_id = blog.id;
    state.db.read(move |conn| jobs::get(conn, blog_id, EXPORT, id)).await?.ok_or_else(job_not_found)
}

/// The name the file is offered under: the blog and the day it was asked for.
fn offered_name(blog: &Blog, job: &Job) -> String {
    let day: String = job.created_at.chars().take(10).filter(char::is_ascii_digit).collect();
    ExportFormat::parse(&job.format).unwrap_or(ExportFormat::Archive).file_name(&blog.subdomain, &day)
}

/// An export as the API shows it.
fn export_json<'a>(blog: &Blog, job: &'a Job) -> ExportJson<'a> {
    let done = job.state == "done";
    ExportJson {
        id: job.id,
        format: &job.format,
        state: &job.state,
        progress: Progress { done: job.progress_done, total: job.progress_total },
        size: job.result_size,
        file_name: offered_name(blog, job),
        download_url: done.then(|| format!("/api/my/blogs/{}/exports/{}/download", blog.id, job.id)),
        error: &job.error,
        created_at: &job.created_at,
        started_at: &job.started_at,
        finished_at: &job.finished_at,
        expires_at: &job.expires_at,
    }
}
