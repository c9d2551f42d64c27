//! Background jobs of a blog (`jobs`): exports and imports. The runner
//! (`blogs/jobs.rs`) claims queued jobs, records their progress and their end; each run has its
//! own `attempt`, and a run's updates name it, so a run abandoned by a restart changes nothing.

use rusqlite::{Connection, OptionalExtension, params};

use crate::error::Error;

/// A job as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    /// Row id.
    pub id: i64,
    /// Its blog.
    pub blog_id: i64,
    /// `export` or `import`.
    pub kind: String,
    /// What it makes or reads: `archive`, `markdown`, `site` for exports; the export's format
    /// for imports (`wordpress`, `ghost`, ...).
    pub format: String,
    /// `queued`, `running`, `done` or `failed`.
    pub state: String,
    /// Its run (1 for the first); a restart runs it again under the next.
    pub attempt: i64,
    /// Work done so far, out of [`Job::progress_total`] (0 while unknown).
    pub progress_done: i64,
    /// Work to do.
    pub progress_total: i64,
    /// An import's uploaded file under `exports/`.
    pub input_file: Option<String>,
    /// The file it wrote under `exports/`, once done.
    pub result_file: Option<String>,
    /// That file's size in bytes.
    pub result_size: Option<i64>,
    /// Why it failed, for the owner.
    pub error: Option<String>,
    /// An import's report (JSON).
    pub report: Option<String>,
    /// When it was asked for.
    pub created_at: String,
    /// When its current run started.
    pub started_at: Option<String>,
    /// When it ended.
    pub finished_at: Option<String>,
    /// When its file and row are removed.
    pub expires_at: Option<String>,
    /// An import's file name, as uploaded.
    pub input_name: Option<String>,
    /// The old site's address given with an import.
    pub site_url: Option<String>,
}

/// What an import job reads: its uploaded file and what the owner said about it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Input {
    /// The file under `exports/`.
    pub file: String,
    /// The name it was uploaded under.
    pub name: String,
    /// The old site's address, if given.
    pub site_url: Option<String>,
}

const COLUMNS: &str = "id, blog_id, kind, format, state, attempt, progress_done, progress_total, input_file, result_file, \
                       result_size, error, report, created_at, started_at, finished_at, expires_at, input_name, site_url";
const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
/// How long a finished job's file and row are kept.
const KEPT_FOR: &str = "'+1 day'";

fn from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Job> {
    Ok(Job {
        id: row.get(0)?,
        blog_id: row.get(1)?,
        kind: row.get(2)?,
        format: row.get(3)?,
        state: row.get(4)?,
        attempt: row.get(5)?,
        progress_done: row.get(6)?,
        progress_total: row.get(7)?,
        input_file: row.get(8)?,
        result_file: row.get(9)?,
        result_size: row.get(10)?,
        error: row.get(11)?,
        report: row.get(12)?,
        created_at: row.get(13)?,
        started_at: row.get(14)?,
        finished_at: row.get(15)?,
        expires_at: row.get(16)?,
        input_name: row.get(17)?,
        site_url: row.get(18)?,
    })
}

/// Queues a job for the blog, reading `input` if it is an import, unless one of its jobs is
/// queued or running: then `None` (one job at a time per blog).
pub fn create(
    conn: &mut Connection,
    blog_id: i64,
    kind: &str,
    format: &str,
    input: Option<&Input>,
) -> Result<Option<Job>, Error> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    if active(&tx, blog_id)?.is_some() {
        return Ok(None);
    }
    let job = tx
        .prepare_cached(&format!(
            "INSERT INTO jobs (blog_id, kind, format, input_file, input_name, site_url) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             RETURNING {COLUMNS}"
        ))?
        .query_row(
            params![
                blog_id,
                kind,
                format,
                input.map(|i| &i.file),
                input.map(|i| &i.name),
                input.and_then(|i| i.site_url.as_ref())
            ],
            from_row,
        )?;
    tx.commit()?;
    Ok(Some(job))
}

/// The blog's queued or running job, if it has one.
pub fn active(conn: &Connection, blog_id: i64) -> Result<Option<Job>, Error> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM jobs WHERE blog_id = ?1 AND state IN ('queued', 'running') ORDER BY id LIMIT 1"
        ))?
        .query_row([blog_id], from_row)
        .optional()?)
}

/// The blog's jobs of `kind`, newest first.
pub fn list(conn: &Connection, blog_id: i64, kind: &str) -> Result<Vec<Job>, Error> {
    let mut stmt =
        conn.prepare_cached(&format!("SELECT {COLUMNS} FROM jobs WHERE blog_id = ?1 AND kind = ?2 ORDER BY id DESC"))?;
    let jobs = stmt.query_map(params![blog_id, kind], from_row)?.collect::<rusqlite::Result<_>>()?;
    Ok(jobs)
}

/// One job of `kind` of the blog.
pub fn get(conn: &Connection, blog_id: i64, kind: &str, id: i64) -> Result<Option<Job>, Error> {
    Ok(conn
        .prepare_cached(&format!("SELECT {COLUMNS} FROM jobs WHERE id = ?1 AND blog_id = ?2 AND kind = ?3"))?
        .query_row(params![id, blog_id, kind], from_row)
        .optional()?)
}

/// Starts the oldest queued job, as its next attempt, while fewer than `max_running` jobs run;
/// `None` when there is nothing to start or no room.
pub fn claim_next(conn: &mut Connection, max_running: u32) -> Result<Option<Job>, Error> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let running: u32 =
        tx.prepare_cached("SELECT count(*) FROM jobs WHERE state = 'running'")?.query_row([], |r| r.get(0))?;
    if running >= max_running {
        return Ok(None);
    }
    let job = tx
        .prepare_cached(
            &format!(
                "UPDATE jobs SET state = 'running', attempt = attempt + 1, started_at = {NOW}, progress_done = 0, progress_total = 0
                 WHERE id = (SELECT id FROM jobs j WHERE state = 'queued'
                             AND NOT EXISTS (SELECT 1 FROM jobs r WHERE r.blog_id = j.blog_id AND r.state = 'running')
                             ORDER BY id LIMIT 1)
                 RETURNING {COLUMNS}"
            ))?.query_row(
            [],
            from_row,
        )
        .optional()?;
    tx.commit()?;
    Ok(job)
}

/// Records the progress of run `attempt`; false when that run is no longer the job's (deleted,
/// or restarted): the run should stop.
pub fn set_progress(conn: &Connection, id: i64, attempt: i64, done: u64, total: u64) -> Result<bool, Error> {
    let changed = conn.execute(
        "UPDATE jobs SET progress_done = ?3, progress_total = ?4 WHERE id = ?1 AND attempt = ?2 AND state = 'running'",
        params![id, attempt, done as i64, total as i64],
    )?;
    Ok(changed > 0)
}

/// Marks run `attempt` done with its file; false when that run is no longer the job's (the
/// caller then removes the file).
pub fn finish(conn: &Connection, id: i64, attempt: i64, file: &str, size: u64) -> Result<bool, Error> {
    let changed = conn.execute(
        &format!(
            "UPDATE jobs SET state = 'done', result_file = ?3, result_size = ?4, progress_done = progress_total,
                 finished_at = {NOW}, expires_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', {KEPT_FOR})
             WHERE id = ?1 AND attempt = ?2 AND state = 'running'"
        ),
        params![id, attempt, file, size as i64],
    )?;
    Ok(changed > 0)
}

/// Marks run `attempt` of an import done with its report (JSON); it no longer names its
/// uploaded file, which the caller removes. False when that run is no longer the job's.
pub fn finish_import(conn: &Connection, id: i64, attempt: i64, report: &str) -> Result<bool, Error> {
    let changed = conn.execute(
        &format!(
            "UPDATE jobs SET state = 'done', report = ?3, input_file = NULL, progress_done = max(progress_done, progress_total),
                 finished_at = {NOW}, expires_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', {KEPT_FOR})
             WHERE id = ?1 AND attempt = ?2 AND state = 'running'"
        ),
        params![id, attempt, report],
    )?;
    Ok(changed > 0)
}

/// Marks run `attempt` failed with a message for the owner; it no longer names an uploaded
/// file (the caller removes it).
pub fn fail(conn: &Connection, id: i64, attempt: i64, message: &str) -> Result<bool, Error> {
    let changed = conn.execute(
        &format!(
            "UPDATE jobs SET state = 'failed', error = ?3, input_file = NULL, finished_at = {NOW},
                 expires_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', {KEPT_FOR})
             WHERE id = ?1 AND attempt = ?2 AND state = 'running'"
        ),
        params![id, attempt, message],
    )?;
    Ok(changed > 0)
}

/// Deletes one job of `kind` of the blog; returns it (its file is the caller's to remove).
pub fn delete(conn: &Connection, blog_id: i64, kind: &str, id: i64) -> Result<Option<Job>, Error> {
    Ok(conn
        .prepare_cached(&format!("DELETE FROM jobs WHERE id = ?1 AND blog_id = ?2 AND kind = ?3 RETURNING {COLUMNS}"))?
        .query_row(params![id, blog_id, kind], from_row)
        .optional()?)
}

/// Puts every running job back in the queue (their runs ended with the process that ran
/// them); returns how many.
pub fn requeue_running(conn: &Connection) -> Result<usize, Error> {
    Ok(conn.execute(
        "UPDATE jobs SET state = 'queued', progress_done = 0, progress_total = 0 WHERE state = 'running'",
        [],
    )?)
}

/// Deletes the jobs whose time is up; returns them (their files are the caller's to remove).
pub fn delete_expired(conn: &Connection) -> Result<Vec<Job>, Error> {
    let mut stmt = conn.prepare_cached(&format!("DELETE FROM jobs WHERE expires_at <= {NOW} RETURNING {COLUMNS}"))?;
    let jobs = stmt.query_map([], from_row)?.collect::<rusqlite::Result<_>>()?;
    Ok(jobs)
}

/// Every file a job names (results and inputs), to tell them from files no job owns.
pub fn files(conn: &Connection) -> Result<Vec<String>, Error> {
    let mut stmt = conn.prepare_cached(
        "SELECT result_file FROM jobs WHERE result_file IS NOT NULL UNION SELECT input_file FROM jobs WHERE input_file IS NOT NULL",
    )?;
    let files = stmt.query_map([], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?;
    Ok(files)
}

/// Forgets the done exports whose file is gone (a backup restored without its exports):
/// returns how many.
pub fn forget_done_without(conn: &Connection, present: &dyn Fn(&str) -> bool) -> Result<usize, Error> {
    let missing: Vec<i64> = {
        let mut stmt =
            conn.prepare_cached("SELECT id, result_file FROM jobs WHERE state = 'done' AND kind = 'export'")?;
        let rows = stmt.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, Option<String>>(1)?)))?;
        rows.filter_map(Result::ok)
            .filter(|(_, file)| !file.as_deref().is_some_and(present))
            .map(|(id, _)| id)
            .collect()
    };
    for id in &missing {
        conn.execute("DELETE FROM jobs WHERE id = ?1", [id])?;
    }
    Ok(missing.len())
}

/// The files of the blog's jobs (for deleting the account).
pub fn files_of_blog(conn: &Connection, blog_id: i64) -> Result<Vec<String>, Error> {
    let mut stmt = conn.prepare_cached(
        "SELECT result_file FROM jobs WHERE blog_id = ?1 AND result_file IS NOT NULL
         UNION SELECT input_file FROM jobs WHERE blog_id = ?1 AND input_file IS NOT NULL",
    )?;
    let files = stmt.query_map([blog_id], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?;
    Ok(files)
}
