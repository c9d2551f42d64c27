//! The delivery queue's rules, on a migrated in-memory database.

use super::*;
use crate::db::test_support::migrated;

fn inboxes(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_owned()).collect()
}

#[test]
fn a_given_up_delivery_goes_at_once_with_its_activity_and_its_host_is_shown_for_30_days() {
    let conn = migrated();
    enqueue(&conn, 1, "p1", "{}", &inboxes(&["https://old.example/inbox"])).unwrap();
    enqueue(&conn, 1, "p2", "{}", &inboxes(&["https://new.example/inbox", "https://live.example/inbox"])).unwrap();
    for row in claim_due(&conn, 10, &[]).unwrap().into_iter().filter(|row| row.host != "live.example") {
        give_up(&conn, row.id, "the server answered 404").unwrap();
    }
    let count = |table: &str| {
        conn.prepare_cached(&format!("SELECT count(*) FROM {table}"))
            .unwrap()
            .query_row([], |r| r.get::<_, i64>(0))
            .unwrap()
    };
    assert_eq!(
        (count("deliveries"), count("outgoing_activities")),
        (1, 1),
        "only the live inbox's row and activity stay"
    );
    conn.execute(
        "UPDATE given_up_hosts SET given_up_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-31 days')
         WHERE host = 'old.example'",
        [],
    )
    .unwrap();
    assert_eq!(given_up_by_host(&conn, 1).unwrap().len(), 2);
    assert_eq!(forget_given_up(&conn).unwrap(), 1);
    assert_eq!(
        given_up_by_host(&conn, 1).unwrap(),
        [("new.example".to_owned(), 1, Some("the server answered 404".to_owned()))],
        "the host given up today stays"
    );
}

#[test]
fn due_rows_are_claimed_oldest_first_and_in_flight_ones_skipped() {
    let conn = migrated();
    enqueue(&conn, 1, "p1", "{\"a\":1}", &inboxes(&["https://a.example/inbox", "https://b.example/inbox"])).unwrap();
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
        conn.prepare_cached("SELECT count(*) FROM outgoing_activities")
            .unwrap()
            .query_row([], |r| r.get::<_, i64>(0))
            .unwrap()
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
fn migration_14_keeps_the_queue_sums_what_was_given_up_and_ids_are_never_reused_after() {
    let mut conn = Connection::open_in_memory().unwrap();
    conn.pragma_update(None, "foreign_keys", true).unwrap();
    crate::db::migrate::migrate_to(&mut conn, 13).unwrap();
    conn.execute_batch(
        "INSERT INTO outgoing_activities (id, blog_id, object_id, json) VALUES (1, 1, 'p1', 'create'), (2, 1, 'p2', 'create');
         INSERT INTO deliveries (id, activity_id, inbox, state, last_error, next_at) VALUES
             (1, 1, 'https://a.example/inbox', 'queued', NULL, '2026-01-01T00:00:00.000Z'),
             (2, 1, 'https://B.example:8443/inbox', 'queued', 'timed out', '2026-01-01T00:00:00.000Z'),
             (3, 2, 'https://c.example/inbox', 'given_up', 'the server answered 404', '2026-01-02T00:00:00.000Z'),
             (4, 2, 'https://c.example/users/x/inbox', 'given_up', 'the server answered 410', '2026-01-03T00:00:00.000Z');
         INSERT INTO users (id, email) VALUES (1, 'alice@example.com');
         INSERT INTO blogs (id, user_id, subdomain, name, theme_id, favicon_id, time_zone)
             VALUES (1, 1, 'alice', 'alice', (SELECT min(id) FROM themes), (SELECT min(id) FROM favicons), 'UTC');
         INSERT INTO followers (blog_id, actor_id, inbox, handle, follow_id, follow_json, state)
             VALUES (1, 'https://c.example/users/x', 'https://c.example/users/x/inbox', '@x@c.example',
                     'https://c.example/follows/1', '{\"padding\": \"' || hex(zeroblob(100000)) || '\"}', 'accepted');",
    )
    .unwrap();
    crate::db::migrate::migrate(&mut conn).unwrap();
    let follower = crate::db::followers::by_actor(&conn, 1, "https://c.example/users/x").unwrap().unwrap();
    assert_eq!(follower.follow_id, "https://c.example/follows/1", "of a Follow its id stays");
    let columns: i64 = conn
        .prepare_cached("SELECT count(*) FROM pragma_table_info('followers') WHERE name = 'follow_json'")
        .unwrap()
        .query_row([], |r| r.get(0))
        .unwrap();
    assert_eq!(columns, 0, "the Follows' bodies are dropped");
    let rows: Vec<(i64, i64, String, String)> = {
        let mut stmt = conn
            .prepare("SELECT d.id, a.id, d.inbox, d.host FROM deliveries d JOIN outgoing_activities a ON a.id = d.activity_id ORDER BY d.id")
            .unwrap();
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))).unwrap().map(Result::unwrap).collect()
    };
    assert_eq!(
        rows,
        [
            (1, 1, "https://a.example/inbox".to_owned(), "a.example".to_owned()),
            (2, 1, "https://B.example:8443/inbox".to_owned(), "b.example:8443".to_owned()),
        ],
        "the queued rows stay, with their hosts; the given-up ones and their activity go"
    );
    assert_eq!(
        conn.prepare_cached("SELECT blog_id, host, deliveries, last_error, given_up_at FROM given_up_hosts")
            .unwrap()
            .query_row([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, i64>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, String>(4)?,
                ))
            })
            .unwrap(),
        (1, "c.example".to_owned(), 2, "the server answered 410".to_owned(), "2026-01-03T00:00:00.000Z".to_owned())
    );
    let temp: i64 =
        conn.prepare_cached("SELECT count(*) FROM temp.sqlite_master").unwrap().query_row([], |r| r.get(0)).unwrap();
    assert_eq!(temp, 0, "the temporary copies are dropped");
    cancel_for_blog(&conn, 1).unwrap();
    let activity = enqueue(&conn, 1, "p3", "create", &inboxes(&["https://a.example/inbox"])).unwrap();
    assert_eq!(activity, Some(2), "the highest id kept is not reused");
    let ids: Vec<i64> = claim_due(&conn, 10, &[]).unwrap().into_iter().map(|row| row.id).collect();
    assert_eq!(ids, [3], "nor the deleted deliveries'");
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

#[test]
fn a_failing_host_is_found_on_its_index_not_by_reading_the_whole_queue() {
    let conn = migrated();
    let plan: Vec<String> = {
        let mut stmt = conn
            .prepare(
                "EXPLAIN QUERY PLAN UPDATE deliveries SET next_at = 'x' WHERE host = '127.0.0.1:9' AND next_at < 'x'",
            )
            .unwrap();
        stmt.query_map([], |r| r.get(3)).unwrap().map(Result::unwrap).collect()
    };
    assert!(plan.iter().any(|step| step.contains("USING INDEX deliveries_host")), "{plan:?}");
}
