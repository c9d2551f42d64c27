//! The delivery queue (migrations 13 and 14, issues 16 and 28): an activity stored once, one row
//! per inbox. Rows are written in the same transaction as the change they announce (blogs/, the
//! one write path), so a committed change is always delivered, even across kill -9.
//!
//! - Row ids are never reused (`AUTOINCREMENT`): the worker settles a row by its id, and a row
//!   cancelled while in flight must not lend its id to the next one queued (issue 28, finding 0).
//! - Every row is queued: a delivery that succeeds or is given up is deleted, and its activity
//!   with its last row. What the owner sees of given-up ones is one `given_up_hosts` row per blog
//!   and inbox host (a count and the last error), forgotten [`GIVEN_UP_KEPT_DAYS`] after the last,
//!   so an inbox that always fails cannot make rows pile up (issue 28, finding 1).

use rusqlite::{Connection, OptionalExtension, Transaction, params};

use crate::domain::federation::inbound::authority_of;
use crate::error::Error;

/// Queues `json` (an activity about `object_id`, signed by `blog_id`'s key) for each of
/// `inboxes`, due now; nothing when `inboxes` is empty. Answers the activity's row id, if one
/// was written.
pub fn enqueue(
    conn: &Connection,
    blog_id: i64,
    object_id: &str,
    json: &str,
    inboxes: &[String],
) -> Result<Option<i64>, Error> {
    if inboxes.is_empty() {
        return Ok(None);
    }
    conn.execute(
        "INSERT INTO outgoing_activities (blog_id, object_id, json) VALUES (?1, ?2, ?3)",
        params![blog_id, object_id, json],
    )?;
    let activity_id = conn.last_insert_rowid();
    let mut insert =
        conn.prepare_cached("INSERT OR IGNORE INTO deliveries (activity_id, inbox, host) VALUES (?1, ?2, ?3)")?;
    for inbox in inboxes {
        insert.execute(params![activity_id, inbox, host_key(inbox)])?;
    }
    Ok(Some(activity_id))
}

/// The `host[:port]` an inbox's deliveries are counted and delayed under (the URL itself if it
/// has none).
fn host_key(inbox: &str) -> String {
    authority_of(inbox).unwrap_or_else(|| inbox.to_owned())
}

/// Whether the blog has an activity about `object_id` still queued for some inbox.
pub fn is_queued(conn: &Connection, blog_id: i64, object_id: &str) -> Result<bool, Error> {
    Ok(conn
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM outgoing_activities a JOIN deliveries d ON d.activity_id = a.id
                        WHERE a.blog_id = ?1 AND a.object_id = ?2)",
        )?
        .query_row(params![blog_id, object_id], |r| r.get(0))?)
}

/// A delivery due, with what it carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Due {
    /// The delivery's row id.
    pub id: i64,
    /// Its activity's row id.
    pub activity_id: i64,
    /// The blog whose key signs it.
    pub blog_id: i64,
    /// Where it goes.
    pub inbox: String,
    /// The inbox's `host[:port]`.
    pub host: String,
    /// The activity.
    pub json: String,
    /// Failed attempts so far.
    pub attempts: i64,
}

const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/// Up to `limit` deliveries due now, oldest first, skipping the row ids of `skip` (those in
/// flight) and those of blogs that are not `approved` (held until they are: issue 29; a
/// deleted account's, whose blog row is gone, still go). Nothing is marked: after a crash every row not deleted is simply due again.
pub fn claim_due(conn: &Connection, limit: u32, skip: &[i64]) -> Result<Vec<Due>, Error> {
    let skip = serde_json::to_string(skip).map_err(|err| Error::Internal(err.into()))?;
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT d.id, d.activity_id, a.blog_id, d.inbox, d.host, a.json, d.attempts
         FROM deliveries d JOIN outgoing_activities a ON a.id = d.activity_id
         WHERE d.next_at <= {NOW} AND d.id NOT IN (SELECT value FROM json_each(?2))
           AND NOT EXISTS (SELECT 1 FROM blogs b WHERE b.id = a.blog_id AND b.state <> 'approved')
         ORDER BY d.next_at, d.id LIMIT ?1"
    ))?;
    let rows = stmt
        .query_map(params![limit, skip], |row| {
            Ok(Due {
                id: row.get(0)?,
                activity_id: row.get(1)?,
                blog_id: row.get(2)?,
                inbox: row.get(3)?,
                host: row.get(4)?,
                json: row.get(5)?,
                attempts: row.get(6)?,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// When the next delivery is due (stored form), if any.
pub fn next_due(conn: &Connection) -> Result<Option<String>, Error> {
    Ok(conn.prepare_cached("SELECT min(next_at) FROM deliveries")?.query_row([], |r| r.get(0))?)
}

/// A delivery that succeeded: its row goes, and its activity with its last row. A row cancelled
/// meanwhile is left alone (its id is never another row's).
pub fn succeed(conn: &Connection, id: i64) -> Result<(), Error> {
    let activity: Option<i64> = conn
        .prepare_cached("DELETE FROM deliveries WHERE id = ?1 RETURNING activity_id")?
        .query_row([id], |r| r.get(0))
        .optional()?;
    if let Some(activity) = activity {
        drop_finished_activity(conn, activity)?;
    }
    Ok(())
}

fn drop_finished_activity(conn: &Connection, activity_id: i64) -> Result<(), Error> {
    conn.execute(
        "DELETE FROM outgoing_activities WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM deliveries WHERE activity_id = ?1)",
        [activity_id],
    )?;
    Ok(())
}

/// A failed attempt to retry after `retry_in_ms`: one more attempt counted, the error kept.
pub fn fail(conn: &Connection, id: i64, retry_in_ms: u64, error: &str) -> Result<(), Error> {
    let seconds = retry_in_ms as f64 / 1000.0;
    conn.execute(
        "UPDATE deliveries SET attempts = attempts + 1, last_error = ?3,
             next_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', printf('%+.3f seconds', ?2))
         WHERE id = ?1",
        params![id, seconds, error],
    )?;
    Ok(())
}

/// A delivery given up (too many attempts, or an answer that will not change): its row goes, and
/// its activity with its last row; the owner's count for its blog and inbox host goes up by one,
/// with `error` as the last error.
pub fn give_up(conn: &Connection, id: i64, error: &str) -> Result<(), Error> {
    let given_up: Option<(i64, i64, String)> = conn
        .prepare_cached(
            "DELETE FROM deliveries WHERE id = ?1
             RETURNING activity_id, (SELECT blog_id FROM outgoing_activities WHERE id = activity_id), host",
        )?
        .query_row([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .optional()?;
    let Some((activity_id, blog_id, host)) = given_up else { return Ok(()) };
    count_given_up(conn, blog_id, &host, error, None)?;
    drop_finished_activity(conn, activity_id)
}

/// Adds one given-up delivery to the blog's count for `host`, given up `at` (stored form; now
/// when `None`).
fn count_given_up(conn: &Connection, blog_id: i64, host: &str, error: &str, at: Option<&str>) -> rusqlite::Result<()> {
    conn.execute(
        &format!(
            "INSERT INTO given_up_hosts (blog_id, host, deliveries, last_error, given_up_at)
             VALUES (?1, ?2, 1, ?3, coalesce(?4, {NOW}))
             ON CONFLICT (blog_id, host) DO UPDATE SET deliveries = deliveries + 1,
                 last_error = excluded.last_error, given_up_at = excluded.given_up_at"
        ),
        params![blog_id, host, error, at],
    )?;
    Ok(())
}

/// How long the owner sees a host's given-up deliveries (Settings → Fediverse) after the last.
pub const GIVEN_UP_KEPT_DAYS: u32 = 30;

/// Forgets the hosts whose last delivery was given up more than [`GIVEN_UP_KEPT_DAYS`] ago;
/// answers how many.
pub fn forget_given_up(conn: &Connection) -> Result<usize, Error> {
    Ok(conn.execute(
        &format!(
            "DELETE FROM given_up_hosts
             WHERE given_up_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-{GIVEN_UP_KEPT_DAYS} days')"
        ),
        [],
    )?)
}

/// Moves every delivery to `host` (an inbox URL's host, with its port) due sooner than
/// `delay_ms` from now to then: the circuit breaker of a host that keeps failing. One statement
/// on the host's index, so the writer is held for that host's rows only. Answers how many.
pub fn delay_host(conn: &Connection, host: &str, delay_ms: u64) -> Result<usize, Error> {
    let seconds = delay_ms as f64 / 1000.0;
    Ok(conn.execute(
        "UPDATE deliveries SET next_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', printf('%+.3f seconds', ?2))
         WHERE host = ?1 AND next_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', printf('%+.3f seconds', ?2))",
        params![host, seconds],
    )?)
}

/// Cancels the blog's queued (not yet delivered) activities about `object_id`: a Delete makes its
/// object's Create and Update moot. Answers how many deliveries.
pub fn cancel_for_object(conn: &Connection, blog_id: i64, object_id: &str) -> Result<usize, Error> {
    let cancelled = conn.execute(
        "DELETE FROM deliveries WHERE activity_id IN
             (SELECT id FROM outgoing_activities WHERE blog_id = ?1 AND object_id = ?2)",
        params![blog_id, object_id],
    )?;
    conn.execute("DELETE FROM outgoing_activities WHERE blog_id = ?1 AND object_id = ?2", params![blog_id, object_id])?;
    Ok(cancelled)
}

/// The blog's given-up deliveries by inbox host: `(host, count, last error)`, most first.
pub fn given_up_by_host(conn: &Connection, blog_id: i64) -> Result<Vec<(String, i64, Option<String>)>, Error> {
    let mut stmt = conn.prepare_cached(
        "SELECT host, deliveries, last_error FROM given_up_hosts WHERE blog_id = ?1 ORDER BY deliveries DESC, host",
    )?;
    let rows =
        stmt.query_map([blog_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?.collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// Cancels every queued delivery of the blog (its account is being deleted: only the actor's
/// Delete, queued after, still goes out). Answers how many.
pub fn cancel_for_blog(conn: &Connection, blog_id: i64) -> Result<usize, Error> {
    let cancelled = conn.execute(
        "DELETE FROM deliveries WHERE activity_id IN (SELECT id FROM outgoing_activities WHERE blog_id = ?1)",
        [blog_id],
    )?;
    conn.execute("DELETE FROM outgoing_activities WHERE blog_id = ?1", [blog_id])?;
    Ok(cancelled)
}

/// Removes the deliveries queued to inboxes on `domain` or under it (blocked), of
/// the blog's activities or with `None` of every blog's, and the activities left with none.
/// Answers how many deliveries went.
pub fn remove_to_domain(conn: &Connection, blog_id: Option<i64>, domain: &str) -> Result<usize, Error> {
    let rows: Vec<(i64, i64, String)> = {
        let mut stmt = conn.prepare_cached(
            "SELECT d.id, d.activity_id, d.inbox FROM deliveries d JOIN outgoing_activities a ON a.id = d.activity_id
             WHERE ?1 IS NULL OR a.blog_id = ?1",
        )?;
        stmt.query_map([blog_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?.collect::<rusqlite::Result<_>>()?
    };
    let mut removed = 0;
    for (id, activity, inbox) in rows {
        let host = crate::domain::federation::inbound::host_of(&inbox);
        if host.is_some_and(|host| crate::domain::net::dns_name::is_within(&host, domain)) {
            removed += conn.execute("DELETE FROM deliveries WHERE id = ?1", [id])?;
            drop_finished_activity(conn, activity)?;
        }
    }
    let hosts: Vec<(i64, String)> = {
        let mut stmt =
            conn.prepare_cached("SELECT blog_id, host FROM given_up_hosts WHERE ?1 IS NULL OR blog_id = ?1")?;
        stmt.query_map([blog_id], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<rusqlite::Result<_>>()?
    };
    for (blog, host) in hosts {
        let name = host.rsplit_once(':').map_or(host.as_str(), |(name, _)| name);
        if crate::domain::net::dns_name::is_within(name, domain) {
            conn.execute("DELETE FROM given_up_hosts WHERE blog_id = ?1 AND host = ?2", params![blog, host])?;
        }
    }
    Ok(removed)
}

/// Migration 14's seed: fills the rebuilt queue's `host` column, folds the deliveries given up
/// before it into `given_up_hosts`, and drops the temporary copies of the old tables.
pub fn migrate_queue(tx: &Transaction<'_>) -> rusqlite::Result<()> {
    let inboxes: Vec<(i64, String)> = {
        let mut stmt = tx.prepare_cached("SELECT id, inbox FROM deliveries")?;
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<rusqlite::Result<_>>()?
    };
    for (id, inbox) in inboxes {
        tx.execute("UPDATE deliveries SET host = ?2 WHERE id = ?1", params![id, host_key(&inbox)])?;
    }
    let given_up: Vec<(i64, String, String, String)> = {
        let mut stmt = tx.prepare_cached(
            "SELECT a.blog_id, d.inbox, coalesce(d.last_error, ''), d.next_at
             FROM temp.old_deliveries d JOIN temp.old_activities a ON a.id = d.activity_id
             WHERE d.state = 'given_up' ORDER BY d.next_at, d.id",
        )?;
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?.collect::<rusqlite::Result<_>>()?
    };
    for (blog_id, inbox, error, at) in given_up {
        count_given_up(tx, blog_id, &host_key(&inbox), &error, Some(&at))?;
    }
    tx.execute_batch("DROP TABLE temp.old_deliveries; DROP TABLE temp.old_activities;")
}

#[cfg(test)]
mod tests;
