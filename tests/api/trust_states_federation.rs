//! Issue 29's trust states and federation, through the real server and a real peer inbox: a
//! `new` blog's activities wait and go out on approval, a silenced blog's are dropped, and a
//! suspended blog takes nothing from the fediverse, through its own inbox or the shared one.

use std::time::Duration;

use quire::domain::blog::trust_state::Moderation;
use serde_json::json;

use crate::federation::{Answer, Inbox, follow, until};
use crate::helpers::{Browser, TestApp, body};
use crate::inbox::Setup;
use crate::trust_states::moderate;

/// A server whose deliveries may reach loopback and whose new blogs wait for review, with
/// alice's new blog and one accepted follower on a peer that keeps what it is sent.
async fn new_blog_with_a_follower() -> (TestApp, Browser, i64, Inbox) {
    let app = TestApp::spawn_with(|config| {
        config.fetch_allow_loopback = true;
        config.delivery_retry_unit = Duration::from_millis(60_000);
        config.fetch_deadline = Duration::from_secs(5);
        config.public.review_new_blogs = true;
    })
    .await;
    let alice = app.browser.clone();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let peer = Inbox::start(Answer::Accept).await;
    follow(&app, "bob", &peer.url("/users/bob/inbox"), None, true);
    (app, alice, blog, peer)
}

#[tokio::test]
async fn a_new_blogs_activities_wait_and_are_sent_on_approval() {
    let (app, alice, blog, peer) = new_blog_with_a_follower().await;

    alice.create_post(blog, body(&[("heading", json!({ "text": "Held" }))]), false).await;
    assert_eq!(app.count("deliveries"), 1, "queued");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert!(peer.received().is_empty(), "a new blog's activity is held");
    assert_eq!(app.count("deliveries"), 1, "and still queued");

    // NodeInfo counts only approved blogs and their posts; under `open` anyone may sign up.
    let usage = |app: &TestApp| {
        let app_url = app.url.clone();
        async move {
            let doc: serde_json::Value =
                reqwest::get(format!("{app_url}/nodeinfo/2.1")).await.unwrap().json().await.unwrap();
            assert_eq!(doc["openRegistrations"], true);
            (doc["usage"]["users"]["total"].as_u64().unwrap(), doc["usage"]["localPosts"].as_u64().unwrap())
        }
    };
    assert_eq!(usage(&app).await, (0, 0), "a new blog is not counted");

    moderate(&app, Moderation::Approve, "").await;
    until(Duration::from_secs(10), "the held Create", || peer.types() == ["Create"]).await;
    assert!(String::from_utf8_lossy(&peer.received()[0].body).contains("Held"));
    assert_eq!(usage(&app).await, (1, 1), "approved, it is");
    moderate(&app, Moderation::Suspend, "Spam").await;
    assert_eq!(usage(&app).await, (0, 0), "suspended, it is not");
}

#[tokio::test]
async fn a_silenced_blogs_queued_activities_are_dropped_and_none_are_queued_while_silenced() {
    let (app, alice, blog, peer) = new_blog_with_a_follower().await;
    alice.create_post(blog, body(&[("heading", json!({ "text": "Held then dropped" }))]), false).await;
    assert_eq!(app.count("deliveries"), 1, "held while new");

    moderate(&app, Moderation::Silence, "Spam").await;
    assert_eq!((app.count("deliveries"), app.count("outgoing_activities")), (0, 0), "dropped on silencing");
    alice.create_post(blog, body(&[("heading", json!({ "text": "While silenced" }))]), false).await;
    assert_eq!(app.count("deliveries"), 0, "nothing is queued while silenced");

    // Approved later: what was dropped stays dropped; what it publishes from then on goes out.
    moderate(&app, Moderation::Approve, "").await;
    alice.create_post(blog, body(&[("heading", json!({ "text": "After approval" }))]), false).await;
    until(Duration::from_secs(10), "the new Create", || !peer.received().is_empty()).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let bodies: Vec<String> = peer.received().iter().map(|r| String::from_utf8_lossy(&r.body).into_owned()).collect();
    assert_eq!(bodies.len(), 1, "{bodies:?}");
    assert!(bodies[0].contains("After approval"), "{bodies:?}");
}

#[tokio::test]
async fn a_suspended_blog_takes_no_follow_through_its_inbox_or_the_shared_one_until_unsuspended() {
    let s = Setup::start().await;
    s.app.state.blogs.moderate("alice", Moderation::Suspend, "Spam", "ops@example.com").await.unwrap();
    let own = format!("alice.localhost:{}", s.app.port);
    assert_eq!(s.send(&own, &s.follow(1)).await.status(), 410);
    assert_eq!(s.send(&s.shared(), &s.follow(2)).await.status(), 202, "the shared inbox drops it");
    assert_eq!(s.app.count("followers"), 0);
    assert_eq!(s.app.count("deliveries"), 0, "no Accept");

    s.app.state.blogs.moderate("alice", Moderation::Unsuspend, "", "ops@example.com").await.unwrap();
    assert_eq!(s.send(&s.shared(), &s.follow(3)).await.status(), 202);
    assert_eq!(s.app.count("followers"), 1, "followed again once unsuspended");
}
