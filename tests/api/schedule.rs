//! Scheduled posts: publishing at a future time, by the server's own timer.

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::helpers::{Browser, TestApp, errors_of, simple_body};

async fn alice_blog() -> (TestApp, Browser, i64) {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    (app, alice, blog)
}

/// RFC 3339 (UTC) of now plus `offset`.
fn at(offset: time::Duration) -> String {
    (OffsetDateTime::now_utc() + offset).format(&Rfc3339).unwrap()
}

async fn public(app: &TestApp, path: &str) -> String {
    let resp = app.get_with_host(&format!("alice.localhost:{}", app.port), path).await;
    resp.text().await.unwrap()
}

async fn schedule(alice: &Browser, blog: i64, title: &str, publish_at: &str) -> reqwest::Response {
    alice
        .post(
            &format!("/api/my/blogs/{blog}/posts"),
            json!({ "body": simple_body(title, "Words for later."), "draft": false, "publish_at": publish_at }),
        )
        .await
}

/// Polls `check` every 100 ms until it holds or `limit` passes.
async fn eventually<F, Fut>(limit: Duration, mut check: F) -> bool
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if check().await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}

fn published_at_in_db(app: &TestApp, short_id: &str) -> Option<String> {
    app.db().query_row("SELECT published_at FROM posts WHERE short_id = ?1", [short_id], |r| r.get(0)).unwrap()
}

#[tokio::test]
async fn a_scheduled_post_stays_hidden_until_its_time_then_the_timer_publishes_it_without_a_request() {
    let (app, alice, blog) = alice_blog().await;
    alice.create_post(blog, simple_body("Already out", "Old words."), false).await;
    let when = at(time::Duration::seconds(2));
    let resp = schedule(&alice, blog, "Coming soon", &when).await;
    assert_eq!(resp.status(), 201);
    let post = resp.json::<Value>().await.unwrap()["post"].clone();
    assert_eq!(post["publishedAt"], Value::Null);
    let scheduled = post["scheduledAt"].as_str().expect("scheduledAt");
    assert_eq!(
        OffsetDateTime::parse(scheduled, &Rfc3339).unwrap().unix_timestamp(),
        OffsetDateTime::parse(&when, &Rfc3339).unwrap().unix_timestamp()
    );
    let short_id = post["shortId"].as_str().unwrap().to_owned();

    // Before its time: on no public page, and the front page gets cached without it.
    let front = public(&app, "/").await;
    assert!(front.contains("Already out") && !front.contains("Coming soon"));
    for path in ["/feed.xml", "/rss.xml", "/sitemap.xml"] {
        assert!(!public(&app, path).await.contains(&short_id), "{path} hides it");
    }
    let permalink = format!("/{}", post["permalink"].as_str().unwrap().rsplit('/').next().unwrap());
    assert_eq!(app.get_with_host(&format!("alice.localhost:{}", app.port), &permalink).await.status(), 404);

    // No request at all until well after its time: the server's timer publishes it.
    tokio::time::sleep(Duration::from_millis(3500)).await;
    let published = published_at_in_db(&app, &short_id).expect("published by the timer");
    assert_eq!(
        OffsetDateTime::parse(&published, &Rfc3339).unwrap().unix_timestamp(),
        OffsetDateTime::parse(&when, &Rfc3339).unwrap().unix_timestamp()
    );

    // The cached front page is not stale, and every public list shows it.
    assert!(public(&app, "/").await.contains("Coming soon"), "the cached front page was dropped");
    for path in ["/feed.xml", "/rss.xml", "/sitemap.xml"] {
        assert!(public(&app, path).await.contains(&short_id), "{path} lists it");
    }
    assert_eq!(app.get_with_host(&format!("alice.localhost:{}", app.port), &permalink).await.status(), 200);
    let shown = alice.get(&format!("/api/my/blogs/{blog}/posts/{short_id}")).await.json::<Value>().await.unwrap();
    assert_eq!(shown["post"]["scheduledAt"], Value::Null);
    assert_eq!(shown["post"]["publishedAt"].as_str(), Some(published.as_str()));
}

#[tokio::test]
async fn a_scheduled_post_is_found_by_public_search_only_once_published() {
    let (app, alice, blog) = alice_blog().await;
    let addon = alice.post(&format!("/api/my/blogs/{blog}/addons/7/installation"), json!({})).await;
    assert_eq!(addon.status(), 200);
    let resp = schedule(&alice, blog, "Zeppelin diaries", &at(time::Duration::seconds(2))).await;
    assert_eq!(resp.status(), 201);
    assert!(!public(&app, "/search?q=zeppelin").await.contains("Zeppelin diaries"));
    assert_eq!(alice.search_titles(blog, "zeppelin").await, ["Zeppelin diaries"], "the owner finds it");
    assert!(
        eventually(Duration::from_secs(6), || async {
            public(&app, "/search?q=zeppelin").await.contains("Zeppelin diaries")
        })
        .await,
        "public search finds it once published"
    );
}

#[tokio::test]
async fn a_restart_publishes_what_came_due_while_the_server_was_down() {
    let (app, alice, blog) = alice_blog().await;
    let resp = schedule(&alice, blog, "Due while down", &at(time::Duration::seconds(2))).await;
    let short_id = resp.json::<Value>().await.unwrap()["post"]["shortId"].as_str().unwrap().to_owned();
    let port = app.port;
    let dir = app.stop().await;
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let conn = rusqlite::Connection::open(dir.path().join("quire.db")).unwrap();
    let before: Option<String> =
        conn.query_row("SELECT published_at FROM posts WHERE short_id = ?1", [&short_id], |r| r.get(0)).unwrap();
    assert_eq!(before, None, "nothing published it while down");
    let app = TestApp::spawn_at(dir, port, |_| {}).await;
    assert!(published_at_in_db(&app, &short_id).is_some(), "published at start, before the first request");
    assert!(public(&app, "/").await.contains("Due while down"));
}

#[tokio::test]
async fn rescheduling_earlier_wakes_the_timer_and_ticking_draft_cancels_the_schedule() {
    let (app, alice, blog) = alice_blog().await;
    let resp = schedule(&alice, blog, "Moved up", &at(time::Duration::hours(5))).await;
    let short_id = resp.json::<Value>().await.unwrap()["post"]["shortId"].as_str().unwrap().to_owned();
    let path = format!("/api/my/blogs/{blog}/posts/{short_id}");

    // A second post scheduled far ahead, then made a draft: it loses its schedule.
    let other = schedule(&alice, blog, "Held back", &at(time::Duration::seconds(1))).await;
    let other_id = other.json::<Value>().await.unwrap()["post"]["shortId"].as_str().unwrap().to_owned();
    let drafted = alice
        .send(
            reqwest::Method::PUT,
            &format!("/api/my/blogs/{blog}/posts/{other_id}"),
            json!({ "body": simple_body("Held back", "x"), "draft": true, "publish_at": null }),
        )
        .await;
    assert_eq!(drafted.status(), 200);
    assert_eq!(drafted.json::<Value>().await.unwrap()["post"]["scheduledAt"], Value::Null);

    let moved = alice
        .send(reqwest::Method::PUT, &path, json!({ "body": simple_body("Moved up", "x"), "draft": false, "publish_at": at(time::Duration::seconds(1)) }))
        .await;
    assert_eq!(moved.status(), 200);
    assert!(
        eventually(Duration::from_secs(5), || async { published_at_in_db(&app, &short_id).is_some() }).await,
        "the timer woke for the earlier time"
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(published_at_in_db(&app, &other_id), None, "the draft stays a draft");
}

#[tokio::test]
async fn the_owner_list_shows_the_schedule_and_without_a_date_the_post_is_published_now() {
    let (_app, alice, blog) = alice_blog().await;
    let when = at(time::Duration::days(3));
    let post = schedule(&alice, blog, "Later", &when).await.json::<Value>().await.unwrap()["post"].clone();
    let list = alice.get(&format!("/api/my/blogs/{blog}/posts")).await.json::<Value>().await.unwrap();
    assert!(list["posts"][0]["scheduledAt"].is_string());
    assert_eq!(list["posts"][0]["publishedAt"], Value::Null);
    let short_id = post["shortId"].as_str().unwrap();
    let now = alice
        .send(
            reqwest::Method::PUT,
            &format!("/api/my/blogs/{blog}/posts/{short_id}"),
            json!({ "body": simple_body("Later", "x"), "draft": false }),
        )
        .await
        .json::<Value>()
        .await
        .unwrap();
    assert!(now["post"]["publishedAt"].is_string(), "no date: published now");
    assert_eq!(now["post"]["scheduledAt"], Value::Null);
}

#[tokio::test]
async fn schedule_dates_in_the_past_too_far_ahead_or_malformed_are_422s() {
    let (app, alice, blog) = alice_blog().await;
    let cases = [
        (at(time::Duration::minutes(-5)), "Should be in the future"),
        ("9999-12-31T23:59:59Z".to_owned(), "Should be at most 10 years ahead"),
        (at(time::Duration::days(3700)), "Should be at most 10 years ahead"),
        ("tomorrow".to_owned(), "Should be a date and time such as 2030-01-31T09:00:00Z"),
        ("2030-02-30T09:00:00Z".to_owned(), "Should be a date and time such as 2030-01-31T09:00:00Z"),
        ("2030-01-31T09:00:00".to_owned(), "Should be a date and time such as 2030-01-31T09:00:00Z"),
        ("".to_owned(), "Should be a date and time such as 2030-01-31T09:00:00Z"),
        ("x".repeat(100_000), "Should be a date and time such as 2030-01-31T09:00:00Z"),
    ];
    for (raw, message) in cases {
        let resp = schedule(&alice, blog, "Bad date", &raw).await;
        assert_eq!(resp.status(), 422, "{:.40}", raw);
        assert_eq!(errors_of(resp).await, [("publishAt".to_owned(), message.to_owned())], "{:.40}", raw);
    }
    let wrong_type = alice
        .post(&format!("/api/my/blogs/{blog}/posts"), json!({ "body": simple_body("T", "x"), "publish_at": 5 }))
        .await;
    assert_eq!(wrong_type.status(), 400);
    assert_eq!(app.count("posts"), 0, "nothing was written");
}

#[tokio::test]
async fn a_time_with_an_offset_is_stored_in_utc() {
    let (_app, alice, blog) = alice_blog().await;
    let local =
        (OffsetDateTime::now_utc() + time::Duration::days(1)).to_offset(time::UtcOffset::from_hms(2, 0, 0).unwrap());
    let resp = schedule(&alice, blog, "Offset", &local.format(&Rfc3339).unwrap()).await;
    assert_eq!(resp.status(), 201);
    let scheduled = resp.json::<Value>().await.unwrap()["post"]["scheduledAt"].as_str().unwrap().to_owned();
    assert!(scheduled.ends_with('Z') && scheduled.len() == 24, "{scheduled}");
    assert_eq!(OffsetDateTime::parse(&scheduled, &Rfc3339).unwrap().unix_timestamp(), local.unix_timestamp());
}

#[tokio::test]
async fn a_published_post_ignores_a_schedule() {
    let (_app, alice, blog) = alice_blog().await;
    let post = alice.create_post(blog, simple_body("Out", "x"), false).await;
    let short_id = post["shortId"].as_str().unwrap();
    let resp = alice
        .send(
            reqwest::Method::PUT,
            &format!("/api/my/blogs/{blog}/posts/{short_id}"),
            json!({ "body": simple_body("Out", "y"), "draft": false, "publish_at": at(time::Duration::days(1)) }),
        )
        .await;
    assert_eq!(resp.status(), 200);
    let updated = resp.json::<Value>().await.unwrap()["post"].clone();
    assert_eq!(updated["publishedAt"], post["publishedAt"]);
    assert_eq!(updated["scheduledAt"], Value::Null);
}

#[tokio::test]
async fn a_scheduled_post_keeps_its_tags_when_the_timer_publishes_it() {
    let (app, alice, blog) = alice_blog().await;
    let addon = alice.post(&format!("/api/my/blogs/{blog}/addons/7/installation"), json!({})).await;
    assert_eq!(addon.status(), 200);
    let body = json!({ "body": simple_body("Balloon notes", "Words for later."), "draft": false,
                       "publish_at": at(time::Duration::seconds(2)), "tags": ["balloons"] });
    let resp = alice.post(&format!("/api/my/blogs/{blog}/posts"), body).await;
    assert_eq!(resp.status(), 201);
    assert!(
        eventually(Duration::from_secs(6), || async { public(&app, "/tags/balloons").await.contains("Balloon notes") })
            .await,
        "the tag page lists it once published"
    );
    // The index follows the database by a moment (its reader reloads after the commit).
    assert!(
        eventually(Duration::from_secs(3), || async {
            public(&app, "/search?q=balloon&tag=balloons").await.contains("Balloon notes")
        })
        .await,
        "search within its tag finds it"
    );
}
