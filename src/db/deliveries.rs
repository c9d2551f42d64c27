//! The delivery queue (migration 13, issue 16): an activity stored once, one row per inbox.
//! Rows are written in the same transaction as the change they announce (blogs/, the one
//! write path), so a committed change is always delivered, even across kill -9. Row ids are
//! never reused (`AUTOINCREMENT`, migration 14): the worker settles a row by its id, and a row
//! cancelled while in flight must not lend its id to the next one queued (issue 28, finding 0).

use rusqlite::{Connection, OptionalExtension, params};

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
    let mut insert = conn.prepare_cached("INSERT OR IGNORE INTO deliveries (activity_id, inbox) VALUES (?1, ?2)")?;
    for inbox in inboxes {
        insert.execute(params![activity_id, inbox])?;
    }
    Ok(Some(activity_id))
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
    /// The activity.
    pub json: String,
    /// Failed attempts so far.
    pub attempts: i64,
}

const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/// Up to `limit` queued deliveries due now, oldest first, skipping the row ids of `skip` (those in
/// flight). Nothing is marked: after a crash every row not deleted is simply due again.
pub fn claim_due(conn: &Connection, limit: u32, skip: &[i64]) -> Result<Vec<Due>, Error> {
    let skip = serde_json::to_string(skip).map_err(|err| Error::Internal(err.into()))?;
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT d.id, d.activity_id, a.blog_id, d.inbox, a.json, d.attempts
         FROM deliveries d JOIN outgoing_activities a ON a.id = d.activity_id
         WHERE d.state = 'queued' AND d.next_at <= {NOW} AND d.id NOT IN (SELECT value FROM json_each(?2))
         ORDER BY d.next_at, d.id LIMIT ?1"
    ))?;
    let rows = stmt
        .query_map(params![limit, skip], |row| {
            Ok(Due {
                id: row.get(0)?,
                activity_id: row.get(1)?,
                blog_id: row.get(2)?,
                inbox: row.get(3)?,
                json: row.get(4)?,
                attempts: row.get(5)?,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// When the next queued delivery is due (stored form), if any.
pub fn next_due(conn: &Connection) -> Result<Option<String>, Error> {
    Ok(conn.query_row("SELECT min(next_at) FROM deliveries WHERE state = 'queued'", [], |r| r.get(0))?)
}

/// A delivery that succeeded: its row goes, and its activity with its last row.
pub fn succeed(conn: &Connection, id: i64) -> Result<(), Error> {
    let activity: Option<i64> =
        conn.query_row("DELETE FROM deliveries WHERE id = ?1 RETURNING activity_id", [id], |r| r.get(0)).optional()?;
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

/// A delivery given up (too many attempts, or an answer that will not change): it stays, with
/// its error, for the owner's Fediverse settings.
/// Its `next_at` becomes the time it was given up.
pub fn give_up(conn: &Connection, id: i64, error: &str) -> Result<(), Error> {
    conn.execute(
        &format!(
            "UPDATE deliveries SET state = 'given_up', attempts = attempts + 1, last_error = ?2, next_at = {NOW}
             WHERE id = ?1"
        ),
        params![id, error],
    )?;
    Ok(())
}

/// How long the owner sees a given-up delivery (Settings → Fediverse) before it is forgotten.
pub const GIVEN_UP_KEPT_DAYS: u32 = 30;

/// Forgets the deliveries given up more than [`GIVEN_UP_KEPT_DAYS`] ago, and the activities no
/// row needs any more; answers how many deliveries went.
pub fn forget_given_up(conn: &Connection) -> Result<usize, Error> {
    let forgotten = conn.execute(
        &format!(
            "DELETE FROM deliveries WHERE state = 'given_up'
                 AND next_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-{GIVEN_UP_KEPT_DAYS} days')"
        ),
        [],
    )?;
    if forgotten > 0 {
        conn.execute(
            "DELETE FROM outgoing_activities
             WHERE NOT EXISTS (SELECT 1 FROM deliveries WHERE activity_id = outgoing_activities.id)",
            [],
        )?;
    }
    Ok(forgotten)
}

/// Moves every queued delivery to `host` (an inbox URL's host, with its port) due sooner than
/// `delay_ms` from now to then: the circuit breaker of a host that keeps failing. Answers how many.
pub fn delay_host(conn: &Connection, host: &str, delay_ms: u64) -> Result<usize, Error> {
    let seconds = delay_ms as f64 / 1000.0;
    let mut moved = 0;
    let rows: Vec<(i64, String)> = {
        let mut stmt = conn.prepare_cached("SELECT id, inbox FROM deliveries WHERE state = 'queued'")?;
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<rusqlite::Result<_>>()?
    };
    let mut update = conn.prepare_cached(
        "UPDATE deliveries SET next_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', printf('%+.3f seconds', ?2))
         WHERE id = ?1 AND next_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', printf('%+.3f seconds', ?2))",
    )?;
    for (id, inbox) in rows {
        if authority_of(&inbox).as_deref() == Some(host) {
            moved += update.execute(params![id, seconds])?;
        }
    }
    Ok(moved)
}

/// Cancels the blog's queued (not yet delivered) activities about `object_id`: a Delete makes its
/// object's Create and Update moot. Given-up rows stay for the owner. Answers how many deliveries.
pub fn cancel_for_object(conn: &Connection, blog_id: i64, object_id: &str) -> Result<usize, Error> {
    let cancelled = conn.execute(
        "DELETE FROM deliveries WHERE state = 'queued' AND activity_id IN
             (SELECT id FROM outgoing_activities WHERE blog_id = ?1 AND object_id = ?2)",
        params![blog_id, object_id],
    )?;
    conn.execute(
        "DELETE FROM outgoing_activities WHERE blog_id = ?1 AND object_id = ?2
             AND NOT EXISTS (SELECT 1 FROM deliveries WHERE activity_id = outgoing_activities.id)",
        params![blog_id, object_id],
    )?;
    Ok(cancelled)
}

/// The blog's given-up deliveries by inbox host: `(host, count, last error)`, most first.
pub fn given_up_by_host(conn: &Connection, blog_id: i64) -> Result<Vec<(String, i64, Option<String>)>, Error> {
    let mut stmt = conn.prepare(
        "SELECT d.inbox, d.last_error FROM deliveries d
         JOIN outgoing_activities a ON a.id = d.activity_id
         WHERE a.blog_id = ?1 AND d.state = 'given_up' ORDER BY d.id",
    )?;
    let rows: Vec<(String, Option<String>)> =
        stmt.query_map([blog_id], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<rusqlite::Result<_>>()?;
    let mut by_host: Vec<(String, i64, Option<String>)> = Vec::new();
    for (inbox, error) in rows {
        let host = authority_of(&inbox).unwrap_or(inbox);
        match by_host.iter_mut().find(|(known, _, _)| *known == host) {
            Some(entry) => {
                entry.1 += 1;
                entry.2 = error;
            }
            None => by_host.push((host, 1, error)),
        }
    }
    by_host.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Ok(by_host)
}

/// Cancels every queued delivery of the blog (its account is being deleted: only the actor's
/// Delete, queued after, still goes out). Answers how many.
pub fn cancel_for_blog(conn: &Connection, blog_id: i64) -> Result<usize, Error> {
    let cancelled = conn.execute(
        "DELETE FROM deliveries WHERE state = 'queued'
             AND activity_id IN (SELECT id FROM outgoing_activities WHERE blog_id = ?1)",
        [blog_id],
    )?;
    conn.execute(
        "DELETE FROM outgoing_activities WHERE blog_id = ?1
             AND NOT EXISTS (SELECT 1 FROM deliveries WHERE activity_id = outgoing_activities.id)",
        [blog_id],
    )?;
    Ok(cancelled)
}

/// Removes the deliveries (queued or given up) to inboxes on `domain` or under it (blocked), of
/// the blog's activities or with `None` of every blog's, and the activities left with none.
/// Answers how many deliveries went.
pub fn remove_to_domain(conn: &Connection, blog_id: Option<i64>, domain: &str) -> Result<usize, Error> {
    let rows: Vec<(i64, i64, String)> = {
        let mut stmt = conn.prepare(
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
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::test_support::migrated;

    fn inboxes(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn given_up_deliveries_are_shown_for_30_days_then_forgotten_with_their_activity() {
        let conn = migrated();
        enqueue(&conn, 1, "p1", "{}", &inboxes(&["https://old.example/inbox"])).unwrap();
        enqueue(&conn, 1, "p2", "{}", &inboxes(&["https://new.example/inbox"])).unwrap();
        for row in claim_due(&conn, 10, &[]).unwrap() {
            give_up(&conn, row.id, "the server answered 404").unwrap();
        }
        conn.execute(
            "UPDATE deliveries SET next_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-31 days')
             WHERE inbox = 'https://old.example/inbox'",
            [],
        )
        .unwrap();
        assert_eq!(given_up_by_host(&conn, 1).unwrap().len(), 2);
        assert_eq!(forget_given_up(&conn).unwrap(), 1);
        let hosts: Vec<String> = given_up_by_host(&conn, 1).unwrap().into_iter().map(|(host, ..)| host).collect();
        assert_eq!(hosts, ["new.example"], "the one given up today stays");
        let objects: Vec<String> = {
            let mut stmt = conn.prepare("SELECT object_id FROM outgoing_activities").unwrap();
            stmt.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
        };
        assert_eq!(objects, ["p2"]);
    }

    #[test]
    fn due_rows_are_claimed_oldest_first_and_in_flight_ones_skipped() {
        let conn = migrated();
        enqueue(&conn, 1, "p1", "{\"a\":1}", &inboxes(&["https://a.example/inbox", "https://b.example/inbox"]))
            .unwrap();
        let due = claim_due(&conn, 10, &[]).unwrap();
        assert_eq!(due.len(), 2);
        assert_eq!(
            (due[0].inbox.as_str(), due[0].json.as_str(), due[0].blog_id),
            ("https://a.example/inbox", "{\"a\":1}", 1)
        );
        let due = claim_due(&conn, 10, &[due[0].id]).unwrap();
        assert_eq!(due.len(), 1);
        assert_eq!(due[0].inbox, "https://b.example/inbox");
        assert_eq!(claim_due(&conn, 1, &[]).unwrap().len(), 1);
    }

    #[test]
    fn success_deletes_the_row_and_the_activity_with_its_last_row() {
        let conn = migrated();
        enqueue(&conn, 1, "p1", "{}", &inboxes(&["https://a.example/inbox", "https://b.example/inbox"])).unwrap();
        let due = claim_due(&conn, 10, &[]).unwrap();
        succeed(&conn, due[0].id).unwrap();
        let activities = |conn: &Connection| {
            conn.query_row("SELECT count(*) FROM outgoing_activities", [], |r| r.get::<_, i64>(0)).unwrap()
        };
        assert_eq!(activities(&conn), 1);
        succeed(&conn, due[1].id).unwrap();
        assert_eq!(activities(&conn), 0);
    }

    #[test]
    fn failures_wait_then_give_up_and_are_summed_by_host_for_the_owner() {
        let conn = migrated();
        enqueue(&conn, 1, "p1", "{}", &inboxes(&["https://dead.example/inbox", "https://dead.example/users/x/inbox"]))
            .unwrap();
        enqueue(&conn, 1, "p2", "{}", &inboxes(&["https://other.example:8443/inbox"])).unwrap();
        let due = claim_due(&conn, 10, &[]).unwrap();
        fail(&conn, due[0].id, 60_000, "could not connect").unwrap();
        assert_eq!(claim_due(&conn, 10, &[]).unwrap().len(), 2, "the failed one waits");
        assert!(next_due(&conn).unwrap().is_some());
        give_up(&conn, due[0].id, "could not connect to dead.example").unwrap();
        give_up(&conn, due[1].id, "the server answered 410").unwrap();
        give_up(&conn, due[2].id, "the server answered 400").unwrap();
        assert_eq!(
            given_up_by_host(&conn, 1).unwrap(),
            vec![
                ("dead.example".to_owned(), 2, Some("the server answered 410".to_owned())),
                ("other.example:8443".to_owned(), 1, Some("the server answered 400".to_owned())),
            ]
        );
        assert!(given_up_by_host(&conn, 2).unwrap().is_empty());
        assert!(claim_due(&conn, 10, &[]).unwrap().is_empty());
    }

    #[test]
    fn a_delete_cancels_the_queued_rows_of_its_object_only() {
        let conn = migrated();
        enqueue(&conn, 1, "p1", "create", &inboxes(&["https://a.example/inbox"])).unwrap();
        enqueue(&conn, 1, "p2", "create", &inboxes(&["https://a.example/inbox"])).unwrap();
        enqueue(&conn, 2, "p1", "create", &inboxes(&["https://a.example/inbox"])).unwrap();
        assert_eq!(cancel_for_object(&conn, 1, "p1").unwrap(), 1);
        let left: Vec<(i64, String)> = {
            let mut stmt = conn.prepare("SELECT blog_id, object_id FROM outgoing_activities ORDER BY id").unwrap();
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap().map(Result::unwrap).collect()
        };
        assert_eq!(left, vec![(1, "p2".to_owned()), (2, "p1".to_owned())]);
        assert_eq!(cancel_for_blog(&conn, 1).unwrap(), 1);
        assert_eq!(claim_due(&conn, 10, &[]).unwrap().len(), 1, "another blog's row stays");
    }

    /// Issue 28, finding 0: the Delete queued while a cancelled Update of the same post is in
    /// flight must not take the Update's row id, or the worker skips it as in flight and the
    /// Update's outcome settles (deletes, delays or gives up) the Delete instead.
    #[test]
    fn settling_a_delivery_cancelled_in_flight_leaves_the_delete_queued_after_it() {
        type Settle = fn(&Connection, i64);
        let settles: [(&str, Settle); 3] = [
            ("succeed", |conn, id| succeed(conn, id).unwrap()),
            ("fail", |conn, id| fail(conn, id, 60_000, "the server answered 500").unwrap()),
            ("give_up", |conn, id| give_up(conn, id, "the server answered 400").unwrap()),
        ];
        for (name, settle) in settles {
            let conn = migrated();
            let inbox = inboxes(&["https://a.example/inbox"]);
            enqueue(&conn, 1, "p1", "{\"type\":\"Update\"}", &inbox).unwrap();
            let in_flight = claim_due(&conn, 10, &[]).unwrap().remove(0);
            cancel_for_object(&conn, 1, "p1").unwrap();
            enqueue(&conn, 1, "p1", "{\"type\":\"Delete\"}", &inbox).unwrap();
            let due = claim_due(&conn, 10, &[in_flight.id]).unwrap();
            assert_eq!(due.len(), 1, "{name}: the Delete is due while the Update is still in flight");
            assert_eq!(due[0].json, "{\"type\":\"Delete\"}");
            settle(&conn, in_flight.id);
            let due = claim_due(&conn, 10, &[]).unwrap();
            assert_eq!(
                due.iter().map(|row| (row.json.as_str(), row.attempts)).collect::<Vec<_>>(),
                [("{\"type\":\"Delete\"}", 0)],
                "{name} of the cancelled Update leaves the Delete queued and due"
            );
        }
    }

    #[test]
    fn migration_14_keeps_the_queue_and_its_ids_are_never_reused_after() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.pragma_update(None, "foreign_keys", true).unwrap();
        crate::db::migrate::migrate_to(&mut conn, 13).unwrap();
        enqueue(&conn, 1, "p1", "create", &inboxes(&["https://a.example/inbox", "https://b.example/inbox"])).unwrap();
        enqueue(&conn, 1, "p2", "create", &inboxes(&["https://c.example/inbox"])).unwrap();
        give_up(&conn, 3, "the server answered 404").unwrap();
        crate::db::migrate::migrate(&mut conn).unwrap();
        let rows: Vec<(i64, i64, String, String)> = {
            let mut stmt = conn
                .prepare("SELECT d.id, a.id, d.inbox, d.state FROM deliveries d JOIN outgoing_activities a ON a.id = d.activity_id ORDER BY d.id")
                .unwrap();
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
                .unwrap()
                .map(Result::unwrap)
                .collect()
        };
        assert_eq!(
            rows,
            [
                (1, 1, "https://a.example/inbox".to_owned(), "queued".to_owned()),
                (2, 1, "https://b.example/inbox".to_owned(), "queued".to_owned()),
                (3, 2, "https://c.example/inbox".to_owned(), "given_up".to_owned()),
            ]
        );
        cancel_for_object(&conn, 1, "p2").unwrap();
        conn.execute("DELETE FROM deliveries WHERE id = 3", []).unwrap();
        conn.execute("DELETE FROM outgoing_activities WHERE id = 2", []).unwrap();
        let activity = enqueue(&conn, 1, "p3", "create", &inboxes(&["https://a.example/inbox"])).unwrap();
        assert_eq!(activity, Some(3), "the deleted activity's id is not reused");
        let ids: Vec<i64> = claim_due(&conn, 10, &[]).unwrap().into_iter().map(|row| row.id).collect();
        assert_eq!(ids, [1, 2, 4], "nor the deleted delivery's");
    }

    #[test]
    fn a_failing_host_is_moved_back_as_a_whole() {
        let conn = migrated();
        enqueue(&conn, 1, "p1", "{}", &inboxes(&["http://127.0.0.1:9/inbox", "http://127.0.0.1:10/inbox"])).unwrap();
        assert_eq!(delay_host(&conn, "127.0.0.1:9", 60_000).unwrap(), 1);
        let due = claim_due(&conn, 10, &[]).unwrap();
        assert_eq!(due.len(), 1);
        assert_eq!(due[0].inbox, "http://127.0.0.1:10/inbox");
        assert_eq!(authority_of("https://m.example/inbox").as_deref(), Some("m.example"));
    }
}
