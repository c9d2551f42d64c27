//! The archive round trip (issue 14, docs/archive.md "An export and its re-export"): a blog
//! with everything an archive carries is exported, the archive imported into another user's
//! new blog through the import engine, and that blog exported again. On another server the
//! second archive is the first byte for byte, except the manifest's `exportedAt` and the
//! blog's identity (`subdomain`, `createdAt`); on the same server the posts get new short ids
//! (the old ones are taken) and each old permalink becomes an old address, and nothing else
//! differs.

use std::path::Path;
use std::sync::Arc;

use quire::blogs::{ImportOptions, ImportSource};
use quire::db::blogs::Blog;
use quire::domain::content::blocks::Block;
use quire::portable::read::files::NoFiles;
use quire::portable::report::{RESPONSES_ITEM, Report, SETTINGS_ITEM};
use quire::portable::{self, Options};
use reqwest::Method;
use serde_json::{Value, json};

use crate::exports::{Full, Unzipped, full_blog, save};
use crate::helpers::{TestApp, body, quire, s, stderr};
use crate::imports::{blog_of, import_into, item, wordpress};

/// Writes the archive of `subdomain` on `app` to `out` with `quire export`, and reads it back.
pub(crate) async fn export(app: &TestApp, subdomain: &str, out: &Path) -> Unzipped {
    let args = [
        "export",
        "--data-dir",
        s(app.dir.path()),
        "--host",
        &format!("localhost:{}", app.port),
        "--blog",
        subdomain,
        s(out),
    ]
    .map(String::from);
    let output = tokio::task::spawn_blocking(move || quire(&args.each_ref().map(String::as_str))).await.unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    Unzipped::of(&std::fs::read(out).unwrap())
}

/// Imports the archive at `path` into `blog` as an import from Settings does: the file's
/// reader, the files inside it, the engine.
pub(crate) async fn import(app: &TestApp, blog: &Blog, path: &Path) -> Report {
    let export = portable::read::open(path, &Options::default()).unwrap();
    let files = portable::read::files::of(path, export.read.format).unwrap();
    let source = ImportSource { read: export.read, posts: export.items, files };
    app.state.blogs.import(blog, &app.state.fetcher, source, ImportOptions::default(), |_| true).await.unwrap()
}

/// Alice's full blog (exports.rs: settings, every block type, a page, a draft, a scheduled
/// post, tags, an image with alt text and caption, an image no post uses), and more: a post
/// that starts with a paragraph, a second page, a post changed after it was written, and an
/// imported post with old addresses.
async fn fuller_blog() -> Full {
    let full = full_blog().await;
    let (alice, blog) = (&full.alice, full.blog);
    // A custom stylesheet (issue 32) naming one of the uploads.
    let css = format!("/* mine */\n.hero {{ background: url(\"{}\") center; }}\n", full.png);
    let resp = alice.send(Method::PUT, &format!("/api/my/blogs/{blog}/css"), json!({ "css": css })).await;
    assert_eq!(resp.status(), 200, "the custom CSS");
    save(alice, blog, json!({ "draft": false, "tags": ["notes"], "body": body(&[
        ("paragraph", json!({ "text": "Just a note: café ☕, **bold**, `code` and [a link](https://example.com/x).\n\n- one\n- two" })),
        ("image", json!({ "url": full.png, "alt": "", "caption": "No alt text, a caption" })),
        ("heading", json!({ "text": "Later, a heading" })),
    ]) }))
    .await;
    save(alice, blog, json!({ "draft": false, "page": true, "body": body(&[("heading", json!({ "text": "Now" })), ("paragraph", json!({ "text": "Writing, *mostly*." }))]) })).await;
    let draft = &full.posts[2]["shortId"];
    let changed = json!({ "draft": true, "tags": ["ideas", "later"], "body": body(&[("heading", json!({ "text": "Draft thoughts" })), ("paragraph", json!({ "text": "Not yet, but soon." }))]) });
    let resp =
        alice.send(Method::PUT, &format!("/api/my/blogs/{blog}/posts/{}", draft.as_str().unwrap()), changed).await;
    assert_eq!(resp.status(), 200, "the draft changed");
    let mut hello = item("12", "Hello from 2015");
    hello.tags = vec!["Road Trip".into()];
    hello.blocks.push(Block::Link { url: "https://example.com/old".into(), title: "The old site".into() });
    hello.old_paths = vec!["/2015/03/hello/".into(), "/?p=12".into()];
    let report = import_into(
        &full.app,
        &blog_of(&full.app, blog).await,
        wordpress(),
        vec![hello],
        Arc::new(NoFiles),
        ImportOptions::default(),
        u64::MAX,
    )
    .await;
    assert_eq!((report.posts, report.redirects), (1, 2));
    // Comments of each state and a webmention on the first post, whose comments are closed;
    // comments held, with a blocked word.
    crate::exports::with_responses(&full.app, alice, blog, &full.posts[0]).await;
    // Two readers confirmed their email subscription, one never did: an archive carries the two.
    full.app
        .db()
        .execute_batch(&format!(
            "INSERT INTO subscribers (blog_id, email, state, unsubscribe_token, created_at, confirmed_at) VALUES
             ({blog}, 'ann@example.org', 'confirmed', 'a1', '2026-03-01T10:00:00.000Z', '2026-03-01T10:05:00.000Z'),
             ({blog}, 'bo@example.org', 'confirmed', 'b2', '2026-03-02T10:00:00.000Z', '2026-03-02T11:00:00.000Z'),
             ({blog}, 'cy@example.org', 'pending', 'c3', '2026-03-03T10:00:00.000Z', NULL);"
        ))
        .unwrap();
    full
}

/// The stored name of the image the custom stylesheet names (the one of `Full::png`).
fn full_png_name(zip: &Unzipped) -> String {
    let css = zip.json("quire-archive.json")["blog"]["customCss"].as_str().unwrap().to_owned();
    let start = css.find("images/").unwrap() + "images/".len();
    css[start..start + 68].to_owned()
}

/// The manifest with what names the blog rather than its content (and the export's time)
/// set aside, as bytes to compare.
fn manifest_content(zip: &Unzipped) -> Vec<u8> {
    let mut manifest = zip.json("quire-archive.json");
    for field in ["/exportedAt", "/blog/subdomain", "/blog/createdAt"] {
        *manifest.pointer_mut(field).unwrap() = json!("(differs)");
    }
    serde_json::to_vec_pretty(&manifest).unwrap()
}

/// Every line of an import report that is not about the blog's settings (a change to a post
/// would be one).
fn post_lines(report: &Report) -> Vec<String> {
    report
        .lines
        .iter()
        .filter(|line| line.item != SETTINGS_ITEM && line.item != RESPONSES_ITEM)
        .map(|line| format!("{}: {}", line.item, line.message))
        .collect()
}

#[tokio::test]
async fn an_archive_imported_into_a_new_blog_elsewhere_exports_again_byte_for_byte() {
    let Full { app, posts, .. } = fuller_blog().await;
    let out = tempfile::tempdir().unwrap();
    let first = export(&app, "alice", &out.path().join("alice.quire.zip")).await;

    let elsewhere = TestApp::spawn().await;
    let bob = elsewhere.new_browser();
    let bob_blog = blog_of(&elsewhere, bob.sign_up_with_blog("bob@example.com", "bob").await).await;
    let report = import(&elsewhere, &bob_blog, &out.path().join("alice.quire.zip")).await;
    assert_eq!(
        (report.posts, report.pages, report.drafts, report.scheduled, report.images),
        (5, 2, 1, 1, 2),
        "{report:?}"
    );
    assert_eq!((report.redirects, report.skipped), (2, 0));
    assert_eq!(post_lines(&report), Vec::<String>::new(), "no post was changed on the way");
    let second = export(&elsewhere, "bob", &out.path().join("bob.quire.zip")).await;

    assert_eq!(second.names(), first.names(), "the same entries in the same order");
    assert_eq!(
        first.names().rsplit(|name| name.starts_with("images/")).next().unwrap(),
        ["subscribers.json", "responses.json"]
    );
    let moved: Vec<(String, String, String, String)> = {
        let db = elsewhere.db();
        let mut stmt =
            db.prepare("SELECT email, state, source, unsubscribe_token FROM subscribers ORDER BY id").unwrap();
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))).unwrap().map(Result::unwrap).collect()
    };
    let emails: Vec<(&str, &str, &str)> = moved.iter().map(|m| (m.0.as_str(), m.1.as_str(), m.2.as_str())).collect();
    assert_eq!(emails, [("ann@example.org", "confirmed", "import"), ("bo@example.org", "confirmed", "import")]);
    assert!(moved.iter().all(|m| m.3.len() == 32 && m.3 != "a1" && m.3 != "b2"), "new unsubscribe links here");
    assert_eq!(manifest_content(&second), manifest_content(&first));
    let name = full_png_name(&first);
    assert_eq!(
        first.json("quire-archive.json")["blog"]["customCss"],
        format!("/* mine */\n.hero {{ background: url(\"images/{name}\") center; }}\n"),
        "the stylesheet names its upload by the archive's path"
    );
    let moved_css: String =
        elsewhere.db().query_row("SELECT custom_css FROM blogs WHERE subdomain = 'bob'", [], |r| r.get(0)).unwrap();
    assert_eq!(
        moved_css,
        format!("/* mine */\n.hero {{ background: url(\"{}/media/{name}\") center; }}\n", elsewhere.url)
    );
    assert_eq!(second.json("quire-archive.json")["blog"]["subdomain"], "bob");
    for name in first.names().into_iter().filter(|name| *name != "quire-archive.json") {
        assert!(
            second.get(name) == first.get(name),
            "{name} differs:\n{}\n{}",
            String::from_utf8_lossy(first.get(name).unwrap()),
            String::from_utf8_lossy(second.get(name).unwrap())
        );
    }

    // The short ids were free here, so the permalinks are the same, and the old addresses lead
    // to the post as they did.
    let host = format!("bob.localhost:{}", elsewhere.port);
    let permalink = posts[0]["permalink"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    assert_eq!(elsewhere.get_with_host(&host, &format!("/{permalink}")).await.status(), 200, "{permalink}");
    for old in ["/2015/03/hello/", "/?p=12"] {
        let resp = elsewhere.get_with_host(&host, old).await;
        assert_eq!(resp.status(), 301, "{old}");
        assert!(resp.headers()["location"].to_str().unwrap().starts_with("/hello-from-2015-"), "{old}");
    }
}

#[tokio::test]
async fn an_archive_imported_into_another_blog_of_the_same_server_differs_only_by_its_short_ids() {
    let Full { app, .. } = fuller_blog().await;
    let out = tempfile::tempdir().unwrap();
    let first = export(&app, "alice", &out.path().join("alice.quire.zip")).await;
    let carol = app.new_browser();
    let carol_blog = blog_of(&app, carol.sign_up_with_blog("carol@example.com", "carol").await).await;
    let report = import(&app, &carol_blog, &out.path().join("alice.quire.zip")).await;
    assert_eq!((report.posts, report.pages, report.skipped), (5, 2, 0));
    assert_eq!(report.redirects, 2 + 7, "the two old addresses, and alice's permalink of each of the 7 items");
    assert_eq!(post_lines(&report), Vec::<String>::new());
    let second = export(&app, "carol", &out.path().join("carol.quire.zip")).await;

    assert_eq!(manifest_content(&second), manifest_content(&first));
    let entries = |zip: &Unzipped, prefix: &str| -> Vec<String> {
        zip.names().into_iter().filter(|name| name.starts_with(prefix)).map(str::to_owned).collect()
    };
    assert_eq!(entries(&second, "images/"), entries(&first, "images/"));
    for name in entries(&first, "images/") {
        assert!(second.get(&name) == first.get(&name), "{name}");
    }
    let (alices, carols) = (entries(&first, "posts/"), entries(&second, "posts/"));
    assert_eq!(alices.len(), carols.len());
    let host = format!("carol.localhost:{}", app.port);
    for (alices, carols) in alices.iter().zip(&carols) {
        let (original, mut copy) = (first.json(alices), second.json(carols));
        let old_id = original["shortId"].as_str().unwrap();
        assert_ne!(copy["shortId"], original["shortId"], "alice's short id is taken on this server");
        // Alice's permalink is an old address of carol's copy; nothing else differs.
        let mut old_paths: Vec<String> = serde_json::from_value(original["oldPaths"].clone()).unwrap();
        let permalink = format!("/{}-{old_id}", original["slug"].as_str().unwrap());
        old_paths.push(permalink.clone());
        old_paths.sort();
        assert_eq!(copy["oldPaths"], json!(old_paths), "{alices}");
        copy["shortId"] = original["shortId"].clone();
        copy["oldPaths"] = original["oldPaths"].clone();
        assert_eq!(copy, original, "{alices}");
        if original["publishedAt"].is_string() && original["kind"] == "post" {
            let resp = app.get_with_host(&host, &permalink).await;
            assert_eq!(resp.status(), 301, "{permalink}");
            let new_id = second.json(carols)["shortId"].as_str().unwrap().to_owned();
            assert!(resp.headers()["location"].to_str().unwrap().ends_with(&format!("-{new_id}")), "{permalink}");
        }
    }
    let resp = app.get_with_host(&host, "/2015/03/hello/").await;
    assert_eq!(resp.status(), 301, "the old addresses of the imported post came along");

    // The responses came along on carol's copies of the posts: only their posts' ids differ.
    let renamed: std::collections::HashMap<Value, Value> = alices
        .iter()
        .zip(&carols)
        .map(|(a, c)| (first.json(a)["shortId"].clone(), second.json(c)["shortId"].clone()))
        .collect();
    let mut expected = first.json("responses.json");
    for response in expected["responses"].as_array_mut().unwrap() {
        response["post"] = renamed[&response["post"]].clone();
    }
    // But for the fediverse's reply: its Note is on this server already (alice's post has it).
    let replies = |list: &mut Value| {
        let all = list["responses"].as_array_mut().unwrap();
        let before = all.len();
        all.retain(|response| response["kind"] != "reply");
        before - all.len()
    };
    assert_eq!(replies(&mut expected), 1, "alice's archive carries the reply");
    assert_eq!(second.json("responses.json"), expected);
}

#[tokio::test]
async fn the_archive_import_stores_the_images_no_post_uses_once() {
    let Full { app, .. } = full_blog().await;
    let out = tempfile::tempdir().unwrap();
    export(&app, "alice", &out.path().join("alice.quire.zip")).await;
    let dave = app.new_browser();
    let dave_blog = blog_of(&app, dave.sign_up_with_blog("dave@example.com", "dave").await).await;
    let report = import(&app, &dave_blog, &out.path().join("alice.quire.zip")).await;
    assert_eq!(report.images, 2, "the image of the post and the one no post uses");
    let again = import(&app, &dave_blog, &out.path().join("alice.quire.zip")).await;
    assert_eq!((again.posts, again.images, again.skipped), (0, 0, 4), "importing again stores nothing again");
}
