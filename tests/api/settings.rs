//! Blog settings: name, theme, favicon, addons, and deleting the account completely.

use reqwest::Method;
use reqwest::multipart::{Form, Part};
use serde_json::{Value, json};

use crate::helpers::{Browser, TestApp, error_field, simple_body};

async fn blog_of(browser: &Browser, blog: i64) -> Value {
    browser.get(&format!("/api/my/blogs/{blog}")).await.json::<Value>().await.unwrap()["blog"].clone()
}

#[tokio::test]
async fn renaming_the_blog_saves_a_trimmed_name_and_refuses_bad_ones() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let resp =
        alice.send(Method::PUT, &format!("/api/my/blogs/{blog}"), json!({ "name": "  Alice's <Notes>  " })).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.json::<Value>().await.unwrap()["blog"]["name"], "Alice's <Notes>");
    for (name, expected) in
        [("   ", "Can't be blank"), (&"n".repeat(10_000) as &str, "at most 100"), ("two\nlines", "one line")]
    {
        let (field, message) =
            error_field(alice.send(Method::PUT, &format!("/api/my/blogs/{blog}"), json!({ "name": name })).await, 422)
                .await;
        assert_eq!(field, "name");
        assert!(message.contains(expected), "{message}");
    }
    assert_eq!(blog_of(&alice, blog).await["name"], "Alice's <Notes>");
}

#[tokio::test]
async fn choosing_a_theme_and_an_icon_shows_in_the_blog_and_unknown_ids_are_refused() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let themes: Value = alice.get("/api/themes").await.json().await.unwrap();
    let dark = themes["themes"].as_array().unwrap().iter().find(|t| t["name"] == "Dark").unwrap()["id"].clone();
    let resp = alice.send(Method::PUT, &format!("/api/my/blogs/{blog}/theme"), json!({ "theme_id": dark })).await;
    assert_eq!(resp.json::<Value>().await.unwrap()["blog"]["theme"]["name"], "Dark");
    let page3: Value = alice.get("/api/favicons?page=3&page_size=100").await.json().await.unwrap();
    let icon = page3["favicons"][7].clone();
    let resp =
        alice.send(Method::PUT, &format!("/api/my/blogs/{blog}/favicon"), json!({ "favicon_id": icon["id"] })).await;
    assert_eq!(resp.json::<Value>().await.unwrap()["blog"]["favicon"], icon);

    let (field, _) = error_field(
        alice.send(Method::PUT, &format!("/api/my/blogs/{blog}/theme"), json!({ "theme_id": 9999 })).await,
        422,
    )
    .await;
    assert_eq!(field, "themeId");
    let (field, _) = error_field(
        alice.send(Method::PUT, &format!("/api/my/blogs/{blog}/favicon"), json!({ "favicon_id": -1 })).await,
        422,
    )
    .await;
    assert_eq!(field, "faviconId");
    let (field, _) = error_field(
        alice.send(Method::PUT, &format!("/api/my/blogs/{blog}/theme"), json!({ "theme_id": "dark" })).await,
        400,
    )
    .await;
    assert_eq!(field, "body");
    let after = blog_of(&alice, blog).await;
    assert_eq!((after["theme"]["name"].clone(), after["favicon"].clone()), (json!("Dark"), icon));
}

#[tokio::test]
async fn addons_move_between_the_lists_and_repeating_a_call_changes_nothing() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let names = |list: &'static str| {
        let alice = alice.clone();
        async move {
            let body: Value = alice.get(&format!("/api/my/blogs/{blog}/addons/{list}")).await.json().await.unwrap();
            body["addons"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a["name"].as_str().unwrap().to_owned())
                .collect::<Vec<_>>()
        }
    };
    assert!(names("installed").await.is_empty());
    let available = names("uninstalled").await;
    assert_eq!(available.len(), 7);
    assert!(available.contains(&"Reading time".to_owned()));
    let path = format!("/api/my/blogs/{blog}/addons/1/installation");
    for _ in 0..2 {
        assert_eq!(alice.post(&path, json!({})).await.status(), 200);
    }
    assert_eq!(names("installed").await, ["Reading time"]);
    assert_eq!(names("uninstalled").await.len(), 6);
    assert_eq!(app.count("installations"), 1);
    for _ in 0..2 {
        assert_eq!(alice.send(Method::DELETE, &path, json!({})).await.status(), 200);
    }
    assert!(names("installed").await.is_empty());
    for bad in ["999", "abc", "-1"] {
        let (field, _) =
            error_field(alice.post(&format!("/api/my/blogs/{blog}/addons/{bad}/installation"), json!({})).await, 404)
                .await;
        assert_eq!(field, "addon");
    }
    assert_eq!(app.count("installations"), 0);
}

#[tokio::test]
async fn another_users_blog_settings_are_404s_and_unchanged() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let mallory = app.new_browser();
    mallory.sign_up_with_blog("mallory@example.com", "mallory").await;
    let calls = [
        (Method::PUT, format!("/api/my/blogs/{blog}"), json!({ "name": "pwned" })),
        (Method::PUT, format!("/api/my/blogs/{blog}/theme"), json!({ "theme_id": 2 })),
        (Method::PUT, format!("/api/my/blogs/{blog}/favicon"), json!({ "favicon_id": 5 })),
        (Method::GET, format!("/api/my/blogs/{blog}/addons/installed"), json!({})),
        (Method::POST, format!("/api/my/blogs/{blog}/addons/1/installation"), json!({})),
        (Method::DELETE, format!("/api/my/blogs/{blog}/addons/1/installation"), json!({})),
        (Method::DELETE, format!("/api/my/blogs/{blog}"), json!({})),
    ];
    let before = blog_of(&alice, blog).await;
    for (method, path, body) in calls {
        assert_eq!(mallory.send(method.clone(), &path, body).await.status(), 404, "{method} {path}");
    }
    assert_eq!(blog_of(&alice, blog).await, before);
    assert_eq!(app.count("installations"), 0);
}

const PNG: &[u8] =
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89";

async fn upload(browser: &Browser, url: &str, bytes: &[u8]) -> String {
    let form = Form::new().part("image", Part::bytes(bytes.to_vec()).file_name("i.png")).text("type", "file");
    let resp = browser
        .client
        .post(format!("{url}/api/images"))
        .header("CSRF-Token", browser.cookie("csrf_token").unwrap())
        .multipart(form)
        .send()
        .await
        .unwrap();
    resp.json::<Value>().await.unwrap()["data"]["link"].as_str().unwrap().to_owned()
}

/// Every text value in every table, for looking for leftovers.
fn all_text(conn: &rusqlite::Connection) -> String {
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let mut out = String::new();
    for table in tables {
        let mut stmt = conn.prepare(&format!("SELECT * FROM {table}")).unwrap();
        let columns = stmt.column_count();
        let mut rows = stmt.query([]).unwrap();
        while let Some(row) = rows.next().unwrap() {
            for i in 0..columns {
                if let Ok(text) = row.get::<_, String>(i) {
                    out.push_str(&format!("{table}: {text}\n"));
                }
            }
        }
    }
    out
}

#[tokio::test]
async fn deleting_the_account_leaves_nothing_of_the_user_and_retires_the_subdomain() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let second_device = app.new_browser();
    second_device.sign_in_as("alice@example.com", false).await;
    alice.create_post(blog, simple_body("Alice's secret diary", "zanzibar"), false).await;
    alice.create_post(blog, simple_body("Draft", "zanzibar"), true).await;
    alice.post(&format!("/api/my/blogs/{blog}/addons/3/installation"), json!({})).await;
    // Her readers' responses (issue 31): a comment, webmentions received and to send, the
    // commenters she trusted and blocked.
    {
        let conn = app.db();
        let post: i64 =
            conn.query_row("SELECT id FROM posts WHERE blog_id = ?1 LIMIT 1", [blog], |r| r.get(0)).unwrap();
        conn.execute_batch(&format!(
            "INSERT INTO responses (blog_id, post_id, kind, state, author_name, text, commenter)
                 VALUES ({blog}, {post}, 'comment', 'approved', 'A reader of alice', 'Dear alice', 'alice-fan');
             INSERT INTO incoming_webmentions (blog_id, post_id, source, target, client_key)
                 VALUES ({blog}, {post}, 'https://peer.example/on-alice', 'https://alice.example/', 'alice-sender');
             INSERT INTO outgoing_webmentions (blog_id, post_id, target) VALUES ({blog}, {post}, 'https://peer.example/alice-linked');
             INSERT INTO trusted_commenters (blog_id, commenter) VALUES ({blog}, 'alice-fan');
             INSERT INTO blocked_commenters (blog_id, client_key) VALUES ({blog}, 'alice-blocked');"
        ))
        .unwrap();
    }
    let only_hers = upload(&alice, &app.url, &[PNG, b"alice only"].concat()).await;
    let bob = app.new_browser();
    let bob_blog = bob.sign_up_with_blog("bob@example.com", "bob").await;
    bob.create_post(bob_blog, simple_body("Bob's post", "zanzibar"), false).await;
    let shared = upload(&alice, &app.url, &[PNG, b"shared"].concat()).await;
    assert_eq!(upload(&bob, &app.url, &[PNG, b"shared"].concat()).await, shared);

    let resp = alice.send(Method::DELETE, &format!("/api/my/blogs/{blog}"), json!({})).await;
    assert_eq!(resp.status(), 200);
    assert!(alice.cookie("session").is_none() && alice.cookie("blog_id").is_none());
    let again = alice.send(Method::DELETE, &format!("/api/my/blogs/{blog}"), json!({})).await;
    assert_eq!(again.status(), 401, "a second click finds no session");
    assert_eq!(second_device.get("/api/my/session").await.status(), 401, "every session is gone");

    let conn = app.db();
    let leftovers = all_text(&conn);
    assert!(!leftovers.contains("alice@example.com"), "{leftovers}");
    assert!(!leftovers.contains("secret diary"));
    let alice_lines: Vec<&str> = leftovers.lines().filter(|l| l.contains("alice")).collect();
    assert_eq!(alice_lines, ["retired_subdomains: alice"], "only the retired subdomain remains");
    for table in [
        "users",
        "social_accounts",
        "sessions",
        "blogs",
        "posts",
        "installations",
        "images",
        "responses",
        "incoming_webmentions",
        "outgoing_webmentions",
        "trusted_commenters",
        "blocked_commenters",
    ] {
        let count: i64 = conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0)).unwrap();
        let bobs = match table {
            "users" | "blogs" | "social_accounts" | "sessions" | "posts" | "images" => 1,
            _ => 0,
        };
        assert_eq!(count, bobs, "{table} holds only bob's rows");
    }
    let uploads = |name: &str| app.dir.path().join("uploads").join(name.rsplit('/').next().unwrap());
    assert!(!uploads(&only_hers).exists(), "her own image file is removed");
    assert!(uploads(&shared).exists(), "a file bob also uploaded stays");
    assert_eq!(bob.search_titles(bob_blog, "zanzibar").await, ["Bob's post"]);

    let dir = app.dir.clone();
    let port = app.port;
    app.stop().await;
    let index = quire::search::SearchIndex::open(&dir.path().join("index")).unwrap();
    assert!(index.search(blog, "zanzibar", false, 10).unwrap().is_empty(), "nothing of hers in the index");
    assert!(index.search(blog, "*", false, 10).unwrap().is_empty());
    drop(index);

    let app = TestApp::spawn_at(dir, port, |_| {}).await;
    let returning = app.new_browser();
    returning.sign_up("alice@example.com").await;
    let (_, message) = error_field(returning.post("/api/my/blogs", json!({ "subdomain": "alice" })).await, 422).await;
    assert!(message.contains("taken"), "{message}");
}
