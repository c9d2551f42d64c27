//! Preview links: a secret address at which anyone can read a draft or scheduled post.

use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{Browser, TestApp, error_field, simple_body};

async fn alice_blog() -> (TestApp, Browser, i64) {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    (app, alice, blog)
}

fn link_path(blog: i64, short_id: &str) -> String {
    format!("/api/my/blogs/{blog}/posts/{short_id}/preview_link")
}

/// Creates a preview link; returns its URL.
async fn create_link(alice: &Browser, blog: i64, short_id: &str) -> String {
    let resp = alice.post(&link_path(blog, short_id), json!({})).await;
    assert_eq!(resp.status(), 201, "preview link created");
    let body: Value = resp.json().await.unwrap();
    body["previewLink"]["url"].as_str().expect("url").to_owned()
}

/// GET a URL on a blog host, as a signed-out reader (no cookies at all).
async fn visit(app: &TestApp, url: &str) -> reqwest::Response {
    let path = url.split_once(&format!("localhost:{}", app.port)).expect("a blog URL").1;
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
        .get(format!("http://127.0.0.1:{}{path}", app.port))
        .header("host", format!("alice.localhost:{}", app.port))
        .send()
        .await
        .unwrap()
}

async fn public(app: &TestApp, path: &str) -> String {
    app.get_with_host(&format!("alice.localhost:{}", app.port), path).await.text().await.unwrap()
}

#[tokio::test]
async fn a_signed_out_reader_reads_a_draft_through_its_preview_link_never_indexed_or_cached() {
    let (app, alice, blog) = alice_blog().await;
    let post = alice.create_post(blog, simple_body("Secret plans", "Only for friends."), true).await;
    let short_id = post["shortId"].as_str().unwrap();
    let url = create_link(&alice, blog, short_id).await;
    let token = url.rsplit('/').next().unwrap();
    assert!(url.starts_with(&format!("http://alice.localhost:{}/preview/", app.port)), "{url}");
    assert!(token.len() >= 32 && token.bytes().all(|b| b.is_ascii_hexdigit()), "{token}");

    let resp = visit(&app, &url).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["cache-control"], "no-store");
    assert_eq!(resp.headers()["x-robots-tag"], "noindex");
    assert!(resp.headers().get("etag").is_none(), "nothing to revalidate");
    assert!(resp.headers()["content-security-policy"].to_str().unwrap().contains("script-src 'none'"));
    let html = resp.text().await.unwrap();
    assert!(html.contains("Secret plans") && html.contains("Only for friends."));
    assert!(html.contains("<meta name=\"robots\" content=\"noindex\">"));

    // The token is stored only as a hash.
    let stored: Vec<u8> = app.db().query_row("SELECT token_hash FROM preview_links", [], |r| r.get(0)).unwrap();
    assert_eq!(stored.len(), 32);
    assert!(!hex::encode(&stored).contains(token));

    // Never in the public lists or search.
    alice.post(&format!("/api/my/blogs/{blog}/addons/7/installation"), json!({})).await;
    for path in ["/", "/feed.xml", "/rss.xml", "/sitemap.xml", "/search?q=secret"] {
        let page = public(&app, path).await;
        assert!(!page.contains("Secret plans") && !page.contains(short_id) && !page.contains(token), "{path}");
    }

    // The owner can see that a link exists, but not its secret.
    let shown: Value = alice.get(&link_path(blog, short_id)).await.json().await.unwrap();
    assert!(shown["previewLink"]["createdAt"].is_string());
    assert!(shown["previewLink"].get("url").is_none());
}

#[tokio::test]
async fn a_revoked_or_replaced_link_and_guessed_tokens_are_404s() {
    let (app, alice, blog) = alice_blog().await;
    let post = alice.create_post(blog, simple_body("Draft", "x"), true).await;
    let short_id = post["shortId"].as_str().unwrap();
    let first = create_link(&alice, blog, short_id).await;
    let second = create_link(&alice, blog, short_id).await;
    assert_ne!(first, second);
    assert_eq!(visit(&app, &first).await.status(), 404, "a new link replaces the old one");
    assert_eq!(visit(&app, &second).await.status(), 200);

    let resp = alice.send(Method::DELETE, &link_path(blog, short_id), json!({})).await;
    assert_eq!(resp.status(), 200);
    let revoked = visit(&app, &second).await;
    assert_eq!(revoked.status(), 404);
    assert!(revoked.text().await.unwrap().contains("Page not found"), "the blog's themed 404");
    let shown: Value = alice.get(&link_path(blog, short_id)).await.json().await.unwrap();
    assert_eq!(shown["previewLink"], Value::Null);
    assert_eq!(
        alice.send(Method::DELETE, &link_path(blog, short_id), json!({})).await.status(),
        200,
        "revoking twice is fine"
    );

    let base = format!("http://alice.localhost:{}/preview/", app.port);
    for guess in ["", "0", &"0".repeat(64), &"a".repeat(64), "..%2f..%2fetc", &"f".repeat(10_000), "abc/def"] {
        assert_eq!(visit(&app, &format!("{base}{guess}")).await.status(), 404, "{guess:.20}");
    }
}

#[tokio::test]
async fn a_preview_link_belongs_to_its_blog_and_only_its_owner_manages_it() {
    let (app, alice, blog) = alice_blog().await;
    let post = alice.create_post(blog, simple_body("Alice's draft", "x"), true).await;
    let short_id = post["shortId"].as_str().unwrap();
    let url = create_link(&alice, blog, short_id).await;

    let bob = app.new_browser();
    let bob_blog = bob.sign_up_with_blog("bob@example.com", "bob").await;
    // Alice's blog, or her post under Bob's blog: the same 404s as anything missing.
    let (field, _) = error_field(bob.post(&link_path(blog, short_id), json!({})).await, 404).await;
    assert_eq!(field, "blog");
    let (field, _) = error_field(bob.post(&link_path(bob_blog, short_id), json!({})).await, 404).await;
    assert_eq!(field, "post");
    let (field, _) = error_field(bob.send(Method::DELETE, &link_path(bob_blog, short_id), json!({})).await, 404).await;
    assert_eq!(field, "post");
    assert_eq!(bob.get(&link_path(blog, short_id)).await.status(), 404);
    assert_eq!(visit(&app, &url).await.status(), 200, "Bob revoked nothing");

    // The token does not open the post on another blog's host.
    let path = url.split_once(&format!("localhost:{}", app.port)).unwrap().1;
    assert_eq!(app.get_with_host(&format!("bob.localhost:{}", app.port), path).await.status(), 404);

    // Signed out: 401; without the CSRF token: 403.
    let stranger = app.new_browser();
    assert_eq!(stranger.post(&link_path(blog, short_id), json!({})).await.status(), 401);
    let no_csrf =
        alice.client.post(format!("{}{}", app.url, link_path(blog, short_id))).json(&json!({})).send().await.unwrap();
    assert_eq!(no_csrf.status(), 403);
}

#[tokio::test]
async fn a_published_post_gets_no_new_link_and_its_old_link_leads_to_the_post() {
    let (app, alice, blog) = alice_blog().await;
    let published = alice.create_post(blog, simple_body("Out already", "x"), false).await;
    let resp = alice.post(&link_path(blog, published["shortId"].as_str().unwrap()), json!({})).await;
    assert_eq!(error_field(resp, 422).await.0, "previewLink");

    let draft = alice.create_post(blog, simple_body("Soon out", "x"), true).await;
    let short_id = draft["shortId"].as_str().unwrap();
    let url = create_link(&alice, blog, short_id).await;
    let put = alice
        .send(
            Method::PUT,
            &format!("/api/my/blogs/{blog}/posts/{short_id}"),
            json!({ "body": simple_body("Soon out", "x"), "draft": false }),
        )
        .await;
    assert_eq!(put.status(), 200);
    let permalink = put.json::<Value>().await.unwrap()["post"]["permalink"].as_str().unwrap().to_owned();
    let resp = visit(&app, &url).await;
    assert_eq!(resp.status(), 302, "a published post's preview link goes to the post");
    assert_eq!(
        resp.headers()["location"].to_str().unwrap(),
        permalink.split_once(&format!("localhost:{}", app.port)).unwrap().1
    );
    assert_eq!(resp.headers()["cache-control"], "no-store");
}

#[tokio::test]
async fn a_scheduled_post_has_a_preview_and_deleting_the_post_ends_its_link() {
    let (app, alice, blog) = alice_blog().await;
    let when = (time::OffsetDateTime::now_utc() + time::Duration::days(2))
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    let resp = alice
        .post(
            &format!("/api/my/blogs/{blog}/posts"),
            json!({ "body": simple_body("Planned", "x"), "draft": false, "publish_at": when }),
        )
        .await;
    let short_id = resp.json::<Value>().await.unwrap()["post"]["shortId"].as_str().unwrap().to_owned();
    let url = create_link(&alice, blog, &short_id).await;
    assert!(visit(&app, &url).await.text().await.unwrap().contains("Planned"));
    alice.send(Method::DELETE, &format!("/api/my/blogs/{blog}/posts/{short_id}"), json!({})).await;
    assert_eq!(visit(&app, &url).await.status(), 404);
    assert_eq!(app.count("preview_links"), 0);
}
