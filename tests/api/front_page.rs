//! The landing page's account of the instance (issue 33): `GET /api/instance` answers the
//! operator's description (`--instance-description`, Markdown through the posts' renderer) and
//! the newest posts of the approved blogs whose owners listed them; `serve` refuses a
//! description file it cannot use, in one line.

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{Browser, TestApp, quire_within, s, simple_body, stderr};

async fn instance(app: &TestApp) -> Value {
    let resp = app.get("/api/instance").await;
    assert_eq!(resp.status(), 200);
    resp.json().await.unwrap()
}

fn titles(answer: &Value) -> Vec<String> {
    answer["posts"].as_array().unwrap().iter().map(|p| p["title"].as_str().unwrap().to_owned()).collect()
}

async fn listed_blog(app: &TestApp, email: &str, subdomain: &str, listed: bool) -> (Browser, i64) {
    let browser = app.new_browser();
    let blog = browser.sign_up_with_blog(email, subdomain).await;
    let resp = browser.send(Method::PUT, &format!("/api/my/blogs/{blog}/listed"), json!({ "listed": listed })).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.json::<Value>().await.unwrap()["blog"]["listed"], listed);
    (browser, blog)
}

async fn publish(browser: &Browser, blog: i64, title: &str, extra: Value) -> Value {
    let mut body = json!({ "body": simple_body(title, "Words."), "draft": false });
    body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    let resp = browser.post(&format!("/api/my/blogs/{blog}/posts"), body).await;
    assert_eq!(resp.status(), 201, "{title}");
    resp.json::<Value>().await.unwrap()["post"].clone()
}

#[tokio::test]
async fn only_listed_approved_blogs_public_posts_reach_the_landing_page_newest_first() {
    let app = TestApp::spawn().await;
    assert_eq!(instance(&app).await, json!({ "description": "", "posts": [] }));

    let (alice, alice_blog) = listed_blog(&app, "alice@example.com", "alice", true).await;
    let resp =
        alice.send(Method::PUT, &format!("/api/my/blogs/{alice_blog}"), json!({ "name": "Tea & <b>cake</b>" })).await;
    assert_eq!(resp.status(), 200);
    let first = publish(&alice, alice_blog, "Listed one", json!({})).await;
    publish(&alice, alice_blog, "Listed two", json!({})).await;
    publish(&alice, alice_blog, "A draft", json!({ "draft": true })).await;
    publish(&alice, alice_blog, "An unlisted post", json!({ "visibility": "unlisted" })).await;
    publish(&alice, alice_blog, "A page", json!({ "page": true })).await;

    let (bob, bob_blog) = listed_blog(&app, "bob@example.com", "bob", false).await;
    publish(&bob, bob_blog, "Not listed", json!({})).await;
    let (carol, carol_blog) = listed_blog(&app, "carol@example.com", "carol", true).await;
    publish(&carol, carol_blog, "Pending review", json!({})).await;
    let (dave, dave_blog) = listed_blog(&app, "dave@example.com", "dave", true).await;
    publish(&dave, dave_blog, "Suspended", json!({})).await;
    let (erin, erin_blog) = listed_blog(&app, "erin@example.com", "erin", true).await;
    publish(&erin, erin_blog, "Flagged", json!({})).await;
    let (frank, frank_blog) = listed_blog(&app, "frank@example.com", "frank", true).await;
    publish(&frank, frank_blog, "Silenced", json!({})).await;
    let db = app.db();
    db.execute("UPDATE blogs SET state = 'new' WHERE subdomain = 'carol'", []).unwrap();
    db.execute("UPDATE blogs SET state = 'suspended' WHERE subdomain = 'dave'", []).unwrap();
    db.execute("UPDATE blogs SET flagged_at = '2026-01-01T00:00:00Z' WHERE subdomain = 'erin'", []).unwrap();
    db.execute("UPDATE blogs SET state = 'silenced' WHERE subdomain = 'frank'", []).unwrap();

    let answer = instance(&app).await;
    assert_eq!(titles(&answer), vec!["Listed two", "Listed one"]);
    let card = &answer["posts"][1];
    let port = app.port;
    assert_eq!(card["blogName"], "Tea & <b>cake</b>", "JSON carries the text; the app escapes it");
    assert_eq!(card["blogUrl"], format!("http://alice.localhost:{port}/"));
    assert_eq!(card["url"], first["permalink"]);
    assert_eq!(card["publishedAt"], first["publishedAt"]);
    assert_eq!(card.as_object().unwrap().len(), 5, "nothing beyond what the public pages show: {card}");

    // Taken off: gone at once.
    let resp = alice.send(Method::PUT, &format!("/api/my/blogs/{alice_blog}/listed"), json!({ "listed": false })).await;
    assert_eq!(resp.status(), 200);
    assert!(titles(&instance(&app).await).is_empty());
    // The switch is the owner's only.
    let resp = bob.send(Method::PUT, &format!("/api/my/blogs/{alice_blog}/listed"), json!({ "listed": true })).await;
    assert_eq!(resp.status(), 404);
    assert!(titles(&instance(&app).await).is_empty());
}

#[tokio::test]
async fn the_landing_page_lists_fifteen_posts_at_most() {
    let app = TestApp::spawn().await;
    let (alice, blog) = listed_blog(&app, "alice@example.com", "alice", true).await;
    for n in 1..=17 {
        publish(&alice, blog, &format!("Post {n}"), json!({})).await;
    }
    let shown = titles(&instance(&app).await);
    assert_eq!(shown.len(), 15);
    assert_eq!((shown[0].as_str(), shown[14].as_str()), ("Post 17", "Post 3"));
}

#[tokio::test]
async fn the_instance_description_is_rendered_from_markdown_with_raw_html_as_text() {
    use quire::domain::public_instance::OperatorPage;
    let markdown =
        "A **small** instance for [friends](https://example.com/about) & family.\n\n<script>alert(1)</script>";
    let app = TestApp::spawn_with(|config| {
        config.public.description = Some(OperatorPage { path: "about.md".into(), markdown: markdown.into() });
    })
    .await;
    let html = instance(&app).await["description"].as_str().unwrap().to_owned();
    assert!(html.contains("A <strong>small</strong> instance for"), "{html}");
    assert!(html.contains(r#"<a href="https://example.com/about""#), "{html}");
    assert!(html.contains("&amp; family."), "{html}");
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "raw HTML is text: {html}");
    assert!(!html.contains("<script>"), "{html}");
}

#[test]
fn serve_refuses_a_missing_oversized_or_non_utf8_description_file_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.md");
    std::fs::write(&big, "a".repeat(64 * 1024 + 1)).unwrap();
    let binary = dir.path().join("binary.md");
    std::fs::write(&binary, [0xff, 0xfe, 0x00, 0x41]).unwrap();
    let missing = dir.path().join("missing.md");
    let data = dir.path().join("data");
    for (file, said) in [
        (&missing, "cannot read it"),
        (&big, "more than the 64 KB Quire reads"),
        (&binary, "cannot read it as UTF-8 text"),
    ] {
        let out = quire_within(
            &[
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--host",
                "localhost:0",
                "--data-dir",
                s(&data),
                "--instance-description",
                s(file),
            ],
            Duration::from_secs(20),
        );
        assert!(!out.status.success(), "{file:?} refused");
        let err = stderr(&out);
        let line = err.lines().find(|line| line.contains("--instance-description")).unwrap_or_else(|| panic!("{err}"));
        assert!(line.contains(said) && line.contains(s(file)), "{line}");
    }
}
