//! A blog's description (issue 33): set in Settings, shown under the blog's name on its home (the
//! name shown once), in its meta and OpenGraph description, as its feeds' subtitle and in its
//! ActivityPub actor's summary, escaped everywhere; the cached pages change with it; a long or
//! multi-line one is refused on its field.

use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{TestApp, error_field, simple_body};

const DESCRIPTION: &str = "Tea & <script>alert(1)</script> cake";
/// As the page and feed templates escape it.
const ESCAPED: &str = "Tea &#38; &#60;script&#62;alert(1)&#60;/script&#62; cake";
/// As the actor's summary escapes it.
const SUMMARY: &str = "<p>Tea &amp; &lt;script&gt;alert(1)&lt;/script&gt; cake</p>";

async fn page(app: &TestApp, path: &str) -> String {
    let resp = app.get_with_host(&format!("alice.localhost:{}", app.port), path).await;
    assert_eq!(resp.status(), 200, "{path}");
    resp.text().await.unwrap()
}

#[tokio::test]
async fn the_description_shows_under_the_name_once_in_feeds_opengraph_and_the_actor_escaped() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let resp = alice.send(Method::PUT, &format!("/api/my/blogs/{blog}"), json!({ "name": "Harbour & Co" })).await;
    assert_eq!(resp.status(), 200);
    let post = alice.create_post(blog, simple_body("First light", "Words."), false).await;
    let post_path = format!("/{}", post["permalink"].as_str().unwrap().rsplit('/').next().unwrap());

    let before = page(&app, "/").await;
    assert!(!before.contains("site-description"), "no description yet: {before}");
    assert!(before.contains(r#"<meta name="description" content="Posts from Harbour &#38; Co">"#), "{before}");
    page(&app, "/feed.xml").await;
    page(&app, "/rss.xml").await;

    let resp = alice
        .send(Method::PUT, &format!("/api/my/blogs/{blog}/description"), json!({ "description": DESCRIPTION }))
        .await;
    assert_eq!(resp.status(), 200);
    let answer: Value = resp.json().await.unwrap();
    assert_eq!(answer["blog"]["description"], DESCRIPTION);

    // The home was cached before the change: the write purged it.
    let home = page(&app, "/").await;
    assert!(home.contains(&format!(r#"<p class="site-description">{ESCAPED}</p>"#)), "{home}");
    assert!(home.contains(&format!(r#"<meta name="description" content="{ESCAPED}">"#)), "{home}");
    assert!(home.contains(&format!(r#"<meta property="og:description" content="{ESCAPED}">"#)), "{home}");
    assert!(!home.contains("<script>"), "{home}");
    let body = home.split("<body>").nth(1).unwrap();
    assert_eq!(body.matches("Harbour &#38; Co").count(), 1, "the name is shown once: {body}");
    assert!(body.contains(r#"<h1 class="site-name"><a href="/">Harbour &#38; Co</a></h1>"#), "{body}");

    // Other pages keep the name as the link home, without the description.
    let post_page = page(&app, &post_path).await;
    assert!(post_page.contains(r#"<a class="site-name" href="/">Harbour &#38; Co</a>"#), "{post_page}");
    assert!(!post_page.contains("site-description"), "{post_page}");

    let atom = page(&app, "/feed.xml").await;
    assert!(atom.contains(&format!("<subtitle>{ESCAPED}</subtitle>")), "{atom}");
    let rss = page(&app, "/rss.xml").await;
    assert!(rss.contains(&format!("<description>{ESCAPED}</description>")), "{rss}");

    let actor: Value = app
        .client
        .get(format!("http://127.0.0.1:{}/_quire/ap/actor", app.port))
        .header("host", format!("alice.localhost:{}", app.port))
        .header("accept", "application/activity+json")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(actor["summary"], SUMMARY);

    // Cleared: the defaults come back.
    let resp =
        alice.send(Method::PUT, &format!("/api/my/blogs/{blog}/description"), json!({ "description": "  " })).await;
    assert_eq!(resp.status(), 200);
    let home = page(&app, "/").await;
    assert!(!home.contains("site-description"), "{home}");
    let rss = page(&app, "/rss.xml").await;
    assert!(rss.contains("<description>Posts from Harbour &#38; Co</description>"), "{rss}");
    assert!(!page(&app, "/feed.xml").await.contains("<subtitle>"));
}

#[tokio::test]
async fn a_long_or_multi_line_description_is_refused_on_its_field_and_another_owner_gets_a_404() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let path = format!("/api/my/blogs/{blog}/description");
    let resp = alice.send(Method::PUT, &path, json!({ "description": "é".repeat(301) })).await;
    assert_eq!(error_field(resp, 422).await, ("description".into(), "Should be at most 300 characters".into()));
    let resp = alice.send(Method::PUT, &path, json!({ "description": "one\ntwo" })).await;
    let (field, message) = error_field(resp, 422).await;
    assert_eq!(field, "description");
    assert!(message.contains("without line breaks"), "{message}");
    let resp = alice.send(Method::PUT, &path, json!({ "description": 7 })).await;
    assert_eq!(resp.status(), 400, "a description that is not text");

    let bob = app.new_browser();
    bob.sign_up_with_blog("bob@example.com", "bob").await;
    let resp = bob.send(Method::PUT, &path, json!({ "description": "Mine now" })).await;
    assert_eq!(resp.status(), 404);
    let stored: String =
        app.db().query_row("SELECT description FROM blogs WHERE id = ?1", [blog], |r| r.get(0)).unwrap();
    assert_eq!(stored, "", "nothing refused was stored");
}
