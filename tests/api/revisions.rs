//! Revisions (issue 32, docs/revisions.md) through the real server: each save records the
//! version it replaced; autosaves of a few minutes merge; a save that changes nothing records
//! nothing; many saves stay bounded and the list is paged; a restore puts older words back as a
//! new save (federated as an Update), keeps the post's state and can itself be undone; another
//! blog's revision and every bad id is a 404, never a 500.

use reqwest::Method;
use serde_json::{Value, json};

use crate::federation::follow;
use crate::helpers::{Browser, TestApp, error_field, simple_body};

/// Saves `title`/`text` over the post (a `draft` flag and `autosave` as given); answers the post.
pub(crate) async fn save(alice: &Browser, blog: i64, short_id: &str, title: &str, text: &str, extra: Value) -> Value {
    let mut input = json!({ "body": simple_body(title, text), "draft": false });
    input.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    let resp = alice.send(Method::PUT, &format!("/api/my/blogs/{blog}/posts/{short_id}"), input).await;
    assert_eq!(resp.status(), 200, "saved");
    resp.json::<Value>().await.unwrap()["post"].clone()
}

/// The post's history page `query`; answers the revisions and the `total` header.
pub(crate) async fn history(alice: &Browser, blog: i64, short_id: &str, query: &str) -> (Vec<Value>, u64) {
    let resp = alice.get(&format!("/api/my/blogs/{blog}/posts/{short_id}/revisions{query}")).await;
    assert_eq!(resp.status(), 200, "history");
    let total = resp.headers()["total"].to_str().unwrap().parse().unwrap();
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["total"].as_u64().unwrap(), total);
    (body["revisions"].as_array().unwrap().clone(), total)
}

fn titles(revisions: &[Value]) -> Vec<&str> {
    revisions.iter().map(|r| r["title"].as_str().unwrap()).collect()
}

async fn restore(alice: &Browser, blog: i64, short_id: &str, revision: &Value) -> reqwest::Response {
    let id = &revision["id"];
    alice.post(&format!("/api/my/blogs/{blog}/posts/{short_id}/revisions/{id}/restore"), json!({})).await
}

/// The id and JSON of the newest activity queued for followers since the first call (0 and "" before one).
pub(crate) fn newest_activity(app: &TestApp) -> (i64, String) {
    // The delivery worker deletes an activity once delivered or given up (the followers here
    // are unreachable), which on a busy machine can happen before the test looks: a trigger
    // keeps a copy of every activity queued from the first call on.
    let db = app.db();
    db.busy_timeout(std::time::Duration::from_secs(10)).unwrap();
    db.execute_batch(
        "CREATE TABLE IF NOT EXISTS test_activity_log (id INTEGER PRIMARY KEY, json TEXT NOT NULL);
         CREATE TRIGGER IF NOT EXISTS test_activity_log AFTER INSERT ON outgoing_activities
         BEGIN INSERT INTO test_activity_log (id, json) VALUES (new.id, new.json); END;",
    )
    .unwrap();
    db.query_row(
        "SELECT coalesce(max(id), 0), coalesce((SELECT json FROM test_activity_log ORDER BY id DESC LIMIT 1), '')
         FROM test_activity_log",
        [],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .unwrap()
}

/// A server with alice signed in and her blog.
pub(crate) async fn alice() -> (TestApp, Browser, i64) {
    let app = TestApp::spawn().await;
    let alice = app.browser.clone();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    (app, alice, blog)
}

#[tokio::test]
async fn three_saves_record_three_revisions_holding_the_versions_they_replaced() {
    let (_app, alice, blog) = alice().await;
    let post = alice.create_post(blog, simple_body("First", "one"), true).await;
    let id = post["shortId"].as_str().unwrap();
    save(&alice, blog, id, "Second", "two", json!({ "draft": true, "tags": ["rust"] })).await;
    save(&alice, blog, id, "Third", "three", json!({})).await;
    save(&alice, blog, id, "Fourth", "four", json!({})).await;
    let (revisions, total) = history(&alice, blog, id, "").await;
    assert_eq!(total, 3);
    assert_eq!(titles(&revisions), ["Third", "Second", "First"], "newest first, each the version replaced");
    let first = &revisions[2];
    assert_eq!(first["body"], simple_body("First", "one"), "its full blocks");
    assert_eq!(first["state"]["status"], "draft");
    assert_eq!(first["kind"], "save");
    assert_eq!(first["author"], "alice", "the user's name");
    assert_eq!(revisions[1]["tags"], json!(["rust"]));
    assert_eq!(revisions[1]["state"]["status"], "draft");
    assert_eq!(revisions[0]["state"]["status"], "published", "the third save published it");
    assert!(revisions[0]["createdAt"].as_str().unwrap() >= revisions[2]["createdAt"].as_str().unwrap());
}

#[tokio::test]
async fn autosaves_a_few_minutes_apart_merge_and_a_save_that_changes_nothing_records_nothing() {
    let (app, alice, blog) = alice().await;
    let post = alice.create_post(blog, simple_body("Draft", "a"), true).await;
    let id = post["shortId"].as_str().unwrap();
    let draft = json!({ "draft": true, "autosave": true });
    for text in ["ab", "abc", "abcd"] {
        let saved = save(&alice, blog, id, "Draft", text, draft.clone()).await;
        assert_eq!(saved["body"], simple_body("Draft", text), "every autosave is stored as the post");
    }
    let (revisions, total) = history(&alice, blog, id, "").await;
    assert_eq!(total, 1, "three autosaves in a row: one revision");
    assert_eq!((revisions[0]["kind"].as_str(), &revisions[0]["body"]), (Some("autosave"), &simple_body("Draft", "a")));

    // The same words again: no revision.
    save(&alice, blog, id, "Draft", "abcd", json!({ "draft": true })).await;
    assert_eq!(history(&alice, blog, id, "").await.1, 1, "a no-op save records nothing");

    // Six minutes later, an autosave is a revision of its own; a real save always is.
    app.db()
        .execute("UPDATE post_revisions SET created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-6 minutes')", [])
        .unwrap();
    save(&alice, blog, id, "Draft", "abcde", draft.clone()).await;
    save(&alice, blog, id, "Draft", "abcdef", json!({ "draft": true })).await;
    save(&alice, blog, id, "Draft", "abcdefg", draft).await;
    let (revisions, total) = history(&alice, blog, id, "").await;
    assert_eq!(total, 4);
    let kinds: Vec<&str> = revisions.iter().map(|r| r["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["autosave", "save", "autosave", "autosave"]);
}

#[tokio::test]
async fn many_saves_of_one_post_keep_at_most_a_hundred_revisions_listed_in_pages() {
    let (app, alice, blog) = alice().await;
    let post = alice.create_post(blog, simple_body("Busy", "0"), false).await;
    let id = post["shortId"].as_str().unwrap();
    // 130 saves through the API (the thinning past 100 over days is db::revisions' unit test).
    for n in 1..=130 {
        save(&alice, blog, id, "Busy", &n.to_string(), json!({})).await;
    }
    assert_eq!(app.count("post_revisions"), 100, "the newest hundred, all of today");
    let (first, total) = history(&alice, blog, id, "?page_size=40").await;
    assert_eq!((first.len(), total), (40, 100));
    assert_eq!(first[0]["body"], simple_body("Busy", "129"), "newest first");
    let (last, _) = history(&alice, blog, id, "?page=3&page_size=40").await;
    assert_eq!(last.len(), 20);
    assert_eq!(last[19]["body"], simple_body("Busy", "30"), "the oldest kept");
    let resp = alice.get(&format!("/api/my/blogs/{blog}/posts/{id}/revisions?page=4&page_size=40")).await;
    assert_eq!(error_field(resp, 400).await.0, "page");
}

#[tokio::test]
async fn a_restore_puts_older_words_back_keeps_the_state_federates_an_update_and_can_be_undone() {
    let (app, alice, blog) = alice().await;
    follow(&app, "bob", "http://127.0.0.1:9/users/bob/inbox", None, true);
    let post = alice.create_post(blog, simple_body("One", "first words"), false).await;
    let id = post["shortId"].as_str().unwrap();
    save(&alice, blog, id, "Two", "second words", json!({ "tags": ["a"] })).await;
    save(&alice, blog, id, "Three", "third words", json!({ "visibility": "public", "tags": ["b"] })).await;
    let newest = newest_activity(&app);
    let (revisions, _) = history(&alice, blog, id, "").await;
    let one = revisions.iter().find(|r| r["title"] == "One").unwrap();

    let resp = restore(&alice, blog, id, one).await;
    assert_eq!(resp.status(), 200);
    let restored = resp.json::<Value>().await.unwrap()["post"].clone();
    assert_eq!((restored["title"].as_str(), &restored["body"]), (Some("One"), &simple_body("One", "first words")));
    assert_eq!(restored["tags"], json!([]), "its tags too");
    assert_eq!(restored["publishedAt"], post["publishedAt"], "still published, when it was");
    assert_eq!(restored["shortId"], post["shortId"]);
    let (id_after, json) = newest_activity(&app);
    assert!(id_after > newest.0 && json.contains("\"Update\""), "followers get an Update: {json}");
    let page = app.get_with_host(&format!("alice.localhost:{}", app.port), &format!("/one-{id}")).await;
    assert_eq!(page.status(), 200);
    assert!(page.text().await.unwrap().contains("first words"), "the public page shows the restored words");

    // The version the restore replaced is the newest revision: restoring it undoes the restore.
    let (revisions, total) = history(&alice, blog, id, "").await;
    assert_eq!(total, 3);
    assert_eq!((revisions[0]["kind"].as_str(), revisions[0]["title"].as_str()), (Some("restore"), Some("Three")));
    let undone = restore(&alice, blog, id, &revisions[0]).await.json::<Value>().await.unwrap()["post"].clone();
    assert_eq!((undone["title"].as_str(), &undone["tags"]), (Some("Three"), &json!(["b"])));
    assert_eq!(undone["body"], simple_body("Three", "third words"));
}

#[tokio::test]
async fn a_draft_stays_a_draft_and_a_page_address_now_taken_is_refused_on_slug() {
    let (_app, alice, blog) = alice().await;
    let draft = alice.create_post(blog, simple_body("Plan", "a"), true).await;
    let id = draft["shortId"].as_str().unwrap();
    save(&alice, blog, id, "Plan B", "b", json!({ "draft": true })).await;
    let (revisions, _) = history(&alice, blog, id, "").await;
    let restored = restore(&alice, blog, id, &revisions[0]).await.json::<Value>().await.unwrap()["post"].clone();
    assert_eq!((restored["title"].as_str(), &restored["publishedAt"]), (Some("Plan"), &Value::Null));

    let page = alice
        .post(&format!("/api/my/blogs/{blog}/posts"), json!({ "body": simple_body("About", "me"), "page": true }))
        .await
        .json::<Value>()
        .await
        .unwrap()["post"]
        .clone();
    let page_id = page["shortId"].as_str().unwrap();
    save(&alice, blog, page_id, "Contact", "write", json!({ "page": true })).await;
    let other = alice
        .post(&format!("/api/my/blogs/{blog}/posts"), json!({ "body": simple_body("About", "new"), "page": true }))
        .await;
    assert_eq!(other.status(), 201);
    let (revisions, _) = history(&alice, blog, page_id, "").await;
    let resp = restore(&alice, blog, page_id, &revisions[0]).await;
    let (field, message) = error_field(resp, 422).await;
    assert_eq!(field, "slug");
    assert!(message.contains("about"), "{message}");
    let now = alice.get(&format!("/api/my/blogs/{blog}/posts/{page_id}")).await.json::<Value>().await.unwrap();
    assert_eq!(now["post"]["title"], "Contact", "nothing changed");
    assert_eq!(history(&alice, blog, page_id, "").await.1, 1, "and nothing was recorded");
}

#[tokio::test]
async fn another_blogs_revision_and_every_bad_id_is_a_404_that_changes_nothing() {
    let (app, alice, blog) = alice().await;
    let bob = app.new_browser();
    let bob_blog = bob.sign_up_with_blog("bob@example.com", "bob").await;
    let bobs = bob.create_post(bob_blog, simple_body("Bob", "mine"), false).await;
    let bob_id = bobs["shortId"].as_str().unwrap();
    save(&bob, bob_blog, bob_id, "Bob 2", "still mine", json!({})).await;
    let (bob_revisions, _) = history(&bob, bob_blog, bob_id, "").await;
    let bob_revision = bob_revisions[0]["id"].as_i64().unwrap();

    let mine = alice.create_post(blog, simple_body("Alice", "a"), false).await;
    let my_id = mine["shortId"].as_str().unwrap();
    let cases = [
        (format!("/api/my/blogs/{blog}/posts/{my_id}/revisions/{bob_revision}/restore"), "revision"),
        (format!("/api/my/blogs/{bob_blog}/posts/{bob_id}/revisions/{bob_revision}/restore"), "blog"),
        (format!("/api/my/blogs/{blog}/posts/{bob_id}/revisions/{bob_revision}/restore"), "post"),
        (format!("/api/my/blogs/{blog}/posts/{my_id}/revisions/abc/restore"), "revision"),
        (format!("/api/my/blogs/{blog}/posts/{my_id}/revisions/99999999999999999999999/restore"), "revision"),
        (format!("/api/my/blogs/{blog}/posts/{my_id}/revisions/-1/restore"), "revision"),
        (format!("/api/my/blogs/{blog}/posts/nope/revisions/1/restore"), "post"),
    ];
    for (path, field) in cases {
        let resp = alice.post(&path, json!({})).await;
        assert_eq!(error_field(resp, 404).await.0, field, "{path}");
    }
    for path in [
        format!("/api/my/blogs/{blog}/posts/{bob_id}/revisions"),
        format!("/api/my/blogs/{bob_blog}/posts/{bob_id}/revisions"),
        format!("/api/my/blogs/{blog}/posts/%00/revisions"),
    ] {
        assert_eq!(alice.get(&path).await.status(), 404, "{path}");
    }
    let bobs_now = bob.get(&format!("/api/my/blogs/{bob_blog}/posts/{bob_id}")).await.json::<Value>().await.unwrap();
    assert_eq!(bobs_now["post"]["title"], "Bob 2", "bob's post is untouched");
    assert_eq!(history(&bob, bob_blog, bob_id, "").await.1, 1);
    // A restore needs the CSRF header like every write.
    let resp = alice
        .client
        .post(format!("{}/api/my/blogs/{blog}/posts/{my_id}/revisions/1/restore", alice.url()))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 403);
}
