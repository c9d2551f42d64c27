//! The owner's one queue (issue 31, docs/api.md 6.13.3): fediverse replies, comments and
//! webmentions together, newest first, held / approved / spam, acted on one by one or in bulk,
//! and what the post's page then shows.

use std::time::Duration;

use reqwest::Method;
use reqwest::header::HOST;
use serde_json::{Value, json};

use crate::helpers::{TestApp, error_field, simple_body};

#[tokio::test]
async fn replies_comments_and_webmentions_wait_in_one_queue_and_each_kind_is_approved_spammed_or_deleted() {
    let app = TestApp::spawn().await;
    let alice = app.browser.clone();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let post = alice.create_post(blog, simple_body("Hello readers", "First words"), false).await;
    let short_id = post["shortId"].as_str().unwrap().to_owned();
    assert_eq!(
        alice.send(Method::PUT, &format!("/api/my/blogs/{blog}/comments"), json!({ "mode": "held" })).await.status(),
        200
    );
    let path = format!("/{}", post["permalink"].as_str().unwrap().splitn(4, '/').nth(3).unwrap());
    let host = format!("alice.localhost:{}", app.port);

    // A reader's comment through the form (its token needs a few seconds' fill time).
    let html = app.get_with_host(&host, &path).await.text().await.unwrap();
    let form = &html[html.find("class=\"comment-form\"").unwrap()..];
    let value = |name: &str| {
        let at = form.find(&format!("name=\"{name}\" value=\"")).unwrap() + name.len() + 15;
        form[at..at + form[at..].find('"').unwrap()].to_owned()
    };
    let (post_field, token) = (value("post"), value("token"));
    tokio::time::sleep(Duration::from_millis(3100)).await;
    let sent = reqwest::Client::new()
        .post(format!("http://127.0.0.1:{}/comments", app.port))
        .header(HOST, &host)
        .form(&[("post", post_field.as_str()), ("token", token.as_str()), ("name", "Ann"), ("text", "A *comment*")])
        .send()
        .await
        .unwrap();
    assert_eq!(sent.status(), 200);
    // Then a reply from the fediverse and a verified webmention (as the inbox and the verifier store them).
    let db = app.db();
    db.execute(
        "INSERT INTO replies (note_id, post_id, actor_id, author_name, author_handle, author_url, url, text,
             published_at, state, actor_host)
         VALUES ('https://peer.example/notes/1', (SELECT id FROM posts WHERE short_id = ?1),
             'https://peer.example/users/bob', 'Bob', '@bob@peer.example', 'https://peer.example/@bob',
             'https://peer.example/@bob/1', 'A reply from the fediverse', '2026-11-24T10:00:00.000Z', 'held', 'peer.example')",
        [&short_id],
    )
    .unwrap();
    let reply_id = db.last_insert_rowid();
    db.execute(
        "INSERT INTO responses (blog_id, post_id, kind, state, author_name, author_url, source_url, title, text, created_at)
         SELECT blog_id, id, 'webmention', 'held', 'Cy', 'https://cy.example/', 'https://cy.example/on-hello',
             'On hello', 'Alice wrote a fine post', strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+1 second')
         FROM posts WHERE short_id = ?1",
        [&short_id],
    )
    .unwrap();
    drop(db);

    let responses = format!("/api/my/blogs/{blog}/responses");
    let held: Value = alice.get(&responses).await.json().await.unwrap();
    let held = held["responses"].as_array().unwrap().clone();
    let kinds: Vec<&str> = held.iter().map(|r| r["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["webmention", "reply", "comment"], "all three kinds, newest first");
    let (mention, reply, comment) = (&held[0], &held[1], &held[2]);
    assert_eq!(reply["id"], reply_id);
    assert_eq!(
        (reply["authorHandle"].as_str(), reply["sourceUrl"].as_str()),
        (Some("@bob@peer.example"), Some("https://peer.example/@bob/1"))
    );
    assert_eq!(
        (mention["title"].as_str(), mention["sourceUrl"].as_str()),
        (Some("On hello"), Some("https://cy.example/on-hello"))
    );
    assert_eq!((comment["text"].as_str(), comment["authorHandle"].as_str()), (Some("A *comment*"), None));
    assert!(held.iter().all(|r| r["postId"] == short_id.as_str() && r["postTitle"] == "Hello readers"));
    let second: Value = alice.get(&format!("{responses}?page=2&page_size=2")).await.json().await.unwrap();
    assert_eq!(second["responses"][0]["kind"], "comment", "paged across the kinds");
    let (field, _) = error_field(alice.get(&format!("{responses}?state=sideways")).await, 400).await;
    assert_eq!(field, "state");

    // The fediverse reply to Spam through its own route: out of the held list and the post's count.
    let spammed = alice.post(&format!("/api/my/blogs/{blog}/replies/{reply_id}/spam"), json!({})).await;
    assert_eq!(spammed.json::<Value>().await.unwrap()["reply"]["state"], "spam");
    let spam: Value = alice.get(&format!("{responses}?state=spam")).await.json().await.unwrap();
    assert_eq!(spam["responses"][0]["kind"], "reply");
    let posts: Value = alice.get(&format!("/api/my/blogs/{blog}/posts")).await.json().await.unwrap();
    assert_eq!((posts["posts"][0]["replies"].as_i64(), posts["posts"][0]["responses"].as_i64()), (Some(0), Some(2)));

    // Another owner can act on none of them, one by one or in bulk.
    let bob = app.new_browser();
    let bobs = bob.sign_up_with_blog("bob@example.com", "bob").await;
    let resp = bob.post(&format!("/api/my/blogs/{bobs}/replies/{reply_id}/approve"), json!({})).await;
    assert_eq!(error_field(resp, 404).await.0, "reply");
    let ids = json!([comment["id"], mention["id"]]);
    let done = bob
        .post(
            &format!("/api/my/blogs/{bobs}/responses/bulk"),
            json!({ "ids": ids, "replyIds": [reply_id], "action": "approve" }),
        )
        .await;
    assert_eq!(done.json::<Value>().await.unwrap(), json!({ "done": 0 }));

    // One bulk approval of all three kinds: each shows under the post, with its kind.
    let done = alice
        .post(&format!("{responses}/bulk"), json!({ "ids": ids, "replyIds": [reply_id], "action": "approve" }))
        .await;
    assert_eq!(done.json::<Value>().await.unwrap(), json!({ "done": 3 }));
    let html = app.get_with_host(&host, &path).await.text().await.unwrap();
    assert!(html.contains("A reply from the fediverse"), "the reply is shown");
    assert!(html.contains("A <em>comment</em>"), "the comment is shown through the renderer");
    assert!(
        html.contains("Alice wrote a fine post") && html.contains("mentioned this on their blog"),
        "the webmention"
    );
    let approved: Value = alice.get(&format!("{responses}?state=approved")).await.json().await.unwrap();
    assert_eq!(approved["responses"].as_array().unwrap().len(), 3);

    // A bulk delete of all three empties the page's responses.
    let done = alice
        .post(&format!("{responses}/bulk"), json!({ "ids": ids, "replyIds": [reply_id], "action": "delete" }))
        .await;
    assert_eq!(done.json::<Value>().await.unwrap(), json!({ "done": 3 }));
    let html = app.get_with_host(&host, &path).await.text().await.unwrap();
    assert!(!html.contains("A reply from the fediverse") && !html.contains("Alice wrote a fine post"));
    for state in ["held", "approved", "spam"] {
        let left: Value = alice.get(&format!("{responses}?state={state}")).await.json().await.unwrap();
        assert_eq!(left["responses"], json!([]), "{state}");
    }
    let (field, _) = error_field(
        alice
            .post(&format!("{responses}/bulk"), json!({ "ids": [], "replyIds": vec![1; 501], "action": "spam" }))
            .await,
        422,
    )
    .await;
    assert_eq!(field, "ids", "at most 500 at once, replies counted");
}
