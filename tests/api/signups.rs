//! Who may sign up (`--signups`, the limits on new blogs, the email domains, invites and
//! `quire invites`): every refusal through the real server, and what it leaves in the database.

use std::sync::Arc;

use quire::Config;
use quire::config::SignupMode;
use serde_json::{Value, json};

use crate::helpers::{Browser, TestApp, error_field, quire, s, serve_on, stderr, stdout};

/// `POST /api/my/blogs` from `browser` as the client `forwarded_for` (the server trusts its
/// loopback peer as a proxy), with `invite` when given.
async fn create_as(browser: &Browser, forwarded_for: &str, subdomain: &str, invite: Option<&str>) -> reqwest::Response {
    browser.open_app().await;
    let csrf = browser.cookie("csrf_token").expect("csrf cookie");
    let mut body = json!({ "subdomain": subdomain });
    if let Some(code) = invite {
        body["invite"] = json!(code);
    }
    browser
        .client
        .post(format!("{}/api/my/blogs", browser.url()))
        .header("CSRF-Token", csrf)
        .header("X-Forwarded-For", forwarded_for)
        .json(&body)
        .send()
        .await
        .expect("request sent")
}

/// A new browser signed up as `email`.
async fn signed_up(app: &TestApp, email: &str) -> Browser {
    let browser = app.new_browser();
    browser.sign_up(email).await;
    browser
}

fn blogs(app: &TestApp) -> i64 {
    app.count("blogs")
}

fn uses(app: &TestApp) -> i64 {
    app.count("invite_uses")
}

/// Runs `quire invites ARGS` on the app's data directory; returns (success, stdout, stderr).
fn invites(app: &TestApp, args: &[&str]) -> (bool, String, String) {
    let host = format!("localhost:{}", app.port);
    let mut all = vec!["invites", args[0], "--data-dir", s(app.dir.path())];
    if args[0] == "create" {
        all.extend(["--host", &host]);
    }
    all.extend(&args[1..]);
    let out = quire(&all);
    (out.status.success(), stdout(&out), stderr(&out))
}

/// `quire invites create ARGS`: the code it printed, checking the link beside it.
fn new_invite(app: &TestApp, args: &[&str]) -> String {
    let mut all = vec!["create"];
    all.extend(args);
    let (ok, out, err) = invites(app, &all);
    assert!(ok, "{err}");
    let code = out.lines().find_map(|l| l.strip_prefix("Invite code: ")).expect("the code is printed").to_owned();
    assert!(out.contains(&format!("Link: http://localhost:{}/?invite={code}\n", app.port)), "{out}");
    code
}

async fn spawn(mode: SignupMode, adjust: impl FnOnce(&mut Config)) -> TestApp {
    TestApp::spawn_with(|config| {
        config.public.signups = mode;
        adjust(config);
    })
    .await
}

#[tokio::test]
async fn closed_mode_refuses_a_direct_creation_through_the_real_binary() {
    let dir = tempfile::tempdir().unwrap();
    let port = portpicker();
    // Ann signed up (no blog yet) while signups were open.
    let mut server = serve_on(dir.path(), port, &[]);
    let browser = Browser::new(&format!("http://localhost:{port}"), port);
    browser.sign_up("ann@example.com").await;
    let _ = server.kill();
    let _ = server.wait();

    // Closed: a stranger's sign-up stores no account; Ann signs in as before, and a direct
    // creation is refused.
    let mut server = serve_on(dir.path(), port, &["--signups", "closed"]);
    let stranger = Browser::new(&format!("http://localhost:{port}"), port);
    for signup in [true, false] {
        let resp = stranger.sign_in_as("eve@example.com", signup).await;
        let refused = ("signups".into(), "Signups are closed on this instance.".into());
        assert_eq!(error_field(resp, 403).await, refused, "Signup or Login: no new account");
    }
    let browser = Browser::new(&format!("http://localhost:{port}"), port);
    assert_eq!(browser.sign_in_as("ann@example.com", false).await.status(), 200);
    let resp = browser.post("/api/my/blogs", json!({ "subdomain": "ann" })).await;
    assert_eq!(error_field(resp, 403).await, ("subdomain".into(), "Signups are closed on this instance.".into()));
    let resp = browser.post("/api/my/blogs", json!({ "subdomain": "ann", "invite": "0".repeat(32) })).await;
    assert_eq!(resp.status(), 403, "a code does not open a closed instance");
    let page = browser.get("/").await.text().await.unwrap();
    assert!(page.contains(r#""signups":"closed""#), "the app learns the mode");
    let _ = server.kill();
    let _ = server.wait();
    let conn = rusqlite::Connection::open(dir.path().join("quire.db")).unwrap();
    assert_eq!(conn.query_row("SELECT count(*) FROM blogs", [], |r| r.get::<_, i64>(0)).unwrap(), 0);
    let emails: Vec<String> = conn
        .prepare("SELECT email FROM users")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(emails, ["ann@example.com"]);
}

fn portpicker() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

#[tokio::test]
async fn invite_mode_needs_a_usable_code_and_a_refusal_spends_no_use() {
    let app = spawn(SignupMode::Invite, |_| {}).await;
    let eve = signed_up(&app, "eve@example.com").await;
    let resp = create_as(&eve, "198.51.100.1", "eve", None).await;
    let (field, message) = error_field(resp, 403).await;
    assert_eq!((field.as_str(), message.as_str()), ("invite", "Signups are by invitation: enter your invite code."));

    let once = new_invite(&app, &["--uses", "1", "--note", "for Ann"]);
    let ann = signed_up(&app, "ann@example.com").await;
    // Pasted with spaces and in capitals, as from an email.
    let resp = create_as(&ann, "198.51.100.2", "ann", Some(&format!(" {} ", once.to_uppercase()))).await;
    assert_eq!(resp.status(), 201);
    let ann_blog: Value = resp.json().await.unwrap();
    let recorded: (i64, String) =
        app.db().query_row("SELECT blog_id, subdomain FROM invite_uses", [], |r| Ok((r.get(0)?, r.get(1)?))).unwrap();
    assert_eq!(recorded, (ann_blog["blog"]["id"].as_i64().unwrap(), "ann".to_owned()), "the use names its blog");

    let refused = |resp: reqwest::Response| async move {
        let (field, message) = error_field(resp, 403).await;
        assert_eq!(field, "invite");
        message
    };
    // Used up, then a guess of the right shape, then one of another shape: one message for all.
    let used_up = refused(create_as(&eve, "198.51.100.3", "eve", Some(&once)).await).await;
    let guessed = refused(create_as(&eve, "198.51.100.4", "eve", Some(&"ab".repeat(16))).await).await;
    let junk = refused(create_as(&eve, "198.51.100.5", "eve", Some("' OR 1=1 --")).await).await;
    assert_eq!(used_up, guessed);
    assert_eq!(junk, guessed);
    assert!(guessed.contains("cannot be used"), "{guessed}");

    let revoked = new_invite(&app, &["--uses", "5"]);
    let (ok, out, _) = invites(&app, &["revoke", &revoked]);
    assert!(ok && out.starts_with("Revoked invite #2"), "{out}");
    assert_eq!(refused(create_as(&eve, "198.51.100.6", "eve", Some(&revoked)).await).await, guessed);

    let expired = new_invite(&app, &["--uses", "5", "--expires", "1h"]);
    app.db().execute("UPDATE invites SET expires_at = '2000-01-01T00:00:00Z' WHERE id = 3", []).unwrap();
    assert_eq!(refused(create_as(&eve, "198.51.100.7", "eve", Some(&expired)).await).await, guessed);

    assert_eq!((blogs(&app), uses(&app)), (1, 1), "no refused creation made a blog or spent a use");
    let counted: i64 =
        app.db().query_row("SELECT count(*) FROM signup_log WHERE created = 0", [], |r| r.get(0)).unwrap();
    assert_eq!(counted, 5, "every refused code counts against its address");

    // A usable code after all those refusals still works, for the same user.
    let good = new_invite(&app, &["--uses", "2"]);
    assert_eq!(create_as(&eve, "198.51.100.8", "eve", Some(&good)).await.status(), 201);
    assert_eq!((blogs(&app), uses(&app)), (2, 2));
}

#[tokio::test]
async fn guessing_codes_from_one_address_is_limited_too() {
    let app = spawn(SignupMode::Invite, |config| config.public.new_blogs_per_address = 3).await;
    let mallory = signed_up(&app, "mallory@example.com").await;
    let mut statuses = Vec::new();
    for i in 0..20 {
        let guess = format!("{i:032x}");
        statuses.push(create_as(&mallory, "203.0.113.9", "mal", Some(&guess)).await.status().as_u16());
    }
    assert_eq!(statuses[..3], [403, 403, 403], "{statuses:?}");
    assert!(statuses[3..].iter().all(|&s| s == 429), "{statuses:?}");
    // Even a real code is refused from that address for the day; another address may use it.
    let code = new_invite(&app, &[]);
    assert_eq!(create_as(&mallory, "203.0.113.9", "mal", Some(&code)).await.status(), 429);
    assert_eq!(uses(&app), 0);
    assert_eq!(create_as(&mallory, "203.0.113.10", "mal", Some(&code)).await.status(), 201);
}

#[tokio::test]
async fn a_thousand_creations_from_one_address_make_three_blogs() {
    let app = spawn(SignupMode::Open, |config| config.public.new_blogs_per_address = 3).await;
    let mut browser = signed_up(&app, "flood0@example.com").await;
    let (mut created, mut limited, mut users) = (0, 0, 1);
    let started = std::time::Instant::now();
    for i in 0..1000 {
        assert!(started.elapsed() < std::time::Duration::from_secs(120), "bounded in time");
        // One /64: every attempt rotates its address inside it.
        let resp = create_as(&browser, &format!("2001:db8:7:7::{:x}", i + 1), &format!("flood{i}"), None).await;
        match resp.status().as_u16() {
            201 => {
                created += 1;
                // Each user has one blog: the next attempts come from a new one.
                browser = signed_up(&app, &format!("flood{users}@example.com")).await;
                users += 1;
            }
            429 => {
                let (field, message) = error_field(resp, 429).await;
                assert_eq!(field, "signups");
                assert!(
                    message.starts_with("Too many new blogs from your network today; try again in about "),
                    "{message}"
                );
                limited += 1;
            }
            other => panic!("attempt {i}: {other} {}", resp.text().await.unwrap()),
        }
    }
    assert_eq!((created, limited), (3, 997));
    assert_eq!(blogs(&app), 3);
    // Another network is not held by this one's limit.
    assert_eq!(create_as(&browser, "2001:db8:7:8::1", "elsewhere", None).await.status(), 201);
}

#[tokio::test]
async fn the_instance_wide_cap_holds_across_addresses_and_restarts() {
    let cap = |config: &mut Config| config.public.new_blogs_per_day = 2;
    let app = spawn(SignupMode::Open, cap).await;
    for (i, name) in ["ann", "bob"].into_iter().enumerate() {
        let browser = signed_up(&app, &format!("{name}@example.com")).await;
        assert_eq!(create_as(&browser, &format!("198.51.100.{i}"), name, None).await.status(), 201);
    }
    let cid = signed_up(&app, "cid@example.com").await;
    let (field, message) = error_field(create_as(&cid, "192.0.2.77", "cid", None).await, 429).await;
    assert_eq!(field, "signups");
    assert_eq!(message, "This instance has taken as many new blogs as it takes in a day; try again in about 24 hours.");

    // A restart keeps the count: it is in the database.
    let port = app.port;
    let dir: Arc<tempfile::TempDir> = app.stop().await;
    let app = TestApp::spawn_at(dir, port, |config| {
        config.public.new_blogs_per_day = 2;
    })
    .await;
    let cid = signed_up(&app, "cid@example.com").await;
    assert_eq!(create_as(&cid, "192.0.2.78", "cid", None).await.status(), 429);
    // A day later the count is spent.
    app.db().execute("UPDATE signup_log SET at = '2000-01-01T00:00:00Z'", []).unwrap();
    assert_eq!(create_as(&cid, "192.0.2.78", "cid", None).await.status(), 201);
    assert_eq!(app.count("signup_log"), 1, "the day-old rows were pruned");
}

#[tokio::test]
async fn only_the_allowed_email_domains_may_create_a_blog() {
    let app = spawn(SignupMode::Open, |config| {
        config.public.email_domains = vec!["uni.example".into()];
    })
    .await;
    let eve = signed_up(&app, "eve@mail.uni.example").await;
    let (field, message) = error_field(create_as(&eve, "192.0.2.1", "eve", None).await, 403).await;
    assert_eq!(field, "signups");
    assert!(!message.contains("uni.example"), "the message names no domain: {message}");
    let ann = signed_up(&app, "Ann@Uni.Example").await;
    assert_eq!(create_as(&ann, "192.0.2.2", "ann", None).await.status(), 201);
    assert_eq!(blogs(&app), 1);
}

#[tokio::test]
async fn approval_mode_creates_a_new_blog_and_open_mode_an_approved_one() {
    for (mode, state) in [(SignupMode::Approval, "new"), (SignupMode::Open, "approved")] {
        let app = spawn(mode, |_| {}).await;
        let ann = signed_up(&app, "ann@example.com").await;
        assert_eq!(create_as(&ann, "192.0.2.1", "ann", None).await.status(), 201);
        let stored: String = app.db().query_row("SELECT state FROM blogs", [], |r| r.get(0)).unwrap();
        assert_eq!(stored, state, "{mode:?}");
        let page = app.get("/").await.text().await.unwrap();
        assert!(page.contains(&format!(r#""signups":"{}""#, mode.as_str())), "{mode:?}");
    }
}

#[tokio::test]
async fn invites_commands_work_while_the_server_runs() {
    let app = spawn(SignupMode::Invite, |_| {}).await;
    let (ok, _, err) = invites(&app, &["list"]);
    assert!(ok && err.contains("No invites yet"), "{err}");
    let code = new_invite(&app, &["--uses", "2", "--expires", "7d", "--note", "book club"]);
    let (ok, out, _) = invites(&app, &["list"]);
    assert!(ok, "{out}");
    assert!(out.starts_with(&format!("#1  {}…  0/2 used  expires 20", &code[..6])), "{out}");
    assert!(out.trim_end().ends_with("usable  book club"), "{out}");
    assert!(!out.contains(&code), "the code is never listed: {out}");

    let ann = signed_up(&app, "ann@example.com").await;
    assert_eq!(create_as(&ann, "192.0.2.1", "ann", Some(&code)).await.status(), 201);
    let (_, out, _) = invites(&app, &["list"]);
    assert!(out.contains("1/2 used"), "the running server's use is listed: {out}");

    let (ok, out, _) = invites(&app, &["revoke", "1"]);
    assert!(ok && out.contains("Revoked invite #1"), "{out}");
    let (_, out, _) = invites(&app, &["list"]);
    assert!(out.contains("revoked"), "{out}");
    let bob = signed_up(&app, "bob@example.com").await;
    assert_eq!(create_as(&bob, "192.0.2.2", "bob", Some(&code)).await.status(), 403, "revoked at once");

    for (args, said) in [
        (vec!["create", "--expires", "7 days"], "--expires: \"7 days\" is not a duration"),
        (vec!["create", "--expires", "0h"], "no time at all"),
        (vec!["create", "--uses", "0"], "--uses must be at least 1"),
        (vec!["revoke", &"f".repeat(32)], "there is no invite with the code or id"),
        (vec!["revoke", "99"], "there is no invite with the code or id \"99\""),
        (vec!["revoke", "nonsense"], "there is no invite with the code or id"),
    ] {
        let (ok, _, err) = invites(&app, &args);
        assert!(!ok, "{args:?}");
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        assert!(err.contains(said), "{args:?}: {err}");
    }
    assert_eq!(app.count("invites"), 1, "no refused command made an invite");
}

#[tokio::test]
async fn the_operator_pages_render_their_markdown_escaped_and_are_404_when_absent() {
    use quire::domain::public_instance::OperatorPage;
    let page = |markdown: &str| Some(OperatorPage { path: "terms.md".into(), markdown: markdown.to_owned() });
    let app = spawn(SignupMode::Open, |config| {
        config.public.terms =
            page("# Terms\n\nBe **kind**. <script>alert(1)</script>\n\n- no [spam](https://example.com/rules)");
        config.public.contact_email = Some("ops@example.com".into());
    })
    .await;
    let resp = app.get("/terms").await;
    assert_eq!(resp.status(), 200);
    let csp = resp.headers()["content-security-policy"].to_str().unwrap().to_owned();
    assert!(csp.starts_with("default-src 'none'"), "no script runs: {csp}");
    let html = resp.text().await.unwrap();
    assert!(html.contains("<title>Terms</title>"), "{html}");
    assert!(html.contains("Be <strong>kind</strong>."), "{html}");
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "raw HTML is shown as text: {html}");
    assert!(!html.contains("<script>"), "{html}");
    assert!(html.contains(r#"<a href="https://example.com/rules""#), "{html}");
    assert!(html.contains(r#"Contact: <a href="mailto:ops@example.com">ops@example.com</a>"#), "{html}");
    let privacy = app.get("/privacy").await;
    assert_eq!(privacy.status(), 404, "no --privacy: the app's 404");
    let config = app.get("/").await.text().await.unwrap();
    assert!(config.contains(r#""termsUrl":"/terms","privacyUrl":null"#), "{config}");
    assert!(config.contains(r#""contactEmail":"ops@example.com""#));

    let plain = spawn(SignupMode::Open, |_| {}).await;
    assert_eq!(plain.get("/terms").await.status(), 404);
    let config = plain.get("/").await.text().await.unwrap();
    assert!(config.contains(r#""contactEmail":null,"termsUrl":null,"privacyUrl":null"#), "{config}");
}
