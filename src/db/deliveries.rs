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

/// The blog's given-up deliveries by inbox host (`host` or `host:port`), with how many and the
/// last error recorded for that host; most recent host first.
pub fn given_up_by_host(conn: &Connection, blog_id: i64) -> Result<Vec<(String, i64, Option<String>)>, Error> {
    let mut stmt = conn.prepare(
        "SELECT d.inbox, d.last_error FROM deliveries d JOIN outgoing_activities a ON a.id = d.activity_id
         WHERE a.blog_id = ?1 AND d.state = 'given_up' ORDER BY d.id DESC",
    )?;
    let rows = stmt.query_map([blog_id], |row| Ok((row.get::<_, String>(0)?, row.get::<_, Option<String>>(1)?)))?;
    let mut hosts: Vec<(String, i64, Option<String>)> = Vec::new();
    for row in rows {
        let (inbox, error) = row?;
        let host = url::Url::parse(&inbox)
            .ok()
            .and_then(|url| url.host_str().map(|host| match url.port() {
                Some(port) => format!("{host}:{port}"),
                None => host.to_owned(),
            }))
            .unwrap_or(inbox);
        match hosts.iter_mut().find(|(known, ..)| *known == host) {
            Some((_, count, _)) => *count += 1,
            None => hosts.push((host, 1, error)),
        }
    }
    Ok(hosts)
}
