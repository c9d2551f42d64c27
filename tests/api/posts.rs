//! Writing, reading, listing and deleting posts.

use serde_json::{Value, json};

use crate::helpers::{TestApp, body, error_field, errors_of, simple_body};

#[tokio::test]
async fn a_published_post_gets_a_short_id_a_permalink_and_a_publish_date() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let post = alice.create_post(blog, simple_body("Hello, World!", "First words."), false).await;
    let short_id = post["shortId"].as_str().unwrap();
    assert_eq!(short_id.len(), 8);
    assert_eq!(post["permalink"], format!("http://alice.localhost:{}/hello-world-{short_id}", app.port));
    assert!(post["publishedAt"].as_str().unwrap().ends_with('Z'));
    assert_eq!(post["body"], simple_body("Hello, World!", "First words."));
    let read: Value = alice.get(&format!("/api/my/blogs/{blog}/posts/{short_id}")).await.json().await.unwrap();
    assert_eq!(read["post"], post);
}

#[tokio::test]
async fn a_draft_is_published_once_and_stays_published() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let post = alice.create_post(blog, simple_body("Draft", "not yet"), true).await;
    assert_eq!(post["publishedAt"], Value::Null);
    let path = format!("/api/my/blogs/{blog}/posts/{}", post["shortId"].as_str().unwrap());
    let put = |draft: bool, title: &'static str| {
        let alice = alice.clone();
        let path = path.clone();
        async move {
            let resp = alice
                .send(reqwest::Method::PUT, &path, json!({ "body": simple_body(title, "text"), "draft": draft }))
                .await;
            assert_eq!(resp.status(), 200);
            resp.json::<Value>().await.unwrap()["post"].clone()
        }
    };
    assert_eq!(put(true, "Still a draft").await["publishedAt"], Value::Null);
    let published = put(false, "Out now").await;
    let date = published["publishedAt"].as_str().expect("published").to_owned();
    assert!(published["permalink"].as_str().unwrap().contains("/out-now-"));
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let edited = put(true, "Edited later").await;
    assert_eq!(edited["publishedAt"], date, "publishing happens once; no unpublish");
    assert_ne!(edited["updatedAt"], published["updatedAt"]);
}

#[tokio::test]
async fn invalid_blocks_are_refused_at_their_index_and_nothing_is_saved() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let bad = body(&[
        ("heading", json!({ "text": "" })),
        ("paragraph", json!({ "text": "ok" })),
        ("link", json!({ "url": "javascript:alert(1)", "title": "x" })),
        ("image", json!({ "url": "https://elsewhere.example/cat.png" })),
        ("spotify", json!({ "url": "https://evil.example/track" })),
        ("tweet", json!({ "url": "" })),
        ("video", json!({ "url": "https://x.com/" })),
    ]);
    let resp = alice.post(&format!("/api/my/blogs/{blog}/posts"), json!({ "body": bad, "draft": false })).await;
    assert_eq!(resp.status(), 422);
    let errors = errors_of(resp).await;
    let media = format!("http://localhost:{}/media/", app.port);
    assert_eq!(
        errors,
        vec![
            ("children.0".to_owned(), "Can't be blank".to_owned()),
            ("children.2".to_owned(), "Should start with http:// or https://".to_owned()),
            ("children.3".to_owned(), format!("Should start with {media}")),
            ("children.4".to_owned(), "Should start with https://open.spotify.com/".to_owned()),
            ("children.5".to_owned(), "Can't be blank".to_owned()),
            (
                "children.6".to_owned(),
                "Should be a block of type heading, paragraph, link, image, spotify, tweet".to_owned()
            ),
        ]
    );
    assert_eq!(app.count("posts"), 0);
}

#[tokio::test]
async fn malformed_and_oversized_bodies_are_refused_clearly() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let path = format!("/api/my/blogs/{blog}/posts");
    let (field, _) = error_field(alice.post(&path, json!({ "body": { "type": "doc" } })).await, 422).await;
    assert_eq!(field, "body");
    let (field, message) = error_field(alice.post(&path, json!({ "draft": true })).await, 400).await;
    assert_eq!((field.as_str(), message.as_str()), ("body", "Is required"));
    let many: Vec<(&str, Value)> = (0..10_000).map(|_| ("paragraph", json!({ "text": "x" }))).collect();
    let (_, message) = error_field(alice.post(&path, json!({ "body": body(&many) })).await, 422).await;
    assert!(message.contains("at most 500 blocks"), "{message}");
    let huge = "x".repeat(20 * 1024 * 1024);
    let (field, _) = error_field(alice.post(&path, json!({ "body": simple_body("Big", &huge) })).await, 413).await;
    assert_eq!(field, "body");
    let long = "y".repeat(20_001);
    let (field, message) =
        error_field(alice.post(&path, json!({ "body": simple_body("Long", &long) })).await, 422).await;
    assert_eq!((field.as_str(), message.as_str()), ("children.1", "Should be at most 20000 characters"));
    assert_eq!(app.count("posts"), 0);
}

#[tokio::test]
async fn the_post_list_pages_newest_first_with_paging_headers() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    for i in 1..=25 {
        alice.create_post(blog, simple_body(&format!("Post {i}"), "text"), i % 5 == 0).await;
    }
    let resp = alice.get(&format!("/api/my/blogs/{blog}/posts")).await;
    let header = |name: &str| resp.headers()[name].to_str().unwrap().to_owned();
    assert_eq!(
        (header("total"), header("totalPages"), header("pageNumber"), header("perPage")),
        ("25".into(), "3".into(), "1".into(), "10".into())
    );
    let first: Value = resp.json().await.unwrap();
    let titles: Vec<&str> = first["posts"].as_array().unwrap().iter().map(|p| p["title"].as_str().unwrap()).collect();
    assert_eq!(titles[..3], ["Post 25", "Post 24", "Post 23"]);
    assert_eq!(first["posts"][0]["publishedAt"], Value::Null, "drafts are listed for their owner");
    let last: Value = alice.get(&format!("/api/my/blogs/{blog}/posts?page=3")).await.json().await.unwrap();
    assert_eq!(last["posts"].as_array().unwrap().len(), 5);
    assert_eq!(last["posts"][4]["title"], "Post 1");
    for query in ["page=4", "page=0", "page=x", "page_size=100000", "page_size=0"] {
        assert_eq!(alice.get(&format!("/api/my/blogs/{blog}/posts?{query}")).await.status(), 400, "{query}");
    }
}

#[tokio::test]
async fn another_users_posts_are_404s_for_every_call_and_stay_unchanged() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let alice_blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let post = alice.create_post(alice_blog, simple_body("Mine", "text"), false).await;
    let short_id = post["shortId"].as_str().unwrap();
    let mallory = app.new_browser();
    let mallory_blog = mallory.sign_up_with_blog("mallory@example.com", "mallory").await;

    let theirs = format!("/api/my/blogs/{alice_blog}/posts/{short_id}");
    let crossed = format!("/api/my/blogs/{mallory_blog}/posts/{short_id}");
    for path in [&theirs, &crossed] {
        assert_eq!(mallory.get(path).await.status(), 404, "{path}");
        let put = mallory.send(reqwest::Method::PUT, path, json!({ "body": simple_body("Hacked", "x") })).await;
        assert_eq!(put.status(), 404, "{path}");
        assert_eq!(mallory.send(reqwest::Method::DELETE, path, json!({})).await.status(), 404, "{path}");
    }
    assert_eq!(mallory.get(&format!("/api/my/blogs/{alice_blog}/posts")).await.status(), 404);
    let resp =
        mallory.post(&format!("/api/my/blogs/{alice_blog}/posts"), json!({ "body": simple_body("Spam", "x") })).await;
    assert_eq!(resp.status(), 404);
    let resp = mallory.post(&format!("/api/my/blogs/{alice_blog}/posts/search"), json!({ "query": "Mine" })).await;
    assert_eq!(resp.status(), 404);
    let still: Value = alice.get(&theirs).await.json().await.unwrap();
    assert_eq!(still["post"], post);
    assert_eq!(app.count("posts"), 1);
}

#[tokio::test]
async fn deleting_a_post_removes_it_from_the_list_and_from_search() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let post = alice.create_post(blog, simple_body("Ephemeral", "gone soon"), false).await;
    assert_eq!(alice.search_titles(blog, "ephemeral").await, ["Ephemeral"]);
    let path = format!("/api/my/blogs/{blog}/posts/{}", post["shortId"].as_str().unwrap());
    assert_eq!(alice.send(reqwest::Method::DELETE, &path, json!({})).await.status(), 200);
    assert_eq!(alice.get(&path).await.status(), 404);
    assert!(alice.search_titles(blog, "ephemeral").await.is_empty());
    assert_eq!(alice.send(reqwest::Method::DELETE, &path, json!({})).await.status(), 404);
}

#[tokio::test]
async fn a_blog_holds_at_most_ten_thousand_posts_and_the_next_one_is_refused_with_a_message() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    // 9,999 posts written straight into the database, as if saved over the years.
    let mut db = app.db();
    let tx = db.transaction().unwrap();
    for i in 0..9_999 {
        tx.execute(
            "INSERT INTO posts (blog_id, short_id, slug, title, body) VALUES (?1, ?2, 'old', 'Old', '{\"type\":\"root\",\"children\":[]}')",
            rusqlite::params![blog, format!("{i:08}")],
        )
        .unwrap();
    }
    tx.commit().unwrap();
    alice.create_post(blog, simple_body("Number 10000", "the last one"), true).await;
    let resp = alice
        .post(&format!("/api/my/blogs/{blog}/posts"), json!({ "body": simple_body("One more", "x"), "draft": false }))
        .await;
    assert_eq!(error_field(resp, 422).await, ("blog".to_owned(), "A blog can have at most 10000 posts".to_owned()));
    assert_eq!(app.count("posts"), 10_000, "nothing was written");
}
