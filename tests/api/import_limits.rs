//! What one upload may make the server hold (docs/import.md, "Limits"): a Ghost export is read
//! one post at a time, so a file of millions of empty posts grows the real binary's memory by a
//! bounded amount, during the upload and while the import runs; an export past
//! `--import-max-items` is refused with a message; a WordPress zip is unpacked in the data
//! directory, never in the system's temporary folder; an import whose account is deleted meanwhile
//! leaves no file behind.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::helpers::{Browser, ServeProcess, errors_of};
use crate::import_uploads::{finished, upload, wordpress_export, zip_of};

/// A Ghost export of `posts` empty posts (`{}`), three bytes each.
fn ghost_of_empty_posts(posts: usize) -> Vec<u8> {
    let mut json = br#"{"db":[{"meta":{"version":"5.0.0"},"data":{"posts":["#.to_vec();
    json.reserve(posts * 3 + 64);
    for i in 0..posts {
        json.extend_from_slice(if i == 0 { b"{}" } else { b",{}" });
    }
    json.extend_from_slice(br#"],"tags":[],"posts_tags":[]}}]}"#);
    json
}

const MIB: u64 = 1024 * 1024;

/// Two million posts in 6 MB: before the reader streamed, the upload alone grew the server by
/// about 900 MB (every post a struct, all at once). Now the upload's check and the import's run
/// each hold a post or two at a time.
#[tokio::test]
async fn a_ghost_export_of_two_million_posts_is_read_one_post_at_a_time_in_bounded_memory() {
    const POSTS: usize = 2_000_000;
    const BOUND: u64 = 100 * MIB;
    let server = ServeProcess::start_with_env(&[("QUIRE_IMPORT_MAX_ITEMS", "2000000")]);
    let alice = Browser::new(&server.url, server.port);
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let export = ghost_of_empty_posts(POSTS);
    assert!(export.len() < 7 * MIB as usize);

    let before = server.peak_resident_bytes();
    let resp = upload(&alice, blog, "fileName=ghost.json", export).await;
    let upload_growth = server.peak_resident_bytes().saturating_sub(before);
    assert_eq!(resp.status(), 202);
    let id = resp.json::<Value>().await.unwrap()["import"]["id"].as_i64().unwrap();
    assert!(upload_growth < BOUND, "the upload grew the server by {} MiB", upload_growth / MIB);

    // The import runs (the blog takes 10,000 posts; the rest is counted): its memory too is
    // bounded, measured until it ends or for at most two minutes.
    let deadline = Instant::now() + Duration::from_secs(120);
    let import = loop {
        let import: Value = alice.get(&format!("/api/my/blogs/{blog}/imports/{id}")).await.json().await.unwrap();
        let import = import["import"].clone();
        if import["state"] == "done" || import["state"] == "failed" || Instant::now() > deadline {
            break import;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let run_growth = server.peak_resident_bytes().saturating_sub(before);
    assert!(run_growth < BOUND, "the import grew the server by {} MiB: {import}", run_growth / MIB);
    assert_eq!(import["progress"]["total"], POSTS as u64, "{import}");
    assert!(import["progress"]["done"].as_u64().unwrap() >= 200, "the import has written posts: {import}");
}

/// One more post than `--import-max-items` (here through its environment variable) refuses the
/// file when it is uploaded, with a message naming the limit; as many as the limit are taken.
#[tokio::test]
async fn an_export_with_more_posts_than_the_servers_limit_is_refused_with_a_message() {
    let server = ServeProcess::start_with_env(&[("QUIRE_IMPORT_MAX_ITEMS", "10")]);
    let alice = Browser::new(&server.url, server.port);
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;

    let resp = upload(&alice, blog, "fileName=ghost.json", ghost_of_empty_posts(11)).await;
    assert_eq!(resp.status(), 422);
    assert_eq!(
        errors_of(resp).await,
        [(
            "file".to_owned(),
            "This Ghost export holds more than 10 posts and pages: Quire imports at most 10 at once (the server's --import-max-items)"
                .to_owned()
        )]
    );
    let imports: Value = alice.get(&format!("/api/my/blogs/{blog}/imports")).await.json().await.unwrap();
    assert_eq!(imports["imports"], serde_json::json!([]), "nothing was queued");

    let resp = upload(&alice, blog, "fileName=ghost.json", ghost_of_empty_posts(10)).await;
    assert_eq!(resp.status(), 202, "as many as the limit are taken");
}

/// A WordPress.com export (a zip holding the .xml) is unpacked into the data directory: a server
/// whose system temporary folder does not exist imports it all the same.
#[tokio::test]
async fn a_wordpress_zip_is_unpacked_in_the_data_directory_not_the_temporary_folder() {
    let server = ServeProcess::start_with_env(&[("TMPDIR", "/nonexistent/quire-tmp")]);
    let alice = Browser::new(&server.url, server.port);
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let site = crate::fetch::Origin::start(|_| crate::fetch::Reply::Status(404)).await;
    let xml = wordpress_export(&site);
    let zipped = zip_of(&[("harbour.wordpress.2026-11-24.000.xml", &xml)]);

    let resp = upload(&alice, blog, "fileName=harbour.zip", zipped).await;
    let status = resp.status();
    let body: Value = resp.json().await.unwrap();
    assert_eq!(status, 202, "{body}");
    let id = body["import"]["id"].as_i64().unwrap();
    let import = finished(&alice, blog, id).await;
    assert_eq!(import["state"], "done", "{import}");
    assert_eq!((import["report"]["posts"].as_u64(), import["report"]["pages"].as_u64()), (Some(9), Some(2)));
}

/// An import stores its images as the account's uploads; when the account is deleted while the
/// import runs, nothing of it stays on disk: no image file (each staged file takes its name only
/// once its row is recorded, which a gone account refuses), no export file.
#[tokio::test]
async fn an_import_whose_account_is_deleted_meanwhile_leaves_no_file_behind() {
    const POSTS: usize = 300;
    let site = crate::fetch::Origin::start(|path| {
        let mut image = crate::fetch::PNG.to_vec();
        image.extend(path.bytes());
        crate::fetch::Reply::Body("image/png", image)
    })
    .await;
    let app = crate::helpers::TestApp::spawn_with(|config| config.fetch_allow_loopback = true).await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let posts: Vec<Value> = (0..POSTS)
        .map(|i| {
            let html = format!("<p>Post {i}</p><img src=\"{}\">", site.url(&format!("/img/{i}.png")));
            serde_json::json!({ "id": format!("p{i}"), "title": format!("Post {i}"), "html": html, "status": "published" })
        })
        .collect();
    let export = serde_json::json!({ "db": [{ "meta": {}, "data": { "posts": posts } }] }).to_string();

    let resp = upload(&alice, blog, "fileName=ghost.json", export.into_bytes()).await;
    assert_eq!(resp.status(), 202);
    // Deleted once the import has stored some of its images.
    let uploads = app.dir.path().join("uploads");
    let files = |dir: &std::path::Path| std::fs::read_dir(dir).map_or(0, Iterator::count);
    let deadline = Instant::now() + Duration::from_secs(30);
    while files(&uploads) < 5 {
        assert!(Instant::now() < deadline, "the import stores images");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let deleted = alice.send(reqwest::Method::DELETE, &format!("/api/my/blogs/{blog}"), Value::Null).await;
    assert_eq!(deleted.status(), 200);

    // The import goes on to the end of its batch, then stops: wait until no request has come
    // for a second (at most 30 s), then look.
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut seen = site.connections();
    loop {
        tokio::time::sleep(Duration::from_secs(1)).await;
        let now = site.connections();
        if now == seen || Instant::now() > deadline {
            break;
        }
        seen = now;
    }
    assert_eq!(app.count("images"), 0);
    let left: Vec<_> = std::fs::read_dir(&uploads).unwrap().filter_map(Result::ok).map(|e| e.file_name()).collect();
    assert!(left.is_empty(), "{} files left in uploads/, among them {:?}", left.len(), left.first());
    assert_eq!(files(&app.dir.path().join("exports")), 0, "the uploaded export is removed");
}
