//! Federation's outbound side against fake remote inboxes on 127.0.0.1 (small poem servers in
//! this process that keep every POST; the test checks each one's HTTP signature with ring
//! against the key our actor document publishes): the documents other servers read, and what
//! publishing, editing, deleting, scheduling and deleting the account send, through the real
//! delivery queue and worker. Followers are seeded straight into SQLite (the inbox that records
//! Follows is tested on its own).

use std::collections::HashMap;
use std::process::Child;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use poem::http::{HeaderMap, StatusCode};
use poem::{Body, EndpointExt, Request, Response, Route, handler, post};

use quire::domain::federation::ap_signature;
use quire::fetch::signed;
use serde_json::{Value, json};

use crate::helpers::{Browser, TestApp, body, serve_on, simple_body};

/// One POST an inbox received.
#[derive(Debug, Clone)]
pub(crate) struct Received {
    pub path: String,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
}

impl Received {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap()
    }
}

/// How a fake inbox answers.
#[derive(Clone, Copy)]
pub(crate) enum Answer {
    /// 202 at once.
    Accept,
    /// 202 after this long.
    Slow(Duration),
    /// This status.
    Status(u16),
}

/// A fake remote server: every POST to any path is kept and answered as told.
pub(crate) struct Inbox {
    pub port: u16,
    received: Arc<Mutex<Vec<Received>>>,
    _server: tokio::task::JoinHandle<()>,
}

#[derive(Clone)]
struct Shared {
    received: Arc<Mutex<Vec<Received>>>,
    answer: Answer,
}

#[handler]
async fn receive(req: &Request, body: Body, shared: poem::web::Data<&Shared>) -> Response {
    let bytes = body.into_vec().await.unwrap_or_default();
    if let Answer::Slow(wait) = shared.answer {
        tokio::time::sleep(wait).await;
    }
    shared.received.lock().unwrap().push(Received {
        path: req.uri().path().to_owned(),
        headers: req.headers().clone(),
        body: bytes,
    });
    match shared.answer {
        Answer::Status(code) => Response::builder().status(StatusCode::from_u16(code).unwrap()).finish(),
        _ => Response::builder().status(StatusCode::ACCEPTED).finish(),
    }
}

impl Inbox {
    pub async fn start(answer: Answer) -> Inbox {
        // Bound here and kept: no other test can be given the port in between.
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let received = Arc::new(Mutex::new(Vec::new()));
        let shared = Shared { received: received.clone(), answer };
        let app = Route::new().at("/*path", post(receive)).data(shared);
        let acceptor = poem::listener::TcpAcceptor::from_std(listener).unwrap();
        let server = tokio::spawn(async move {
            let _ = poem::Server::new_with_acceptor(acceptor).run(app).await;
        });
        Inbox { port, received, _server: server }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    pub fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }

    /// The types of the activities received, in order.
    pub fn types(&self) -> Vec<String> {
        self.received().iter().map(|r| r.json()["type"].as_str().unwrap_or_default().to_owned()).collect()
    }
}

/// Checks a received POST's draft-cavage signature against `public_pem`, and that it names the key.
pub(crate) fn verify(received: &Received, key_id: &str, public_pem: &str) {
    let checked =
        ap_signature::check_request("POST", &received.path, &received.headers, &received.body, SystemTime::now())
            .unwrap_or_else(|refusal| panic!("the signature is refused: {refusal:?}"));
    assert_eq!(checked.signature.key_id, key_id);
    signed::verify_checked(&checked, public_pem).expect("the signature verifies with the actor's key");
    assert_eq!(received.headers["content-type"], "application/activity+json");
}

/// Waits until `done` holds (at most `limit`).
pub(crate) async fn until(limit: Duration, what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A server whose deliveries may reach loopback, with the backoff's minute made `retry_ms`.
pub(crate) async fn spawn(retry_ms: u64) -> TestApp {
    TestApp::spawn_with(|config| {
        config.fetch_allow_loopback = true;
        config.delivery_retry_unit = Duration::from_millis(retry_ms);
        config.fetch_deadline = Duration::from_secs(5);
    })
    .await
}

fn blog_host(app: &TestApp) -> String {
    format!("alice.localhost:{}", app.port)
}

/// Seeds an accepted follower of blog 1 (or a pending one).
pub(crate) fn follow(app: &TestApp, name: &str, inbox: &str, shared_inbox: Option<&str>, accepted: bool) {
    app.db()
        .execute(
            "INSERT INTO followers (blog_id, actor_id, inbox, shared_inbox, handle, follow_id, state)
             VALUES (1, ?1, ?2, ?3, ?4, ?5, ?6)",
            rusqlite::params![
                format!("http://remote.example/users/{name}"),
                inbox,
                shared_inbox,
                format!("@{name}@remote.example"),
                format!("http://remote.example/follows/{name}"),
                if accepted { "accepted" } else { "pending" }
            ],
        )
        .unwrap();
}

async fn ap_get(app: &TestApp, host: &str, path: &str) -> reqwest::Response {
    app.client
        .get(format!("http://127.0.0.1:{}{path}", app.port))
        .header("host", host)
        .header("accept", "application/activity+json")
        .send()
        .await
        .unwrap()
}

async fn json_of(resp: reqwest::Response, status: u16, content_type: &str) -> Value {
    assert_eq!(resp.status(), status, "{}", resp.url());
    let got = resp.headers()["content-type"].to_str().unwrap().to_owned();
    assert!(got.starts_with(content_type), "content type {got}");
    resp.json().await.unwrap()
}

/// The blog's actor document and its key.
async fn actor(app: &TestApp) -> (Value, String, String) {
    let doc = json_of(ap_get(app, &blog_host(app), "/_quire/ap/actor").await, 200, "application/activity+json").await;
    let pem = doc["publicKey"]["publicKeyPem"].as_str().unwrap_or_else(|| panic!("{doc}")).to_owned();
    let key_id = doc["publicKey"]["id"].as_str().unwrap().to_owned();
    (doc, key_id, pem)
}

pub(crate) async fn alice(app: &TestApp) -> (Browser, i64) {
    let blog = app.browser.sign_up_with_blog("alice@example.com", "alice").await;
    (app.browser.clone(), blog)
}

#[tokio::test]
async fn the_documents_other_servers_read() {
    let app = spawn(60_000).await;
    let (alice, blog) = alice(&app).await;
    let host = blog_host(&app);
    let actor_id = format!("http://{host}/_quire/ap/actor");

    // WebFinger on the app host, by every name of the blog.
    for resource in [
        format!("acct:alice@localhost:{}", app.port),
        format!("acct:alice@alice.localhost:{}", app.port),
        actor_id.clone(),
        format!("http://{host}/"),
    ] {
        let resp = app.get(&format!("/.well-known/webfinger?resource={}", urlencode(&resource))).await;
        let jrd = json_of(resp, 200, "application/jrd+json").await;
        assert_eq!(jrd["subject"], format!("acct:alice@localhost:{}", app.port), "{resource}");
        assert_eq!(jrd["links"][0], json!({"rel": "self", "type": "application/activity+json", "href": actor_id}));
    }
    // And on the blog's own host.
    let resp =
        app.get_with_host(&host, &format!("/.well-known/webfinger?resource=acct:alice@localhost:{}", app.port)).await;
    assert_eq!(json_of(resp, 200, "application/jrd+json").await["links"][0]["href"], actor_id);
    // Bad and unknown resources: the API's error shape, never a 500.
    for (query, status) in [
        ("", 400),
        ("?resource=", 400),
        ("?resource=acct:nobody", 400),
        ("?resource=%3A%2F%2F", 400),
        (&format!("?resource=acct:bob@localhost:{}", app.port), 404),
        ("?resource=acct:alice@elsewhere.example", 404),
        ("?resource=https://elsewhere.example/", 404),
    ] {
        let resp = app.get(&format!("/.well-known/webfinger{query}")).await;
        assert_eq!(resp.status(), status, "{query}");
        let errors: Value = resp.json().await.unwrap();
        assert!(errors["errors"].is_array(), "{query}: {errors}");
    }

    // NodeInfo.
    let links = json_of(app.get("/.well-known/nodeinfo").await, 200, "application/json").await;
    assert_eq!(links["links"][0]["href"], format!("{}/nodeinfo/2.1", app.url));

    // The actor.
    let (doc, key_id, pem) = actor(&app).await;
    assert_eq!(doc["type"], "Person");
    assert_eq!(doc["id"], actor_id);
    assert_eq!(doc["preferredUsername"], "alice");
    assert_eq!(doc["url"], format!("http://{host}/"));
    assert_eq!(doc["inbox"], format!("http://{host}/_quire/ap/inbox"));
    assert_eq!(doc["endpoints"]["sharedInbox"], format!("{}/_quire/ap/inbox", app.url));
    assert_eq!(doc["manuallyApprovesFollowers"], false);
    assert_eq!(key_id, format!("{actor_id}#main-key"));
    assert!(pem.starts_with("-----BEGIN PUBLIC KEY-----"));
    let (_, _, again) = actor(&app).await;
    assert_eq!(again, pem, "one key per blog, kept");

    // Posts: published ones are Articles in the outbox, newest first; drafts and pages are not.
    let first = alice.create_post(blog, simple_body("First", "One."), false).await;
    let second = alice
        .create_post(
            blog,
            body(&[
                ("heading", json!({"text": "Second"})),
                ("paragraph", json!({"text": "Two *words*."})),
                ("image", json!({"url": format!("{}/media/{}.png", app.url, "a".repeat(64)), "alt": "A cat"})),
            ]),
            false,
        )
        .await;
    let draft = alice.create_post(blog, simple_body("Draft", "Not yet."), true).await;
    let page = alice
        .post(&format!("/api/my/blogs/{blog}/posts"), json!({"body": simple_body("About", "Me."), "page": true}))
        .await;
    let page: Value = page.json().await.unwrap();
    let page_id = page["post"]["shortId"].as_str().unwrap();
    let published = |p: &Value| p["shortId"].as_str().unwrap().to_owned();

    let outbox = json_of(ap_get(&app, &host, "/_quire/ap/outbox").await, 200, "application/activity+json").await;
    assert_eq!(outbox["type"], "OrderedCollection");
    assert_eq!(outbox["totalItems"], 2);
    let page1 = json_of(ap_get(&app, &host, "/_quire/ap/outbox?page=1").await, 200, "application/activity+json").await;
    let items = page1["orderedItems"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(items[0]["type"], "Create");
    assert_eq!(items[0]["object"]["name"], "Second");
    assert_eq!(items[1]["object"]["name"], "First");
    assert_eq!(page1.get("next"), None);
    for bad in ["0", "x", "-1", "99999999999"] {
        assert_eq!(ap_get(&app, &host, &format!("/_quire/ap/outbox?page={bad}")).await.status(), 400, "page {bad}");
    }

    let article = json_of(
        ap_get(&app, &host, &format!("/_quire/ap/posts/{}", published(&second))).await,
        200,
        "application/activity+json",
    )
    .await;
    assert_eq!(article["type"], "Article");
    assert_eq!(article["id"], format!("http://{host}/_quire/ap/posts/{}", published(&second)));
    assert_eq!(
        article["url"],
        format!("http://{host}{}", second["path"].as_str().unwrap_or(&format!("/second-{}", published(&second))))
    );
    assert_eq!(article["content"], "<p>Two <em>words</em>.</p>\n");
    assert_eq!(article["attachment"][0]["name"], "A cat");
    assert_eq!(article["attachment"][0]["mediaType"], "image/png");
    assert_eq!(ap_get(&app, &host, &format!("/_quire/ap/posts/{}", published(&first))).await.status(), 200);
    for hidden in [published(&draft), page_id.to_owned(), "nope".to_owned()] {
        let resp = ap_get(&app, &host, &format!("/_quire/ap/posts/{hidden}")).await;
        assert_eq!(resp.status(), 404, "{hidden}");
    }

    // The public pages link their ActivityPub documents, so a permalink pasted into Mastodon's
    // search finds the post (and the blog's address its actor); a page and page 2 link none.
    let alternate = |href: &str| format!(r#"<link rel="alternate" type="application/activity+json" href="{href}">"#);
    let html_of = |path: String| {
        let host = host.clone();
        let app = &app;
        async move { app.get_with_host(&host, &path).await.text().await.unwrap() }
    };
    assert!(html_of("/".to_owned()).await.contains(&alternate(&actor_id)), "the home page links the actor");
    let second_page =
        html_of(second["path"].as_str().unwrap_or(&format!("/second-{}", published(&second))).to_owned()).await;
    assert!(second_page.contains(&alternate(&format!("http://{host}/_quire/ap/posts/{}", published(&second)))));
    let about = html_of("/about".to_owned()).await;
    assert!(about.contains("Me.") && !about.contains("application/activity+json"), "a page does not federate");

    // Followers: the count of accepted ones only.
    follow(&app, "bob", "http://127.0.0.1:9/users/bob/inbox", None, true);
    follow(&app, "carol", "http://127.0.0.1:9/users/carol/inbox", None, false);
    let followers = json_of(ap_get(&app, &host, "/_quire/ap/followers").await, 200, "application/activity+json").await;
    assert_eq!(followers["totalItems"], 1);

    // Nothing of this on a host that is not the blog's, and unknown blogs are 404s.
    assert_eq!(ap_get(&app, &format!("bob.localhost:{}", app.port), "/_quire/ap/actor").await.status(), 404);
    let nodeinfo = json_of(app.get("/nodeinfo/2.1").await, 200, "application/json").await;
    assert_eq!(nodeinfo["software"]["name"], "quire");
    assert_eq!(nodeinfo["usage"]["localPosts"], 2);
}

#[tokio::test]
async fn a_custom_domain_keeps_the_actor_on_the_subdomain() {
    let app = spawn(60_000).await;
    let (_alice, _blog) = alice(&app).await;
    app.db()
        .execute("INSERT INTO custom_domains (blog_id, name, token, state, verified_at) VALUES (1, 'blog.alice.test', 't', 'verified', '2026-01-01T00:00:00.000Z')", [])
        .unwrap();
    let port = app.port;
    let dir = app.stop().await;
    let app = TestApp::spawn_at(dir, port, |config| config.fetch_allow_loopback = true).await;
    let custom = format!("blog.alice.test:{port}");
    let actor_id = format!("http://alice.localhost:{port}/_quire/ap/actor");

    let resp = app.get_with_host(&custom, "/.well-known/webfinger?resource=acct:alice@blog.alice.test").await;
    let jrd = json_of(resp, 200, "application/jrd+json").await;
    assert_eq!(jrd["links"][0]["href"], actor_id);
    assert_eq!(jrd["aliases"][1], format!("http://{custom}/"));
    let resp = app.get(&format!("/.well-known/webfinger?resource=acct:alice@blog.alice.test:{port}")).await;
    assert_eq!(json_of(resp, 200, "application/jrd+json").await["links"][0]["href"], actor_id);

    // The subdomain's pages move to the custom domain, its actor does not.
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let get =
        |host: String, path: &str| client.get(format!("http://127.0.0.1:{port}{path}")).header("host", host).send();
    let resp = get(format!("alice.localhost:{port}"), "/_quire/ap/actor").await.unwrap();
    assert_eq!(resp.status(), 200);
    let doc: Value = resp.json().await.unwrap();
    assert_eq!(doc["id"], actor_id);
    assert_eq!(doc["url"], format!("http://{custom}/"));
    assert_eq!(get(format!("alice.localhost:{port}"), "/").await.unwrap().status(), 301);
    let resp = get(custom.clone(), "/_quire/ap/outbox?page=1").await.unwrap();
    assert_eq!(resp.status(), 301);
    assert_eq!(resp.headers()["location"], format!("http://alice.localhost:{port}/_quire/ap/outbox?page=1"));
}

#[tokio::test]
async fn publishing_editing_and_deleting_send_signed_activities_once_per_server() {
    let app = spawn(60_000).await;
    let (alice, blog) = alice(&app).await;
    let (shared, personal, pending) =
        (Inbox::start(Answer::Accept).await, Inbox::start(Answer::Accept).await, Inbox::start(Answer::Accept).await);
    // Two followers on one server with a shared inbox, one with only its own inbox, one pending.
    follow(&app, "bob", &shared.url("/users/bob/inbox"), Some(&shared.url("/inbox")), true);
    follow(&app, "dan", &shared.url("/users/dan/inbox"), Some(&shared.url("/inbox")), true);
    follow(&app, "erin", &personal.url("/users/erin/inbox"), None, true);
    follow(&app, "fay", &pending.url("/users/fay/inbox"), None, false);
    let (_, key_id, pem) = actor(&app).await;

    // Drafts, pages and previews never leave the server.
    let draft = alice.create_post(blog, simple_body("Draft", "Secret."), true).await;
    let short = draft["shortId"].as_str().unwrap().to_owned();
    let preview = alice.post(&format!("/api/my/blogs/{blog}/posts/{short}/preview_link"), json!({})).await;
    assert!(preview.status().is_success(), "{}", preview.status());
    alice
        .post(&format!("/api/my/blogs/{blog}/posts"), json!({"body": simple_body("About", "Me."), "page": true}))
        .await;
    alice
        .send(
            reqwest::Method::PUT,
            &format!("/api/my/blogs/{blog}/posts/{short}"),
            json!({"body": simple_body("Draft", "Still secret."), "draft": true}),
        )
        .await;

    // Publishing the draft: one Create per server, signed.
    let resp = alice
        .send(
            reqwest::Method::PUT,
            &format!("/api/my/blogs/{blog}/posts/{short}"),
            json!({"body": simple_body("Hello", "World."), "draft": false, "tags": ["rust"]}),
        )
        .await;
    assert_eq!(resp.status(), 200);
    until(Duration::from_secs(10), "the Creates", || shared.received().len() == 1 && personal.received().len() == 1)
        .await;
    let object_id = format!("http://alice.localhost:{}/_quire/ap/posts/{short}", app.port);
    for (inbox, path) in [(&shared, "/inbox"), (&personal, "/users/erin/inbox")] {
        let got = &inbox.received()[0];
        assert_eq!(got.path, path);
        verify(got, &key_id, &pem);
        let create = got.json();
        assert_eq!(create["type"], "Create");
        assert_eq!(create["id"], format!("{object_id}/activity"));
        assert_eq!(create["object"]["type"], "Article");
        assert_eq!(create["object"]["name"], "Hello");
        assert_eq!(create["object"]["tag"][0]["name"], "#rust");
        assert_eq!(create["object"]["content"], "<p>World.</p>\n");
    }

    // An edit: Update.
    alice
        .send(
            reqwest::Method::PUT,
            &format!("/api/my/blogs/{blog}/posts/{short}"),
            json!({"body": simple_body("Hello", "World, again."), "draft": false}),
        )
        .await;
    until(Duration::from_secs(10), "the Updates", || shared.received().len() == 2 && personal.received().len() == 2)
        .await;
    let update = shared.received()[1].clone();
    verify(&update, &key_id, &pem);
    assert_eq!(update.json()["type"], "Update");
    assert_eq!(update.json()["object"]["content"], "<p>World, again.</p>\n");

    // A delete: Delete of a Tombstone.
    let resp = alice.send(reqwest::Method::DELETE, &format!("/api/my/blogs/{blog}/posts/{short}"), json!({})).await;
    assert!(resp.status().is_success());
    until(Duration::from_secs(10), "the Deletes", || shared.received().len() == 3 && personal.received().len() == 3)
        .await;
    let delete = shared.received()[2].json();
    assert_eq!(delete["type"], "Delete");
    assert_eq!(delete["object"], json!({"id": object_id, "type": "Tombstone", "formerType": "Article"}));
    assert_eq!(ap_get(&app, &blog_host(&app), &format!("/_quire/ap/posts/{short}")).await.status(), 404);

    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(pending.received().is_empty(), "a pending follower gets nothing: {:?}", pending.types());
    assert_eq!(shared.types(), ["Create", "Update", "Delete"]);
    assert_eq!(app.count("deliveries"), 0, "delivered rows are gone");
    assert_eq!(app.count("outgoing_activities"), 0);
}

#[tokio::test]
async fn a_delete_cancels_the_create_still_queued_and_a_scheduled_post_federates_when_it_goes_live() {
    // A long backoff: the failed Create stays queued for the Delete to cancel.
    let app = spawn(60_000).await;
    let (alice, blog) = alice(&app).await;
    let good = Inbox::start(Answer::Accept).await;
    let down = Inbox::start(Answer::Status(503)).await;
    follow(&app, "bob", &good.url("/inbox"), None, true);
    follow(&app, "dan", &down.url("/inbox"), None, true);

    let post = alice.create_post(blog, simple_body("Soon gone", "x"), false).await;
    until(Duration::from_secs(10), "the failed attempt", || down.received().len() == 1).await;
    // The good inbox's row goes; the 503's stays, to be retried in a minute.
    until(Duration::from_secs(10), "one row left", || {
        let db = app.db();
        db.query_row("SELECT count(*), sum(attempts) FROM deliveries", [], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, Option<i64>>(1)?))
        })
        .unwrap()
            == (1, Some(1))
    })
    .await;
    alice
        .send(
            reqwest::Method::DELETE,
            &format!("/api/my/blogs/{blog}/posts/{}", post["shortId"].as_str().unwrap()),
            json!({}),
        )
        .await;
    until(Duration::from_secs(10), "the Delete", || good.types() == ["Create", "Delete"]).await;
    let rows = || -> Vec<(String, String)> {
        let db = app.db();
        let mut stmt = db.prepare("SELECT d.inbox, json_extract(a.json, '$.type') FROM deliveries d JOIN outgoing_activities a ON a.id = d.activity_id").unwrap();
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap().map(Result::unwrap).collect()
    };
    // The queued Create was cancelled: only the Delete waits for the server that is down.
    until(Duration::from_secs(10), "the queue to hold only the Delete", || {
        rows() == vec![(down.url("/inbox"), "Delete".to_owned())]
    })
    .await;

    // A scheduled post: nothing until its time, then a Create.
    let at = (time::OffsetDateTime::now_utc() + time::Duration::seconds(2))
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    let resp = alice
        .post(
            &format!("/api/my/blogs/{blog}/posts"),
            json!({"body": simple_body("Later", "x"), "draft": false, "publish_at": at}),
        )
        .await;
    assert_eq!(resp.status(), 201);
    tokio::time::sleep(Duration::from_millis(1000)).await;
    assert_eq!(good.types(), ["Create", "Delete"], "not before its time");
    until(Duration::from_secs(10), "the scheduled Create", || good.types().len() == 3).await;
    assert_eq!(good.received()[2].json()["object"]["name"], "Later");
}

#[tokio::test]
async fn a_dead_inbox_is_retried_then_given_up_while_the_others_get_everything_at_once() {
    // Each minute of the backoff lasts 5 ms: the whole schedule (2,676 minutes, ~45 h) about 13 s.
    let app = spawn(5).await;
    let (alice, blog) = alice(&app).await;
    let good = Inbox::start(Answer::Accept).await;
    let failing = Inbox::start(Answer::Status(500)).await;
    let gone = Inbox::start(Answer::Status(410)).await;
    // Nothing listens on port 1 (tcpmux); a port picked free now could be another test's inbox later.
    let dead = "http://127.0.0.1:1/inbox".to_owned();
    follow(&app, "bob", &good.url("/inbox"), None, true);
    follow(&app, "dan", &failing.url("/inbox"), None, true);
    follow(&app, "erin", &dead, None, true);
    follow(&app, "fay", &gone.url("/users/fay/inbox"), None, true);

    actor(&app).await; // the blog's key, made when its follower first looked it up
    alice.create_post(blog, simple_body("One", "x"), false).await;
    alice.create_post(blog, simple_body("Two", "x"), false).await;
    until(Duration::from_secs(10), "the good inbox's Creates", || good.received().len() == 2).await;
    let retrying: i64 = app.db().query_row("SELECT count(*) FROM deliveries", [], |r| r.get(0)).unwrap();
    assert!(retrying >= 2, "the good inbox was served while the bad ones were still being retried ({retrying} queued)");

    // The 410 is given up at once and its follower removed.
    until(Duration::from_secs(5), "the 410", || !gone.received().is_empty()).await;
    until(Duration::from_secs(5), "fay's removal", || {
        app.db()
            .query_row("SELECT count(*) FROM followers WHERE handle = '@fay@remote.example'", [], |r| {
                r.get::<_, i64>(0)
            })
            .unwrap()
            == 0
    })
    .await;

    // The 500 and the refused connection: 9 attempts each, then given up.
    until(Duration::from_secs(60), "the retries to end", || {
        app.db().query_row("SELECT count(*) FROM deliveries", [], |r| r.get::<_, i64>(0)).unwrap() == 0
    })
    .await;
    // A given-up delivery goes with its activity; the owner sees a count and the last error by host.
    assert_eq!(app.count("outgoing_activities"), 0, "nothing given up is kept");
    let given_up: HashMap<String, (i64, String)> = {
        let db = app.db();
        let mut stmt = db.prepare("SELECT host, deliveries, last_error FROM given_up_hosts").unwrap();
        stmt.query_map([], |r| Ok((r.get(0)?, (r.get(1)?, r.get(2)?)))).unwrap().map(Result::unwrap).collect()
    };
    let host = |url: &str| url.trim_start_matches("http://").split('/').next().unwrap().to_owned();
    assert_eq!(given_up.len(), 3, "{given_up:?}");
    assert_eq!(given_up[&host(&failing.url("/"))], (2, "the server answered 500".to_owned()));
    let (count, error) = &given_up[&host(&dead)];
    assert!(*count == 2 && error.starts_with("could not connect"), "{given_up:?}");
    // fay's follower may be gone before the second post is queued: one 410, or two.
    let (count, error) = &given_up[&host(&gone.url("/"))];
    assert!(matches!(count, 1 | 2) && error == "the server answered 410", "{given_up:?}");
    assert_eq!(gone.received().len() as i64, *count, "no retry of a 410");
    assert_eq!(failing.received().len(), 18, "the failing server was tried 9 times for each activity");
    assert_eq!(good.received().len(), 2, "each activity once");
}

#[tokio::test]
async fn deleting_the_account_sends_the_actors_delete_and_the_actor_is_gone() {
    let app = spawn(60_000).await;
    let (alice, blog) = alice(&app).await;
    let inbox = Inbox::start(Answer::Slow(Duration::from_millis(300))).await;
    follow(&app, "bob", &inbox.url("/users/bob/inbox"), Some(&inbox.url("/inbox")), true);
    let (_, key_id, pem) = actor(&app).await;

    let resp = alice.send(reqwest::Method::DELETE, &format!("/api/my/blogs/{blog}"), json!({})).await;
    assert!(resp.status().is_success(), "{}", resp.status());
    // While its Delete is on its way, the actor is gone.
    let resp = ap_get(&app, &blog_host(&app), "/_quire/ap/actor").await;
    assert_eq!(resp.status(), 410);
    let tombstone: Value = resp.json().await.unwrap();
    assert_eq!(tombstone["type"], "Tombstone");
    until(Duration::from_secs(10), "the actor's Delete", || inbox.received().len() == 1).await;
    let got = &inbox.received()[0];
    verify(got, &key_id, &pem);
    let delete = got.json();
    assert_eq!(delete["type"], "Delete");
    assert_eq!(delete["object"], format!("http://{}/_quire/ap/actor", blog_host(&app)));
    assert_eq!(ap_get(&app, &blog_host(&app), "/_quire/ap/actor").await.status(), 410);
    let resp = app.get(&format!("/.well-known/webfinger?resource=acct:alice@localhost:{}", app.port)).await;
    assert_eq!(resp.status(), 404);
}

/// `quire serve` (the real binary) with the test-only loopback allowance, killed when dropped.
struct Served(Child);

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn serve(dir: &std::path::Path, port: u16) -> Served {
    Served(serve_on(dir, port, &["--test-only-fetch-loopback"]))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn kill_9_mid_delivery_loses_no_activity() {
    // 100 slow servers (each answers after 300 ms): with 16 deliveries at once, delivering to
    // all of them takes about 2 s. The server is killed 0.5 s in and started again.
    let mut inboxes = Vec::new();
    for _ in 0..100 {
        inboxes.push(Inbox::start(Answer::Slow(Duration::from_millis(300))).await);
    }
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let served = serve(dir.path(), port);
    let alice = Browser::new(&format!("http://localhost:{port}"), port);
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    {
        let db = rusqlite::Connection::open(dir.path().join("quire.db")).unwrap();
        for (n, inbox) in inboxes.iter().enumerate() {
            db.execute(
                "INSERT INTO followers (blog_id, actor_id, inbox, handle, follow_id, state)
                 VALUES (1, ?1, ?2, ?3, ?4, 'accepted')",
                rusqlite::params![
                    format!("http://127.0.0.1:{}/u/{n}", inbox.port),
                    inbox.url("/inbox"),
                    format!("@u{n}@x"),
                    format!("f{n}")
                ],
            )
            .unwrap();
        }
    }
    alice.create_post(blog, simple_body("Survives", "x"), false).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let mut served = served;
    let before: usize = inboxes.iter().map(|i| i.received().len()).sum();
    kill_9(&mut served.0);
    assert!(before < 100, "killed mid-delivery ({before} delivered)");
    let _restarted = serve(dir.path(), port);
    until(Duration::from_secs(30), "every inbox's Create", || inboxes.iter().all(|i| !i.received().is_empty())).await;
    for inbox in &inboxes {
        assert!(inbox.received().iter().all(|r| r.json()["type"] == "Create"));
    }
    let db = rusqlite::Connection::open(dir.path().join("quire.db")).unwrap();
    let mut left = 1;
    for _ in 0..100 {
        left = db.query_row("SELECT count(*) FROM deliveries", [], |r| r.get::<_, i64>(0)).unwrap();
        if left == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(left, 0, "the queue is empty");
}

/// `kill -9`: the process gets no chance to finish anything.
fn kill_9(child: &mut Child) {
    let status = std::process::Command::new("kill").args(["-9", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let _ = child.wait();
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn urlencode(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}
