//! `quire import` (the real binary) on a stopped server's data directory: each real export
//! under tests/fixtures/import/ brings in what its expected.json counts, a Quire archive brings
//! in everything, running it twice adds nothing, and what it refuses (a running server, an
//! unknown blog, a file that is no export) is one line with nothing changed.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::Arc;

use serde_json::Value;
use tempfile::TempDir;

use crate::fetch::{Origin, Reply};
use crate::helpers::{TestApp, quire, s, stderr, stdout};

fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import").join(path)
}

/// Runs `quire import` with `args` off the async runtime (a test's image server runs on it).
async fn import(args: Vec<String>) -> Output {
    tokio::task::spawn_blocking(move || quire(&args.iter().map(String::as_str).collect::<Vec<_>>())).await.unwrap()
}

/// The arguments importing `file` into `blog` of the server that ran on `port` in `dir`.
fn args(dir: &Path, port: u16, blog: &str, file: &Path, more: &[&str]) -> Vec<String> {
    let mut args = ["import", "--data-dir", s(dir), "--host", &format!("localhost:{port}"), "--blog", blog]
        .map(String::from)
        .to_vec();
    args.extend(more.iter().map(|arg| (*arg).to_owned()));
    args.push(s(file).to_owned());
    args
}

/// The counts line of a report (`posts: 9, pages: 2, ...`).
fn counts(output: &Output) -> HashMap<String, u64> {
    let out = stdout(output);
    let line = out.lines().find(|line| line.starts_with("posts: ")).unwrap_or_else(|| panic!("no counts in {out}"));
    line.split(", ")
        .map(|pair| pair.split_once(": ").unwrap())
        .map(|(key, n)| (key.to_owned(), n.parse().unwrap()))
        .collect()
}

/// A server's data directory with one blog per subdomain, the server stopped; and its port.
async fn blogs(subdomains: &[&str]) -> (Arc<TempDir>, u16) {
    let app = TestApp::spawn().await;
    for subdomain in subdomains {
        app.new_browser().sign_up_with_blog(&format!("{subdomain}@example.com"), subdomain).await;
    }
    let port = app.port;
    (app.stop().await, port)
}

fn posts_of(dir: &Path, subdomain: &str) -> i64 {
    let db = rusqlite::Connection::open(dir.join("quire.db")).unwrap();
    db.query_row(
        "SELECT count(*) FROM posts p JOIN blogs b ON b.id = p.blog_id WHERE b.subdomain = ?1",
        [subdomain],
        |r| r.get(0),
    )
    .unwrap()
}

/// A Ghost site on 127.0.0.1 serving the fixture's images at their paths.
async fn ghost_site() -> Origin {
    Origin::start(|path| {
        let file = fixture("ghost/media").join(path.trim_start_matches('/'));
        match std::fs::read(&file) {
            Ok(bytes) if path.ends_with(".png") => Reply::Body("image/png", bytes),
            Ok(bytes) => Reply::Body("image/jpeg", bytes),
            Err(_) => Reply::Status(404),
        }
    })
    .await
}

#[tokio::test]
async fn each_real_export_imports_through_the_cli_with_the_counts_its_system_gives() {
    let systems = ["wordpress", "ghost", "bearblog", "writefreely", "hugo", "jekyll", "obsidian"];
    let (dir, port) = blogs(&systems).await;
    let ghost = ghost_site().await;
    let site = ghost.url("");
    // (system, export, extra flags, whether its images can be had)
    let cases: [(&str, &str, Vec<&str>, bool); 7] = [
        ("wordpress", "export.xml", vec![], false),
        (
            "ghost",
            "harbour-notes.ghost.2026-11-24-02-44-41.json",
            vec!["--site-url", &site, "--test-only-fetch-loopback"],
            true,
        ),
        ("bearblog", "data.csv", vec![], false),
        ("writefreely", "mira-202611240250.json", vec![], false),
        ("hugo", "harbour-notes.zip", vec![], true),
        ("jekyll", "harbour-notes.zip", vec![], true),
        ("obsidian", "Harbour Notes.zip", vec![], true),
    ];
    for (system, file, flags, images) in cases {
        let expected: Value =
            serde_json::from_str(&std::fs::read_to_string(fixture(&format!("{system}/expected.json"))).unwrap())
                .unwrap();
        let output = import(args(dir.path(), port, system, &fixture(&format!("{system}/{file}")), &flags)).await;
        assert!(output.status.success(), "{system}: {}", stderr(&output));
        let got = counts(&output);
        let want = &expected["counts"];
        for key in ["posts", "pages", "drafts", "scheduled"] {
            assert_eq!(got[key], want[key].as_u64().unwrap(), "{system}: {key}\n{}", stdout(&output));
        }
        assert_eq!(got["skipped"], 0, "{system}");
        assert_eq!(posts_of(dir.path(), system) as u64, got["posts"] + got["pages"], "{system}: in the database");
        if images {
            assert_eq!(got["images"], want["images"].as_u64().unwrap(), "{system}: images\n{}", stdout(&output));
        } else {
            // Their images are on 127.0.0.1, which the guarded fetcher refuses without the test flag.
            assert_eq!(got["images"], 0, "{system}");
            assert!(
                stdout(&output).contains("kept as a link: refused: 127.0.0.1 is a loopback address"),
                "{system}: {}",
                stdout(&output)
            );
        }
    }
    assert!(ghost.connections() >= 3, "the Ghost images were downloaded from the site given");

    // Again: everything is there already.
    let output = import(args(dir.path(), port, "wordpress", &fixture("wordpress/export.xml"), &[])).await;
    assert!(output.status.success(), "{}", stderr(&output));
    let again = counts(&output);
    assert_eq!((again["posts"], again["pages"], again["skipped"]), (0, 0, 11));
    assert_eq!(posts_of(dir.path(), "wordpress"), 11, "nothing was added");

    // The index followed the writes (its commit is at the database's sequence, so a server
    // starting on it does not rebuild it), and the blog is served with its old addresses.
    let seq: i64 = rusqlite::Connection::open(dir.path().join("quire.db"))
        .unwrap()
        .query_row("SELECT posts_seq FROM search_state", [], |r| r.get(0))
        .unwrap();
    assert_eq!(quire::search::SearchIndex::open(&dir.path().join("index")).unwrap().committed_seq(), Some(seq));
    let app = TestApp::spawn_in(dir, |_| {}).await;
    let host = format!("wordpress.localhost:{}", app.port);
    let resp = app.get_with_host(&host, "/2021/06/packing-list/").await;
    assert_eq!(resp.status(), 301, "an old WordPress address");
    let location = resp.headers()["location"].to_str().unwrap().to_owned();
    let page = app.get_with_host(&host, &location).await.text().await.unwrap();
    assert!(page.contains("Packing list for the coast road"), "{location}");
    let found = app.state.search.search(wordpress_blog(&app), "patience", true, 10).unwrap();
    assert_eq!(found.len(), 1, "the imported posts are in the search index");
}

fn wordpress_blog(app: &TestApp) -> i64 {
    app.db().query_row("SELECT id FROM blogs WHERE subdomain = 'wordpress'", [], |r| r.get(0)).unwrap()
}

#[tokio::test]
async fn a_quire_archive_imports_through_the_cli_with_its_settings_posts_and_every_image() {
    let full = crate::exports::full_blog().await;
    full.app.new_browser().sign_up_with_blog("bob@example.com", "bob").await;
    let out = tempfile::tempdir().unwrap();
    let archive = out.path().join("alice.quire.zip");
    let (port, data) = (full.app.port, full.app.dir.path().to_owned());
    let output = quire(&[
        "export",
        "--data-dir",
        s(&data),
        "--host",
        &format!("localhost:{port}"),
        "--blog",
        "alice",
        s(&archive),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let dir = full.app.stop().await;

    let output = import(args(dir.path(), port, "bob", &archive, &[])).await;
    assert!(output.status.success(), "{}", stderr(&output));
    let got = counts(&output);
    let want =
        [("posts", 3), ("pages", 1), ("drafts", 1), ("scheduled", 1), ("images", 2), ("tags", 3), ("skipped", 0)];
    for (key, n) in want {
        assert_eq!(got[key], n, "{key}: {}", stdout(&output));
    }
    // Alice's short ids are taken on this server: bob's posts get new ones, and each of
    // alice's permalinks is an old address of bob's copy.
    assert_eq!(got["redirects"], 4);
    let report = stdout(&output);
    for line in [
        "Blog settings: the blog's name is now \"Alice's notes\"",
        "Blog settings: the theme is now serif",
        "Blog settings: dates are now shown in Asia/Tokyo",
    ] {
        assert!(report.contains(line), "{line}: {report}");
    }
    let db = rusqlite::Connection::open(dir.path().join("quire.db")).unwrap();
    let images: i64 = db
        .query_row(
            "SELECT count(*) FROM images i JOIN blogs b ON b.user_id = i.user_id WHERE b.subdomain = 'bob'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(images, 2, "the image no post uses came too");
}

/// What a refused import must leave as it was: the rows of every table it writes.
fn fingerprint(dir: &Path) -> Vec<(String, i64)> {
    let db = rusqlite::Connection::open(dir.join("quire.db")).unwrap();
    ["posts", "imported_items", "redirects", "images", "post_tags", "post_pages", "blogs"]
        .iter()
        .map(|table| {
            (table.to_string(), db.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0)).unwrap())
        })
        .chain(std::iter::once((
            "name".to_owned(),
            db.query_row("SELECT length(name) FROM blogs", [], |r| r.get(0)).unwrap(),
        )))
        .collect()
}

/// The one line a refused command printed.
fn one_line(output: &Output) -> String {
    assert!(!output.status.success(), "refused: {}", stdout(output));
    let err = stderr(output);
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    err.trim().to_owned()
}

#[tokio::test]
async fn a_running_server_an_unknown_blog_or_a_file_that_is_no_export_is_one_line_and_changes_nothing() {
    let app = TestApp::spawn().await;
    app.new_browser().sign_up_with_blog("alice@example.com", "alice").await;
    let (dir, port) = (app.dir.clone(), app.port);
    let wordpress = fixture("wordpress/export.xml");
    let before = fingerprint(dir.path());

    let line = one_line(&import(args(dir.path(), port, "alice", &wordpress, &[])).await);
    assert_eq!(
        line,
        format!(
            "quire: another quire process is using data directory {}: stop quire serve first, or import from Settings → Import and export",
            s(dir.path())
        )
    );
    drop(app.stop().await);
    assert_eq!(fingerprint(dir.path()), before);

    let line = one_line(&import(args(dir.path(), port, "nobody", &wordpress, &[])).await);
    assert_eq!(line, format!("quire: there is no blog \"nobody\" in {}; nothing was imported", s(dir.path())));
    let pdf = dir.path().join("notes.pdf");
    std::fs::write(&pdf, b"%PDF-1.4 not an export").unwrap();
    let line = one_line(&import(args(dir.path(), port, "alice", &pdf, &[])).await);
    assert!(
        line.starts_with(&format!(
            "quire: {}: This file is not an export Quire can read: it is a PDF document",
            s(&pdf)
        )),
        "{line}"
    );
    let missing = dir.path().join("missing.xml");
    let line = one_line(&import(args(dir.path(), port, "alice", &missing, &[])).await);
    assert_eq!(line, format!("quire: there is no file {}; nothing was imported", s(&missing)));
    let line =
        one_line(&import(args(dir.path(), port, "alice", &wordpress, &["--site-url", "ftp://old.example.com"])).await);
    assert!(line.contains("--site-url \"ftp://old.example.com\" should be an http or https address"), "{line}");
    let empty = tempfile::tempdir().unwrap();
    let line = one_line(&import(args(empty.path(), port, "alice", &wordpress, &[])).await);
    assert!(line.starts_with("quire: there is no database at"), "{line}");
    assert_eq!(fingerprint(dir.path()), before, "nothing changed");
}

#[tokio::test]
async fn on_a_server_that_keeps_images_on_imgur_the_cli_keeps_them_where_they_were() {
    let (dir, port) = blogs(&["hugo"]).await;
    let output =
        import(args(dir.path(), port, "hugo", &fixture("hugo/harbour-notes.zip"), &["--imgur-client-id", "abc"])).await;
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(counts(&output)["images"], 0);
    let report = stdout(&output);
    assert!(
        report.contains("kept as text: this server keeps images on Imgur, where an import cannot upload"),
        "{report}"
    );
    assert_eq!(std::fs::read_dir(dir.path().join("uploads")).unwrap().count(), 0, "nothing was stored on this server");
}
