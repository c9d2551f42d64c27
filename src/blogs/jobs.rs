//! Background jobs: exports and imports (`blogs::import_jobs`). A job is a row of `jobs`
//! (db/jobs.rs); the owner queues one, [`run`] (a task the server starts) claims it and does
//! the work, recording progress as it goes. An export's file waits under `exports/` for a day;
//! an import's uploaded file waits there until the import ends.
//!
//! Bounded: one job at a time per blog (a second is refused while one is queued or running)
//! and [`MAX_RUNNING`] in all. A run writes `<id>-<token>.zip.part` and renames it when it is
//! complete, so a file without `.part` is always whole. When the server stops mid-run, the
//! next start puts the job back in the queue and deletes the partial file
//! ([`Blogs::recover_jobs`]): the job runs again from the start, under a new attempt number,
//! and whatever the abandoned run still does changes nothing. A timer deletes finished jobs
//! and their files a day after they end.
//!
//! A job is a row of `jobs` (migration 8: blog, kind, format, state `queued`/`running`/`done`/
//! `failed`, attempt, progress, input and result file, error, report JSON, and its times). The
//! write path queues it (`Blogs::start_export`, `Blogs::start_import`); [`run`] claims queued jobs
//! while fewer than [`MAX_RUNNING`] run (`db::jobs::claim_next`), and each runs on the blocking
//! pool with its own read connection, writing its progress through the one writer at most four
//! times a second. Each claim bumps `attempt`, and every update of a run names its attempt.
//! [`Blogs::recover_jobs`] (called by `App::build` before serving) also deletes partial files and
//! files no job names, and finished jobs past `expires_at` with their files, as the runner's timer
//! does every minute. Deleting an export, or the account, deletes its file; a run whose row is
//! gone stops at its next progress write and removes its own file.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::anyhow;
use tokio::task::JoinSet;

use super::Blogs;
use super::exports::{self, ExportFormat, SiteRenderer};
use crate::db::blogs::Blog;
use crate::db::jobs::{self, Job};
use crate::error::{Error, Result};
use crate::fetch::Fetcher;

/// Jobs running at once, in all blogs (the machine's cores are the server's too).
pub const MAX_RUNNING: u32 = 2;
/// How often finished jobs past their day are looked for.
const SWEEP_EVERY: Duration = Duration::from_secs(60);
/// Least time between two progress writes of one run.
const PROGRESS_EVERY: Duration = Duration::from_millis(250);
/// The kind of an export job.
pub const EXPORT: &str = "export";
/// The kind of an import job.
pub const IMPORT: &str = "import";
/// What a partial file's name ends with.
const PARTIAL: &str = ".part";

/// The message of a run that was told to stop.
#[derive(Debug)]
pub(super) struct Stopped;

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the job was deleted or restarted")
    }
}

impl std::error::Error for Stopped {}

/// The answer for a job that is not the blog's.
pub fn job_not_found() -> Error {
    Error::not_found("export", "Export not found")
}

impl Blogs {
    /// Queues an export of `blog` as `raw_format` (`archive`, `markdown`, `site`).
    pub async fn start_export(&self, blog: &Blog, raw_format: &str) -> Result<Job> {
        let format =
            ExportFormat::parse(raw_format).ok_or_else(|| Error::invalid("format", ExportFormat::unknown()))?;
        let blog_id = blog.id;
        self.commit(move |conn, effects| {
            let job = jobs::create(conn, blog_id, EXPORT, format.name(), None)?.ok_or_else(|| {
                Error::invalid("export", "An export of this blog is already under way: wait for it to finish")
            })?;
            effects.job_queued();
            Ok(job)
        })
        .await
    }

    /// Deletes the export `raw_id` of `blog` and its file; a running one stops.
    pub async fn delete_export(&self, blog: &Blog, raw_id: &str) -> Result<()> {
        self.delete_job(blog, EXPORT, raw_id, job_not_found).await
    }

    /// Deletes the job `raw_id` of `kind` of `blog` and its files (`not_found` when there is no
    /// such job). A running job notices at its next progress write and stops.
    pub(super) async fn delete_job(
        &self,
        blog: &Blog,
        kind: &'static str,
        raw_id: &str,
        not_found: fn() -> Error,
    ) -> Result<()> {
        let id: i64 = raw_id.parse().map_err(|_| not_found())?;
        let blog_id = blog.id;
        self.commit(move |conn, effects| {
            let job = jobs::delete(conn, blog_id, kind, id)?.ok_or_else(not_found)?;
            effects.remove_job_files(job.result_file.into_iter().chain(job.input_file));
            Ok(())
        })
        .await
    }

    /// At start, before any job runs: puts the jobs a stopped server left running back in the
    /// queue, deletes partial files and files no job names, forgets done jobs whose file is
    /// gone, and deletes what expired.
    pub async fn recover_jobs(&self) -> Result<()> {
        let dir = self.data_dir.exports();
        let requeued = self.db.write(|conn| jobs::requeue_running(conn)).await?;
        if requeued > 0 {
            tracing::info!(jobs = requeued, "jobs a stopped server was running start again");
        }
        let named: HashSet<String> = self.db.read(jobs::files).await?.into_iter().collect();
        for entry in std::fs::read_dir(&dir).into_iter().flatten().filter_map(std::result::Result::ok) {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.ends_with(PARTIAL) || !named.contains(&name) {
                self.remove_job_file(&name);
            }
        }
        let exports = self.data_dir.clone();
        let forgotten =
            self.db.write(move |conn| jobs::forget_done_without(conn, &|file| exports.export(file).is_file())).await?;
        if forgotten > 0 {
            tracing::warn!(jobs = forgotten, "exports whose file is gone were forgotten");
        }
        self.sweep_jobs().await?;
        Ok(())
    }

    /// Deletes the jobs past their day, with their files; returns how many.
    pub async fn sweep_jobs(&self) -> Result<usize> {
        let expired = self.db.write(|conn| jobs::delete_expired(conn)).await?;
        for job in &expired {
            for file in job.result_file.iter().chain(&job.input_file) {
                self.remove_job_file(file);
            }
        }
        Ok(expired.len())
    }

    /// Removes a job's file from the exports folder (a missing one is no error).
    pub(super) fn remove_job_file(&self, name: &str) {
        match std::fs::remove_file(self.data_dir.export(name)) {
            Err(err) if err.kind() != std::io::ErrorKind::NotFound => {
                tracing::warn!(file = name, error = %err, "could not remove an export file");
            }
            _ => {}
        }
    }

    /// Runs `job` to its end, as its kind says.
    async fn run_job(self: Arc<Self>, site: Arc<dyn SiteRenderer>, fetcher: Fetcher, job: Job) {
        match job.kind.as_str() {
            IMPORT => self.run_import(fetcher, job).await,
            _ => self.run_export(site, job).await,
        }
    }

    /// Runs the export `job` to its end: writes its file on the blocking pool and records the
    /// outcome.
    async fn run_export(self: Arc<Self>, site: Arc<dyn SiteRenderer>, job: Job) {
        let (id, attempt) = (job.id, job.attempt);
        let token = hex::encode(rand::random::<[u8; 8]>());
        let name = format!("{id}-{token}.zip");
        let outcome = self.clone().write_export(site, job, name.clone()).await;
        let recorded = match outcome {
            Ok(size) => self.db.write(move |conn| jobs::finish(conn, id, attempt, &name, size)).await,
            Err(err) if err.is::<Stopped>() => Ok(false),
            Err(err) => {
                tracing::error!(job = id, error = format!("{err:#}"), "export failed");
                let message = "The export failed. Try again; if it fails again, the server's log says why.";
                self.db.write(move |conn| jobs::fail(conn, id, attempt, message)).await
            }
        };
        if !matches!(recorded, Ok(true)) {
            // Deleted (or restarted) meanwhile: nothing may be left of this run.
            self.remove_job_file(&format!("{id}-{token}.zip"));
        }
        if let Err(err) = recorded {
            tracing::error!(job = id, error = format!("{err:#}"), "recording the end of a job failed");
        }
        self.remove_job_file(&format!("{id}-{token}.zip{PARTIAL}"));
        self.jobs_changed.notify_one();
    }

    /// Writes the export of `job` into `exports/<name>` (through a partial file); its size.
    async fn write_export(self: Arc<Self>, site: Arc<dyn SiteRenderer>, job: Job, name: String) -> anyhow::Result<u64> {
        let format =
            ExportFormat::parse(&job.format).ok_or_else(|| anyhow!("unknown export format {:?}", job.format))?;
        let runtime = tokio::runtime::Handle::current();
        tokio::task::spawn_blocking(move || {
            let dir = self.data_dir.exports();
            std::fs::create_dir_all(&dir)?;
            let partial = self.data_dir.export(&format!("{name}{PARTIAL}"));
            let conn = crate::db::open_connection(self.db.path(), false)?;
            let subdomain = crate::db::exports::subdomain_of(&conn, job.blog_id)?.ok_or(Stopped)?;
            let file = std::fs::File::create(&partial)?;
            let mut last = Instant::now();
            let mut on_progress = |done: u64, total: u64| -> anyhow::Result<()> {
                if done < total && last.elapsed() < PROGRESS_EVERY {
                    return Ok(());
                }
                last = Instant::now();
                let (id, attempt) = (job.id, job.attempt);
                let current =
                    runtime.block_on(self.db.write(move |conn| jobs::set_progress(conn, id, attempt, done, total)))?;
                if current { Ok(()) } else { Err(Stopped.into()) }
            };
            let size = exports::write(&conn, &self.media, &subdomain, format, site.as_ref(), file, &mut on_progress)?;
            std::fs::rename(&partial, self.data_dir.export(&name))?;
            Ok(size)
        })
        .await?
    }
}

/// The job runner: starts queued jobs as room allows and deletes expired ones (and trash entries
/// past their 30 days), until the task is aborted (its running jobs with it). `site` renders the
/// static site export; imports download images with `fetcher`.
pub async fn run(blogs: Arc<Blogs>, site: Arc<dyn SiteRenderer>, fetcher: Fetcher) {
    let mut running = JoinSet::new();
    let mut next_sweep = Instant::now();
    loop {
        if Instant::now() >= next_sweep {
            if let Err(err) = blogs.sweep_jobs().await {
                tracing::error!(error = format!("{err:#}"), "deleting expired jobs failed");
            }
            // The same housekeeping removes trash entries past their 30 days (docs/revisions.md).
            if let Err(err) = blogs.sweep_trash().await {
                tracing::error!(error = format!("{err:#}"), "emptying the trash of expired posts failed");
            }
            next_sweep = Instant::now() + SWEEP_EVERY;
        }
        while running.try_join_next().is_some() {}
        loop {
            match blogs.db.write(|conn| jobs::claim_next(conn, MAX_RUNNING)).await {
                Ok(Some(job)) => {
                    running.spawn(blogs.clone().run_job(site.clone(), fetcher.clone(), job));
                }
                Ok(None) => break,
                Err(err) => {
                    tracing::error!(error = format!("{err:#}"), "starting a job failed");
                    break;
                }
            }
        }
        tokio::select! {
            () = tokio::time::sleep_until(next_sweep.into()) => {}
            () = blogs.jobs_changed.notified() => {}
        }
    }
}
