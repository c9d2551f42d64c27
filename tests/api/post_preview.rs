//! The editor's Preview (issue 33): the unsaved post rendered as the blog's own post page (its
//! theme stylesheet, its custom CSS, the Spotify player as readers get it), held for ten minutes
//! at `/post-preview/{token}` on the blog's own host, framable by the owner app only, never
//! cached or indexed; the owner's session alone makes one, and a suspended owner still can.

use quire::domain::blog::trust_state::Moderation;
use reqwest::Method;
use serde_json::{Value, json};

use crate::custom_css::stylesheets;
use crate::helpers::{Browser, TestApp, body, error_field};
use crate::trust_states::moderate;

const SPOTIFY: &str = "https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC";

async fn blog_get(app: &TestApp, subdomain: &str, path: &str) -> reqwest::Response {
    app.get_with_host(&format!("{subdomain}.localhost:{}", app.port), path).await
}

fn blocks() -> Value {
    body(&[
        ("heading", json!({ "text": "Morning <script>alert(1)</script>" })),
        ("paragraph", json!({ "text": "First <script>alert(2)</script> light." })),
        ("spotify", json!({ "url": SPOTIFY })),
    ])
}

/// Asks for a preview of `body`; the path of its page on alice's host.
async fn preview(app: &TestApp, alice: &Browser, blog: i64, body: Value) -> String {
    let resp = alice.post(&format!("/api/my/blogs/{blog}/preview"), json!({ "body": body })).await;
    assert_eq!(resp.status(), 200);
    let answer: Value = resp.json().await.unwrap();
    let page = answer["page"].as_str().unwrap();
    let origin = format!("http://alice.localhost:{}", app.port);
    let path = page.strip_prefix(&origin).unwrap_or_else(|| panic!("{page}")).to_owned();
    assert!(path.starts_with("/post-preview/") && path.len() == "/post-preview/".len() + 32, "{path}");
    path
}

#[tokio::test]
async fn the_preview_is_the_blogs_own_post_page_with_its_theme_custom_css_and_spotify_player() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let bob = app.new_browser();
    bob.sign_up_with_blog("bob@example.com", "bob").await;
    let css = "p { margin: 0 0 2em; }";
    assert_eq!(
        alice.send(Method::PUT, &format!("/api/my/blogs/{blog}/css"), json!({ "css": css })).await.status(),
        200
    );
    let path = preview(&app, &alice, blog, blocks()).await;

    let page = blog_get(&app, "alice", &path).await;
    assert_eq!(page.status(), 200);
    assert_eq!(page.headers()["cache-control"], "no-store");
    assert_eq!(page.headers()["x-robots-tag"], "noindex");
    let csp = page.headers()["content-security-policy"].to_str().unwrap().to_owned();
    assert!(csp.contains(&format!("frame-ancestors http://localhost:{}", app.port)), "{csp}");
    assert!(csp.contains("frame-src https://open.spotify.com;") && csp.contains("script-src 'none'"), "{csp}");
    assert!(page.headers().get("x-frame-options").is_none(), "it would deny the editor's frame");
    let html = page.text().await.unwrap();
    assert!(html.contains(r#"<meta name="robots" content="noindex">"#), "{html}");
    assert!(html.contains("src=\"https://open.spotify.com/embed/track/4uLU6hMCjMI75M1A2tKUQC\""), "{html}");
    assert!(!html.contains("<script"), "a script in a block is escaped: {html}");
    assert!(html.contains("Morning &#60;script&#62;alert(1)&#60;/script&#62;"), "{html}");
    assert!(html.contains("alert(2)"), "{html}");

    // The same stylesheets as the blog's published post page: the theme's, then the custom CSS.
    let published = alice.create_post(blog, blocks(), false).await;
    let permalink = published["permalink"].as_str().unwrap();
    let post_path = &permalink[permalink.find("/morning").unwrap()..];
    let public = blog_get(&app, "alice", post_path).await.text().await.unwrap();
    let links = stylesheets(&html);
    assert_eq!(links, stylesheets(&public));
    assert_eq!(links.len(), 2, "{links:?}");
    assert!(links[0].starts_with("/theme-"), "{links:?}");
    assert_eq!(blog_get(&app, "alice", &links[1]).await.text().await.unwrap(), css);

    // Only on its own blog's host, only by its token.
    assert_eq!(blog_get(&app, "bob", &path).await.status(), 404);
    assert_eq!(blog_get(&app, "alice", "/post-preview/0123456789abcdef0123456789abcdef").await.status(), 404);
    assert_eq!(blog_get(&app, "alice", &format!("{path}x")).await.status(), 404);
    assert_eq!(app.get(&path).await.status(), 404, "not on the app's host");

    // A newer preview replaces the older.
    let newer = preview(&app, &alice, blog, body(&[("heading", json!({ "text": "Later" }))])).await;
    assert_ne!(newer, path);
    assert_eq!(blog_get(&app, "alice", &path).await.status(), 404);
    assert!(blog_get(&app, "alice", &newer).await.text().await.unwrap().contains("Later"));
}

#[tokio::test]
async fn a_preview_stores_nothing_takes_the_owners_session_and_marks_the_blocks_it_refuses() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let bob = app.new_browser();
    bob.sign_up_with_blog("bob@example.com", "bob").await;
    let url = format!("/api/my/blogs/{blog}/preview");

    preview(&app, &alice, blog, blocks()).await;
    assert_eq!(app.count("posts"), 0, "nothing saved");
    assert_eq!(error_field(bob.post(&url, json!({ "body": blocks() })).await, 404).await.0, "blog");
    let signed_out = app.new_browser().post(&url, json!({ "body": blocks() })).await;
    assert_eq!(signed_out.status(), 401);
    let no_csrf =
        alice.client.post(format!("{}{url}", app.url)).json(&json!({ "body": blocks() })).send().await.unwrap();
    assert_eq!(error_field(no_csrf, 403).await.0, "csrf");
    let blank = body(&[("heading", json!({ "text": "Title" })), ("paragraph", json!({ "text": "" }))]);
    assert_eq!(error_field(alice.post(&url, json!({ "body": blank })).await, 422).await.0, "children.1");
}

#[tokio::test]
async fn a_suspended_owner_still_sees_the_preview_and_its_theme_while_the_blog_shows_nothing_else() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    alice.create_post(blog, blocks(), false).await;
    moderate(&app, Moderation::Suspend, "Spam links").await;

    let path = preview(&app, &alice, blog, blocks()).await;
    let page = blog_get(&app, "alice", &path).await;
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(html.contains("Morning &#60;script&#62;"), "{html}");
    let theme = &stylesheets(&html)[0];
    assert_eq!(blog_get(&app, "alice", theme).await.status(), 200);
    assert_eq!(blog_get(&app, "alice", "/").await.status(), 410, "the blog itself is suspended");
    assert_eq!(blog_get(&app, "alice", "/post-preview/0123456789abcdef0123456789abcdef").await.status(), 410);
}
