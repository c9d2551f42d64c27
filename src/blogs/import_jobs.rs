//! Imports as background jobs (docs/api.md, "Imports"): the owner's upload is streamed to a
//! file under `exports/` with a cap, checked (its format found, its reader opened) before the
//! job is queued, then the runner (`blogs::jobs`) imports it through [`Blogs::import`],
//! recording progress after each batch, and keeps the report with the job.
//!
//! A restart puts a running import back in the queue, and the next run writes only what is
//! missing (the engine skips the items it already imported). Deleting a running import stops
//! it after its current batch. The uploaded file is removed as soon as the import ends.
//!
//! The upload is the one request body the middleware does not buffer (it checks only the declared
//! length): [`Blogs::start_import`] streams it to `exports/<token>.upload.part` through the
//! [`MAX_IMPORT_BYTES`] cap (512 MiB), opens it with the reader of its format (`portable`; a file Quire
//! cannot read is a 422 and is deleted: the blog is unchanged), renames it `<token>.import` and
//! queues the job (`kind = 'import'`) with the file in `input_file`, the name it was uploaded under
//! in `input_name` and the old site's address in `site_url` (migration 10). One upload at a time
//! per blog (an in-memory slot), and none while a job of the blog is queued or running. The run
//! calls `Blogs::import` with the runner's `Fetcher`; a task of its own records progress after each
//! batch and tells the engine to stop when the row is gone; at the end the report (JSON) is stored
//! in `report`.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::anyhow;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};

use super::Blogs;
use super::imports::{ImportOptions, ImportProgress, ImportSource};
use super::jobs::{IMPORT, Stopped};
use crate::db::blogs::{self, Blog};
use crate::db::jobs::{self, Input, Job};
use crate::db::quota_uses::{self, QuotaKind};
use crate::domain::blog::old_paths;
use crate::domain::messages::Messages;
use crate::error::{Error, Result};
use crate::fetch::Fetcher;
use crate::portable::report::Report;
use crate::portable::{self, Options, Unreadable};

/// The largest file an import reads (a blog's archive with its images fits).
pub const MAX_IMPORT_BYTES: u64 = 512 * 1024 * 1024;
/// The longest file name kept for the owner to recognize the upload.
const MAX_NAME_CHARS: usize = 200;
/// What an upload's file name ends with until it is checked (start-up deletes such files).
const UPLOADING: &str = ".upload.part";

/// The answer for an import that is not the blog's.
pub fn import_not_found() -> Error {
    Error::not_found("import", "Import not found")
}

fn busy() -> Error {
    Error::invalid("import", "An import or export of this blog is already under way: wait for it to finish")
}

/// What the owner says about the file they upload.
#[derive(Debug, Clone, Default)]
pub struct ImportRequest {
    /// The file's name, as the browser gave it (cleaned before it is kept).
    pub file_name: Option<String>,
    /// The old site's address, for exports that do not name it (Ghost).
    pub site_url: Option<String>,
}

/// The blog's upload slot, held while its file arrives.
struct Uploading<'a> {
    blogs: &'a Blogs,
    blog_id: i64,
}

impl Drop for Uploading<'_> {
    fn drop(&mut self) {
        self.blogs.uploading.lock().unwrap_or_else(std::sync::PoisonError::into_inner).remove(&self.blog_id);
    }
}

/// The uploaded file while it is received and checked: removed unless it is kept.
struct Upload {
    path: PathBuf,
    kept: bool,
}

impl Drop for Upload {
    fn drop(&mut self) {
        if !self.kept {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

impl Blogs {
    /// Receives an import of `blog`: streams `body` to a file (at most [`MAX_IMPORT_BYTES`]),
    /// checks that it is an export Quire reads, and queues the import. Nothing is kept, and the
    /// blog is unchanged, when any of that fails.
    pub async fn start_import(&self, blog: &Blog, request: ImportRequest, body: impl AsyncRead + Unpin) -> Result<Job> {
        let site_url = match request.site_url.as_deref().map(str::trim).filter(|url| !url.is_empty()) {
            Some(raw) => Some(
                old_paths::site_url(raw)
                    .ok_or_else(|| Error::invalid("siteUrl", "Should be an http or https address"))?,
            ),
            None => None,
        };
        let name = clean_file_name(request.file_name.as_deref().unwrap_or_default());
        // The blog's daily quota (`--max-imports-per-day`), before the file is received; the
        // writer counts it again as it queues the job.
        let (blog_id, quotas) = (blog.id, self.public.quotas);
        let within = move |conn: &rusqlite::Connection| -> Result<()> {
            if quota_uses::used_today(conn, blog_id, QuotaKind::Import)? >= u64::from(quotas.imports_per_day) {
                return Err(Error::RateLimited(Messages::one("file", quotas.imports_refusal())));
            }
            Ok(())
        };
        self.db.read(within).await?;
        let _slot = self.upload_slot(blog.id).await?;
        let token = hex::encode(rand::random::<[u8; 12]>());
        let dir = self.data_dir.exports();
        tokio::fs::create_dir_all(&dir).await.map_err(internal)?;
        let mut upload = Upload { path: dir.join(format!("{token}{UPLOADING}")), kept: false };
        receive(body, &upload.path).await?;

        // Found and opened as the job will open it, so a file Quire cannot read is refused now.
        let (path, options) = (upload.path.clone(), self.read_options(blog, site_url.clone()));
        let format = tokio::task::spawn_blocking(move || {
            portable::read::open_with_files(&path, &options).map(|(export, _)| export.read.format)
        })
        .await
        .map_err(internal)??;

        let file = format!("{token}.import");
        tokio::fs::rename(&upload.path, dir.join(&file)).await.map_err(internal)?;
        upload.path = dir.join(&file);
        let input = Input { file, name, site_url: site_url.map(String::from) };
        let job = self
            .commit(move |conn, effects| {
                within(conn)?;
                let job = jobs::create(conn, blog_id, IMPORT, format.key(), Some(&input))?.ok_or_else(busy)?;
                quota_uses::record(conn, blog_id, QuotaKind::Import)?;
                effects.job_queued();
                Ok(job)
            })
            .await?;
        upload.kept = true;
        Ok(job)
    }

    /// Forgets the import `raw_id` of `blog` and removes its file; a running one stops after
    /// its current batch (what it wrote stays).
    pub async fn delete_import(&self, blog: &Blog, raw_id: &str) -> Result<()> {
        self.delete_job(blog, IMPORT, raw_id, import_not_found).await
    }

    /// Takes the blog's upload slot, unless a file is arriving for it or one of its jobs is
    /// queued or running.
    async fn upload_slot(&self, blog_id: i64) -> Result<Uploading<'_>> {
        if !self.uploading.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(blog_id) {
            return Err(busy());
        }
        let slot = Uploading { blogs: self, blog_id };
        if self.db.read(move |conn| jobs::active(conn, blog_id)).await?.is_some() {
            return Err(busy());
        }
        Ok(slot)
    }

    /// How the readers read an import of `blog`: under the server's import limits, unpacking
    /// what they must into the data directory.
    fn read_options(&self, blog: &Blog, site_url: Option<url::Url>) -> Options {
        Options {
            site_url,
            time_zone: Some(blog.time_zone.name().to_owned()),
            limits: self.import_limits,
            work_dir: Some(self.data_dir.exports()),
        }
    }

    /// Runs the import `job` to its end and records the outcome.
    pub(super) async fn run_import(self: Arc<Self>, fetcher: Fetcher, job: Job) {
        let (id, attempt) = (job.id, job.attempt);
        let input = job.input_file.clone();
        let outcome = self.import_file(&fetcher, &job).await;
        let recorded = match outcome {
            Ok(report) => match serde_json::to_string(&report) {
                Ok(json) => self.db.write(move |conn| jobs::finish_import(conn, id, attempt, &json)).await,
                Err(err) => Err(internal(err)),
            },
            Err(err) if err.is::<Stopped>() => Ok(false),
            Err(err) => {
                let message = match err.downcast_ref::<Unreadable>() {
                    Some(unreadable) => unreadable.0.clone(),
                    None => {
                        tracing::error!(job = id, error = format!("{err:#}"), "import failed");
                        "The import failed. What it wrote stays; import the file again to bring in the rest. If it fails again, the server's log says why.".to_owned()
                    }
                };
                self.db.write(move |conn| jobs::fail(conn, id, attempt, &message)).await
            }
        };
        match recorded {
            Ok(true) => {
                if let Some(file) = input {
                    self.remove_job_file(&file);
                }
            }
            Ok(false) => {} // deleted meanwhile: the delete removed the file
            Err(err) => tracing::error!(job = id, error = format!("{err:#}"), "recording the end of an import failed"),
        }
        self.jobs_changed.notify_one();
    }

    /// Imports the job's file into its blog; its report.
    async fn import_file(&self, fetcher: &Fetcher, job: &Job) -> anyhow::Result<Report> {
        let blog_id = job.blog_id;
        let blog = self.db.read(move |conn| blogs::by_id(conn, blog_id)).await?.ok_or(Stopped)?;
        let gone = || {
            anyhow!(Unreadable::new(
                "The uploaded file is no longer on the server (was it restored from a backup?): upload it again"
            ))
        };
        let path = self.data_dir.export(job.input_file.as_deref().ok_or_else(gone)?);
        if !path.is_file() {
            return Err(gone());
        }
        let site_url = job.site_url.as_deref().and_then(|url| url::Url::parse(url).ok());
        let options = self.read_options(&blog, site_url);
        let (export, files) =
            tokio::task::spawn_blocking(move || portable::read::open_with_files(&path, &options)).await??;
        let (id, attempt) = (job.id, job.attempt);
        let total = export.read.expected_items.unwrap_or(0);
        if !self.db.write(move |conn| jobs::set_progress(conn, id, attempt, 0, total)).await? {
            return Err(Stopped.into());
        }

        // Progress is recorded by a task of its own, so the engine never waits on it; a
        // record that finds the run gone (deleted) tells the engine to stop.
        let stopped = Arc::new(AtomicBool::new(false));
        let (sender, mut receiver) = tokio::sync::watch::channel(ImportProgress { done: 0, total: Some(total) });
        let recorder = {
            let (db, stopped) = (self.db.clone(), stopped.clone());
            tokio::spawn(async move {
                while receiver.changed().await.is_ok() {
                    let at = *receiver.borrow_and_update();
                    let (done, total) = (at.done, at.total.unwrap_or(0).max(at.done));
                    if !matches!(
                        db.write(move |conn| jobs::set_progress(conn, id, attempt, done, total)).await,
                        Ok(true)
                    ) {
                        stopped.store(true, Ordering::SeqCst);
                    }
                }
            })
        };
        let source = ImportSource { read: export.read, posts: export.items, files };
        let outcome = self
            .import(&blog, fetcher, source, ImportOptions::default(), |at| {
                let _ = sender.send(at);
                !stopped.load(Ordering::SeqCst)
            })
            .await;
        drop(sender);
        let _ = recorder.await;
        if stopped.load(Ordering::SeqCst) {
            return Err(Stopped.into());
        }
        Ok(outcome?)
    }
}

/// Streams `body` into a new file at `path`, at most [`MAX_IMPORT_BYTES`], and flushes it to
/// disk (the job that reads it may run after a crash).
async fn receive(mut body: impl AsyncRead + Unpin, path: &Path) -> Result<()> {
    let mut file = tokio::fs::File::create(path).await.map_err(internal)?;
    let mut buf = vec![0u8; 64 * 1024];
    let mut size = 0u64;
    loop {
        let n =
            body.read(&mut buf).await.map_err(|_| Error::bad_request("body", "The request body could not be read"))?;
        if n == 0 {
            break;
        }
        size += n as u64;
        if size > MAX_IMPORT_BYTES {
            return Err(Error::body_too_large(MAX_IMPORT_BYTES));
        }
        file.write_all(&buf[..n]).await.map_err(internal)?;
    }
    if size == 0 {
        return Err(Error::bad_request("file", "Is required"));
    }
    file.sync_all().await.map_err(internal)?;
    Ok(())
}

/// The name an upload is kept under: its last path part, without control characters, at
/// most [`MAX_NAME_CHARS`] characters; `export` when nothing is left.
fn clean_file_name(raw: &str) -> String {
    let last = raw.rsplit(['/', '\\']).next().unwrap_or_default();
    let name: String = last.chars().filter(|c| !c.is_control()).take(MAX_NAME_CHARS).collect();
    let name = name.trim();
    if name.is_empty() { "export".to_owned() } else { name.to_owned() }
}

fn internal(err: impl Into<anyhow::Error>) -> Error {
    Error::Internal(err.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_keep_their_last_part_without_control_characters() {
        assert_eq!(clean_file_name("C:\\Users\\a\\blog.WordPress.xml"), "blog.WordPress.xml");
        assert_eq!(clean_file_name("../../etc/passwd"), "passwd");
        assert_eq!(clean_file_name("a\u{0}b\nc.json"), "abc.json");
        assert_eq!(clean_file_name("  "), "export");
        assert_eq!(clean_file_name(&"x".repeat(500)).chars().count(), MAX_NAME_CHARS);
    }
}
