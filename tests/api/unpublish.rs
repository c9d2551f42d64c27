//! Unpublishing (issue 33, docs/api.md 8.6.1) through the real server: a published post taken
//! back to a draft leaves its permalink (404), the home page, the feeds, the sitemap and public
//! search, and its followers receive a `Delete`; published again it is announced as new. A draft
//! is answered unchanged; a scheduled post loses its schedule; an edit based on the version before
//! the unpublish is a conflict; another blogger's post, a missing post and a write without CSRF
//! change nothing.

use reqwest::Method;
use serde_json::{Value, json};

use crate::federation::{Answer, Inbox};
use crate::helpers::{TestApp, simple_body};
use crate::unlisted::{create, delivered, got, host, page, path_of, short_id, spawn, update};

/// Unpublishes `post` as its owner: the status and the answer.
async fn unpublish(alice: &crate::helpers::Browser, blog: i64, post: &Value) -> (u16, Value) {
    let resp = alice.post(&format!("/api/my/blogs/{blog}/posts/{}/unpublish", short_id(post)), json!({})).await;
    (resp.status().as_u16(), resp.json().await.unwrap())
}

/// The status of the blog's page `path`.
async fn status(app: &TestApp, path: &str) -> u16 {
    app.get_with_host(&host(app), path).await.status().as_u16()
}

#[tokio::test]
async fn an_unpublished_post_leaves_every_public_page_and_its_followers_get_a_delete() {
    let inbox = Inbox::start(Answer::Accept).await;
    let (app, alice, blog) = spawn(&inbox).await;
    let input = |draft: bool| json!({ "body": simple_body("Second thoughts", "A walk by the quokkaword river."), "draft": draft });
    let control = create(&alice, blog, json!({ "body": simple_body("Control post", "Words."), "draft": false })).await;
    let post = create(&alice, blog, input(false)).await;
    assert!(got(&delivered(&app, &inbox).await, "Create", &post));
    let permalink = path_of(&post);
    assert_eq!(status(&app, &permalink).await, 200);
    assert!(page(&app, "/").await.contains("Second thoughts"));

    let (code, answer) = unpublish(&alice, blog, &post).await;
    assert_eq!(code, 200, "{answer}");
    let draft = &answer["post"];
    assert_eq!((draft["publishedAt"].is_null(), draft["scheduledAt"].is_null()), (true, true), "{draft}");
    assert_eq!(draft["version"], post["version"].as_i64().unwrap() + 1);
    assert_eq!(draft["title"], "Second thoughts", "the words stay");

    // Gone from every public page, the control still there.
    assert_eq!(status(&app, &permalink).await, 404);
    for (path, shows) in [
        ("/", "Control post"),
        ("/feed.xml", short_id(&control)),
        ("/rss.xml", short_id(&control)),
        ("/sitemap.xml", short_id(&control)),
    ] {
        let body = page(&app, path).await;
        assert!(body.contains(shows), "{path} shows the control: {body}");
        assert!(!body.contains(short_id(&post)) && !body.contains("Second thoughts"), "{path} still has it: {body}");
    }
    assert!(!page(&app, "/search?q=quokkaword").await.contains("Second thoughts"));
    let received = delivered(&app, &inbox).await;
    assert!(got(&received, "Delete", &post), "{received:?}");
    // The owner still has it, as a draft, and finds it in their own search.
    let mine: Value = alice
        .post(&format!("/api/my/blogs/{blog}/posts/search"), json!({ "query": "quokkaword" }))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(mine["posts"][0]["shortId"], short_id(&post), "{mine}");

    // Published again: at its address once more, and announced to the followers as new.
    let before = received.len();
    let (code, again) = update(&alice, blog, &post, input(false)).await;
    assert_eq!(code, 200, "{again}");
    assert!(again["post"]["publishedAt"].is_string());
    assert_eq!(status(&app, &path_of(&again["post"])).await, 200);
    let received = delivered(&app, &inbox).await;
    assert!(got(&received[before..], "Create", &post), "{received:?}");
}

#[tokio::test]
async fn a_draft_is_answered_unchanged_a_schedule_is_dropped_and_an_older_edit_conflicts() {
    let inbox = Inbox::start(Answer::Accept).await;
    let (app, alice, blog) = spawn(&inbox).await;
    let draft = create(&alice, blog, json!({ "body": simple_body("Still a draft", "Words."), "draft": true })).await;
    let (code, answer) = unpublish(&alice, blog, &draft).await;
    assert_eq!((code, &answer["post"]["version"]), (200, &draft["version"]), "a draft: nothing changes");

    let at = time::OffsetDateTime::now_utc() + time::Duration::hours(2);
    let at = at.format(&time::format_description::well_known::Rfc3339).unwrap();
    let scheduled =
        create(&alice, blog, json!({ "body": simple_body("Later", "Words."), "draft": false, "publish_at": at })).await;
    assert!(scheduled["scheduledAt"].is_string());
    let (code, answer) = unpublish(&alice, blog, &scheduled).await;
    assert_eq!(code, 200);
    assert!(answer["post"]["scheduledAt"].is_null() && answer["post"]["publishedAt"].is_null(), "{answer}");
    let waiting: i64 =
        app.db().query_row("SELECT count(*) FROM posts WHERE scheduled_at IS NOT NULL", [], |r| r.get(0)).unwrap();
    assert_eq!(waiting, 0, "nothing left to publish later");

    // A tab that opened the post before it was unpublished saves into a conflict, not over it.
    let live = create(&alice, blog, json!({ "body": simple_body("Live", "Words."), "draft": false })).await;
    assert_eq!(unpublish(&alice, blog, &live).await.0, 200);
    let (code, stale) = update(
        &alice,
        blog,
        &live,
        json!({ "body": simple_body("Live", "Older tab."), "draft": false, "version": live["version"] }),
    )
    .await;
    assert_eq!(code, 409, "{stale}");
    assert!(stale["post"]["publishedAt"].is_null(), "still a draft: {stale}");
}

#[tokio::test]
async fn another_bloggers_post_a_missing_post_and_a_write_without_csrf_change_nothing() {
    let app = TestApp::spawn().await;
    let alice = app.browser.clone();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let post = create(&alice, blog, json!({ "body": simple_body("Mine", "Words."), "draft": false })).await;
    let path = format!("/api/my/blogs/{blog}/posts/{}/unpublish", short_id(&post));

    let mallory = app.new_browser();
    let theirs = mallory.sign_up_with_blog("mallory@example.com", "mallory").await;
    assert_eq!(mallory.post(&path, json!({})).await.status(), 404, "not mallory's blog");
    let across = format!("/api/my/blogs/{theirs}/posts/{}/unpublish", short_id(&post));
    assert_eq!(mallory.post(&across, json!({})).await.status(), 404, "not a post of mallory's blog");
    assert_eq!(alice.post(&format!("/api/my/blogs/{blog}/posts/nosuchpost/unpublish"), json!({})).await.status(), 404);
    let resp =
        alice.client.request(Method::POST, format!("{}{path}", alice.url())).json(&json!({})).send().await.unwrap();
    assert_eq!(resp.status(), 403, "no CSRF token");

    let published: Option<String> = app
        .db()
        .query_row("SELECT published_at FROM posts WHERE id = (SELECT max(id) FROM posts)", [], |r| r.get(0))
        .unwrap();
    assert!(published.is_some(), "still published");
    assert_eq!(status(&app, &path_of(&post)).await, 200);
}
