//! A blog's time zone: chosen at creation, changed in settings, and used for every date its
//! public pages show (feeds keep their UTC times).

use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{Browser, TestApp, error_field, simple_body};

/// Half past eleven at night in UTC: already the next morning in Tokyo.
const LATE_EVENING_UTC: &str = "2026-03-14T23:30:00.000Z";

/// Signs `email` up and creates `subdomain` with `extra` fields; returns the `blog` answered.
async fn create_blog(browser: &Browser, email: &str, subdomain: &str, extra: Value) -> Value {
    browser.sign_up(email).await;
    let mut body = json!({ "subdomain": subdomain });
    body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    let resp = browser.post("/api/my/blogs", body).await;
    assert_eq!(resp.status(), 201, "blog creation");
    resp.json::<Value>().await.unwrap()["blog"].clone()
}

/// Publishes a post, then moves its publication time to `LATE_EVENING_UTC` behind the server's
/// back (before any page of the blog is cached); returns the post's public path.
async fn post_published_late(app: &TestApp, browser: &Browser, blog: &Value, title: &str) -> String {
    let post =
        browser.create_post(blog["id"].as_i64().unwrap(), simple_body(title, "Written after dinner."), false).await;
    let short_id = post["shortId"].as_str().unwrap();
    let changed = app
        .db()
        .execute("UPDATE posts SET published_at = ?1 WHERE short_id = ?2", [LATE_EVENING_UTC, short_id])
        .unwrap();
    assert_eq!(changed, 1);
    format!("/{}", post["permalink"].as_str().unwrap().rsplit('/').next().unwrap())
}

async fn public_page(app: &TestApp, subdomain: &str, path: &str) -> String {
    let resp = app.get_with_host(&format!("{subdomain}.localhost:{}", app.port), path).await;
    assert_eq!(resp.status(), 200, "{subdomain} {path}");
    resp.text().await.unwrap()
}

#[tokio::test]
async fn a_post_published_at_half_past_eleven_utc_shows_the_next_day_in_tokyo_and_the_same_day_in_utc() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let tokyo = create_blog(&alice, "alice@example.com", "alice", json!({ "time_zone": "Asia/Tokyo" })).await;
    assert_eq!(tokyo["timeZone"], "Asia/Tokyo");
    let bob = app.new_browser();
    let utc = create_blog(&bob, "bob@example.com", "bob", json!({})).await;
    assert_eq!(utc["timeZone"], "UTC", "a blog created without a zone is in UTC");

    let alice_post = post_published_late(&app, &alice, &tokyo, "Tokyo night").await;
    let bob_post = post_published_late(&app, &bob, &utc, "London night").await;

    for path in ["/", alice_post.as_str()] {
        let html = public_page(&app, "alice", path).await;
        assert!(
            html.contains(r#"<time datetime="2026-03-15T08:30:00+09:00">15 March 2026</time>"#),
            "alice {path}: {html}"
        );
        assert!(!html.contains("14 March 2026"));
    }
    for path in ["/", bob_post.as_str()] {
        let html = public_page(&app, "bob", path).await;
        assert!(html.contains(r#"<time datetime="2026-03-14T23:30:00Z">14 March 2026</time>"#), "bob {path}: {html}");
    }

    // Feeds keep machine times in UTC, whatever the blog's zone.
    let atom = public_page(&app, "alice", "/feed.xml").await;
    assert!(atom.contains("<published>2026-03-14T23:30:00Z</published>"), "{atom}");
    let rss = public_page(&app, "alice", "/rss.xml").await;
    assert!(rss.contains("<pubDate>Sat, 14 Mar 2026 23:30:00 +0000</pubDate>"), "{rss}");

    // The owner reads the zone back with the blog.
    let shown: Value = alice.get(&format!("/api/my/blogs/{}", tokyo["id"])).await.json().await.unwrap();
    assert_eq!(shown["blog"]["timeZone"], "Asia/Tokyo");
}

#[tokio::test]
async fn an_unknown_time_zone_is_refused_with_a_422_and_changes_nothing() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    alice.sign_up("alice@example.com").await;
    for zone in ["Mars/Olympus_Mons", "asia/tokyo", "", "+09:00"] {
        let resp = alice.post("/api/my/blogs", json!({ "subdomain": "alice", "time_zone": zone })).await;
        let (field, message) = error_field(resp, 422).await;
        assert_eq!(field, "timeZone", "{zone:?}");
        assert!(!message.is_empty());
    }
    let (field, _) =
        error_field(alice.post("/api/my/blogs", json!({ "subdomain": "alice", "time_zone": 9 })).await, 400).await;
    assert_eq!(field, "body");
    assert_eq!(app.count("blogs"), 0, "no blog was created");
    // A bad subdomain is named first: the Welcome screen shows the last message under it.
    let (field, _) =
        error_field(alice.post("/api/my/blogs", json!({ "subdomain": "a", "time_zone": "Nowhere" })).await, 422).await;
    assert_eq!(field, "subdomain");

    let blog = create_blog(&alice, "alice@example.com", "alice", json!({ "time_zone": "Europe/Paris" })).await;
    let path = format!("/api/my/blogs/{}/time_zone", blog["id"]);
    let (field, message) =
        error_field(alice.send(Method::PUT, &path, json!({ "time_zone": "Europe/Atlantis" })).await, 422).await;
    assert_eq!(
        (field.as_str(), message.as_str()),
        ("timeZone", "Unknown time zone: choose one from the list, such as Europe/Paris")
    );
    let (field, _) = error_field(alice.send(Method::PUT, &path, json!({})).await, 400).await;
    assert_eq!(field, "time_zone");
    let shown: Value = alice.get(&format!("/api/my/blogs/{}", blog["id"])).await.json().await.unwrap();
    assert_eq!(shown["blog"]["timeZone"], "Europe/Paris");

    // Another user's blog is the same 404 as none.
    let mallory = app.new_browser();
    mallory.sign_up("mallory@example.com").await;
    assert_eq!(mallory.send(Method::PUT, &path, json!({ "time_zone": "UTC" })).await.status(), 404);

    // The zones the settings screen offers are the ones the server accepts.
    let zones: Value = app.browser.get("/api/time_zones").await.json().await.unwrap();
    let zones: Vec<&str> = zones["timeZones"].as_array().unwrap().iter().map(|z| z.as_str().unwrap()).collect();
    for zone in ["UTC", "Asia/Tokyo", "Europe/Paris", "America/Argentina/Buenos_Aires", "Pacific/Chatham"] {
        assert!(zones.contains(&zone), "{zone}");
    }
    assert!(zones.len() > 300, "{}", zones.len());
    for zone in zones {
        let resp = alice.send(Method::PUT, &path, json!({ "time_zone": zone })).await;
        assert_eq!(resp.status(), 200, "{zone}");
    }
}

#[tokio::test]
async fn changing_the_time_zone_changes_the_cached_public_pages() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = create_blog(&alice, "alice@example.com", "alice", json!({})).await;
    let post = post_published_late(&app, &alice, &blog, "Late").await;
    for path in ["/", post.as_str()] {
        assert!(public_page(&app, "alice", path).await.contains(">14 March 2026</time>"), "{path}");
    }

    let resp = alice
        .send(Method::PUT, &format!("/api/my/blogs/{}/time_zone", blog["id"]), json!({ "time_zone": "Asia/Tokyo" }))
        .await;
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.json::<Value>().await.unwrap()["blog"]["timeZone"], "Asia/Tokyo");
    for path in ["/", post.as_str()] {
        assert!(public_page(&app, "alice", path).await.contains(">15 March 2026</time>"), "{path}");
    }

    // West of UTC the same evening stays the 14th.
    alice
        .send(
            Method::PUT,
            &format!("/api/my/blogs/{}/time_zone", blog["id"]),
            json!({ "time_zone": "America/New_York" }),
        )
        .await;
    assert!(
        public_page(&app, "alice", &post)
            .await
            .contains(r#"<time datetime="2026-03-14T19:30:00-04:00">14 March 2026</time>"#)
    );
}

#[tokio::test]
async fn tag_pages_show_dates_in_the_blogs_time_zone_too() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let tokyo = create_blog(&alice, "alice@example.com", "alice", json!({ "time_zone": "Asia/Tokyo" })).await;
    let blog_id = tokyo["id"].as_i64().unwrap();
    let resp = alice
        .post(
            &format!("/api/my/blogs/{blog_id}/posts"),
            json!({ "body": simple_body("Tokyo night", "Late."), "draft": false, "tags": ["night"] }),
        )
        .await;
    assert_eq!(resp.status(), 201);
    let short_id = resp.json::<Value>().await.unwrap()["post"]["shortId"].as_str().unwrap().to_owned();
    app.db()
        .execute("UPDATE posts SET published_at = ?1 WHERE short_id = ?2", [LATE_EVENING_UTC, short_id.as_str()])
        .unwrap();
    let html = public_page(&app, "alice", "/tags/night").await;
    assert!(html.contains(r#"<time datetime="2026-03-15T08:30:00+09:00">15 March 2026</time>"#), "{html}");
}
