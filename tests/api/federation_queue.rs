//! The delivery queue under races and floods (issue 28): a post's Delete queued while its
//! Update's delivery is in flight always reaches the follower (finding 0), against a real inbox
//! on 127.0.0.1 that answers slowly enough for the Delete to be written meanwhile.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::federation::{Answer, Inbox, alice, follow, spawn, until};
use crate::helpers::simple_body;

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
