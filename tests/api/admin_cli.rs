//! `quire blogs ...` (issue 29): list and show read the database; the actions, while a server
//! runs, are handed to it through `admin_requests` and take effect at once; with no server,
//! the command performs them itself through the same write path.

use std::process::Output;

use quire::config::SignupMode;
use serde_json::Value;

use crate::helpers::{TestApp, quire, s, simple_body, stderr, stdout};

/// Runs `quire blogs ARGS --data-dir DIR` off the test's runtime, so the in-process server keeps
/// serving meanwhile.
async fn blogs(app_dir: &std::path::Path, args: &[&str]) -> Output {
    let mut all: Vec<String> = vec!["blogs".into()];
    all.extend(args.iter().map(|a| a.to_string()));
    all.extend(["--data-dir".into(), s(app_dir).into()]);
    tokio::task::spawn_blocking(move || {
        let refs: Vec<&str> = all.iter().map(String::as_str).collect();
        quire(&refs)
    })
    .await
    .unwrap()
}

async fn spawn() -> TestApp {
    TestApp::spawn_with(|config| {
        config.public.admins = vec!["admin@example.com".to_owned()];
        config.public.signups = SignupMode::Approval;
    })
    .await
}

async fn admin_view(app: &TestApp, subdomain: &str) -> Value {
    let admin = app.new_browser();
    admin.sign_up("admin@example.com").await;
    let resp = admin.get(&format!("/api/admin/blogs/{subdomain}")).await;
    assert_eq!(resp.status(), 200);
    resp.json::<Value>().await.unwrap()["blog"].clone()
}

#[tokio::test]
async fn an_action_while_serve_runs_is_performed_by_the_server_and_the_next_request_sees_it() {
    let app = spawn().await;
    let blog_id = app.browser.sign_up_with_blog("bob@example.com", "bob").await;
    app.browser.create_post(blog_id, simple_body("Hello", "Some words."), false).await;
    let dir = app.dir.path().to_owned();

    let out = blogs(&dir, &["suspend", "bob", "--reason", "Phishing"]).await;
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "Suspended bob (it was new; it is suspended now).");
    let blog = admin_view(&app, "bob").await;
    assert_eq!((blog["state"].as_str(), blog["stateReason"].as_str()), (Some("suspended"), Some("Phishing")));
    let (who, action, reason): (String, String, String) = app
        .db()
        .query_row("SELECT admin, action, reason FROM admin_actions ORDER BY id DESC LIMIT 1", [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .unwrap();
    assert_eq!((who.as_str(), action.as_str(), reason.as_str()), ("command line", "suspend", "Phishing"));
    let (done, ok): (Option<String>, bool) =
        app.db().query_row("SELECT done, ok FROM admin_requests", [], |r| Ok((r.get(0)?, r.get(1)?))).unwrap();
    assert!(done.is_some() && ok);

    // What the state does not allow is refused by the server, with its reason and a failure exit.
    let out = blogs(&dir, &["approve", "bob"]).await;
    assert!(!out.status.success());
    assert_eq!(stderr(&out).trim(), "quire: This blog is suspended: unsuspend it first");
    let out = blogs(&dir, &["suspend", "bob"]).await;
    assert!(!out.status.success());

    let out = blogs(&dir, &["unsuspend", "bob"]).await;
    assert_eq!(stdout(&out).trim(), "Unsuspended bob (it was suspended; it is new now).", "{}", stderr(&out));
    assert_eq!(admin_view(&app, "bob").await["state"], "new");

    // list and show only read.
    let out = blogs(&dir, &["list", "--state", "new", "--json"]).await;
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(listed[0]["subdomain"], "bob");
    assert_eq!(listed[0]["postCount"], 1);
    let out = blogs(&dir, &["list", "--state", "approved", "--since", "1d"]).await;
    assert!(out.status.success());
    assert_eq!(stdout(&out), "", "{}", stderr(&out));
    let out = blogs(&dir, &["list"]).await;
    assert!(stdout(&out).lines().nth(1).unwrap().starts_with("bob "), "{}", stdout(&out));
    let out = blogs(&dir, &["show", "bob"]).await;
    assert!(stdout(&out).contains("owner:   bob@example.com"), "{}", stdout(&out));
    let out = blogs(&dir, &["list", "--since", "soon"]).await;
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--since \"soon\" is not a duration"), "{}", stderr(&out));
}

#[tokio::test]
async fn an_unknown_blog_is_one_clear_line_and_a_failure_exit_for_every_command() {
    let app = spawn().await;
    let dir = app.dir.path().to_owned();
    for args in [
        vec!["show", "ghost"],
        vec!["approve", "ghost"],
        vec!["silence", "ghost"],
        vec!["suspend", "ghost", "--reason", "x"],
        vec!["unsuspend", "ghost"],
        vec!["delete", "ghost"],
    ] {
        let out = blogs(&dir, &args).await;
        assert!(!out.status.success(), "{args:?}");
        assert_eq!(stderr(&out).trim(), "quire: there is no blog \"ghost\" (see `quire blogs list`)", "{args:?}");
    }
    assert_eq!(app.count("admin_requests"), 0);
}

#[tokio::test]
async fn deleting_while_serve_runs_removes_the_blog_at_once() {
    let app = spawn().await;
    let blog_id = app.browser.sign_up_with_blog("bob@example.com", "bob").await;
    app.browser.create_post(blog_id, simple_body("Hello", "Some words."), false).await;
    let host = format!("bob.localhost:{}", app.port);
    assert_eq!(app.get_with_host(&host, "/").await.status(), 200, "served, and now in the page cache");
    let out = blogs(app.dir.path(), &["delete", "bob"]).await;
    assert_eq!(
        stdout(&out).trim(),
        "Deleted bob and its owner's account; the subdomain is retired.",
        "{}",
        stderr(&out)
    );
    assert_eq!(app.get_with_host(&host, "/").await.status(), 404);
    assert_eq!(app.count("blogs"), 0);
    assert_eq!(app.count("admin_actions WHERE action = 'delete' AND admin = 'command line'"), 1);
}

#[tokio::test]
async fn with_no_server_running_the_command_performs_the_action_itself() {
    let app = spawn().await;
    app.browser.sign_up_with_blog("bob@example.com", "bob").await;
    let dir = app.stop().await;
    let out = blogs(dir.path(), &["approve", "bob"]).await;
    assert_eq!(stdout(&out).trim(), "Approved bob (it was new; it is approved now).", "{}", stderr(&out));
    let out = blogs(dir.path(), &["silence", "bob", "--reason", "Links only"]).await;
    assert!(out.status.success(), "{}", stderr(&out));
    let conn = rusqlite::Connection::open(dir.path().join("quire.db")).unwrap();
    let state: String = conn.query_row("SELECT state FROM blogs", [], |r| r.get(0)).unwrap();
    assert_eq!(state, "silenced");
    let rows: i64 =
        conn.query_row("SELECT count(*) FROM admin_actions WHERE admin = 'command line'", [], |r| r.get(0)).unwrap();
    assert_eq!(rows, 2);
    let requests: i64 = conn.query_row("SELECT count(*) FROM admin_requests", [], |r| r.get(0)).unwrap();
    assert_eq!(requests, 0, "performed here, nothing queued");
}
