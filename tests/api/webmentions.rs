//! Webmentions received (issue 31, docs/responses.md "Webmentions") end to end with two Quire
//! blogs on one test server (the debug-only loopback allowance): bob's post links to alice's,
//! bob's webmention is read in the background, held, approved, shown; a source that stops
//! linking removes it; and the refusals.

use std::time::{Duration, Instant};

use reqwest::header::HOST;
use serde_json::{Value, json};

use crate::helpers::{Browser, TestApp, simple_body};

async fn spawn(tune: impl FnOnce(&mut quire::config::Config)) -> TestApp {
    TestApp::spawn_with(|config| {
        config.fetch_allow_loopback = true;
        config.fetch_deadline = Duration::from_secs(5);
        tune(config);
    })
    .await
}

fn path_of(permalink: &str) -> String {
    format!("/{}", permalink.splitn(4, '/').nth(3).unwrap())
}

/// POSTs a webmention to the blog `subdomain`, from `client`.
async fn mention(app: &TestApp, subdomain: &str, source: &str, target: &str, client: &str) -> (u16, String) {
    let resp = reqwest::Client::new()
        .post(format!("http://127.0.0.1:{}/webmention", app.port))
        .header(HOST, format!("{subdomain}.localhost:{}", app.port))
        .header("x-forwarded-for", client)
        .form(&[("source", source), ("target", target)])
        .send()
        .await
        .unwrap();
    (resp.status().as_u16(), resp.text().await.unwrap())
}

fn responses(app: &TestApp) -> Vec<(String, String, String)> {
    let db = app.db();
    let mut stmt = db.prepare("SELECT kind, author_name, coalesce(source_url, '') FROM responses ORDER BY id").unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).unwrap().map(Result::unwrap).collect()
}

/// Waits until no webmention waits to be read.
async fn read_all(app: &TestApp) {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let waiting: i64 = app.db().query_row("SELECT count(*) FROM incoming_webmentions", [], |r| r.get(0)).unwrap();
        if waiting == 0 {
            return;
        }
        assert!(Instant::now() < deadline, "the webmentions were never read");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn post_with_link(browser: &Browser, blog: i64, title: &str, link: Option<&str>) -> Value {
    let text = match link {
        Some(link) => format!("I liked [this post]({link}) a lot."),
        None => "No links here.".to_owned(),
    };
    browser.create_post(blog, simple_body(title, &text), false).await
}

/// Waits (at most 15 s) until `done` holds, or fails saying `what` never happened.
async fn until(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(15);
    while !done() {
        assert!(Instant::now() < deadline, "{what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// alice's blog with a post that links nowhere (answered with its address), and bob's blog.
async fn alice_and_bob(app: &TestApp) -> (Browser, i64, String, Browser, i64) {
    let alice = app.browser.clone();
    let alices = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let target = post_with_link(&alice, alices, "Alice writes", None).await;
    let target_url = target["permalink"].as_str().unwrap().to_owned();
    let bob = app.new_browser();
    let bobs = bob.sign_up_with_blog("bob@example.com", "bob").await;
    (alice, alices, target_url, bob, bobs)
}

#[tokio::test]
async fn another_blogs_post_that_links_to_a_post_becomes_a_held_mention_then_shown_then_removed() {
    let app = spawn(|_| {}).await;
    let alice = app.browser.clone();
    let alices = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let target = post_with_link(&alice, alices, "Alice writes", None).await;
    let target_url = target["permalink"].as_str().unwrap().to_owned();

    // The post names its endpoint, in a Link header and in the page.
    let page = app.get_with_host(&format!("alice.localhost:{}", app.port), &path_of(&target_url)).await;
    let endpoint = format!("http://alice.localhost:{}/webmention", app.port);
    // After the Micropub and IndieAuth endpoints every blog page names (docs/api.md 16).
    let link = page.headers()["link"].to_str().unwrap().to_owned();
    assert!(link.starts_with(&format!("<http://localhost:{}/micropub>; rel=\"micropub\", ", app.port)), "{link}");
    assert!(link.ends_with(&format!(", <{endpoint}>; rel=\"webmention\"")), "{link}");
    assert!(page.text().await.unwrap().contains(&format!("<link rel=\"webmention\" href=\"{endpoint}\">")));

    let bob = app.new_browser();
    let bobs = bob.sign_up_with_blog("bob@example.com", "bob").await;
    let source = post_with_link(&bob, bobs, "Bob answers", Some(&target_url)).await;
    let source_url = source["permalink"].as_str().unwrap().to_owned();

    let (status, answer) = mention(&app, "alice", &source_url, &target_url, "203.0.113.4").await;
    assert_eq!(status, 202, "{answer}");
    read_all(&app).await;
    assert_eq!(responses(&app), [("webmention".into(), "bob.localhost".into(), source_url.clone())]);
    let held: Value = alice.get(&format!("/api/my/blogs/{alices}/responses")).await.json().await.unwrap();
    let response = &held["responses"][0];
    assert_eq!(response["kind"], "webmention");
    assert_eq!(response["sourceUrl"], source_url);
    assert!(response["text"].is_string());
    let page_html = || async {
        app.get_with_host(&format!("alice.localhost:{}", app.port), &path_of(&target_url)).await.text().await.unwrap()
    };
    assert!(!page_html().await.contains("mentioned this"), "held: not shown");
    let id = response["id"].as_i64().unwrap();
    alice.post(&format!("/api/my/blogs/{alices}/responses/{id}/approve"), json!({})).await;
    let shown = page_html().await;
    assert!(
        shown.contains(&format!("<a href=\"{source_url}\" rel=\"nofollow ugc\">mentioned this on their blog</a>")),
        "{shown}"
    );

    // Sent again once bob's post no longer links: the mention goes.
    let edited = json!({ "body": simple_body("Bob answers", "Changed my mind."), "draft": false });
    let short_id = source["shortId"].as_str().unwrap();
    let resp = bob.send(reqwest::Method::PUT, &format!("/api/my/blogs/{bobs}/posts/{short_id}"), edited).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(mention(&app, "alice", &source_url, &target_url, "203.0.113.4").await.0, 202);
    read_all(&app).await;
    assert!(responses(&app).is_empty());
    assert!(!page_html().await.contains("mentioned this"), "the page renewed");
}

#[tokio::test]
async fn bad_targets_and_sources_floods_and_private_addresses_are_refused() {
    let app = spawn(|config| config.public.webmention_limits.per_address = 3).await;
    let alice = app.browser.clone();
    let alices = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let post = post_with_link(&alice, alices, "Alice writes", None).await;
    let target = post["permalink"].as_str().unwrap().to_owned();
    let draft = alice.create_post(alices, simple_body("Draft", "Not yet"), true).await;
    let draft_url = draft["permalink"].as_str().unwrap().to_owned();
    let bob = app.new_browser();
    let bobs = bob.sign_up_with_blog("bob@example.com", "bob").await;
    let bobs_post = post_with_link(&bob, bobs, "Bob", None).await;
    let bobs_url = bobs_post["permalink"].as_str().unwrap().to_owned();
    let source = "https://peer.example/a-post";

    for (source, target, why) in [
        ("", target.as_str(), "no source"),
        ("javascript:alert(1)", target.as_str(), "not http"),
        (target.as_str(), target.as_str(), "the same page"),
        (source, bobs_url.as_str(), "another blog's post"),
        (source, draft_url.as_str(), "a draft"),
        (source, &format!("http://alice.localhost:{}/no-such-post-abcdefgh", app.port), "no such post"),
        (source, "https://elsewhere.example/x", "another site"),
    ] {
        let (status, answer) = mention(&app, "alice", source, target, "198.51.100.9").await;
        assert_eq!(status, 400, "{why}: {answer}");
    }
    let waiting: i64 = app.db().query_row("SELECT count(*) FROM incoming_webmentions", [], |r| r.get(0)).unwrap();
    assert_eq!(waiting, 0, "nothing refused is queued");

    // One address's allowance (3 a day here).
    for n in 0..3 {
        assert_eq!(mention(&app, "alice", &format!("{source}/{n}"), &target, "192.0.2.7").await.0, 202);
    }
    assert_eq!(mention(&app, "alice", &format!("{source}/4"), &target, "192.0.2.7").await.0, 429);
    read_all(&app).await;
    assert!(responses(&app).is_empty(), "sources that cannot be read make nothing");
}

#[tokio::test]
async fn a_source_at_a_private_address_is_never_read() {
    // Without the loopback allowance, as in production.
    let app = TestApp::spawn_with(|config| config.fetch_deadline = Duration::from_secs(3)).await;
    let alice = app.browser.clone();
    let alices = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let post = post_with_link(&alice, alices, "Alice writes", None).await;
    let target = post["permalink"].as_str().unwrap().to_owned();
    let hits = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let counted = hits.clone();
    tokio::spawn(async move {
        while let Ok((_stream, _)) = listener.accept().await {
            counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
    });
    for source in [
        format!("http://127.0.0.1:{port}/page"),
        format!("http://localhost:{port}/page"),
        format!("http://bob.localhost:{port}/page"),
        "http://169.254.169.254/latest/meta-data/".to_owned(),
        format!("http://[::1]:{port}/page"),
    ] {
        assert_eq!(mention(&app, "alice", &source, &target, "203.0.113.8").await.0, 202, "{source}");
    }
    read_all(&app).await;
    assert_eq!(hits.load(std::sync::atomic::Ordering::SeqCst), 0, "no request reached a private address");
    assert!(responses(&app).is_empty());
}

#[tokio::test]
async fn a_published_post_tells_the_pages_it_links_to_and_tells_them_again_when_the_link_goes() {
    let app = spawn(|_| {}).await;
    let (_, _, target_url, bob, bobs) = alice_and_bob(&app).await;

    // Bob's draft tells nobody; publishing it does: alice's post names its endpoint, so it is
    // told, reads bob's post and holds the mention.
    let draft =
        bob.create_post(bobs, simple_body("Bob answers", &format!("I liked [this]({target_url}).")), true).await;
    let short_id = draft["shortId"].as_str().unwrap().to_owned();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(responses(&app).is_empty(), "a draft tells nobody");
    let published =
        json!({ "body": simple_body("Bob answers", &format!("I liked [this]({target_url}).")), "draft": false });
    let posts = format!("/api/my/blogs/{bobs}/posts/{short_id}");
    assert_eq!(bob.send(reqwest::Method::PUT, &posts, published).await.status(), 200);
    let source_url = format!("http://bob.localhost:{}/bob-answers-{short_id}", app.port);
    until("alice was never told", || !responses(&app).is_empty()).await;
    assert_eq!(responses(&app), [("webmention".into(), "bob.localhost".into(), source_url)]);

    // The link removed: alice is told again, reads the post, and the mention goes.
    let unlinked = json!({ "body": simple_body("Bob answers", "Nothing to see."), "draft": false });
    assert_eq!(bob.send(reqwest::Method::PUT, &posts, unlinked).await.status(), 200);
    until("the mention was never removed", || responses(&app).is_empty()).await;
    let kept: i64 = app.db().query_row("SELECT count(*) FROM outgoing_webmentions", [], |r| r.get(0)).unwrap();
    assert_eq!(kept, 0, "a target told of the removal is forgotten");
}

#[tokio::test]
async fn a_deleted_post_tells_the_pages_it_linked_to_and_their_mention_goes() {
    let app = spawn(|_| {}).await;
    let (alice, alices, target_url, bob, bobs) = alice_and_bob(&app).await;

    // Bob's post links to alice's: she is told, and shows the mention once she approves it.
    let source = post_with_link(&bob, bobs, "Bob answers", Some(&target_url)).await;
    let source_url = source["permalink"].as_str().unwrap().to_owned();
    until("alice was never told", || !responses(&app).is_empty()).await;
    let held: Value = alice.get(&format!("/api/my/blogs/{alices}/responses")).await.json().await.unwrap();
    let id = held["responses"][0]["id"].as_i64().unwrap();
    alice.post(&format!("/api/my/blogs/{alices}/responses/{id}/approve"), json!({})).await;
    let alice_host = format!("alice.localhost:{}", app.port);
    let page = app.get_with_host(&alice_host, &path_of(&target_url)).await.text().await.unwrap();
    assert!(page.contains(&format!("<a href=\"{source_url}\" rel=\"nofollow ugc\">mentioned this")), "{page}");

    // Bob deletes it: its address answers that it is gone, alice is told once more, reads it
    // again and drops the mention from her page.
    let short_id = source["shortId"].as_str().unwrap();
    let deleted = bob.send(reqwest::Method::DELETE, &format!("/api/my/blogs/{bobs}/posts/{short_id}"), json!({})).await;
    assert!(deleted.status().is_success(), "{}", deleted.status());
    let gone = app.get_with_host(&format!("bob.localhost:{}", app.port), &path_of(&source_url)).await;
    assert_eq!(gone.status(), 404);
    until("the deleted post's mention was never removed", || responses(&app).is_empty()).await;
    let page = app.get_with_host(&alice_host, &path_of(&target_url)).await.text().await.unwrap();
    assert!(!page.contains("mentioned this"), "the page renewed: {page}");
    until("the notice of the deletion was never settled", || app.count("outgoing_webmentions") == 0).await;
}
