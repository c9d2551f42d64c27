//! The delivery queue under races and floods (issue 28): a post's Delete queued while its
//! Update's delivery is in flight always reaches the follower (finding 0), against a real inbox
//! on 127.0.0.1 that answers slowly enough for the Delete to be written meanwhile; a flood of
//! large signed Follows from one actor leaves one small follower row and one small Accept
//! (finding 1), with the inbox test's fake peer signing them.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::federation::{Answer, Inbox, alice, follow, spawn, until};
use crate::helpers::simple_body;
use crate::inbox::Setup;

/// How long the follower's inbox takes to answer: the Update's delivery is in flight that long.
const INBOX_ANSWERS_IN: Duration = Duration::from_millis(200);
/// Posts published, edited and deleted.
const ROUNDS: u64 = 12;

#[tokio::test]
async fn a_delete_written_while_the_posts_update_is_in_flight_always_reaches_the_follower() {
    let app = spawn(60_000).await;
    let (alice, blog) = alice(&app).await;
    let inbox = Inbox::start(Answer::Slow(INBOX_ANSWERS_IN)).await;
    follow(&app, "bob", &inbox.url("/inbox"), None, true);
    let objects_of = |kind: &str| -> BTreeSet<String> {
        inbox
            .received()
            .iter()
            .map(|got| got.json())
            .filter(|activity| activity["type"] == kind)
            .map(|activity| activity["object"]["id"].as_str().unwrap().to_owned())
            .collect()
    };
    let mut deleted = BTreeSet::new();
    for round in 0..ROUNDS {
        let post = alice.create_post(blog, simple_body(&format!("Round {round}"), "x"), false).await;
        let short = post["shortId"].as_str().unwrap().to_owned();
        let object_id = format!("http://alice.localhost:{}/_quire/ap/posts/{short}", app.port);
        until(Duration::from_secs(10), "the Create", || objects_of("Create").contains(&object_id)).await;
        let path = format!("/api/my/blogs/{blog}/posts/{short}");
        let edit = json!({"body": simple_body(&format!("Round {round}"), "edited"), "draft": false});
        assert_eq!(alice.send(reqwest::Method::PUT, &path, edit).await.status(), 200);
        // Before the worker takes the Update, while the inbox holds it, and as its answer comes.
        tokio::time::sleep(INBOX_ANSWERS_IN * (round % 5) as u32 / 4).await;
        assert!(alice.send(reqwest::Method::DELETE, &path, json!({})).await.status().is_success());
        deleted.insert(object_id);
    }
    let deadline = Instant::now() + Duration::from_secs(20);
    while objects_of("Delete") != deleted && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let missing: Vec<_> = deleted.difference(&objects_of("Delete")).cloned().collect();
    assert!(missing.is_empty(), "{} of {ROUNDS} Deletes never arrived: {missing:?}", missing.len());
    until(Duration::from_secs(10), "an empty queue", || app.count("deliveries") == 0).await;
}

/// Follows in the flood, and the padding each carries (under the inbox's 256 KiB limit).
const FOLLOWS: u32 = 50;
const FOLLOW_PADDING: usize = 200 * 1024;

#[tokio::test]
async fn a_flood_of_large_follows_from_one_actor_leaves_one_small_follower_and_one_small_accept() {
    let s = Setup::start().await;
    let on_disk = || -> u64 {
        let db = s.app.db_path();
        let wal = db.with_extension("db-wal");
        [db, wal].iter().map(|path| std::fs::metadata(path).map_or(0, |m| m.len())).sum()
    };
    let before = on_disk();
    let padding = "x".repeat(FOLLOW_PADDING);
    let started = Instant::now();
    for n in 0..FOLLOWS {
        let mut follow = s.follow(n);
        follow["summary"] = json!(padding);
        assert_eq!(s.send(&s.shared(), &follow).await.status(), 202, "Follow {n}");
        assert!(started.elapsed() < Duration::from_secs(60), "the flood took over a minute");
    }
    let received_accepts =
        || s.peer.received.lock().unwrap().iter().filter(|a| a["type"] == "Accept").cloned().collect::<Vec<_>>();
    until(Duration::from_secs(20), "the queue to drain", || {
        s.app.count("deliveries") == 0 && !received_accepts().is_empty()
    })
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let grown = on_disk().saturating_sub(before);
    let sent = u64::from(FOLLOWS) * FOLLOW_PADDING as u64;
    assert!(grown < sent / 10, "the database and its WAL grew by {grown} bytes for {sent} bytes of Follows");
    let accepts = received_accepts();
    assert_eq!(accepts.len(), 1, "one Accept for one follower, however often it follows");
    let accept_bytes = accepts[0].to_string().len();
    assert!(accept_bytes < 1024, "the Accept is {accept_bytes} bytes");
    assert!(!accepts[0].to_string().contains("xxxx"), "nothing of the Follow's body is repeated");
    assert_eq!(accepts[0]["object"]["id"], s.follow(0)["id"], "it names the first Follow, the one it accepted");
    let stored = s.query("SELECT count(*) FROM followers");
    assert_eq!(stored, [["1"]], "one follower");
}
