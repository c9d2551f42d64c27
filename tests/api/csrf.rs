//! CSRF and Origin checks on every write.

use serde_json::json;

use crate::helpers::{TestApp, error_field};

#[tokio::test]
async fn writes_without_the_csrf_header_or_with_a_wrong_one_are_refused_and_change_nothing() {
    let app = TestApp::spawn().await;
    let browser = app.new_browser();
    browser.sign_up("alice@example.com").await;
    let url = format!("{}/api/my/blogs", app.url);
    let missing = browser.client.post(&url).json(&json!({ "subdomain": "alice" })).send().await.unwrap();
    assert_eq!(error_field(missing, 403).await.0, "csrf");
    let wrong = browser
        .client
        .post(&url)
        .header("CSRF-Token", "0".repeat(64))
        .json(&json!({ "subdomain": "alice" }))
        .send()
        .await
        .unwrap();
    assert_eq!(error_field(wrong, 403).await.0, "csrf");
    let no_cookie = app.new_browser().client.post(&url).header("CSRF-Token", "").json(&json!({})).send().await.unwrap();
    assert_eq!(no_cookie.status(), 403);
    let signout = browser.client.post(format!("{}/d/signout", app.url)).send().await.unwrap();
    assert_eq!(signout.status(), 403);
    assert_eq!(app.count("blogs"), 0);
    assert_eq!(app.count("sessions"), 1, "signout without the token did nothing");
}

#[tokio::test]
async fn writes_from_a_foreign_origin_are_refused_even_with_the_token() {
    let app = TestApp::spawn().await;
    let browser = app.new_browser();
    browser.sign_up("alice@example.com").await;
    let csrf = browser.cookie("csrf_token").unwrap();
    for origin in ["https://evil.example", "null", &format!("http://alice.localhost:{}", app.port)] {
        let resp = browser
            .client
            .post(format!("{}/api/my/blogs", app.url))
            .header("CSRF-Token", &csrf)
            .header("Origin", origin)
            .json(&json!({ "subdomain": "alice" }))
            .send()
            .await
            .unwrap();
        assert_eq!(error_field(resp, 403).await.0, "origin", "{origin}");
    }
    let same = browser
        .client
        .post(format!("{}/api/my/blogs", app.url))
        .header("CSRF-Token", &csrf)
        .header("Origin", &app.url)
        .json(&json!({ "subdomain": "alice" }))
        .send()
        .await
        .unwrap();
    assert_eq!(same.status(), 201);
}

#[tokio::test]
async fn reads_need_no_csrf_token() {
    let app = TestApp::spawn().await;
    let browser = app.new_browser();
    browser.sign_up("alice@example.com").await;
    assert_eq!(browser.get("/api/my/session").await.status(), 200);
}
