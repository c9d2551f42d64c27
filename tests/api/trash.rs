//! The trash (issue 32, docs/revisions.md) through the real server: a deleted post is listed
//! with when it goes for good, comes back at its address with its content, tags, state and
//! revisions (public again, but never federated again), or is purged; the sweep removes what is
//! past 30 days; the account's deletion empties it; another blog's entry and bad ids are 404s;
//! trashed posts take no place in the blog's count.

use reqwest::Method;
use serde_json::{Value, json};

use crate::federation::follow;
use crate::helpers::{Browser, TestApp, error_field, simple_body};
use crate::revisions::{alice, history, newest_activity, save};

async fn trash(alice: &Browser, blog: i64) -> Vec<Value> {
    let resp = alice.get(&format!("/api/my/blogs/{blog}/trash")).await;
    assert_eq!(resp.status(), 200);
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["total"].as_u64().unwrap() as usize, body["trash"].as_array().unwrap().len());
    body["trash"].as_array().unwrap().clone()
}

async fn delete(alice: &Browser, blog: i64, short_id: &str) {
    let resp = alice.send(Method::DELETE, &format!("/api/my/blogs/{blog}/posts/{short_id}"), json!({})).await;
    assert_eq!(resp.status(), 200, "deleted");
}

async fn public_status(app: &TestApp, path: &str) -> u16 {
    app.get_with_host(&format!("alice.localhost:{}", app.port), path).await.status().as_u16()
}

#[tokio::test]
async fn a_deleted_post_is_listed_comes_back_at_its_address_unfederated_and_can_be_purged() {
    let (app, alice, blog) = alice().await;
    follow(&app, "bob", "http://127.0.0.1:9/users/bob/inbox", None, true);
    let post = alice.create_post(blog, simple_body("Kept", "first"), false).await;
    let id = post["shortId"].as_str().unwrap();
    save(&alice, blog, id, "Kept", "second", json!({ "tags": ["keep"] })).await;
    save(&alice, blog, id, "Kept", "third", json!({ "tags": ["keep"] })).await;
    let other = alice.create_post(blog, simple_body("Other", "x"), true).await;
    let path = format!("/kept-{id}");
    assert_eq!(public_status(&app, &path).await, 200);

    delete(&alice, blog, id).await;
    assert_eq!(public_status(&app, &path).await, 404, "gone from its address");
    let activities = newest_activity(&app).0;
    let entries = trash(&alice, blog).await;
    assert_eq!(entries.len(), 1);
    let entry = &entries[0];
    assert_eq!((entry["title"].as_str(), entry["published"].as_bool()), (Some("Kept"), Some(true)));
    assert_eq!(entry["revisions"], 2);
    let deleted = time::OffsetDateTime::parse(
        entry["deletedAt"].as_str().unwrap(),
        &time::format_description::well_known::Rfc3339,
    )
    .unwrap();
    let expires = time::OffsetDateTime::parse(
        entry["expiresAt"].as_str().unwrap(),
        &time::format_description::well_known::Rfc3339,
    )
    .unwrap();
    assert_eq!(expires - deleted, time::Duration::days(30));
    let listed = alice.get(&format!("/api/my/blogs/{blog}/posts")).await;
    assert_eq!(listed.headers()["total"], "1", "a trashed post is not counted among the blog's posts");

    // Restored: the same address, words, tags, publish time and history; nothing federated.
    let resp = alice.post(&format!("/api/my/blogs/{blog}/trash/{}/restore", entry["id"]), json!({})).await;
    assert_eq!(resp.status(), 200);
    let back = resp.json::<Value>().await.unwrap()["post"].clone();
    assert_eq!(back["shortId"], post["shortId"]);
    assert_eq!(back["publishedAt"], post["publishedAt"]);
    assert_eq!(back["tags"], json!(["keep"]));
    assert_eq!(back["body"], simple_body("Kept", "third"));
    assert_eq!(public_status(&app, &path).await, 200, "public again at its address");
    let (revisions, total) = history(&alice, blog, id, "").await;
    assert_eq!(total, 2, "its revisions came back");
    assert_eq!(revisions[1]["body"], simple_body("Kept", "first"));
    // Settled activities leave the queue; none newer than the Delete was queued.
    assert!(newest_activity(&app).0 <= activities, "a restore is not federated again");
    assert!(trash(&alice, blog).await.is_empty());
    assert_eq!(alice.search_titles(blog, "third").await, ["Kept"], "searchable again");

    // Deleted again, then purged: gone for good.
    delete(&alice, blog, id).await;
    delete(&alice, blog, other["shortId"].as_str().unwrap()).await;
    let entries = trash(&alice, blog).await;
    assert_eq!(entries[0]["title"], "Other", "last deleted first");
    let purge = format!("/api/my/blogs/{blog}/trash/{}", entries[1]["id"]);
    assert_eq!(alice.send(Method::DELETE, &purge, json!({})).await.status(), 200);
    assert_eq!(error_field(alice.send(Method::DELETE, &purge, json!({})).await, 404).await.0, "trash");
    let entries = trash(&alice, blog).await;
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0]["title"], "Other");
    assert_eq!(app.count("post_revisions"), 0, "the purged post's revisions went with it");
}

#[tokio::test]
async fn the_sweep_removes_entries_past_thirty_days_and_the_accounts_deletion_empties_the_trash() {
    let (app, alice, blog) = alice().await;
    for title in ["Old", "Recent"] {
        let post = alice.create_post(blog, simple_body(title, "x"), false).await;
        delete(&alice, blog, post["shortId"].as_str().unwrap()).await;
    }
    let db = app.db();
    db.execute(
        "UPDATE trash SET deleted_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-31 days') WHERE title = 'Old'",
        [],
    )
    .unwrap();
    db.execute(
        "UPDATE trash SET deleted_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-29 days') WHERE title = 'Recent'",
        [],
    )
    .unwrap();
    assert_eq!(app.state.blogs.sweep_trash().await.unwrap(), 1);
    let entries = trash(&alice, blog).await;
    assert_eq!(entries.iter().map(|e| e["title"].as_str().unwrap()).collect::<Vec<_>>(), ["Recent"]);

    let resp = alice.send(Method::DELETE, &format!("/api/my/blogs/{blog}"), json!({})).await;
    assert_eq!(resp.status(), 200, "account deleted");
    assert_eq!(app.count("trash"), 0, "the account's deletion removes its trash at once");
}

#[tokio::test]
async fn another_blogs_entry_and_bad_ids_are_404s_and_a_taken_page_address_is_refused() {
    let (app, alice, blog) = alice().await;
    let bob = app.new_browser();
    let bob_blog = bob.sign_up_with_blog("bob@example.com", "bob").await;
    let bobs = bob.create_post(bob_blog, simple_body("Bob", "x"), false).await;
    delete(&bob, bob_blog, bobs["shortId"].as_str().unwrap()).await;
    let bob_entry = trash(&bob, bob_blog).await[0]["id"].as_i64().unwrap();
    for id in [bob_entry.to_string(), "abc".into(), "99999999999999999999999".into(), "0".into()] {
        let resp = alice.post(&format!("/api/my/blogs/{blog}/trash/{id}/restore"), json!({})).await;
        assert_eq!(error_field(resp, 404).await.0, "trash", "{id}");
        let resp = alice.send(Method::DELETE, &format!("/api/my/blogs/{blog}/trash/{id}"), json!({})).await;
        assert_eq!(error_field(resp, 404).await.0, "trash", "{id}");
    }
    assert_eq!(alice.get(&format!("/api/my/blogs/{bob_blog}/trash")).await.status(), 404);
    assert_eq!(trash(&bob, bob_blog).await.len(), 1, "bob's entry stays");

    // A page whose address another page took meanwhile stays in the trash, refused on slug.
    let page = alice
        .post(&format!("/api/my/blogs/{blog}/posts"), json!({ "body": simple_body("About", "me"), "page": true }))
        .await
        .json::<Value>()
        .await
        .unwrap()["post"]
        .clone();
    delete(&alice, blog, page["shortId"].as_str().unwrap()).await;
    let again = alice
        .post(&format!("/api/my/blogs/{blog}/posts"), json!({ "body": simple_body("About", "new"), "page": true }))
        .await;
    assert_eq!(again.status(), 201);
    let entry = trash(&alice, blog).await[0]["id"].as_i64().unwrap();
    let resp = alice.post(&format!("/api/my/blogs/{blog}/trash/{entry}/restore"), json!({})).await;
    assert_eq!(error_field(resp, 422).await.0, "slug");
    assert_eq!(trash(&alice, blog).await.len(), 1, "still in the trash");
}

#[tokio::test]
async fn the_quire_archive_carries_revisions_and_the_trash_and_an_import_keeps_them() {
    let (app, alice, blog) = alice().await;
    let kept = alice.create_post(blog, simple_body("Kept", "one"), false).await;
    let kept_id = kept["shortId"].as_str().unwrap();
    save(&alice, blog, kept_id, "Kept", "two", json!({})).await;
    save(&alice, blog, kept_id, "Kept", "three", json!({})).await;
    let gone = alice.create_post(blog, simple_body("Gone", "first"), false).await;
    let gone_id = gone["shortId"].as_str().unwrap();
    save(&alice, blog, gone_id, "Gone", "second", json!({ "tags": ["t"] })).await;
    delete(&alice, blog, gone_id).await;

    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("alice.quire.zip");
    let zip = crate::round_trip::export(&app, "alice", &out).await;
    let entry = zip.json(&format!("posts/{kept_id}.json"));
    let revisions = entry["revisions"].as_array().unwrap();
    assert_eq!(revisions.len(), 2);
    assert!(revisions[0]["body"].as_str().unwrap().contains("one"), "oldest first: {}", revisions[0]);
    assert!(revisions[0].get("userId").is_none(), "who saved stays on this server");
    let trash_json = zip.json("trash.json");
    assert_eq!(trash_json["trash"].as_array().unwrap().len(), 1);
    assert_eq!(trash_json["trash"][0]["post"]["title"], "Gone");

    let bob = app.new_browser();
    let bobs = bob.sign_up_with_blog("bob@example.com", "bob").await;
    let bob_blog = crate::imports::blog_of(&app, bobs).await;
    crate::round_trip::import(&app, &bob_blog, &out).await;
    crate::round_trip::import(&app, &bob_blog, &out).await;
    let posts: Value = bob.get(&format!("/api/my/blogs/{bobs}/posts")).await.json().await.unwrap();
    let imported = posts["posts"].as_array().unwrap().iter().find(|p| p["title"] == "Kept").unwrap().clone();
    let (history_of, total) = history(&bob, bobs, imported["shortId"].as_str().unwrap(), "").await;
    assert_eq!(total, 2, "its revisions came with it");
    assert_eq!(history_of[1]["body"], simple_body("Kept", "one"));
    assert_eq!(history_of[1]["author"], "", "no one of this server saved it");
    let entries = trash(&bob, bobs).await;
    assert_eq!(entries.len(), 1, "the trash came too, once though imported twice");
    let resp = bob.post(&format!("/api/my/blogs/{bobs}/trash/{}/restore", entries[0]["id"]), json!({})).await;
    assert_eq!(resp.status(), 200);
    let back = resp.json::<Value>().await.unwrap()["post"].clone();
    assert_eq!((back["body"].clone(), back["tags"].clone()), (simple_body("Gone", "second"), json!(["t"])));
    assert_eq!(history(&bob, bobs, back["shortId"].as_str().unwrap(), "").await.1, 1);
}
