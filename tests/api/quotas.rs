//! Issue 29's quotas per blog through the real server, at their edges: upload storage
//! (`--upload-quota-mb`, a 413 naming the quota and the use), posts created per day
//! (`--max-posts-per-day`) and imports started per day (`--max-imports-per-day`), both 429.

use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{TestApp, body, error_field};
use crate::import_uploads;
use crate::trust_states::upload;

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\xcf\xc0\xf0\x1f\x00\x05\x00\x01\xff\x89\x99=\x1d\x00\x00\x00\x00IEND\xaeB`\x82";
const MIB: i64 = 1024 * 1024;

#[tokio::test]
async fn an_upload_exactly_at_the_quota_is_stored_and_one_byte_over_is_a_413_naming_quota_and_use() {
    let app = TestApp::spawn_with(|config| config.public.quotas.upload_bytes = MIB as u64).await;
    let alice = app.browser.clone();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let png = PNG.len() as i64;
    // What alice uploaded before, leaving exactly room for one PNG.
    let earlier = |size: i64| {
        app.db()
            .execute(
                "INSERT OR REPLACE INTO images (user_id, hash, mime, size) VALUES (1, 'earlier', 'image/png', ?1)",
                [size],
            )
            .unwrap()
    };
    earlier(MIB - png);
    assert_eq!(upload(&alice, PNG.to_vec()).await.status(), 200, "exactly at the quota");
    // The same file again counts once: still at the quota, and fine.
    assert_eq!(upload(&alice, PNG.to_vec()).await.status(), 200);

    // A different file one byte past the quota.
    let mut other = PNG.to_vec();
    other.push(0);
    earlier(MIB - png - other.len() as i64 + 1);
    let resp = upload(&alice, other.clone()).await;
    let refused = "This blog's uploads are limited to 1 MB, and it uses 1023.9 KB already";
    assert_eq!(error_field(resp, 413).await, ("image".to_owned(), refused.to_owned()));
    assert_eq!(app.count("images"), 2, "nothing was recorded");
    let files = std::fs::read_dir(app.dir.path().join("uploads")).unwrap().count();
    assert_eq!(files, 1, "nothing was written");

    // Settings shows the use and the quota.
    let shown: Value = alice.get(&format!("/api/my/blogs/{blog}")).await.json().await.unwrap();
    assert_eq!(shown["blog"]["uploadBytes"], MIB - other.len() as i64 + 1);
    assert_eq!(shown["blog"]["uploadQuotaBytes"], MIB);

    // A blog already over a lowered quota keeps everything; only new uploads are refused.
    earlier(2 * MIB);
    let resp = upload(&alice, other).await;
    assert_eq!(error_field(resp, 413).await.1, "This blog's uploads are limited to 1 MB, and it uses 2 MB already");
    assert_eq!(app.count("images"), 2);
}

#[tokio::test]
async fn posts_past_the_daily_quota_are_a_429_and_deleting_one_gives_no_place_back() {
    let app = TestApp::spawn_with(|config| config.public.quotas.posts_per_day = 3).await;
    let alice = app.browser.clone();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let mut first = None;
    for n in 0..3 {
        let post = alice.create_post(blog, body(&[("heading", json!({ "text": format!("Post {n}") }))]), false).await;
        first.get_or_insert(post["shortId"].as_str().unwrap().to_owned());
    }
    let deleted =
        alice.send(Method::DELETE, &format!("/api/my/blogs/{blog}/posts/{}", first.unwrap()), json!({})).await;
    assert!(deleted.status().is_success());
    let new = json!({ "body": body(&[("heading", json!({ "text": "Fourth" }))]), "draft": true });
    let resp = alice.post(&format!("/api/my/blogs/{blog}/posts"), new.clone()).await;
    let refused = "A blog can create at most 3 posts a day; try again tomorrow";
    assert_eq!(error_field(resp, 429).await, ("blog".to_owned(), refused.to_owned()));
    assert_eq!(app.count("posts"), 2);
    // Editing is not creating.
    let posts: Value = alice.get(&format!("/api/my/blogs/{blog}/posts")).await.json().await.unwrap();
    let short_id = posts["posts"][0]["shortId"].as_str().unwrap().to_owned();
    let edit = json!({ "body": body(&[("heading", json!({ "text": "Edited" }))]), "draft": false });
    assert_eq!(alice.send(Method::PUT, &format!("/api/my/blogs/{blog}/posts/{short_id}"), edit).await.status(), 200);
    // A day later the quota is whole again.
    app.db().execute("UPDATE quota_uses SET at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-25 hours')", []).unwrap();
    assert_eq!(alice.post(&format!("/api/my/blogs/{blog}/posts"), new).await.status(), 201);
}

#[tokio::test]
async fn imports_past_the_daily_quota_are_a_429_before_the_file_is_read() {
    let app = TestApp::spawn_with(|config| config.public.quotas.imports_per_day = 1).await;
    let alice = app.browser.clone();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let export = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/import/writefreely/mira-202611240250.json"),
    )
    .unwrap();
    let import = import_uploads::imported(&alice, blog, "", export.clone()).await;
    assert_eq!(import["state"], "done", "{import}");
    let id = import["id"].as_i64().unwrap();
    let forgotten = alice.send(Method::DELETE, &format!("/api/my/blogs/{blog}/imports/{id}"), json!({})).await;
    assert!(forgotten.status().is_success());
    let resp = import_uploads::upload(&alice, blog, "", export).await;
    let refused = "A blog can start at most 1 import a day; try again tomorrow";
    assert_eq!(error_field(resp, 429).await, ("file".to_owned(), refused.to_owned()));
    let kept: Vec<_> = std::fs::read_dir(app.dir.path().join("exports")).map(|d| d.count()).into_iter().collect();
    assert!(kept.iter().all(|n| *n == 0), "no file is kept: {kept:?}");
}
