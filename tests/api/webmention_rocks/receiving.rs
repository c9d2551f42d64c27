//! Webmention Rocks' receiver update and delete tests, against alice's blog: a source that
//! changes is read again, one that answers 410 or 404 or stops linking is removed, one reached
//! through redirects counts within the fetcher's cap and never at a private address.

use reqwest::header::HOST;
use serde_json::{Value, json};

use super::peer::{Page, Peer};
use super::{spawn, wait_until};
use crate::helpers::{Browser, TestApp, simple_body};

/// POSTs a webmention to alice's blog.
async fn mention(app: &TestApp, source: &str, target: &str) -> u16 {
    let resp = reqwest::Client::new()
        .post(format!("http://127.0.0.1:{}/webmention", app.port))
        .header(HOST, format!("alice.localhost:{}", app.port))
        .header("x-forwarded-for", "203.0.113.21")
        .form(&[("source", source), ("target", target)])
        .send()
        .await
        .unwrap();
    resp.status().as_u16()
}

/// Sends a webmention and waits until it has been read.
async fn mention_read(app: &TestApp, source: &str, target: &str) {
    assert_eq!(mention(app, source, target).await, 202, "{source}");
    wait_until("the webmention was read", || {
        let waiting: i64 = app.db().query_row("SELECT count(*) FROM incoming_webmentions", [], |r| r.get(0)).unwrap();
        waiting == 0
    })
    .await;
}

async fn responses(owner: &Browser, blog: i64, state: &str) -> Vec<Value> {
    let list: Value = owner.get(&format!("/api/my/blogs/{blog}/responses?state={state}")).await.json().await.unwrap();
    list["responses"].as_array().unwrap().clone()
}

async fn approve(owner: &Browser, blog: i64, response: &Value) {
    let id = response["id"].as_i64().unwrap();
    let resp = owner.post(&format!("/api/my/blogs/{blog}/responses/{id}/approve"), json!({})).await;
    assert_eq!(resp.status(), 200);
}

/// An `h-entry` by Carol titled `title`, its text `text` with a link to `link`.
fn entry(title: &str, text: &str, link: &str) -> Page {
    let body = format!(
        "<article class=\"h-entry\"><h1 class=\"p-name\">{title}</h1>\
         <a class=\"p-author h-card\" href=\"/carol\">Carol</a>\
         <div class=\"e-content\"><p>{text} <a href=\"{link}\">this post</a>.</p></div></article>"
    );
    Page::html(&[], "", &body)
}

struct Blog {
    app: TestApp,
    owner: Browser,
    id: i64,
    target: String,
    other: String,
    peer: Peer,
}

impl Blog {
    async fn new() -> Blog {
        let app = spawn().await;
        let owner = app.browser.clone();
        let id = owner.sign_up_with_blog("alice@example.com", "alice").await;
        let target = owner.create_post(id, simple_body("Alice writes", "Hello."), false).await;
        let other = owner.create_post(id, simple_body("Alice again", "Hi."), false).await;
        let url = |post: &Value| post["permalink"].as_str().unwrap().to_owned();
        Blog { target: url(&target), other: url(&other), app, owner, id, peer: Peer::start().await }
    }

    async fn page(&self) -> String {
        let path = format!("/{}", self.target.splitn(4, '/').nth(3).unwrap());
        let host = format!("alice.localhost:{}", self.app.port);
        self.app.get_with_host(&host, &path).await.text().await.unwrap()
    }
}

#[tokio::test]
async fn a_source_that_changes_is_updated_and_one_that_is_deleted_or_stops_linking_is_removed() {
    let blog = Blog::new().await;
    let (peer, target) = (&blog.peer, blog.target.as_str());
    let reply = peer.url("/notes/reply");
    peer.set("/notes/reply", entry("First thoughts", "I agree with", target));
    mention_read(&blog.app, &reply, target).await;
    let held = responses(&blog.owner, blog.id, "held").await;
    assert_eq!(held.len(), 1);
    assert_eq!(
        (&held[0]["title"], &held[0]["authorName"], &held[0]["authorUrl"], &held[0]["text"]),
        (&json!("First thoughts"), &json!("Carol"), &json!(peer.url("/carol")), &json!("I agree with this post."))
    );
    assert!(!blog.page().await.contains("I agree with"), "held: not shown");
    approve(&blog.owner, blog.id, &held[0]).await;
    let shown = blog.page().await;
    assert!(shown.contains(&format!("<a href=\"{reply}\" rel=\"nofollow ugc\">mentioned this on their blog</a>")));
    assert!(shown.contains("<p>I agree with this post.</p>"), "{shown}");

    // Update: the source changes and is sent again; it is read again, held again (the owner
    // approved the old words, not the new ones), and once approved shows its new words only.
    peer.set("/notes/reply", entry("Second thoughts", "On reflection, I disagree with", target));
    mention_read(&blog.app, &reply, target).await;
    let held = responses(&blog.owner, blog.id, "held").await;
    assert_eq!(held.len(), 1, "the same response, updated");
    assert_eq!(
        (&held[0]["title"], &held[0]["text"]),
        (&json!("Second thoughts"), &json!("On reflection, I disagree with this post."))
    );
    assert!(responses(&blog.owner, blog.id, "approved").await.is_empty());
    let page = blog.page().await;
    assert!(!page.contains("I agree with") && !page.contains("I disagree"), "the old words are gone at once");
    approve(&blog.owner, blog.id, &held[0]).await;
    let page = blog.page().await;
    assert!(
        page.contains("<p>On reflection, I disagree with this post.</p>") && !page.contains("<p>I agree"),
        "{page}"
    );

    // Two more approved sources: one that stops linking (it links to another of alice's
    // posts now), one that answers 404.
    let (moved, lost) = (peer.url("/notes/moved"), peer.url("/notes/lost"));
    peer.set("/notes/moved", entry("Moved", "Now about", target));
    peer.set("/notes/lost", entry("Lost", "Soon lost, about", target));
    for source in [&moved, &lost] {
        mention_read(&blog.app, source, target).await;
    }
    for held in responses(&blog.owner, blog.id, "held").await {
        approve(&blog.owner, blog.id, &held).await;
    }
    assert_eq!(responses(&blog.owner, blog.id, "approved").await.len(), 3);

    // Delete: the source answers 410 Gone; sent again, its response goes from the page.
    peer.set("/notes/reply", Page::status(410));
    peer.set("/notes/moved", entry("Moved", "Now about", &blog.other));
    peer.set("/notes/lost", Page::status(404));
    for source in [&reply, &moved, &lost] {
        mention_read(&blog.app, source, target).await;
    }
    assert!(responses(&blog.owner, blog.id, "approved").await.is_empty(), "all three removed");
    assert!(responses(&blog.owner, blog.id, "held").await.is_empty(), "none on another post either");
    let page = blog.page().await;
    assert!(!page.contains("mentioned this") && !page.contains("I disagree") && !page.contains("Now about"), "{page}");
}

#[tokio::test]
async fn a_source_reached_through_redirects_counts_within_the_cap_and_never_at_a_private_address() {
    let blog = Blog::new().await;
    let (peer, target) = (&blog.peer, blog.target.as_str());
    // Five hops (the fetcher's cap) to a page that links: it counts, under the address sent.
    for hop in 0..5 {
        peer.set(
            &format!("/five/{hop}"),
            Page::redirect(if hop % 2 == 0 { 301 } else { 302 }, &format!("/five/{}", hop + 1)),
        );
    }
    peer.set("/five/5", entry("Redirected", "Through five hops to", target));
    let five = peer.url("/five/0");
    mention_read(&blog.app, &five, target).await;
    let held = responses(&blog.owner, blog.id, "held").await;
    assert_eq!(held.len(), 1, "{held:?}");
    assert_eq!((&held[0]["sourceUrl"], &held[0]["title"]), (&json!(five), &json!("Redirected")));

    // Six hops: past the cap, the last page is never read, nothing is kept.
    for hop in 0..6 {
        peer.set(&format!("/six/{hop}"), Page::redirect(302, &format!("/six/{}", hop + 1)));
    }
    peer.set("/six/6", entry("Too far", "Through six hops to", target));
    mention_read(&blog.app, &peer.url("/six/0"), target).await;
    let asked: Vec<String> = peer.gets.lock().unwrap().iter().filter(|p| p.starts_with("/six/")).cloned().collect();
    assert_eq!(asked, (0..6).map(|hop| format!("/six/{hop}")).collect::<Vec<_>>(), "five hops followed, not a sixth");

    // A redirect to a private address (the cloud metadata one, a private network): refused.
    peer.set("/metadata", Page::redirect(302, "http://169.254.169.254/latest/meta-data/"));
    peer.set("/private", Page::redirect(307, "http://10.0.0.1/"));
    for path in ["/metadata", "/private"] {
        mention_read(&blog.app, &peer.url(path), target).await;
    }
    let all: Vec<Value> =
        [responses(&blog.owner, blog.id, "held").await, responses(&blog.owner, blog.id, "approved").await].concat();
    assert_eq!(all.len(), 1, "only the five-hop source: {all:?}");
}
