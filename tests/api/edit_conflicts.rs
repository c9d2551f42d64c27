//! Edit conflicts (issue 32, docs/edit-conflicts.md) through the real server: every post read
//! and write carries its version (a `version` field and an `ETag: "N"`); an update sends it back
//! in `If-Match` or its `version` field and is saved at the current version, refused with a 409
//! carrying the current post at an older one, refused with a 422 on `version` when malformed,
//! and saved unchecked without one. Two saves racing on one version: exactly one is written.

use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{Browser, TestApp, errors_of, simple_body};

/// The 409's message.
const STALE: &str = "This post was changed in another tab or device since you opened it.";

async fn alice_blog() -> (TestApp, Browser, i64) {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    (app, alice, blog)
}

fn post_path(blog: i64, short_id: &str) -> String {
    format!("/api/my/blogs/{blog}/posts/{short_id}")
}

/// PUTs `input` over the post, with `If-Match: if_match` when given, as the owner app does.
async fn put(who: &Browser, path: &str, input: Value, if_match: Option<&str>) -> reqwest::Response {
    who.open_app().await;
    let mut request = who
        .client
        .request(Method::PUT, format!("{}{path}", who.url()))
        .header("CSRF-Token", who.cookie("csrf_token").expect("csrf cookie"))
        .json(&input);
    if let Some(value) = if_match {
        request = request.header("If-Match", value);
    }
    request.send().await.expect("request sent")
}

/// The `ETag` header of an answer.
fn etag(resp: &reqwest::Response) -> Option<String> {
    resp.headers().get("etag").map(|value| value.to_str().unwrap().to_owned())
}

/// The post as the owner API shows it now: its ETag and the post.
async fn shown(who: &Browser, blog: i64, short_id: &str) -> (Option<String>, Value) {
    let resp = who.get(&post_path(blog, short_id)).await;
    assert_eq!(resp.status(), 200, "the post reads");
    let tag = etag(&resp);
    (tag, resp.json::<Value>().await.unwrap()["post"].clone())
}

/// The text of the post's paragraph (its second block).
fn text(post: &Value) -> &str {
    post["body"]["children"][1]["value"]["text"].as_str().unwrap()
}

fn edit(text: &str) -> Value {
    json!({ "body": simple_body("Notes", text), "draft": false })
}

fn edit_at(text: &str, version: Value) -> Value {
    json!({ "body": simple_body("Notes", text), "draft": false, "version": version })
}

#[tokio::test]
async fn every_post_read_and_write_carries_its_version_and_its_etag() {
    let (_app, alice, blog) = alice_blog().await;
    let resp = alice.post(&format!("/api/my/blogs/{blog}/posts"), edit("First words")).await;
    assert_eq!(resp.status(), 201);
    assert_eq!(etag(&resp).as_deref(), Some("\"1\""), "a created post is at version 1");
    let post = resp.json::<Value>().await.unwrap()["post"].clone();
    assert_eq!(post["version"], 1);
    let short_id = post["shortId"].as_str().unwrap().to_owned();

    let (tag, read) = shown(&alice, blog, &short_id).await;
    assert_eq!((tag.as_deref(), &read["version"]), (Some("\"1\""), &json!(1)));

    let resp = put(&alice, &post_path(blog, &short_id), edit("Second words"), None).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(etag(&resp).as_deref(), Some("\"2\""), "every save raises the version");
    assert_eq!(resp.json::<Value>().await.unwrap()["post"]["version"], 2);

    let list: Value = alice.get(&format!("/api/my/blogs/{blog}/posts")).await.json().await.unwrap();
    assert_eq!(list["posts"][0]["version"], 2, "the list carries it");
    let found: Value = alice
        .post(&format!("/api/my/blogs/{blog}/posts/search"), json!({ "query": "second" }))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(found["posts"][0]["version"], 2, "search carries it");
    let (tag, read) = shown(&alice, blog, &short_id).await;
    assert_eq!((tag.as_deref(), &read["version"]), (Some("\"2\""), &json!(2)));
}

#[tokio::test]
async fn an_update_at_the_current_version_is_saved_and_one_at_an_older_version_is_a_409_with_the_post_as_it_is() {
    let (_app, alice, blog) = alice_blog().await;
    let post = alice.create_post(blog, simple_body("Notes", "Opened in two tabs"), false).await;
    let path = post_path(blog, post["shortId"].as_str().unwrap());

    // The laptop saves first, with the version it read, in If-Match.
    let resp = put(&alice, &path, edit("The laptop's words"), Some("\"1\"")).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(etag(&resp).as_deref(), Some("\"2\""));

    // The phone saves with the version it read (1), as the body's field, then in If-Match.
    for (input, if_match) in
        [(edit_at("The phone's words", json!(1)), None), (edit("The phone's words"), Some("\"1\""))]
    {
        let resp = put(&alice, &path, input, if_match).await;
        assert_eq!(resp.status(), 409);
        assert_eq!(etag(&resp).as_deref(), Some("\"2\""), "the 409 names the current version");
        let answer: Value = resp.json().await.unwrap();
        assert_eq!(answer["errors"], json!([{ "version": STALE }]), "the API's error shape");
        assert_eq!(answer["post"]["version"], 2, "it carries the post as it is now");
        assert_eq!(text(&answer["post"]), "The laptop's words");
    }
    let (_, now) = shown(&alice, blog, post["shortId"].as_str().unwrap()).await;
    assert_eq!((text(&now), &now["version"]), ("The laptop's words", &json!(2)), "nothing of the phone's was saved");

    // A version never handed out (ahead of the post's) is refused the same way.
    let resp = put(&alice, &path, edit_at("Forged", json!(99)), None).await;
    assert_eq!(resp.status(), 409);

    // Based on the version the 409 carried, the phone's save goes through.
    let resp = put(&alice, &path, edit_at("Both, merged", json!(2)), Some("\"2\"")).await;
    assert_eq!(resp.status(), 200);
    let saved: Value = resp.json().await.unwrap();
    assert_eq!((text(&saved["post"]), &saved["post"]["version"]), ("Both, merged", &json!(3)));
}

#[tokio::test]
async fn malformed_or_disagreeing_versions_are_refused_on_version_and_nothing_is_saved() {
    let (_app, alice, blog) = alice_blog().await;
    let post = alice.create_post(blog, simple_body("Notes", "Untouched"), false).await;
    let short_id = post["shortId"].as_str().unwrap();
    let path = post_path(blog, short_id);

    let headers = [
        "1",
        "\"\"",
        "\"-1\"",
        "\"0\"",
        "\"1.0\"",
        "\"one\"",
        "W/\"1\"",
        "\"1\", \"2\"",
        "\"99999999999999999999999\"",
        "\"9007199254740992\"",
    ];
    for header in headers {
        let resp = put(&alice, &path, edit("Overwritten"), Some(header)).await;
        assert_eq!(resp.status(), 422, "If-Match: {header}");
        assert_eq!(errors_of(resp).await[0].0, "version", "If-Match: {header}");
    }
    let fields =
        [json!("1"), json!(-1), json!(0), json!(1.5), json!(1e30), json!(9_007_199_254_740_992_u64), json!({})];
    for field in fields {
        let resp = put(&alice, &path, edit_at("Overwritten", field.clone()), None).await;
        assert_eq!(resp.status(), 422, "version: {field}");
        assert_eq!(errors_of(resp).await[0].0, "version", "version: {field}");
    }
    // Both sent, naming different versions (even if one of them is current).
    let resp = put(&alice, &path, edit_at("Overwritten", json!(2)), Some("\"1\"")).await;
    assert_eq!(resp.status(), 422);
    assert!(errors_of(resp).await[0].1.contains("different versions"));

    let (tag, now) = shown(&alice, blog, short_id).await;
    assert_eq!((text(&now), tag.as_deref()), ("Untouched", Some("\"1\"")), "nothing was saved");
}

#[tokio::test]
async fn an_update_without_a_version_is_saved_as_before() {
    let (_app, alice, blog) = alice_blog().await;
    let post = alice.create_post(blog, simple_body("Notes", "One"), false).await;
    let path = post_path(blog, post["shortId"].as_str().unwrap());
    assert_eq!(put(&alice, &path, edit("Two"), None).await.status(), 200);
    // An older client, which never read the version, still saves (unprotected), as does If-Match: *.
    assert_eq!(put(&alice, &path, edit("Three"), None).await.status(), 200);
    let resp = put(&alice, &path, edit_at("Four", Value::Null), Some("*")).await;
    assert_eq!(resp.status(), 200);
    let saved: Value = resp.json().await.unwrap();
    assert_eq!((text(&saved["post"]), &saved["post"]["version"]), ("Four", &json!(4)));
}

#[tokio::test]
async fn two_saves_racing_on_one_version_write_exactly_one_and_refuse_the_other() {
    let (app, alice, blog) = alice_blog().await;
    let phone = app.new_browser();
    assert_eq!(phone.sign_in_as("alice@example.com", false).await.status(), 200, "a second session");
    let post = alice.create_post(blog, simple_body("Notes", "Start"), false).await;
    let short_id = post["shortId"].as_str().unwrap();
    let path = post_path(blog, short_id);

    for round in 1..=5_i64 {
        let (laptop, mobile, tag) = (format!("Laptop {round}"), format!("Phone {round}"), format!("\"{round}\""));
        let (a, b) = tokio::join!(
            put(&alice, &path, edit_at(&laptop, json!(round)), None),
            put(&phone, &path, edit_at(&mobile, json!(round)), Some(&tag)),
        );
        let mut statuses = [a.status().as_u16(), b.status().as_u16()];
        let winner = if statuses[0] == 200 { laptop } else { mobile };
        statuses.sort_unstable();
        assert_eq!(statuses, [200, 409], "round {round}: one saved, one refused");
        let (tag, now) = shown(&alice, blog, short_id).await;
        assert_eq!(text(&now), winner, "round {round}: the saved one is what the post holds");
        assert_eq!(tag, Some(format!("\"{}\"", round + 1)), "round {round}: raised once");
    }
}

#[tokio::test]
async fn another_owners_post_is_still_a_404_whatever_version_is_sent() {
    let (app, alice, blog) = alice_blog().await;
    let post = alice.create_post(blog, simple_body("Notes", "Alice's"), false).await;
    let short_id = post["shortId"].as_str().unwrap();
    let bob = app.new_browser();
    let bob_blog = bob.sign_up_with_blog("bob@example.com", "bob").await;

    for (path, if_match) in [
        (post_path(blog, short_id), Some("\"1\"")),
        (post_path(blog, short_id), Some("\"7\"")),
        (post_path(bob_blog, short_id), Some("\"1\"")),
        (post_path(bob_blog, short_id), Some("\"7\"")),
        (post_path(bob_blog, short_id), None),
    ] {
        let resp = put(&bob, &path, edit("Bob's"), if_match).await;
        assert_eq!(resp.status(), 404, "{path} {if_match:?}: neither a 409 nor a save");
    }
    // Alice's own missing post with a version: a 404, not a 409.
    assert_eq!(put(&alice, &post_path(blog, "nosuch"), edit("x"), Some("\"1\"")).await.status(), 404);
    let (tag, now) = shown(&alice, blog, short_id).await;
    assert_eq!((text(&now), tag.as_deref()), ("Alice's", Some("\"1\"")));
}

#[tokio::test]
async fn a_scheduled_publication_raises_the_version_so_an_editor_opened_before_it_is_refused() {
    let (_app, alice, blog) = alice_blog().await;
    let when = (time::OffsetDateTime::now_utc() + time::Duration::seconds(1))
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    let resp = alice
        .post(
            &format!("/api/my/blogs/{blog}/posts"),
            json!({ "body": simple_body("Notes", "Later"), "draft": false, "publish_at": when }),
        )
        .await;
    assert_eq!(resp.status(), 201);
    let short_id = resp.json::<Value>().await.unwrap()["post"]["shortId"].as_str().unwrap().to_owned();

    // The server's timer publishes it (waited for at most 10 s).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let published = loop {
        let (_, now) = shown(&alice, blog, &short_id).await;
        if now["publishedAt"].is_string() || std::time::Instant::now() > deadline {
            break now;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    };
    assert!(published["publishedAt"].is_string(), "published by the timer");
    assert_eq!(published["version"], 2);
    let resp = put(&alice, &post_path(blog, &short_id), edit_at("Still scheduled?", json!(1)), None).await;
    assert_eq!(resp.status(), 409, "the editor opened while it was scheduled is told");
}
