//! The built-in image host: real types only, capped, named by content, served safely.

use reqwest::multipart::{Form, Part};
use serde_json::Value;

use crate::helpers::{Browser, ServeProcess, TestApp, error_field};

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\xcf\xc0\xf0\x1f\x00\x05\x00\x01\xff\x89\x99=\x1d\x00\x00\x00\x00IEND\xaeB`\x82";

async fn upload(browser: &Browser, url: &str, bytes: Vec<u8>, file_name: &str) -> reqwest::Response {
    browser.open_app().await;
    let form = Form::new().part("image", Part::bytes(bytes).file_name(file_name.to_owned())).text("type", "file");
    browser
        .client
        .post(format!("{url}/api/images"))
        .header("CSRF-Token", browser.cookie("csrf_token").unwrap_or_default())
        .multipart(form)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn an_uploaded_png_is_stored_by_its_hash_and_served_with_its_type() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    alice.sign_up("alice@example.com").await;
    let resp = upload(&alice, &app.url, PNG.to_vec(), "cat.gif").await;
    assert_eq!(resp.status(), 200);
    let body: Value = resp.json().await.unwrap();
    let link = body["data"]["link"].as_str().unwrap().to_owned();
    assert!(
        link.starts_with(&format!("{}/media/", app.url)) && link.ends_with(".png"),
        "type from bytes, not the name: {link}"
    );
    let again: Value = upload(&alice, &app.url, PNG.to_vec(), "other.png").await.json().await.unwrap();
    assert_eq!(again["data"]["link"], link, "same bytes, same file");
    let served = app.client.get(&link).send().await.unwrap();
    assert_eq!(served.status(), 200);
    assert_eq!(served.headers()["content-type"], "image/png");
    assert_eq!(served.headers()["x-content-type-options"], "nosniff");
    assert!(served.headers()["cache-control"].to_str().unwrap().contains("immutable"));
    assert_eq!(served.bytes().await.unwrap().as_ref(), PNG);
    assert_eq!(app.count("images"), 1);
}

#[tokio::test]
async fn files_that_are_not_jpeg_png_or_gif_are_refused_whatever_their_name() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    alice.sign_up("alice@example.com").await;
    for (bytes, name) in [
        (b"<html><script>alert(1)</script></html>".to_vec(), "evil.png"),
        (b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>".to_vec(), "x.gif"),
        (b"%PDF-1.4".to_vec(), "doc.jpg"),
    ] {
        let (field, message) = error_field(upload(&alice, &app.url, bytes, name).await, 422).await;
        assert_eq!(field, "image");
        assert!(message.contains("JPEG, PNG and GIF"), "{message}");
    }
    let (_, message) = error_field(upload(&alice, &app.url, Vec::new(), "empty.png").await, 422).await;
    assert_eq!(message, "The file is empty");
    let mut big = PNG.to_vec();
    big.resize(11 * 1024 * 1024, 0);
    let resp = upload(&alice, &app.url, big, "big.png").await;
    assert_eq!(resp.status(), 413);
    assert_eq!(app.count("images"), 0);
    assert_eq!(std::fs::read_dir(app.dir.path().join("uploads")).unwrap().count(), 0, "nothing written");
}

#[tokio::test]
async fn uploads_need_a_session_and_the_csrf_token() {
    let app = TestApp::spawn().await;
    let stranger = app.new_browser();
    assert_eq!(upload(&stranger, &app.url, PNG.to_vec(), "a.png").await.status(), 401);
    let alice = app.new_browser();
    alice.sign_up("alice@example.com").await;
    let form = Form::new().part("image", Part::bytes(PNG.to_vec()).file_name("a.png"));
    let resp = alice.client.post(format!("{}/api/images", app.url)).multipart(form).send().await.unwrap();
    assert_eq!(resp.status(), 403);
    let (field, _) = error_field(
        alice
            .client
            .post(format!("{}/api/images", app.url))
            .header("CSRF-Token", alice.cookie("csrf_token").unwrap())
            .json(&serde_json::json!({ "image": "x" }))
            .send()
            .await
            .unwrap(),
        400,
    )
    .await;
    assert_eq!(field, "image");
}

#[tokio::test]
async fn only_hash_named_uploads_are_ever_served() {
    let app = TestApp::spawn().await;
    for path in [
        "/media/../quire.db",
        "/media/..%2Fquire.db",
        "/media/quire.db",
        "/media/x.png",
        &format!("/media/{}.svg", "a".repeat(64)),
    ] {
        assert_eq!(app.get(path).await.status(), 404, "{path}");
    }
}

/// A 10 MB image comes back byte for byte, and is streamed from its file: readers that have
/// not taken their bodies yet do not each hold a 10 MB copy in the server's memory. The real
/// binary runs in its own process so its memory is measured alone.
#[tokio::test]
async fn a_10_mb_image_is_streamed_to_parallel_readers_not_copied_into_memory_for_each() {
    const READERS: usize = 16;
    let server = ServeProcess::start();
    let alice = Browser::new(&server.url, server.port);
    alice.sign_up("alice@example.com").await;
    let mut image = PNG.to_vec();
    image.extend((image.len()..quire::domain::content::image::MAX_IMAGE_BYTES).map(|i| (i % 251) as u8));
    let resp = upload(&alice, &server.url, image.clone(), "big.png").await;
    assert_eq!(resp.status(), 200);
    let link = resp.json::<Value>().await.unwrap()["data"]["link"].as_str().unwrap().to_owned();

    let served = alice.client.get(&link).send().await.unwrap();
    assert_eq!(served.status(), 200);
    let headers = served.headers().clone();
    assert_eq!(headers["content-length"], image.len().to_string().as_str());
    assert_eq!(headers["content-type"], "image/png");
    assert_eq!(headers["etag"], format!("\"{}\"", &link.rsplit('/').next().unwrap()[..32]).as_str());
    assert_eq!(headers["cache-control"], "public, max-age=31536000, immutable");
    assert_eq!(headers["content-security-policy"], "default-src 'none'; sandbox");
    assert!(served.bytes().await.unwrap() == image, "served byte for byte");

    let before = server.resident_bytes();
    let readers = futures_util::future::join_all((0..READERS).map(|_| alice.client.get(&link).send())).await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let growth = server.resident_bytes().saturating_sub(before);
    assert!(growth < 40 * 1024 * 1024, "{READERS} pending readers grew the server by {} MiB", growth / (1024 * 1024));
    for reader in readers {
        let reader = reader.unwrap();
        assert_eq!(reader.status(), 200);
        assert!(reader.bytes().await.unwrap() == image);
    }
}

#[tokio::test]
async fn an_account_stores_at_most_its_upload_quota_and_the_next_image_is_refused_with_a_message() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    alice.sign_up("alice@example.com").await;
    let user: i64 = app.db().query_row("SELECT id FROM users", [], |r| r.get(0)).unwrap();
    // Earlier uploads, as recorded: the default quota (`--upload-quota-mb`, 1 GB) less 10 bytes.
    app.db()
        .execute(
            "INSERT INTO images (user_id, hash, mime, size) VALUES (?1, 'earlier', 'image/png', ?2)",
            [user, 1024 * 1024 * 1024 - 10],
        )
        .unwrap();
    let (field, message) = error_field(upload(&alice, &app.url, PNG.to_vec(), "cat.png").await, 413).await;
    assert_eq!(field, "image");
    assert_eq!(message, "This blog's uploads are limited to 1 GB, and it uses 1 GB already");
    assert_eq!(app.count("images"), 1, "nothing recorded");
    let stored = std::fs::read_dir(app.dir.path().join("uploads")).map_or(0, |dir| dir.count());
    assert_eq!(stored, 0, "nothing written to disk");
}

/// Images are files named by their content, shared by every account that uploads the same
/// bytes. Deleting an account removes the files no one else uses; another user's upload of the
/// same image at that very moment must not be left pointing at a removed file. The race is run
/// round after round (8: each is a sign-up, which the sign-in limit counts), each with a new
/// image and a new account.
#[tokio::test]
async fn an_image_uploaded_while_its_only_other_owner_deletes_their_account_stays_served() {
    const ROUNDS: usize = 8;
    let app = TestApp::spawn().await;
    let bob = app.new_browser();
    bob.sign_up("bob@example.com").await;
    for round in 0..ROUNDS {
        let alice = app.new_browser();
        let blog = alice.sign_up_with_blog(&format!("alice{round}@example.com"), &format!("alice{round}")).await;
        let mut image = PNG.to_vec();
        image.extend(format!("round {round}").bytes());
        assert_eq!(upload(&alice, &app.url, image.clone(), "a.png").await.status(), 200);

        let path = format!("/api/my/blogs/{blog}");
        let (bobs, deleted) = tokio::join!(
            upload(&bob, &app.url, image.clone(), "b.png"),
            alice.send(reqwest::Method::DELETE, &path, Value::Null)
        );
        assert_eq!(deleted.status(), 200);
        assert_eq!(bobs.status(), 200);
        let link = bobs.json::<Value>().await.unwrap()["data"]["link"].as_str().unwrap().to_owned();
        let served = app.client.get(&link).send().await.unwrap();
        assert_eq!(served.status(), 200, "round {round}: Bob's image {link} was removed with Alice's account");
        assert_eq!(served.bytes().await.unwrap(), image);
    }
}
