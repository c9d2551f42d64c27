//! The delivery worker (issue 16, docs/federation.md): sends the queued activities
//! (db/deliveries.rs), signed with their blog's key at each attempt.
//!
//! - At most [`MAX_AT_ONCE`] deliveries at once, and [`PER_HOST`] per inbox host, so one slow
//!   or dead server never holds up the others (nor the blog: publishing only queues).
//! - The rows in flight are a set in memory; nothing in the database says "running", so after
//!   a crash (kill -9) every row not deleted is simply due again. Delivery is at least once,
//!   as in Mastodon: receivers drop a repeated activity by its id. A row id names one delivery
//!   for ever (migration 14: never reused), so the set, and the outcome written back by row id,
//!   never touch a row queued after the one sent was cancelled (a post's Delete after its Update).
//! - A failure waits [`BACKOFF_MINUTES`] (1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 12 h, 12 h:
//!   about 45 h over 9 attempts), then the row is given up: deleted, and counted for the owner
//!   by inbox host. 404 and 410 give up at once (410 also removes a follower whose own inbox it
//!   was), 429 and 503 wait as long as `Retry-After` says, other 4xx give up, 5xx and network
//!   errors retry.
//! - A circuit breaker: after [`BREAKER_FAILURES`] failures in a row from one host, all its
//!   queued rows move back by the next backoff step, so dead hosts cannot fill the slots.
//!
//! The worker is woken when a write queued something (its effects say so: `blogs/effects.rs`),
//! when a delivery ends, and once a second.
//!
//! [`run`] is started by `App::run`, like the job runner. Each delivery is signed at the moment it
//! is sent, with the key `Blogs::delivery_key` reads (a deleted account's retired key included),
//! and sent through `Fetcher::deliver`.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use tokio::task::JoinSet;
use tokio::time::Instant;

use crate::blogs::Blogs;
use crate::db::deliveries::{self, Due};
use crate::db::followers;
use crate::domain::federation::activity;
use crate::error::Result;
use crate::fetch::{DeliveryError, Fetcher};

/// Deliveries in flight at once.
pub const MAX_AT_ONCE: usize = 16;
/// Deliveries in flight to one inbox host.
pub const PER_HOST: usize = 4;
/// The waits after each failed attempt, in minutes; after the last the delivery is given up.
pub const BACKOFF_MINUTES: [u32; 8] = [1, 5, 30, 120, 360, 720, 720, 720];
/// Failures in a row from one host that move all its queued deliveries back.
pub const BREAKER_FAILURES: u32 = 5;
/// Rows read per look at the queue.
const CLAIM: u32 = 512;
/// The longest the worker sleeps without looking at the queue.
const TICK: Duration = Duration::from_secs(1);
/// How often retired keys no delivery needs are deleted.
const SWEEP_EVERY: Duration = Duration::from_secs(60);

/// How one delivery ended.
struct Ended {
    host: String,
    /// Whether the host answered at all usefully (success, or a permanent answer).
    host_ok: bool,
}

/// The worker: delivers due rows until the task is aborted. `retry_unit` is one minute of the
/// backoff (`Config::delivery_retry_unit`: a minute, except in tests).
pub async fn run(blogs: Arc<Blogs>, fetcher: Fetcher, retry_unit: Duration) {
    let mut running: JoinSet<Ended> = JoinSet::new();
    let mut in_flight: HashSet<i64> = HashSet::new();
    // Each task's row and host, so a task that panicked still frees its place.
    let mut tasks: HashMap<tokio::task::Id, (i64, String)> = HashMap::new();
    let mut per_host: HashMap<String, usize> = HashMap::new();
    let mut failures: HashMap<String, (u32, usize)> = HashMap::new();
    let mut next_sweep = Instant::now();
    loop {
        if Instant::now() >= next_sweep {
            if let Err(err) = blogs.sweep_keys().await {
                tracing::error!(error = format!("{err:#}"), "deleting retired federation keys failed");
            }
            if let Err(err) = blogs.expire_remote().await {
                tracing::error!(error = format!("{err:#}"), "expiring what remote servers sent failed");
            }
            next_sweep = Instant::now() + SWEEP_EVERY;
        }
        if in_flight.len() < MAX_AT_ONCE {
            let skip: Vec<i64> = in_flight.iter().copied().collect();
            match blogs.db.read(move |conn| deliveries::claim_due(conn, CLAIM, &skip)).await {
                Ok(due) => {
                    for row in due {
                        if in_flight.len() >= MAX_AT_ONCE {
                            break;
                        }
                        let host = row.host.clone();
                        let count = per_host.entry(host.clone()).or_default();
                        if *count >= PER_HOST {
                            continue;
                        }
                        *count += 1;
                        in_flight.insert(row.id);
                        let id = row.id;
                        let task =
                            running.spawn(deliver_one(blogs.clone(), fetcher.clone(), row, host.clone(), retry_unit));
                        tasks.insert(task.id(), (id, host));
                    }
                }
                Err(err) => tracing::error!(error = format!("{err:#}"), "reading the delivery queue failed"),
            }
        }
        tokio::select! {
            () = tokio::time::sleep(TICK) => {}
            () = blogs.deliveries_changed.notified() => {}
            Some(joined) = running.join_next_with_id(), if !running.is_empty() => {
                let (task, ended) = match joined {
                    Ok((task, ended)) => (task, Some(ended)),
                    Err(err) => {
                        // Its row is simply due again.
                        tracing::error!(error = %err, "a delivery task failed");
                        (err.id(), None)
                    }
                };
                if let Some((id, host)) = tasks.remove(&task) {
                    in_flight.remove(&id);
                    if let Some(count) = per_host.get_mut(&host) {
                        *count = count.saturating_sub(1);
                        if *count == 0 {
                            per_host.remove(&host);
                        }
                    }
                }
                if let Some(ended) = ended {
                    trip_breaker(&blogs, &mut failures, ended, retry_unit).await;
                }
            }
        }
    }
}

/// Counts a host's failures in a row; at [`BREAKER_FAILURES`] moves its queued rows back by the
/// host's next backoff step.
async fn trip_breaker(blogs: &Blogs, failures: &mut HashMap<String, (u32, usize)>, ended: Ended, retry_unit: Duration) {
    if ended.host_ok {
        failures.remove(&ended.host);
        return;
    }
    let (count, trips) = failures.entry(ended.host.clone()).or_default();
    *count += 1;
    if *count < BREAKER_FAILURES {
        return;
    }
    *count = 0;
    let step = BACKOFF_MINUTES[(*trips).min(BACKOFF_MINUTES.len() - 1)];
    *trips += 1;
    let delay = retry_unit * step;
    let host = ended.host;
    let delay_ms = delay.as_millis() as u64;
    match blogs
        .db
        .write({
            let host = host.clone();
            move |conn| deliveries::delay_host(conn, &host, delay_ms)
        })
        .await
    {
        Ok(moved) => tracing::warn!(host, moved, delay_ms, "an inbox host keeps failing: its deliveries wait"),
        Err(err) => tracing::error!(error = format!("{err:#}"), "moving a failing host's deliveries back failed"),
    }
}

/// One attempt at one delivery, and its outcome written back.
async fn deliver_one(blogs: Arc<Blogs>, fetcher: Fetcher, row: Due, host: String, retry_unit: Duration) -> Ended {
    let outcome = attempt(&blogs, &fetcher, &row).await;
    let host_ok = match &outcome {
        Ok(()) => true,
        Err(err) => err.permanent,
    };
    if let Err(err) = record(&blogs, &row, outcome, retry_unit).await {
        tracing::error!(error = format!("{err:#}"), delivery = row.id, "recording a delivery's outcome failed");
    }
    Ended { host, host_ok }
}

async fn attempt(blogs: &Blogs, fetcher: &Fetcher, row: &Due) -> std::result::Result<(), DeliveryError> {
    let unsignable = |message: String| DeliveryError { message, permanent: true, gone: false, retry_after: None };
    let key = match blogs.delivery_key(row.blog_id).await {
        Ok(Some(key)) => key,
        Ok(None) => return Err(unsignable("the blog's key is gone".to_owned())),
        Err(err) => return Err(DeliveryError { permanent: false, ..unsignable(format!("{err:#}")) }),
    };
    let actor = serde_json::from_str::<serde_json::Value>(&row.json)
        .ok()
        .and_then(|activity| activity["actor"].as_str().map(str::to_owned))
        .ok_or_else(|| unsignable("the queued activity names no actor".to_owned()))?;
    let started = Instant::now();
    let result = fetcher.deliver(&row.inbox, Bytes::from(row.json.clone()), &key, &activity::key_id(&actor)).await;
    tracing::debug!(inbox = row.inbox, ms = started.elapsed().as_millis() as u64, ok = result.is_ok(), "delivery");
    result
}

/// Writes an attempt's outcome: the row deleted, retried later, or given up.
async fn record(
    blogs: &Blogs,
    row: &Due,
    outcome: std::result::Result<(), DeliveryError>,
    retry_unit: Duration,
) -> Result<()> {
    let (id, blog_id, inbox, attempts) = (row.id, row.blog_id, row.inbox.clone(), row.attempts);
    match outcome {
        // One transaction each: the delivery's row and its finished activity go together, so no
        // reader (nor a crash) sees an activity left without its deliveries.
        Ok(()) => {
            blogs
                .db
                .write(move |conn| {
                    let tx = conn.transaction()?;
                    deliveries::succeed(&tx, id)?;
                    Ok(tx.commit()?)
                })
                .await
        }
        Err(err) => {
            let step = usize::try_from(attempts).ok().and_then(|n| BACKOFF_MINUTES.get(n)).copied();
            match step.filter(|_| !err.permanent) {
                Some(minutes) => {
                    let wait = match err.retry_after {
                        // Retry-After's seconds, in the backoff's unit, at most the longest step.
                        Some(after) => (retry_unit.mul_f64(after.as_secs_f64() / 60.0)).min(retry_unit * 720),
                        None => retry_unit * minutes,
                    };
                    let wait_ms = wait.as_millis() as u64;
                    tracing::info!(
                        inbox,
                        error = err.message,
                        attempts = attempts + 1,
                        wait_ms,
                        "a delivery failed; it will be retried"
                    );
                    blogs.db.write(move |conn| deliveries::fail(conn, id, wait_ms, &err.message)).await
                }
                None => {
                    tracing::warn!(inbox, error = err.message, attempts = attempts + 1, "a delivery was given up");
                    blogs
                        .db
                        .write(move |conn| {
                            let tx = conn.transaction()?;
                            deliveries::give_up(&tx, id, &err.message)?;
                            if err.gone {
                                followers::remove_by_inbox(&tx, blog_id, &inbox)?;
                            }
                            Ok(tx.commit()?)
                        })
                        .await
                }
            }
        }
    }
}
