//! Imports over HTTP (docs/api.md, "Imports"): a real export uploaded, imported in the
//! background with its images, its report, its old addresses; the same file twice; a restart
//! mid-import; and what a careless or hostile uploader sends: no file, another program's file,
//! a body past the cap (declared or streamed), a zip bomb, a zip that climbs out, entities,
//! images on private addresses, someone else's blog, no CSRF token.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::Value;

use crate::fetch::{Origin, PNG, Reply};
use crate::helpers::{Browser, TestApp, error_field};

fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import").join(path)
}

/// The WordPress fixture's export, its images named on `origin` instead of the old site.
pub(crate) fn wordpress_export(origin: &Origin) -> Vec<u8> {
    let xml = std::fs::read_to_string(fixture("wordpress/export.xml")).unwrap();
    xml.replace("http://127.0.0.1:8089", origin.url("").trim_end_matches('/')).into_bytes()
}

/// A server standing in for the old WordPress site: the fixture's media at their paths.
async fn old_wordpress_site() -> Origin {
    Origin::start(|path| {
        let file = fixture("wordpress/media").join(path.trim_start_matches('/'));
        match std::fs::read(&file) {
            Ok(bytes) if path.starts_with("/wp-content/") && !path.contains("..") => {
                let kind = if path.ends_with(".png") { "image/png" } else { "image/jpeg" };
                Reply::Body(kind, bytes)
            }
            _ => Reply::Status(404),
        }
    })
    .await
}

/// Uploads `bytes` as an import of `blog` named `name`, with the CSRF header.
pub(crate) async fn upload(browser: &Browser, blog: i64, query: &str, bytes: Vec<u8>) -> reqwest::Response {
    browser.open_app().await;
    let csrf = browser.cookie("csrf_token").unwrap();
    browser
        .client
        .post(format!("{}/api/my/blogs/{blog}/imports?{query}", browser.url()))
        .header("CSRF-Token", csrf)
        .body(bytes)
        .send()
        .await
        .expect("request sent")
}

/// Polls the import until it has ended.
pub(crate) async fn finished(browser: &Browser, blog: i64, id: i64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let resp = browser.get(&format!("/api/my/blogs/{blog}/imports/{id}")).await;
        assert_eq!(resp.status(), 200);
        let body: Value = resp.json().await.unwrap();
        let import = body["import"].clone();
        if import["state"] == "done" || import["state"] == "failed" {
            return import;
        }
        assert!(Instant::now() < deadline, "the import ends within a minute: {import}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Uploads and waits for the end; the import object.
pub(crate) async fn imported(browser: &Browser, blog: i64, query: &str, bytes: Vec<u8>) -> Value {
    let resp = upload(browser, blog, query, bytes).await;
    assert_eq!(resp.status(), 202);
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["import"]["state"], "queued");
    finished(browser, blog, body["import"]["id"].as_i64().unwrap()).await
}

/// The files in the data directory's exports folder.
fn export_files(app: &TestApp) -> Vec<String> {
    let dir = app.state.config.data_dir.exports();
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn messages(import: &Value) -> Vec<String> {
    import["report"]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|line| format!("{}: {}", line["item"], line["message"]))
        .collect()
}

#[tokio::test]
async fn a_wordpress_export_uploaded_is_imported_with_its_images_and_old_addresses() {
    let site = old_wordpress_site().await;
    let app = TestApp::spawn_with(|config| config.fetch_allow_loopback = true).await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;

    let import = imported(&alice, blog, "fileName=harbour.WordPress.2026-11-24.xml", wordpress_export(&site)).await;
    assert_eq!(import["state"], "done", "{import}");
    assert_eq!(
        (import["format"].as_str(), import["fileName"].as_str()),
        (Some("wordpress"), Some("harbour.WordPress.2026-11-24.xml"))
    );
    let report = &import["report"];
    // The fixture: 9 posts (a draft and a scheduled one among them) and 2 pages, 3 images.
    assert_eq!((report["posts"].as_u64(), report["pages"].as_u64()), (Some(9), Some(2)), "{report}");
    assert_eq!((report["drafts"].as_u64(), report["scheduled"].as_u64()), (Some(1), Some(1)));
    assert_eq!((report["images"].as_u64(), report["skipped"].as_u64()), (Some(3), Some(0)), "{:#?}", messages(&import));
    assert_eq!(import["progress"]["done"], import["progress"]["total"]);
    assert!(import["expiresAt"].is_string());
    assert_eq!(export_files(&app), Vec::<String>::new(), "the upload is removed once imported");

    // The first post, on the public blog, shows its image from Quire's own uploads.
    let host = format!("alice.localhost:{}", app.port);
    let resp = app.get_with_host(&host, "/2015/03/hello-from-the-harbour/").await;
    assert_eq!(resp.status(), 301, "the old WordPress address answers with a redirect");
    let location = resp.headers()["location"].to_str().unwrap().to_owned();
    let post = app.get_with_host(&host, location.trim_start_matches(&format!("http://{host}"))).await;
    assert_eq!(post.status(), 200, "{location}");
    let html = post.text().await.unwrap();
    assert!(html.contains("Hello from the harbour"));
    assert!(html.contains("/media/"), "the image is served by Quire");
    assert!(!html.contains(&site.url("/wp-content/")), "no image is left on the old site");

    // The same file again adds nothing.
    let again = imported(&alice, blog, "fileName=again.xml", wordpress_export(&site)).await;
    assert_eq!(again["state"], "done");
    let posts: i64 = app.db().query_row("SELECT count(*) FROM posts WHERE blog_id = ?1", [blog], |r| r.get(0)).unwrap();
    assert_eq!(posts, 11, "importing the same file twice duplicates nothing");
    assert_eq!(again["report"]["posts"], 0);

    // The list shows both, newest first; a deleted one is gone.
    let list: Value = alice.get(&format!("/api/my/blogs/{blog}/imports")).await.json().await.unwrap();
    let ids: Vec<i64> = list["imports"].as_array().unwrap().iter().map(|i| i["id"].as_i64().unwrap()).collect();
    assert_eq!(ids, vec![again["id"].as_i64().unwrap(), import["id"].as_i64().unwrap()]);
    let resp = alice.send(Method::DELETE, &format!("/api/my/blogs/{blog}/imports/{}", ids[1]), Value::Null).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(alice.get(&format!("/api/my/blogs/{blog}/imports/{}", ids[1])).await.status(), 404);
    assert_eq!(posts, app.count("posts"), "forgetting an import keeps what it wrote");
}

#[tokio::test]
async fn a_ghost_export_uses_the_old_site_address_given_with_it() {
    let ghost_site = Origin::start(|path| match path {
        p if p.starts_with("/content/images/") => Reply::Body("image/png", PNG.to_vec()),
        _ => Reply::Status(404),
    })
    .await;
    let app = TestApp::spawn_with(|config| config.fetch_allow_loopback = true).await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let export = std::fs::read(fixture("ghost/harbour-notes.ghost.2026-11-24-02-44-41.json")).unwrap();

    let resp = upload(&alice, blog, "siteUrl=ftp%3A%2F%2Fold.example.com", export.clone()).await;
    assert_eq!(error_field(resp, 422).await, ("siteUrl".into(), "Should be an http or https address".into()));
    let query = format!("fileName=ghost.json&siteUrl={}", urlencode(&ghost_site.url("/")));
    let import = imported(&alice, blog, &query, export).await;
    assert_eq!(import["state"], "done", "{import}");
    assert_eq!(import["format"], "ghost");
    assert_eq!((import["report"]["posts"].as_u64(), import["report"]["pages"].as_u64()), (Some(9), Some(2)));
    assert_eq!(import["report"]["images"].as_u64(), Some(3), "{:#?}", messages(&import));
    assert!(ghost_site.connections() >= 3, "the images came from the old site");
}

fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

#[tokio::test]
async fn images_on_private_addresses_are_never_requested_and_kept_as_links() {
    // The server is not told loopback is allowed: 127.0.0.1 is refused like any private address.
    let site = old_wordpress_site().await;
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let mut xml = String::from_utf8(wordpress_export(&site)).unwrap();
    xml = xml.replacen(
        &site.url("/wp-content/uploads/2015/03/harbour.jpg"),
        "http://169.254.169.254/latest/meta-data/x.jpg",
        1,
    );

    let import = imported(&alice, blog, "", xml.into_bytes()).await;
    assert_eq!(import["state"], "done", "{import}");
    assert_eq!(import["report"]["images"], 0);
    assert_eq!(import["report"]["posts"], 9, "the import goes on without the images");
    let lines = messages(&import);
    assert!(lines.iter().any(|l| l.contains("169.254.169.254") && l.contains("kept as a link")), "{lines:#?}");
    assert_eq!(site.connections(), 0, "no request reached the private address");
}

#[tokio::test]
async fn files_quire_cannot_read_are_refused_at_once_and_nothing_is_kept() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;

    let resp = upload(&alice, blog, "", Vec::new()).await;
    assert_eq!(error_field(resp, 400).await, ("file".into(), "Is required".into()));

    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("a PNG", PNG.to_vec(), "not an export"),
        ("another program's JSON", br#"{"version": 3, "items": [{"id": 1}]}"#.to_vec(), "not an export"),
        (
            "XML with an entity",
            br#"<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY x SYSTEM "file:///etc/passwd">]><rss xmlns:wp="http://wordpress.org/export/1.2/"><channel><wp:wxr_version>1.2</wp:wxr_version><item><title>&x;</title></item></channel></rss>"#.to_vec(),
            "",
        ),
        ("a zip that climbs out", zip_of(&[("../../etc/cron.d/x.md", b"---\ntitle: x\n---\nx")]), "../"),
        ("a truncated zip", zip_of(&[("posts/a.md", b"---\ntitle: A\n---\nText")])[..40].to_vec(), ""),
    ];
    for (what, bytes, says) in cases {
        let resp = upload(&alice, blog, "fileName=x", bytes).await;
        let (field, message) = error_field(resp, 422).await;
        assert_eq!(field, "file", "{what}");
        assert!(message.contains(says), "{what}: {message}");
    }
    assert_eq!(app.count("jobs"), 0);
    assert_eq!(app.count("posts"), 0, "the blog is unchanged");
    assert_eq!(export_files(&app), Vec::<String>::new(), "nothing is left on disk");
}

/// A zip of these entries (deflated).
pub(crate) fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes) in entries {
        writer.start_file(*name, zip::write::SimpleFileOptions::default()).unwrap();
        writer.write_all(bytes).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

#[tokio::test]
async fn a_zip_bomb_ends_in_a_clear_message_and_the_server_holds() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    // 200 MB of zeros in a post: a few hundred KB packed, past every cap unpacked.
    let mut body = b"---\ntitle: Bomb\n---\n".to_vec();
    body.resize(200 * 1024 * 1024, b'0');
    let bomb = zip_of(&[("posts/a.md", b"---\ntitle: Fine\n---\nA fine post."), ("posts/bomb.md", &body)]);
    assert!(bomb.len() < 2 * 1024 * 1024);

    let import = imported(&alice, blog, "fileName=bomb.zip", bomb).await;
    assert_eq!(import["state"], "done", "{import}");
    let lines = messages(&import);
    assert!(
        lines.iter().any(|line| line.contains("posts/bomb.md") && line.contains("larger than Quire reads")),
        "the bomb is named in the report: {lines:#?}"
    );
    assert_eq!((import["report"]["posts"].as_u64(), import["report"]["skipped"].as_u64()), (Some(1), Some(1)));
    let titles: Vec<String> = {
        let db = app.db();
        let mut stmt = db.prepare("SELECT title FROM posts").unwrap();
        stmt.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
    };
    assert_eq!(titles, vec!["Fine".to_owned()], "the fine post is imported, the bomb is not");
    assert_eq!(app.get("/healthz").await.status(), 200);
}

#[tokio::test]
async fn bodies_past_512_mib_are_refused_declared_or_streamed_and_leave_nothing() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    alice.open_app().await;
    let csrf = alice.cookie("csrf_token").unwrap();
    let url = format!("{}/api/my/blogs/{blog}/imports", alice.url());
    let limit = "The request body is larger than 524288 KiB";

    // Declared: refused before a byte is read (the client need not send it).
    let resp = alice
        .client
        .post(&url)
        .header("CSRF-Token", &csrf)
        .header("Content-Length", (2u64 << 30).to_string())
        .body("x")
        .send()
        .await
        .expect("the server answers before the body is sent");
    assert_eq!(error_field(resp, 413).await, ("body".into(), limit.into()));

    // Streamed without a length (chunked): read up to the cap, then refused. 2 GB offered.
    let chunk = bytes::Bytes::from(vec![b'<'; 1024 * 1024]);
    let chunks = futures_util::stream::iter((0..2048).map(move |_| Ok::<_, std::io::Error>(chunk.clone())));
    let started = Instant::now();
    let resp =
        alice.client.post(&url).header("CSRF-Token", &csrf).body(reqwest::Body::wrap_stream(chunks)).send().await;
    let resp = resp.expect("the server answers as soon as the cap is passed");
    assert_eq!(error_field(resp, 413).await, ("body".into(), limit.into()));
    assert!(started.elapsed() < Duration::from_secs(60));
    assert_eq!(export_files(&app), Vec::<String>::new(), "the partial upload is removed");
    assert_eq!(app.count("jobs"), 0);
}

#[tokio::test]
async fn only_the_owner_may_import_and_only_with_the_csrf_token() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let bob = app.new_browser();
    let bob_blog = bob.sign_up_with_blog("bob@example.com", "bob").await;
    let export = std::fs::read(fixture("writefreely/mira-202611240250.json")).unwrap();

    let resp = upload(&bob, blog, "", export.clone()).await;
    assert_eq!(error_field(resp, 404).await, ("blog".into(), "Blog not found".into()));
    let resp = alice
        .client
        .post(format!("{}/api/my/blogs/{blog}/imports", alice.url()))
        .body(export.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 403);
    let stranger = app.new_browser();
    let resp = upload(&stranger, blog, "", export.clone()).await;
    assert_eq!(resp.status(), 401);
    assert_eq!(app.count("jobs"), 0);

    let import = imported(&bob, bob_blog, "", export).await;
    assert_eq!(import["state"], "done");
    let id = import["id"].as_i64().unwrap();
    for path in [format!("/api/my/blogs/{blog}/imports/{id}"), format!("/api/my/blogs/{bob_blog}/imports/{id}")] {
        let resp = alice.get(&path).await;
        assert_eq!(resp.status(), 404, "{path}");
    }
    let resp = alice.send(Method::DELETE, &format!("/api/my/blogs/{blog}/imports/{id}"), Value::Null).await;
    assert_eq!(error_field(resp, 404).await, ("import".into(), "Import not found".into()));
    let exports_id: i64 = {
        let resp =
            bob.post(&format!("/api/my/blogs/{bob_blog}/exports"), serde_json::json!({"format": "archive"})).await;
        resp.json::<Value>().await.unwrap()["export"]["id"].as_i64().unwrap()
    };
    let resp = bob.get(&format!("/api/my/blogs/{bob_blog}/imports/{exports_id}")).await;
    assert_eq!(resp.status(), 404, "an export is not an import");
}

#[tokio::test]
async fn one_job_at_a_time_per_blog() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    // An export the runner has claimed and not finished (as if it were slow).
    app.db()
        .execute(
            "INSERT INTO jobs (blog_id, kind, format, state, attempt) VALUES (?1, 'export', 'archive', 'running', 1)",
            [blog],
        )
        .unwrap();
    let export = std::fs::read(fixture("writefreely/mira-202611240250.json")).unwrap();
    let resp = upload(&alice, blog, "", export).await;
    let busy = "An import or export of this blog is already under way: wait for it to finish";
    assert_eq!(error_field(resp, 422).await, ("import".into(), busy.into()));
    assert_eq!(export_files(&app), Vec::<String>::new());
}

#[tokio::test]
async fn an_import_running_when_the_server_stopped_completes_after_a_restart_without_duplicates() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let export = std::fs::read(fixture("writefreely/mira-202611240250.json")).unwrap();
    let first = imported(&alice, blog, "", export.clone()).await;
    assert_eq!(first["report"]["posts"], 11, "{first}");
    // Some of the file was imported when the server stopped: three posts are missing, and
    // the job is still marked running with its file on disk.
    let db = app.db();
    db.execute(
        "DELETE FROM posts WHERE id IN (SELECT id FROM posts WHERE blog_id = ?1 ORDER BY id DESC LIMIT 3)",
        [blog],
    )
    .unwrap();
    std::fs::write(app.state.config.data_dir.export("pending.import"), &export).unwrap();
    db.execute(
        "INSERT INTO jobs (blog_id, kind, format, state, attempt, input_file, input_name) \
         VALUES (?1, 'import', 'writefreely', 'running', 1, 'pending.import', 'export.json')",
        [blog],
    )
    .unwrap();
    drop(db);

    let app = app.restart().await;
    let alice = app.new_browser();
    alice.sign_in_as("alice@example.com", false).await;
    let id: i64 = app.db().query_row("SELECT id FROM jobs WHERE input_name = 'export.json'", [], |r| r.get(0)).unwrap();
    let import = finished(&alice, blog, id).await;
    assert_eq!(import["state"], "done", "{import}");
    assert_eq!(import["report"]["posts"], 3, "only what was missing is written");
    let posts: i64 = app.db().query_row("SELECT count(*) FROM posts WHERE blog_id = ?1", [blog], |r| r.get(0)).unwrap();
    assert_eq!(posts, 11);
    assert_eq!(export_files(&app), Vec::<String>::new());
}

#[tokio::test]
async fn a_quire_archive_uploaded_brings_its_images_from_inside_the_zip() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let png = crate::exports::upload(&alice, PNG).await;
    let post = serde_json::json!({ "draft": false, "body": crate::helpers::body(&[
        ("heading", serde_json::json!({ "text": "A red dot" })),
        ("image", serde_json::json!({ "url": png, "alt": "The dot", "caption": "Small" })),
    ]) });
    assert_eq!(alice.post(&format!("/api/my/blogs/{blog}/posts"), post).await.status(), 201);
    let zip = {
        let (export, _) = crate::exports::exported(&alice, blog, "archive").await;
        alice.get(export["downloadUrl"].as_str().unwrap()).await.bytes().await.unwrap().to_vec()
    };

    let bob = app.new_browser();
    let bob_blog = bob.sign_up_with_blog("bob@example.com", "bob").await;
    let import = imported(&bob, bob_blog, "fileName=alice.quire.zip", zip).await;
    assert_eq!(import["state"], "done", "{import}");
    assert_eq!(import["format"], "quire");
    assert_eq!(
        (import["report"]["posts"].as_u64(), import["report"]["images"].as_u64()),
        (Some(1), Some(1)),
        "{:#?}",
        messages(&import)
    );
    let url: String = app
        .db()
        .query_row("SELECT body FROM posts WHERE blog_id = ?1", [bob_blog], |r| r.get::<_, String>(0))
        .map(|body| body.split("/media/").nth(1).unwrap_or_default().split('"').next().unwrap_or_default().to_owned())
        .unwrap();
    assert!(!url.is_empty(), "the image block names an upload");
    let resp = app.get(&format!("/media/{url}")).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.bytes().await.unwrap().as_ref(), PNG, "the image is the one inside the archive");
}

#[tokio::test]
async fn deleting_a_running_import_stops_it_and_keeps_what_it_wrote() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let total = 8_000;
    let items: String = (1..=total)
        .map(|n| format!("<item><title>Post {n}</title><wp:post_id>{n}</wp:post_id><wp:post_name>post-{n}</wp:post_name><wp:status>publish</wp:status><wp:post_type>post</wp:post_type><wp:post_date_gmt>2020-01-01 10:00:00</wp:post_date_gmt><content:encoded><![CDATA[<p>Words of post {n}.</p>]]></content:encoded></item>"))
        .collect();
    let xml = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wp="http://wordpress.org/export/1.2/"><channel><title>Many</title><link>http://old.example.com</link><wp:wxr_version>1.2</wp:wxr_version><wp:base_site_url>http://old.example.com</wp:base_site_url>{items}</channel></rss>"#
    );
    let resp = upload(&alice, blog, "fileName=many.xml", xml.into_bytes()).await;
    assert_eq!(resp.status(), 202);
    let id = resp.json::<Value>().await.unwrap()["import"]["id"].as_i64().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let import: Value = alice.get(&format!("/api/my/blogs/{blog}/imports/{id}")).await.json().await.unwrap();
        let done = import["import"]["progress"]["done"].as_u64().unwrap();
        assert_ne!(import["import"]["state"], "done", "the import was still running when it was deleted");
        if done > 0 {
            assert_eq!(import["import"]["progress"]["total"], total, "the total is known from the start");
            break;
        }
        assert!(Instant::now() < deadline);
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let resp = alice.send(Method::DELETE, &format!("/api/my/blogs/{blog}/imports/{id}"), Value::Null).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(alice.get(&format!("/api/my/blogs/{blog}/imports/{id}")).await.status(), 404);
    // It stops after the batch under way: the count settles, short of the whole file.
    let mut count = app.count("posts");
    loop {
        tokio::time::sleep(Duration::from_millis(300)).await;
        let now = app.count("posts");
        if now == count {
            break;
        }
        count = now;
    }
    assert!(count > 0 && count < total, "{count} posts written");
    assert_eq!(export_files(&app), Vec::<String>::new(), "its file is gone");
}

#[tokio::test]
async fn deleting_the_account_removes_an_uploaded_file_still_waiting_to_be_imported() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    // An import queued behind a running export (as if the export were slow): its file waits.
    app.db()
        .execute(
            "INSERT INTO jobs (blog_id, kind, format, state, attempt) VALUES (?1, 'export', 'archive', 'running', 1)",
            [blog],
        )
        .unwrap();
    std::fs::create_dir_all(app.state.config.data_dir.exports()).unwrap();
    std::fs::write(app.state.config.data_dir.export("waiting.import"), b"<rss/>").unwrap();
    app.db()
        .execute(
            "INSERT INTO jobs (blog_id, kind, format, input_file, input_name) VALUES (?1, 'import', 'wordpress', 'waiting.import', 'a.xml')",
            [blog],
        )
        .unwrap();
    let list: Value = alice.get(&format!("/api/my/blogs/{blog}/imports")).await.json().await.unwrap();
    assert_eq!(list["imports"][0]["state"], "queued");
    assert_eq!(list["imports"][0]["fileName"], "a.xml");

    let resp = alice.send(Method::DELETE, &format!("/api/my/blogs/{blog}"), Value::Null).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(export_files(&app), Vec::<String>::new(), "the uploaded file went with the account");
    assert_eq!(app.count("jobs"), 0);
}

#[tokio::test]
async fn a_quire_archive_with_bad_responses_imports_the_good_ones_and_names_the_rest() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let post = serde_json::json!({ "draft": false, "body": crate::helpers::simple_body("Hello readers", "Words.") });
    let post = crate::exports::save(&alice, blog, post).await;
    let short_id = post["shortId"].as_str().unwrap().to_owned();
    let (_, zip) = crate::exports::exported(&alice, blog, "archive").await;
    let with = |responses: &[u8]| {
        let mut entries: Vec<(&str, &[u8])> =
            zip.names().into_iter().map(|name| (name, zip.get(name).unwrap())).collect();
        entries.push(("responses.json", responses));
        zip_of(&entries)
    };
    let good = |text: &str| {
        serde_json::json!({ "post": short_id, "kind": "comment", "state": "approved", "authorName": "Ann",
                            "text": text, "receivedAt": "2026-11-20T08:00:00.000Z" })
    };
    let responses = serde_json::json!({ "responses": [
        good("Kept"),
        { "post": "nosuchid", "kind": "comment", "state": "approved", "authorName": "A", "text": "t", "receivedAt": "2026-11-20T08:00:00.000Z" },
        { "post": short_id, "kind": "like", "state": "approved", "authorName": "A", "text": "t", "receivedAt": "2026-11-20T08:00:00.000Z" },
        { "post": short_id, "kind": "comment", "state": "approved", "authorName": "A", "authorUrl": "javascript:alert(1)", "text": "t", "receivedAt": "2026-11-20T08:00:00.000Z" },
        { "post": short_id, "kind": "webmention", "state": "approved", "authorName": "A", "sourceUrl": "http://[::1", "text": "t", "receivedAt": "2026-11-20T08:00:00.000Z" },
        { "post": short_id, "kind": "comment", "state": "approved", "authorName": "", "text": "t", "receivedAt": "2026-11-20T08:00:00.000Z" },
        good(&"x".repeat(1_000_000)),
        "a string",
        null,
    ]});

    let bob = app.new_browser();
    let bobs = bob.sign_up_with_blog("bob@example.com", "bob").await;
    let import = imported(&bob, bobs, "fileName=alice.quire.zip", with(responses.to_string().as_bytes())).await;
    assert_eq!(import["state"], "done", "{import}");
    let lines = messages(&import);
    let left_out: Vec<&String> = lines.iter().filter(|line| line.contains("of responses.json was left out")).collect();
    assert_eq!(left_out.len(), 8, "each bad entry named: {lines:#?}");
    assert!(lines.contains(&r#""Comments and webmentions": "1 added""#.to_owned()), "{lines:#?}");
    let texts: Vec<String> = {
        let db = app.db();
        let mut stmt = db.prepare("SELECT text FROM responses WHERE blog_id = ?1").unwrap();
        stmt.query_map([bobs], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
    };
    assert_eq!(texts, ["Kept"]);

    // A responses.json that is not a list of responses refuses the archive at once, clearly.
    let carol = app.new_browser();
    let carols = carol.sign_up_with_blog("carol@example.com", "carol").await;
    for bad in [&b"{\"responses\": [1, 2"[..], b"[]", b"{\"responses\": {}}"] {
        let resp = upload(&carol, carols, "fileName=alice.quire.zip", with(bad)).await;
        let (field, message) = error_field(resp, 422).await;
        assert_eq!(field, "file");
        assert!(message.contains("responses.json"), "{message}");
    }
    assert_eq!(
        app.db().query_row("SELECT count(*) FROM posts WHERE blog_id = ?1", [carols], |r| r.get::<_, i64>(0)).unwrap(),
        0
    );

    // Comment settings this Quire does not take are reported and leave the blog's as they were.
    let mut manifest: Value = serde_json::from_slice(zip.get("quire-archive.json").unwrap()).unwrap();
    manifest["blog"]["commentsMode"] = "sometimes".into();
    manifest["blog"]["blockedWords"] = (0..300).map(|n| format!("word{n}")).collect::<Vec<_>>().into();
    let manifest = manifest.to_string();
    let mut entries: Vec<(&str, &[u8])> = zip.names().into_iter().map(|name| (name, zip.get(name).unwrap())).collect();
    entries[0].1 = manifest.as_bytes();
    let dora = app.new_browser();
    let doras = dora.sign_up_with_blog("dora@example.com", "dora").await;
    let import = imported(&dora, doras, "fileName=alice.quire.zip", zip_of(&entries)).await;
    assert_eq!(import["state"], "done", "{import}");
    let lines = messages(&import).join("\n");
    assert!(lines.contains("comments \\\"sometimes\\\" is not a setting Quire knows: not applied"), "{lines}");
    assert!(
        lines.contains("the blocked words for comments were not applied: a blog may block at most 200 words"),
        "{lines}"
    );
    let settings: Value = dora.get(&format!("/api/my/blogs/{doras}/comments")).await.json().await.unwrap();
    assert_eq!(settings["comments"], serde_json::json!({ "mode": "off", "blockedWords": [] }));
}
