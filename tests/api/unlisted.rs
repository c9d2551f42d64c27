//! Unlisted posts (issue 32, docs/unlisted.md) through the real server: one unlisted post is
//! probed through every public list, feed, the sitemap, public search, the ActivityPub outbox and
//! document, the deliveries a real fake inbox receives, the mail queue (a confirmed subscriber),
//! outgoing webmentions and the static site export, each beside a public control post that must
//! be there; its permalink answers, `noindex`. Then switching: public→unlisted sends a `Delete`,
//! unlisted→public sends nothing unless `announce`, then a `Create` (and an email); a scheduled
//! post goes live unlisted; a bad `visibility` is a 422 on `visibility` and changes nothing.

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};

use crate::exports::exported;
use crate::federation::{Answer, Inbox, follow, until};
use crate::helpers::{Browser, TestApp, simple_body};
use crate::subscriptions::{confirmed_subscribers, grace_over, post_mail};

/// A server that sends mail (after an hour's grace) and may deliver to loopback, with alice's
/// blog (the Search box installed), a confirmed subscriber and a follower whose inbox is `inbox`.
pub(crate) async fn spawn(inbox: &Inbox) -> (TestApp, Browser, i64) {
    let app = TestApp::spawn_with(|config| {
        config.mail = Some(crate::mail::dead_relay());
        config.public.mail_grace = Duration::from_secs(3600);
        config.fetch_allow_loopback = true;
        config.delivery_retry_unit = Duration::from_millis(50);
        config.fetch_deadline = Duration::from_secs(5);
    })
    .await;
    let alice = app.browser.clone();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    assert_eq!(alice.post(&format!("/api/my/blogs/{blog}/addons/7/installation"), json!({})).await.status(), 200);
    confirmed_subscribers(&app, &["reader@example.org"]).await;
    follow(&app, "bob", &inbox.url("/users/bob/inbox"), None, true);
    (app, alice, blog)
}

pub(crate) fn host(app: &TestApp) -> String {
    format!("alice.localhost:{}", app.port)
}

/// Saves a new post; answers it.
pub(crate) async fn create(alice: &Browser, blog: i64, input: Value) -> Value {
    let resp = alice.post(&format!("/api/my/blogs/{blog}/posts"), input).await;
    assert_eq!(resp.status(), 201, "post created");
    resp.json::<Value>().await.unwrap()["post"].clone()
}

/// Saves `input` over the post; answers the status and the post (or the error body).
pub(crate) async fn update(alice: &Browser, blog: i64, post: &Value, input: Value) -> (u16, Value) {
    let path = format!("/api/my/blogs/{blog}/posts/{}", post["shortId"].as_str().unwrap());
    let resp = alice.send(Method::PUT, &path, input).await;
    (resp.status().as_u16(), resp.json().await.unwrap())
}

/// The body of the blog's page `path` (200 expected).
pub(crate) async fn page(app: &TestApp, path: &str) -> String {
    let resp = app.get_with_host(&host(app), path).await;
    assert_eq!(resp.status(), 200, "{path}");
    resp.text().await.unwrap()
}

/// The outbox's first page, as a fediverse server reads it.
async fn outbox(app: &TestApp) -> String {
    let resp = app
        .client
        .get(format!("http://127.0.0.1:{}/_quire/ap/outbox?page=1", app.port))
        .header("host", host(app))
        .header("accept", "application/activity+json")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    resp.text().await.unwrap()
}

pub(crate) fn short_id(post: &Value) -> &str {
    post["shortId"].as_str().unwrap()
}

pub(crate) fn path_of(post: &Value) -> String {
    let permalink = post["permalink"].as_str().unwrap();
    format!("/{}", permalink.rsplit('/').next().unwrap())
}

fn row_id(app: &TestApp, post: &Value) -> i64 {
    app.db().query_row("SELECT id FROM posts WHERE short_id = ?1", [short_id(post)], |r| r.get(0)).unwrap()
}

/// The queued outgoing webmentions of `post`.
pub(crate) fn webmentions_of(app: &TestApp, post: &Value) -> i64 {
    let id = row_id(app, post);
    app.db().query_row("SELECT count(*) FROM outgoing_webmentions WHERE post_id = ?1", [id], |r| r.get(0)).unwrap()
}

/// Waits until every queued delivery went out; answers the (type, object id) of each activity
/// the follower received, in order.
pub(crate) async fn delivered(app: &TestApp, inbox: &Inbox) -> Vec<(String, String)> {
    until(Duration::from_secs(20), "an empty delivery queue", || app.count("deliveries") == 0).await;
    inbox
        .received()
        .iter()
        .map(|r| {
            let json = r.json();
            let object = match &json["object"] {
                Value::String(id) => id.clone(),
                object => object["id"].as_str().unwrap_or_default().to_owned(),
            };
            (json["type"].as_str().unwrap_or_default().to_owned(), object)
        })
        .collect()
}

/// Whether the follower received an activity of `kind` about `post`.
pub(crate) fn got(received: &[(String, String)], kind: &str, post: &Value) -> bool {
    received.iter().any(|(t, object)| t == kind && object.ends_with(&format!("/posts/{}", short_id(post))))
}

#[tokio::test]
async fn an_unlisted_post_is_at_its_permalink_and_in_no_public_list_feed_search_outbox_delivery_mail_or_export() {
    let inbox = Inbox::start(Answer::Accept).await;
    let (app, alice, blog) = spawn(&inbox).await;
    let linked = inbox.url("/linked-page");
    let with = |title: &str, text: &str, visibility: &str| json!({ "body": simple_body(title, text), "draft": false, "tags": ["trip"], "visibility": visibility });
    // Oldest first: "Old control" lands on page 2; so would the unlisted post if it were listed.
    let old = create(&alice, blog, with("Old control", "The first walk.", "public")).await;
    let hidden = create(
        &alice,
        blog,
        with("Hidden gem", &format!("Only for friends: quokkaword and [a page]({linked})."), "unlisted"),
    )
    .await;
    assert_eq!(hidden["visibility"], "unlisted");
    for n in 1..=9 {
        create(&alice, blog, with(&format!("Filler {n}"), "Words.", "public")).await;
    }
    let control =
        create(&alice, blog, with("Control post", &format!("zebrafish and [a page]({linked})."), "public")).await;
    assert_eq!(control["visibility"], "public");
    let listed: Value = alice.get(&format!("/api/my/blogs/{blog}/posts?page_size=100")).await.json().await.unwrap();
    let visibility_of = |id: &str| {
        listed["posts"].as_array().unwrap().iter().find(|p| p["shortId"] == id).unwrap()["visibility"].clone()
    };
    assert_eq!(
        (visibility_of(short_id(&hidden)), visibility_of(short_id(&control))),
        (json!("unlisted"), json!("public"))
    );

    // Its permalink answers, asking search engines not to index it; the control's does not.
    let resp = app.get_with_host(&host(&app), &path_of(&hidden)).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers().get("x-robots-tag").map(|v| v.to_str().unwrap()), Some("noindex"));
    let html = resp.text().await.unwrap();
    assert!(html.contains("Hidden gem") && html.contains("<meta name=\"robots\" content=\"noindex\">"), "{html}");
    let resp = app.get_with_host(&host(&app), &path_of(&control)).await;
    assert!(resp.headers().get("x-robots-tag").is_none());
    assert!(!resp.text().await.unwrap().contains("content=\"noindex\""));

    // Every public list and feed has the control (by title or short id), never the unlisted post.
    let home = page(&app, "/").await;
    assert!(home.contains("Control post") && home.contains("/?page=2"), "{home}");
    let second = page(&app, "/?page=2").await;
    assert!(second.contains("Old control"), "{second}");
    for (path, shows) in [
        ("/", "Control post"),
        ("/?page=2", "Old control"),
        ("/tags/trip", "Control post"),
        ("/tags/trip/feed.xml", short_id(&control)),
        ("/feed.xml", short_id(&control)),
        ("/rss.xml", short_id(&control)),
        ("/sitemap.xml", short_id(&control)),
        ("/search?q=zebrafish", "Control post"),
    ] {
        let body = page(&app, path).await;
        assert!(body.contains(shows), "{path} shows the control: {body}");
        assert!(!body.contains(short_id(&hidden)) && !body.contains("Hidden gem"), "{path} leaks it: {body}");
    }
    assert!(!page(&app, "/search?q=quokkaword").await.contains("Hidden gem"), "a word only it has finds nothing");
    assert!(!page(&app, "/tags/trip?page=2").await.contains("Hidden gem"));

    // The ActivityPub outbox and documents: the control, never the unlisted post.
    let outbox = outbox(&app).await;
    assert!(outbox.contains(short_id(&control)) && !outbox.contains(short_id(&hidden)), "{outbox}");
    assert!(outbox.contains(short_id(&old)));
    let document = |post: &Value| {
        let url = format!("http://127.0.0.1:{}/_quire/ap/posts/{}", app.port, short_id(post));
        app.client.get(url).header("host", host(&app)).header("accept", "application/activity+json").send()
    };
    assert_eq!(document(&control).await.unwrap().status(), 200);
    assert_eq!(document(&hidden).await.unwrap().status(), 404);
    let nodeinfo: Value = app.get("/nodeinfo/2.1").await.json().await.unwrap();
    assert_eq!(nodeinfo["usage"]["localPosts"], 11, "the unlisted post is not counted");

    // Deliveries: the follower got the control's Create, nothing of the unlisted post.
    let received = delivered(&app, &inbox).await;
    assert!(got(&received, "Create", &control), "{received:?}");
    assert!(!received.iter().any(|(_, object)| object.contains(short_id(&hidden))), "{received:?}");

    // Mail: the control is waiting for its grace period and then mailed; the unlisted post never.
    let waiting: Vec<i64> = {
        let db = app.db();
        let mut stmt = db.prepare("SELECT post_id FROM post_mailings").unwrap();
        stmt.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
    };
    assert!(waiting.contains(&row_id(&app, &control)) && !waiting.contains(&row_id(&app, &hidden)), "{waiting:?}");
    grace_over(&app).await;
    let subjects: Vec<String> = post_mail(&app).into_iter().map(|m| m.1).collect();
    assert!(subjects.contains(&"Control post".to_owned()), "{subjects:?}");
    assert!(!subjects.iter().any(|s| s == "Hidden gem"), "{subjects:?}");

    // Outgoing webmentions: the control's link is queued, the unlisted post's never.
    assert_eq!((webmentions_of(&app, &control), webmentions_of(&app, &hidden)), (1, 0));

    // The static site: the control's page and lists, nothing of the unlisted post.
    let (_, zip) = exported(&alice, blog, "site").await;
    let names = zip.names();
    assert!(names.iter().any(|n| n.contains(short_id(&control))), "{names:?}");
    assert!(!names.iter().any(|n| n.contains(short_id(&hidden))), "{names:?}");
    for name in names.iter().filter(|n| n.ends_with(".html") || n.ends_with(".xml")) {
        let text = String::from_utf8_lossy(zip.get(name).unwrap()).into_owned();
        assert!(!text.contains("Hidden gem") && !text.contains(short_id(&hidden)), "{name} leaks it");
    }
}

#[tokio::test]
async fn switching_to_unlisted_sends_a_delete_and_back_to_public_federates_and_mails_only_when_announced() {
    let inbox = Inbox::start(Answer::Accept).await;
    let (app, alice, blog) = spawn(&inbox).await;
    let save = |visibility: &str, announce: bool| json!({ "body": simple_body("Switching", "Words."), "draft": false, "visibility": visibility, "announce": announce });
    let post = create(&alice, blog, save("public", false)).await;
    assert!(got(&delivered(&app, &inbox).await, "Create", &post));
    let before = inbox.received().len();
    let mailings = || app.count("post_mailings");
    assert_eq!(mailings(), 1);
    app.db().execute("DELETE FROM post_mailings", []).unwrap();

    // Public → unlisted: a Delete of it to the followers, and it leaves the home page.
    let (status, saved) = update(&alice, blog, &post, save("unlisted", false)).await;
    assert_eq!((status, saved["post"]["visibility"].as_str()), (200, Some("unlisted")));
    let received = delivered(&app, &inbox).await;
    assert_eq!(received.len(), before + 1, "{received:?}");
    assert!(got(&received[before..], "Delete", &post), "{received:?}");
    assert!(!page(&app, "/").await.contains("Switching"));

    // Unlisted → public without `announce`: public again, quietly (nothing federated or mailed).
    let (status, saved) = update(&alice, blog, &post, save("public", false)).await;
    assert_eq!((status, saved["post"]["visibility"].as_str()), (200, Some("public")));
    assert_eq!(delivered(&app, &inbox).await.len(), before + 1, "nothing queued");
    assert_eq!(mailings(), 0, "nothing mailed");
    assert!(page(&app, "/").await.contains("Switching"));

    // And with `announce`: published to the followers as new, and mailed.
    let (status, _) = update(&alice, blog, &post, save("unlisted", false)).await;
    assert_eq!(status, 200);
    let received = delivered(&app, &inbox).await;
    assert!(got(&received[before + 1..], "Delete", &post), "{received:?}");
    let count = received.len();
    let (status, _) = update(&alice, blog, &post, save("public", true)).await;
    assert_eq!(status, 200);
    let received = delivered(&app, &inbox).await;
    assert_eq!(received.len(), count + 1, "{received:?}");
    assert!(got(&received[count..], "Create", &post), "{received:?}");
    assert_eq!(mailings(), 1, "announced: mailed as new");

    // Editing an unlisted post sends nothing at all.
    let quiet = create(&alice, blog, save("unlisted", false)).await;
    let (status, _) = update(&alice, blog, &quiet, save("unlisted", true)).await;
    assert_eq!(status, 200);
    assert_eq!(delivered(&app, &inbox).await.len(), count + 1);
    assert_eq!(mailings(), 1);
}

#[tokio::test]
async fn a_scheduled_unlisted_post_goes_live_unlisted_and_a_page_is_always_public() {
    let inbox = Inbox::start(Answer::Accept).await;
    let (app, alice, blog) = spawn(&inbox).await;
    let at = time::OffsetDateTime::now_utc() + time::Duration::hours(1);
    let at = at.format(&time::format_description::well_known::Rfc3339).unwrap();
    let scheduled = create(
        &alice,
        blog,
        json!({ "body": simple_body("Later gem", "Words."), "draft": false, "publish_at": at, "visibility": "unlisted" }),
    )
    .await;
    assert_eq!((scheduled["visibility"].as_str(), scheduled["publishedAt"].is_null()), (Some("unlisted"), true));
    app.db().execute("UPDATE posts SET scheduled_at = '2000-01-01T00:00:00.000Z'", []).unwrap();
    // Published by this call or by the server's own timer, whichever comes first.
    app.state.blogs.publish_due().await.unwrap();
    let published = || {
        let at: Option<String> = app
            .db()
            .query_row("SELECT published_at FROM posts WHERE short_id = ?1", [short_id(&scheduled)], |r| r.get(0))
            .unwrap();
        at.is_some()
    };
    until(Duration::from_secs(10), "the scheduled post published", published).await;
    let live = page(&app, &path_of(&scheduled)).await;
    assert!(live.contains("Later gem") && live.contains("content=\"noindex\""), "{live}");
    assert!(!page(&app, "/").await.contains("Later gem") && !page(&app, "/feed.xml").await.contains("Later gem"));
    assert!(delivered(&app, &inbox).await.is_empty(), "nothing federated");
    assert_eq!(app.count("post_mailings"), 0, "nothing mailed");

    let about = create(
        &alice,
        blog,
        json!({ "body": simple_body("About", "Me."), "draft": false, "page": true, "visibility": "unlisted" }),
    )
    .await;
    assert_eq!(about["visibility"], "public", "pages are not affected");
    assert!(page(&app, "/").await.contains("href=\"/about\""), "still in the navigation");
}

#[tokio::test]
async fn a_visibility_that_is_not_public_or_unlisted_is_refused_on_its_field_and_changes_nothing() {
    let app = TestApp::spawn().await;
    let alice = app.browser.clone();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let post = create(&alice, blog, json!({ "body": simple_body("Stays", "Words."), "draft": false })).await;
    assert_eq!(post["visibility"], "public", "public by default");

    let bad = json!({ "body": simple_body("Bad", "x"), "draft": false, "visibility": "private" });
    let resp = alice.post(&format!("/api/my/blogs/{blog}/posts"), bad).await;
    let (field, message) = crate::helpers::error_field(resp, 422).await;
    assert_eq!((field.as_str(), message.as_str()), ("visibility", "Visibility is public or unlisted"));
    assert_eq!(app.count("posts"), 1, "nothing created");

    for visibility in ["Unlisted", "", "hidden"] {
        let input = json!({ "body": simple_body("Changed", "y"), "draft": false, "visibility": visibility });
        let (status, answer) = update(&alice, blog, &post, input).await;
        assert_eq!(status, 422, "{visibility:?}: {answer}");
        assert_eq!(answer["errors"][0]["visibility"], "Visibility is public or unlisted");
    }
    let (unlisted, title): (bool, String) = app
        .db()
        .query_row("SELECT unlisted, title FROM posts WHERE short_id = ?1", [short_id(&post)], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    assert_eq!((unlisted, title.as_str()), (false, "Stays"), "nothing changed");
    assert!(page(&app, "/").await.contains("Stays"));
}

#[tokio::test]
async fn the_quire_archive_carries_an_unlisted_post_and_its_import_stays_unlisted() {
    let app = TestApp::spawn().await;
    let alice = app.browser.clone();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let save = |title: &str, visibility: &str| json!({ "body": simple_body(title, "Words."), "draft": false, "visibility": visibility });
    let hidden = create(&alice, blog, save("Hidden gem", "unlisted")).await;
    let open = create(&alice, blog, save("Open post", "public")).await;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("alice.quire.zip");
    let zip = crate::round_trip::export(&app, "alice", &out).await;
    let entry = |post: &Value| zip.json(&format!("posts/{}.json", short_id(post)));
    assert_eq!((entry(&hidden)["unlisted"].clone(), entry(&open)["unlisted"].clone()), (json!(true), json!(false)));

    let bob = app.new_browser();
    let bobs = bob.sign_up_with_blog("bob@example.com", "bob").await;
    crate::round_trip::import(&app, &crate::imports::blog_of(&app, bobs).await, &out).await;
    let unlisted_of = |title: &str| -> bool {
        app.db()
            .query_row(
                "SELECT unlisted FROM posts WHERE blog_id = ?1 AND title = ?2",
                rusqlite::params![bobs, title],
                |r| r.get(0),
            )
            .unwrap()
    };
    assert_eq!((unlisted_of("Hidden gem"), unlisted_of("Open post")), (true, false));
    let home = app.get_with_host(&format!("bob.localhost:{}", app.port), "/").await.text().await.unwrap();
    assert!(home.contains("Open post") && !home.contains("Hidden gem"), "{home}");
}

#[tokio::test]
async fn the_markdown_export_marks_an_unlisted_post_and_its_import_keeps_it_unlisted() {
    let app = TestApp::spawn().await;
    let alice = app.browser.clone();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let save = |title: &str, visibility: &str| json!({ "body": simple_body(title, "Words."), "draft": false, "visibility": visibility });
    create(&alice, blog, save("Hidden gem", "unlisted")).await;
    create(&alice, blog, save("Open post", "public")).await;
    let (_, zip) = crate::exports::exported(&alice, blog, "markdown").await;
    let document = |slug: &str| {
        let name = zip.names().into_iter().find(|n| n.contains(slug) && n.ends_with("index.md")).unwrap().to_owned();
        zip.text(&name)
    };
    let (hidden, open) = (document("hidden-gem"), document("open-post"));
    assert!(hidden.contains("\nunlisted: true\nbuild:\n  list: never\n---"), "{hidden}");
    assert!(!open.contains("unlisted") && !open.contains("build:"), "{open}");

    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("alice-markdown.zip");
    zip.zip_to(&out);
    let bob = app.new_browser();
    let bobs = bob.sign_up_with_blog("bob@example.com", "bob").await;
    crate::round_trip::import(&app, &crate::imports::blog_of(&app, bobs).await, &out).await;
    let unlisted_of = |title: &str| -> bool {
        let sql = "SELECT unlisted FROM posts WHERE blog_id = ?1 AND title = ?2";
        app.db().query_row(sql, rusqlite::params![bobs, title], |r| r.get(0)).unwrap()
    };
    assert_eq!((unlisted_of("Hidden gem"), unlisted_of("Open post")), (true, false));
}
