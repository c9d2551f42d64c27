//! Uploads on S3-compatible object storage (`--uploads-url`, issue 36, docs/replication.md): the
//! real `quire serve` against moto's S3 server on loopback, through Apache Arrow's `object_store`.
//! Upload, serve, export, backup, account deletion, `quire uploads migrate`, the public address,
//! `quire doctor`, and the faults: the store down, slow, answering 403 and 500, no credentials.
//! Needs PyPI's `moto[server]`: scripts/test.sh installs it in tests/replication/.venv and runs
//! these with `--ignored`:
//!
//!     export MOTO_SERVER=$PWD/tests/replication/.venv/bin/moto_server
//!     cargo test --test api uploads_store -- --ignored --nocapture

use std::io::Read;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::exports::{Unzipped, exported};
use crate::helpers::{Browser, body, quire_command, s, serve_on_with_env, stderr, stdout};
use crate::replication::{Running, S3Server, free_port};
use crate::trust_states::upload;

pub const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\xcf\xc0\xf0\x1f\x00\x05\x00\x01\xff\x89\x99=\x1d\x00\x00\x00\x00IEND\xaeB`\x82";

const BUCKET: &str = "quire-media";

/// The environment every S3 tool reads: the endpoint on loopback, over http, and credentials
/// (moto takes any).
fn bucket_env(port: u16) -> Vec<(&'static str, String)> {
    vec![
        ("AWS_ACCESS_KEY_ID", "quire-test".to_owned()),
        ("AWS_SECRET_ACCESS_KEY", "quire-test-secret".to_owned()),
        ("AWS_DEFAULT_REGION", "us-east-1".to_owned()),
        ("AWS_ENDPOINT_URL", format!("http://127.0.0.1:{port}")),
        ("AWS_ALLOW_HTTP", "true".to_owned()),
    ]
}

fn borrowed<'a>(env: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
    env.iter().map(|(name, value)| (*name, value.as_str())).collect()
}

/// `quire serve` keeping uploads in the bucket's `site/` folder on the S3 server at `store_port`.
fn serve_with_bucket(data: &Path, port: u16, store_port: u16, extra: &[&str]) -> Running {
    let url = format!("s3://{BUCKET}/site");
    let mut args = vec!["--uploads-url", url.as_str(), "--uploads-timeout-secs", "3"];
    args.extend_from_slice(extra);
    let env = bucket_env(store_port);
    Running(serve_on_with_env(data, port, &args, &borrowed(&env)))
}

/// A quire command with the bucket's environment.
fn quire_with_bucket(args: &[&str], store_port: u16) -> std::process::Output {
    quire_command(args).envs(bucket_env(store_port)).output().expect("quire runs")
}

/// `quire doctor` with the bucket's flags and environment.
fn doctor_with_bucket(data: &Path, store_port: u16, extra: &[&str]) -> std::process::Output {
    let (listen, bucket) = (format!("127.0.0.1:{}", free_port()), format!("s3://{BUCKET}/site"));
    let mut args = vec!["doctor", "--data-dir", s(data), "--listen", &listen, "--uploads-url", &bucket];
    args.extend_from_slice(extra);
    quire_with_bucket(&args, store_port)
}

/// The object `name` of the bucket's `site/` folder, read from the S3 server with a client of
/// its own (Arrow's `object_store`, signing as any S3 tool does); `None` when it is not there.
async fn object(store_port: u16, name: &str) -> Option<Vec<u8>> {
    use object_store::ObjectStore;
    let store = object_store::aws::AmazonS3Builder::new()
        .with_bucket_name(BUCKET)
        .with_endpoint(format!("http://127.0.0.1:{store_port}"))
        .with_allow_http(true)
        .with_region("us-east-1")
        .with_access_key_id("quire-test")
        .with_secret_access_key("quire-test-secret")
        .build()
        .unwrap();
    match store.get(&object_store::path::Path::from(format!("site/{name}"))).await {
        Ok(found) => Some(found.bytes().await.unwrap().to_vec()),
        Err(object_store::Error::NotFound { .. }) => None,
        Err(err) => panic!("the S3 server failed reading {name}: {err}"),
    }
}

/// Uploads `bytes`; the stored file's name.
pub async fn uploaded(browser: &Browser, bytes: Vec<u8>) -> String {
    let resp = upload(browser, bytes).await;
    assert_eq!(resp.status(), 200);
    let link = resp.json::<Value>().await.unwrap()["data"]["link"].as_str().unwrap().to_owned();
    link.rsplit('/').next().unwrap().to_owned()
}

fn image_rows(data: &Path) -> i64 {
    let conn = rusqlite::Connection::open(data.join("quire.db")).unwrap();
    conn.query_row("SELECT count(*) FROM images", [], |row| row.get(0)).unwrap()
}

fn a_png(marker: &str) -> Vec<u8> {
    let mut bytes = PNG.to_vec();
    bytes.extend(marker.bytes());
    bytes
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs moto_server: $MOTO_SERVER or on PATH (scripts/test.sh installs PyPI's moto[server])"]
async fn uploads_live_in_the_bucket_and_are_served_exported_backed_up_and_deleted_from_there() {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    let store = S3Server::start(BUCKET).await;
    let port = free_port();
    let _served = serve_with_bucket(&data, port, store.port, &[]);
    let url = format!("http://localhost:{port}");
    let alice = Browser::new(&url, port);
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;

    // Upload: the bytes are in the bucket, not in the data directory.
    let image = a_png("alice's photo");
    let name = uploaded(&alice, image.clone()).await;
    assert_eq!(object(store.port, &name).await.as_deref(), Some(image.as_slice()), "stored in the bucket");
    assert!(!data.join("uploads").join(&name).exists(), "not in the data directory");

    // Served by Quire from the bucket, with its type and caching.
    let served = alice.get(&format!("/media/{name}")).await;
    assert_eq!(served.status(), 200);
    assert_eq!(served.headers()["content-type"], "image/png");
    assert!(served.headers()["cache-control"].to_str().unwrap().contains("immutable"));
    assert_eq!(served.bytes().await.unwrap().as_ref(), image.as_slice());
    let missing = format!("{}.png", "0".repeat(64));
    assert_eq!(alice.get(&format!("/media/{missing}")).await.status(), 404);

    let post = body(&[
        ("heading", json!({ "text": "On the road" })),
        ("image", json!({ "url": format!("{url}/media/{name}"), "alt": "A dot" })),
    ]);
    alice.create_post(blog, post, false).await;

    // The export (the command, reading the bucket) carries the image.
    let export = root.path().join("alice.zip");
    let out = quire_with_bucket(
        &[
            "export",
            "--data-dir",
            s(&data),
            "--blog",
            "alice",
            "--host",
            &format!("localhost:{port}"),
            "--uploads-url",
            &format!("s3://{BUCKET}/site"),
            s(&export),
        ],
        store.port,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let unzipped = Unzipped::of(&std::fs::read(&export).unwrap());
    let entry = unzipped.names().into_iter().find(|entry| entry.ends_with(&name)).map(str::to_owned);
    let entry = entry.unwrap_or_else(|| panic!("the export holds {name}: {:?}", unzipped.names()));
    assert_eq!(unzipped.get(&entry), Some(image.as_slice()));

    // The export made in the app (a background job) too.
    let (_, unzipped) = exported(&alice, blog, "archive").await;
    assert!(unzipped.names().iter().any(|entry| entry.ends_with(&name)), "the app's export holds it");

    // The backup reads the bucket too.
    let backup = root.path().join("backup.tar");
    let out = quire_with_bucket(
        &["backup", "--data-dir", s(&data), "--uploads-url", &format!("s3://{BUCKET}/site"), s(&backup)],
        store.port,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("1 uploads"), "{}", stdout(&out));
    let mut tar = tar::Archive::new(std::fs::File::open(&backup).unwrap());
    let mut found = None;
    for entry in tar.entries().unwrap() {
        let mut entry = entry.unwrap();
        if entry.path().unwrap().to_str() == Some(&format!("uploads/{name}")) {
            let mut bytes = Vec::new();
            entry.read_to_end(&mut bytes).unwrap();
            found = Some(bytes);
        }
    }
    assert_eq!(found.as_deref(), Some(image.as_slice()), "the backup holds the bucket's file");

    // Bob uploads the same bytes and one of his own; Alice deletes her account: the shared file
    // stays, hers alone goes, from the bucket.
    let bob = Browser::new(&url, port);
    bob.sign_up_with_blog("bob@example.com", "bob").await;
    assert_eq!(uploaded(&bob, image.clone()).await, name);
    let alone = uploaded(&alice, a_png("only alice's")).await;
    assert!(object(store.port, &alone).await.is_some());
    let deleted = alice.send(reqwest::Method::DELETE, &format!("/api/my/blogs/{blog}"), Value::Null).await;
    assert_eq!(deleted.status(), 200);
    assert_eq!(object(store.port, &alone).await, None, "her unshared file is deleted from the bucket");
    assert_eq!(object(store.port, &name).await.as_deref(), Some(image.as_slice()), "the shared one stays");
    assert_eq!(bob.get(&format!("/media/{name}")).await.status(), 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs moto_server: $MOTO_SERVER or on PATH (scripts/test.sh installs PyPI's moto[server])"]
async fn an_upload_the_store_does_not_take_fails_clearly_and_leaves_nothing_referenced() {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    let store_port = free_port();
    let store = S3Server::start_on(store_port, BUCKET).await;
    let port = free_port();
    let _served = serve_with_bucket(&data, port, store_port, &[]);
    let alice = Browser::new(&format!("http://localhost:{port}"), port);
    alice.sign_up_with_blog("alice@example.com", "alice").await;

    // Down: nothing listens where the store was.
    store.stop();
    let image = a_png("while the store was down");
    let resp = upload(&alice, image.clone()).await;
    assert_eq!(resp.status(), 502);
    let body: Value = resp.json().await.unwrap();
    assert!(body.to_string().contains("The image store is not answering, so the image was not saved"), "{body}");
    assert_eq!(image_rows(&data), 0, "no reference to a file that is not stored");
    assert_eq!(alice.get("/").await.status(), 200, "the rest works");

    // Back (empty, as moto keeps nothing): the same upload again is harmless and stored.
    let _store = S3Server::start_on(store_port, BUCKET).await;
    let name = uploaded(&alice, image.clone()).await;
    assert_eq!(object(store_port, &name).await.as_deref(), Some(image.as_slice()));
    assert_eq!(image_rows(&data), 1);
}

/// An S3 endpoint on loopback that answers every request with `status` (an S3 error document),
/// or, with `None`, reads the request and never answers.
async fn misbehaving_store(status: Option<u16>) -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else { return };
            tokio::spawn(async move {
                let mut buf = vec![0u8; 64 * 1024];
                let _ = tokio::time::timeout(Duration::from_millis(200), socket.read(&mut buf)).await;
                let Some(status) = status else {
                    tokio::time::sleep(Duration::from_secs(60)).await;
                    return;
                };
                let (code, reason) = if status == 403 {
                    ("AccessDenied", "Forbidden")
                } else {
                    ("InternalError", "Internal Server Error")
                };
                let body =
                    format!("<?xml version=\"1.0\"?><Error><Code>{code}</Code><Message>{reason}</Message></Error>");
                let answer = format!(
                    "HTTP/1.1 {status} {reason}\r\ncontent-type: application/xml\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = socket.write_all(answer.as_bytes()).await;
            });
        }
    });
    port
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs the real binary's S3 client; run with the other --ignored object-store tests"]
async fn a_store_that_refuses_fails_or_hangs_gets_a_clear_502_and_doctor_says_so() {
    for (what, status) in [("refusing (403)", Some(403)), ("failing (500)", Some(500)), ("hanging", None)] {
        let root = tempfile::tempdir().unwrap();
        let data = root.path().join("data");
        let store_port = misbehaving_store(status).await;
        let port = free_port();
        let served = serve_with_bucket(&data, port, store_port, &[]);
        let alice = Browser::new(&format!("http://localhost:{port}"), port);
        alice.sign_up_with_blog("alice@example.com", "alice").await;
        let started = Instant::now();
        let resp = upload(&alice, a_png(what)).await;
        assert_eq!(resp.status(), 502, "{what}");
        assert!(started.elapsed() < Duration::from_secs(15), "{what}: answered within the timeout and its retries");
        assert!(resp.text().await.unwrap().contains("The image store is not answering"), "{what}");
        assert_eq!(image_rows(&data), 0, "{what}: nothing referenced");
        drop(served);

        let out = doctor_with_bucket(&data, store_port, &["--uploads-timeout-secs", "2"]);
        let text = stdout(&out);
        let line = text.lines().find(|line| line.contains("uploads:")).unwrap_or_default().to_owned();
        assert!(line.starts_with("FAIL  uploads:"), "{what}: {text}");
        assert!(line.contains("Fix: check --uploads-url"), "{line}");
    }
}

#[test]
#[ignore = "run with the other --ignored object-store tests"]
fn without_credentials_serve_refuses_to_start_and_says_which_are_missing() {
    let root = tempfile::tempdir().unwrap();
    let port = free_port();
    let out = quire_command(&[
        "serve",
        "--data-dir",
        s(&root.path().join("data")),
        "--listen",
        &format!("127.0.0.1:{port}"),
        "--host",
        &format!("localhost:{port}"),
        "--uploads-url",
        "s3://quire-media",
    ])
    .env_remove("AWS_ACCESS_KEY_ID")
    .env_remove("AWS_SECRET_ACCESS_KEY")
    .stdout(Stdio::piped())
    .output()
    .unwrap();
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("needs the bucket's credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"),
        "{}",
        stderr(&out)
    );

    // A key in the URL is refused before anything starts: it would show in `ps`.
    let out = quire_command(&[
        "serve",
        "--data-dir",
        s(&root.path().join("data")),
        "--uploads-url",
        "s3://KEY:SECRET@quire-media",
    ])
    .output()
    .unwrap();
    assert!(!out.status.success());
    assert!(stderr(&out).contains("would show in `ps`"), "{}", stderr(&out));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs moto_server: $MOTO_SERVER or on PATH (scripts/test.sh installs PyPI's moto[server])"]
async fn migrate_copies_the_uploads_folder_up_checks_every_file_and_serve_then_reads_the_bucket() {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    let store = S3Server::start(BUCKET).await;
    let port = free_port();
    let url = format!("http://localhost:{port}");
    let (first, second) = (a_png("first"), a_png("second"));
    let names = {
        // A server keeping its uploads in the data directory, as before the flag.
        let _served = Running(serve_on_with_env(&data, port, &[], &[]));
        let alice = Browser::new(&url, port);
        alice.sign_up_with_blog("alice@example.com", "alice").await;
        vec![uploaded(&alice, first.clone()).await, uploaded(&alice, second.clone()).await]
    };
    let uploads = data.join("uploads");
    std::fs::write(uploads.join("notes.txt"), b"not an upload").unwrap();
    let damaged = format!("{}.png", "a".repeat(64));
    std::fs::write(uploads.join(&damaged), b"bytes that do not hash to the name").unwrap();

    let bucket = format!("s3://{BUCKET}/site");
    let migrate =
        || quire_with_bucket(&["uploads", "migrate", "--data-dir", s(&data), "--uploads-url", &bucket], store.port);
    let out = migrate();
    let text = stdout(&out);
    assert!(out.status.success(), "{text}\n{}", stderr(&out));
    assert!(
        text.contains("Copied 2 uploads to s3://quire-media/site (0 were there already); 2 of 2 checked"),
        "{text}"
    );
    assert!(text.contains("Not copied: notes.txt (not an upload's name)"), "{text}");
    assert!(text.contains(&format!("Not copied: {damaged} (its bytes do not match its name")), "{text}");
    assert_eq!(object(store.port, &names[0]).await.as_deref(), Some(first.as_slice()));
    assert_eq!(object(store.port, &names[1]).await.as_deref(), Some(second.as_slice()));
    assert_eq!(object(store.port, &damaged).await, None);
    let again = migrate();
    assert!(
        stdout(&again).contains("Copied 0 uploads to s3://quire-media/site (2 were there already); 2 of 2 checked"),
        "{}",
        stdout(&again)
    );

    // Served from the bucket with the local files gone; with a public address, readers are sent there.
    std::fs::remove_dir_all(&uploads).unwrap();
    {
        let _served = serve_with_bucket(&data, port, store.port, &[]);
        let reader = Browser::new(&url, port);
        let served = reader.get(&format!("/media/{}", names[0])).await;
        assert_eq!(served.status(), 200);
        assert_eq!(served.bytes().await.unwrap().as_ref(), first.as_slice());
    }
    let _served = serve_with_bucket(&data, port, store.port, &["--uploads-public-url", "https://cdn.example/media"]);
    let reader = Browser::new(&url, port);
    let sent = reader.get(&format!("/media/{}", names[1])).await;
    assert_eq!(sent.status(), 302);
    assert_eq!(sent.headers()["location"], format!("https://cdn.example/media/{}", names[1]));

    // quire doctor: the bucket takes, gives back and deletes a file.
    let out = doctor_with_bucket(&data, store.port, &[]);
    let text = stdout(&out);
    assert!(text.lines().any(|line| line.starts_with("ok    uploads: s3://quire-media/site took a file")), "{text}");
}
