//! The delivery queue (migration 13, issue 16): an activity stored once, one row per inbox.
//! Rows are written in the same transaction as the change they announce (blogs/, the one
//! write path), so a committed change is always delivered, even across kill -9.

use rusqlite::{Connection, params};

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
    let mut insert = conn.prepare_cached("INSERT OR IGNORE INTO deliveries (activity_id, inbox) VALUES (?1, ?2)")?;
    for inbox in inboxes {
        insert.execute(params![activity_id, inbox])?;
    }
    Ok(Some(activity_id))
}
