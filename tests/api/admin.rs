//! The instance admins' API (`/api/admin/...`, issue 29): who may call it, the review queue and
//! its risk score, the search, the actions and their record, and the rule that sends an
//! approved blog taking up many new link hosts back to the queue.

use quire::config::SignupMode;
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{Browser, TestApp, body, error_field};

const ADMIN: &str = "admin@example.com";

/// A server whose admin is `ADMIN`, with new blogs waiting for review when `approval`.
async fn spawn(approval: bool) -> TestApp {
    TestApp::spawn_with(|config| {
        config.public.admins = vec![ADMIN.to_owned()];
        config.public.review_terms = vec!["casino".to_owned()];
        if approval {
            config.public.signups = SignupMode::Approval;
        }
    })
    .await
}

/// A post of rows of links to a few commercial hosts, and little text.
fn spam_body(hosts: &[&str], links: usize) -> Value {
    let mut blocks = vec![("heading", json!({ "text": "Best casino bonus" }))];
    for i in 0..links {
        let host = hosts[i % hosts.len()];
        blocks.push(("link", json!({ "url": format!("https://{host}/offer/{i}"), "title": "Free spins" })));
    }
    body(&blocks)
}

/// An ordinary post: some text and one link.
fn ordinary_body() -> Value {
    body(&[
        ("heading", json!({ "text": "A week of sourdough" })),
        (
            "paragraph",
            json!({ "text": "The starter took four days to double reliably, and the first loaf was dense but \
                             edible. Most of what I know comes from [this guide](https://bread.example/guide)." }),
        ),
    ])
}

/// Signs `email` up with the blog `subdomain` in a browser of its own and publishes `posts`.
async fn blogger(app: &TestApp, email: &str, subdomain: &str, posts: &[Value]) -> (Browser, i64) {
    let browser = app.new_browser();
    let blog_id = browser.sign_up_with_blog(email, subdomain).await;
    for post in posts {
        browser.create_post(blog_id, post.clone(), false).await;
    }
    (browser, blog_id)
}

async fn admin(app: &TestApp) -> Browser {
    let browser = app.new_browser();
    browser.sign_up(ADMIN).await;
    browser
}

async fn json_of(resp: reqwest::Response, status: u16) -> Value {
    assert_eq!(resp.status(), status, "status");
    resp.json().await.unwrap()
}

fn subdomains(answer: &Value) -> Vec<&str> {
    answer["blogs"].as_array().unwrap().iter().map(|b| b["subdomain"].as_str().unwrap()).collect()
}

/// Every admin route, with a body for the writes.
const ROUTES: [(&str, &str); 12] = [
    ("GET", "/api/admin/queue"),
    ("GET", "/api/admin/blogs?q=bob"),
    ("GET", "/api/admin/blogs/bob"),
    ("POST", "/api/admin/blogs/bob/approve"),
    ("POST", "/api/admin/blogs/bob/silence"),
    ("POST", "/api/admin/blogs/bob/suspend"),
    ("POST", "/api/admin/blogs/bob/unsuspend"),
    ("DELETE", "/api/admin/blogs/bob"),
    ("GET", "/api/admin/actions"),
    ("GET", "/api/admin/reports"),
    ("POST", "/api/admin/reports/1/resolve"),
    ("POST", "/api/admin/reports/1/dismiss"),
];

/// Stores an open report on `subdomain`, as the report page does.
fn open_report(app: &TestApp, subdomain: &str) {
    app.db()
        .execute(
            "INSERT INTO reports (blog_id, subdomain, reason, details)
             SELECT id, subdomain, 'spam', 'buy now' FROM blogs WHERE subdomain = ?1",
            [subdomain],
        )
        .unwrap();
}

fn report_state(app: &TestApp, id: i64) -> String {
    app.db().query_row("SELECT state FROM reports WHERE id = ?1", [id], |r| r.get(0)).unwrap()
}

#[tokio::test]
async fn every_admin_route_refuses_visitors_with_401_and_other_users_with_403_and_changes_nothing() {
    let app = spawn(true).await;
    blogger(&app, "bob@example.com", "bob", &[]).await;
    open_report(&app, "bob");
    let visitor = app.new_browser();
    let user = app.new_browser();
    user.sign_up("carol@example.com").await;
    for (method, path) in ROUTES {
        let method = Method::from_bytes(method.as_bytes()).unwrap();
        let resp = visitor.send(method.clone(), path, json!({ "reason": "x" })).await;
        let (field, _) = error_field(resp, 401).await;
        assert_eq!(field, "session", "{method} {path}");
        let resp = user.send(method.clone(), path, json!({ "reason": "x" })).await;
        let (field, message) = error_field(resp, 403).await;
        assert_eq!(
            (field.as_str(), message.as_str()),
            ("admin", "This is for the instance's admins only"),
            "{method} {path}"
        );
    }
    let state: String =
        app.db().query_row("SELECT state FROM blogs WHERE subdomain = 'bob'", [], |r| r.get(0)).unwrap();
    assert_eq!(state, "new");
    assert_eq!(report_state(&app, 1), "open");
    assert_eq!(app.count("admin_actions"), 0);
    assert_eq!(app.count("blogs"), 1);
}

#[tokio::test]
async fn an_admin_write_without_the_csrf_token_is_refused_and_the_session_says_who_is_an_admin() {
    let app = spawn(true).await;
    blogger(&app, "bob@example.com", "bob", &[]).await;
    open_report(&app, "bob");
    let admin = admin(&app).await;
    for (method, path) in ROUTES.iter().filter(|(method, _)| *method != "GET") {
        let resp = admin
            .client
            .request(Method::from_bytes(method.as_bytes()).unwrap(), format!("{}{path}", admin.url()))
            .json(&json!({ "reason": "forged" }))
            .send()
            .await
            .unwrap();
        let (field, _) = error_field(resp, 403).await;
        assert_eq!(field, "csrf", "{method} {path}");
    }
    assert_eq!(app.count("admin_actions"), 0);
    assert_eq!(report_state(&app, 1), "open");
    let session = json_of(admin.get("/api/my/session").await, 200).await;
    assert_eq!(session["session"]["isAdmin"], true);
    let bob = app.new_browser();
    bob.sign_in_as("bob@example.com", false).await;
    let session = json_of(bob.get("/api/session").await, 200).await;
    assert_eq!(session["session"]["isAdmin"], false);
}

#[tokio::test]
async fn the_queue_shows_new_blogs_with_their_hosts_and_score_and_the_actions_move_them_and_are_recorded() {
    let app = spawn(true).await;
    blogger(&app, "ann@example.com", "ann", &[ordinary_body()]).await;
    let spam_post = spam_body(&["casino.example", "pills.example", "www.casino.example"], 30);
    let (_, spam_id) = blogger(&app, "spam@example.com", "spammer", &[spam_post]).await;
    let admin = admin(&app).await;

    let queue = json_of(admin.get("/api/admin/queue").await, 200).await;
    assert_eq!(subdomains(&queue), ["spammer", "ann"], "newest first");
    let spam = &queue["blogs"][0];
    assert_eq!(spam["ownerEmail"], "spam@example.com");
    assert_eq!(spam["postCount"], 1);
    assert_eq!(spam["state"], "new");
    assert_eq!(
        spam["linkHosts"],
        json!([{ "host": "casino.example", "links": 20 }, { "host": "pills.example", "links": 10 }])
    );
    assert_eq!(spam["riskExplanation"], "30 links to 2 hosts in 1 post; 1 of 1 post mostly links; 'casino' ×1");
    let ann = &queue["blogs"][1];
    assert_eq!(ann["riskExplanation"], "1 link to 1 host in 1 post");
    assert!(spam["riskScore"].as_u64().unwrap() > ann["riskScore"].as_u64().unwrap() + 50, "{queue}");
    let by_risk = json_of(admin.get("/api/admin/queue?order=risk").await, 200).await;
    assert_eq!(subdomains(&by_risk), ["spammer", "ann"]);
    let (field, _) = error_field(admin.get("/api/admin/queue?order=oldest").await, 400).await;
    assert_eq!(field, "order");

    // Approve: out of the queue. Suspend needs a reason; the owner is shown it.
    let approved = json_of(admin.post("/api/admin/blogs/ann/approve", json!({ "reason": "" })).await, 200).await;
    assert_eq!(approved["blog"]["state"], "approved");
    let (field, _) =
        error_field(admin.post("/api/admin/blogs/spammer/suspend", json!({ "reason": " " })).await, 422).await;
    assert_eq!(field, "reason");
    let suspended =
        json_of(admin.post("/api/admin/blogs/spammer/suspend", json!({ "reason": "Casino spam" })).await, 200).await;
    assert_eq!(
        (suspended["blog"]["state"].as_str(), suspended["blog"]["stateReason"].as_str()),
        (Some("suspended"), Some("Casino spam"))
    );
    let queue = json_of(admin.get("/api/admin/queue").await, 200).await;
    assert_eq!(subdomains(&queue), Vec::<&str>::new());
    // A suspended blog takes only unsuspend, which restores what it was.
    let (field, message) =
        error_field(admin.post("/api/admin/blogs/spammer/approve", json!({ "reason": "" })).await, 422).await;
    assert_eq!((field.as_str(), message.as_str()), ("action", "This blog is suspended: unsuspend it first"));
    let back = json_of(admin.post("/api/admin/blogs/spammer/unsuspend", json!({ "reason": "" })).await, 200).await;
    assert_eq!(back["blog"]["state"], "new");
    let silenced =
        json_of(admin.post("/api/admin/blogs/spammer/silence", json!({ "reason": "Links only" })).await, 200).await;
    assert_eq!(silenced["blog"]["state"], "silenced");
    let (field, _) =
        error_field(admin.post("/api/admin/blogs/nobody/approve", json!({ "reason": "" })).await, 404).await;
    assert_eq!(field, "blog");
    let (field, _) = error_field(admin.post("/api/admin/blogs/ann/publish", json!({ "reason": "" })).await, 404).await;
    assert_eq!(field, "action");

    let detail = json_of(admin.get("/api/admin/blogs/spammer").await, 200).await;
    assert_eq!((detail["blog"]["id"].as_i64(), detail["blog"]["state"].as_str()), (Some(spam_id), Some("silenced")));
    let resp = admin.get("/api/admin/actions?page_size=2").await;
    assert_eq!(resp.headers()["total"], "4");
    let actions = json_of(resp, 200).await;
    let record: Vec<(&str, &str, &str, &str)> = actions["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["admin"].as_str().unwrap(),
                a["action"].as_str().unwrap(),
                a["subdomain"].as_str().unwrap(),
                a["reason"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(record, [(ADMIN, "silence", "spammer", "Links only"), (ADMIN, "unsuspend", "spammer", "")]);
}

#[tokio::test]
async fn the_search_finds_blogs_by_subdomain_name_or_email_and_pages() {
    let app = spawn(false).await;
    for i in 0..3 {
        blogger(&app, &format!("writer{i}@mail.example"), &format!("writer{i}"), &[]).await;
    }
    blogger(&app, "other@elsewhere.example", "other", &[]).await;
    let admin = admin(&app).await;
    let found = json_of(admin.get("/api/admin/blogs?q=MAIL.example&page_size=2").await, 200).await;
    assert_eq!(subdomains(&found), ["writer2", "writer1"]);
    let resp = admin.get("/api/admin/blogs?q=mail.example&page_size=2&page=2").await;
    assert_eq!(resp.headers()["totalPages"], "2");
    assert_eq!(subdomains(&json_of(resp, 200).await), ["writer0"]);
    assert_eq!(subdomains(&json_of(admin.get("/api/admin/blogs?q=oth").await, 200).await), ["other"]);
    assert_eq!(subdomains(&json_of(admin.get("/api/admin/blogs?q=%25").await, 200).await), Vec::<&str>::new());
    assert_eq!(subdomains(&json_of(admin.get("/api/admin/blogs?state=new").await, 200).await), Vec::<&str>::new());
    let all = json_of(admin.get("/api/admin/blogs?state=approved").await, 200).await;
    assert_eq!(subdomains(&all).len(), 4);
    let (field, _) = error_field(admin.get("/api/admin/blogs?state=gone").await, 400).await;
    assert_eq!(field, "state");
    let (field, _) = error_field(admin.get("/api/admin/blogs?page=9").await, 400).await;
    assert_eq!(field, "page");
}

#[tokio::test]
async fn an_approved_blog_in_its_first_days_taking_up_five_new_link_hosts_goes_back_to_the_queue() {
    let app = spawn(false).await;
    let (bob, blog_id) = blogger(&app, "bob@example.com", "bob", &[ordinary_body()]).await;
    let admin = admin(&app).await;
    assert_eq!(subdomains(&json_of(admin.get("/api/admin/queue").await, 200).await), Vec::<&str>::new());
    // Never reviewed, its baseline is no host: bread.example and three more make four new hosts.
    bob.create_post(blog_id, spam_body(&["a.example", "b.example", "c.example"], 3), false).await;
    assert_eq!(subdomains(&json_of(admin.get("/api/admin/queue").await, 200).await), Vec::<&str>::new());
    // An edit bringing the fifth: flagged, still approved and served.
    let post = bob.create_post(blog_id, body(&[("paragraph", json!({ "text": "draft" }))]), true).await;
    let short_id = post["shortId"].as_str().unwrap();
    let edit = json!({ "body": spam_body(&["d.example"], 1), "draft": false });
    let resp = bob.send(Method::PUT, &format!("/api/my/blogs/{blog_id}/posts/{short_id}"), edit).await;
    assert_eq!(resp.status(), 200);
    let queue = json_of(admin.get("/api/admin/queue").await, 200).await;
    assert_eq!(subdomains(&queue), ["bob"]);
    assert_eq!(queue["blogs"][0]["state"], "approved");
    assert!(queue["blogs"][0]["flaggedAt"].is_string());
    assert_eq!(app.get_with_host(&format!("bob.localhost:{}", app.port), "/").await.status(), 200);
    // Approving clears the flag and takes the hosts as they are: one more host is one new host.
    json_of(admin.post("/api/admin/blogs/bob/approve", json!({ "reason": "" })).await, 200).await;
    bob.create_post(blog_id, spam_body(&["e.example"], 1), false).await;
    assert_eq!(subdomains(&json_of(admin.get("/api/admin/queue").await, 200).await), Vec::<&str>::new());
}

#[tokio::test]
async fn deleting_a_blog_as_an_admin_removes_it_at_once_as_account_deletion_does() {
    let app = spawn(true).await;
    blogger(&app, "bob@example.com", "bob", &[ordinary_body()]).await;
    let admin = admin(&app).await;
    let host = format!("bob.localhost:{}", app.port);
    assert_eq!(app.get_with_host(&host, "/").await.status(), 200);
    let done = json_of(admin.send(Method::DELETE, "/api/admin/blogs/bob", json!({})).await, 200).await;
    assert_eq!(done["done"], "Deleted bob and its owner's account; the subdomain is retired.");
    assert_eq!(app.get_with_host(&host, "/").await.status(), 404);
    assert_eq!(app.count("users WHERE email = 'bob@example.com'"), 0);
    assert_eq!(app.count("retired_subdomains WHERE subdomain = 'bob'"), 1);
    let actions = json_of(admin.get("/api/admin/actions").await, 200).await;
    assert_eq!(
        (actions["actions"][0]["action"].as_str(), actions["actions"][0]["subdomain"].as_str()),
        (Some("delete"), Some("bob"))
    );
    let (field, _) = error_field(admin.send(Method::DELETE, "/api/admin/blogs/bob", json!({})).await, 404).await;
    assert_eq!(field, "blog");
}
