//! The limits on what other fediverse servers may make a blog store (issue 28, finding 1;
//! docs/federation.md, "Limits on remote servers"), over real HTTP: a fake remote server in this
//! process (a poem server on loopback publishing any number of actors, all with one key) signs
//! activities and posts them to Quire's inbox. Past a cap the inbox answers 202, drops the
//! activity and counts it; held replies expire; blocking a domain removes everything it sent;
//! the owner pages through the replies and followers.

use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use poem::web::{Data, Path};
use poem::{EndpointExt, Route, get, handler, post};
use quire::fetch::signed::{SigningKey, generate_key};
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{TestApp, error_field, serve_peer, simple_body};

/// The fake remote server: `/users/{name}` for any name, each an actor with the one key; their
/// inboxes answer 503, so what Quire queues for them stays queued.
struct Peer {
    /// `http://{host}:{port}`, `host` being `localhost` or `127.0.0.1`.
    origin: String,
    key: SigningKey,
}

#[derive(Clone)]
struct PeerState {
    origin: String,
    pem: String,
    inbox_posts: Arc<Mutex<usize>>,
}

#[handler]
fn actor_document(state: Data<&PeerState>, Path(name): Path<String>) -> poem::Response {
    let id = format!("{}/users/{name}", state.origin);
    let doc = json!({
        "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
        "id": id, "type": "Person", "preferredUsername": name, "name": name,
        "inbox": format!("{id}/inbox"),
        "publicKey": {"id": format!("{id}#main-key"), "owner": id, "publicKeyPem": state.pem},
    });
    poem::Response::builder().content_type("application/activity+json").body(doc.to_string())
}

#[handler]
fn unavailable_inbox(state: Data<&PeerState>) -> poem::http::StatusCode {
    *state.inbox_posts.lock().unwrap() += 1;
    poem::http::StatusCode::SERVICE_UNAVAILABLE
}

impl Peer {
    async fn start(host: &str) -> Peer {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        drop(listener);
        let origin = format!("http://{host}:{port}");
        let key = tokio::task::spawn_blocking(generate_key).await.unwrap().unwrap();
        let state =
            PeerState { origin: origin.clone(), pem: key.public_pem().to_owned(), inbox_posts: Default::default() };
        let app = Route::new()
            .at("/users/:name", get(actor_document))
            .at("/users/:name/inbox", post(unavailable_inbox))
            .data(state);
        serve_peer(app, port).await;
        Peer { origin, key }
    }

    fn actor(&self, name: &str) -> String {
        format!("{}/users/{name}", self.origin)
    }
}

/// A blog `alice` with one published post, on a server that may fetch from loopback.
struct Setup {
    app: TestApp,
    peer: Peer,
    blog: i64,
    post_id: String,
    permalink: String,
}

impl Setup {
    async fn start(peer_host: &str, adjust: impl FnOnce(&mut quire::config::Config)) -> Setup {
        let app = TestApp::spawn_with(|config| {
            config.fetch_allow_loopback = true;
            adjust(config);
        })
        .await;
        let blog = app.browser.sign_up_with_blog("alice@example.com", "alice").await;
        let post = app.browser.create_post(blog, simple_body("Hello", "World"), false).await;
        let short_id = post["shortId"].as_str().unwrap();
        let post_id = format!("http://alice.localhost:{}/_quire/ap/posts/{short_id}", app.port);
        let permalink = post["permalink"].as_str().unwrap().to_owned();
        Setup { peer: Peer::start(peer_host).await, app, blog, post_id, permalink }
    }

    /// `activity` of the actor `name`, signed with its key, posted to alice's inbox.
    async fn send(&self, name: &str, activity: &Value) -> u16 {
        let body = activity.to_string().into_bytes();
        let host = format!("alice.localhost:{}", self.app.port);
        let url = url::Url::parse(&format!("http://{host}/_quire/ap/inbox")).unwrap();
        let key_id = format!("{}#main-key", self.peer.actor(name));
        let headers =
            self.peer.key.sign(&key_id, "POST", &url, Some((&body, "application/activity+json")), SystemTime::now());
        let mut request =
            self.app.client.post(format!("http://127.0.0.1:{}/_quire/ap/inbox", self.app.port)).body(body);
        for (name, value) in headers.unwrap() {
            request = request.header(name, value);
        }
        request.send().await.unwrap().status().as_u16()
    }

    fn reply(&self, name: &str, n: u32) -> Value {
        let actor = self.peer.actor(name);
        let note = format!("{actor}/notes/{n}");
        json!({"id": format!("{note}/activity"), "type": "Create", "actor": actor, "object": {
            "id": note, "type": "Note", "attributedTo": actor, "inReplyTo": self.post_id,
            "content": format!("<p>Reply {n}: {}</p>", "words ".repeat(100))}})
    }

    fn follow(&self, name: &str) -> Value {
        let actor = self.peer.actor(name);
        let alice = format!("http://alice.localhost:{}/_quire/ap/actor", self.app.port);
        json!({"id": format!("{actor}/follows/1"), "type": "Follow", "actor": actor, "object": alice})
    }

    fn like(&self, name: &str) -> Value {
        let actor = self.peer.actor(name);
        json!({"id": format!("{actor}/likes/1"), "type": "Like", "actor": actor, "object": self.post_id})
    }

    async fn fediverse(&self) -> Value {
        let resp = self.app.get(&format!("/api/my/blogs/{}/fediverse", self.blog)).await;
        assert_eq!(resp.status(), 200);
        resp.json::<Value>().await.unwrap()["fediverse"].clone()
    }
}

#[tokio::test]
async fn one_server_past_its_caps_is_dropped_and_counted_and_its_rows_stay_at_the_cap() {
    let s = Setup::start("127.0.0.1", |config| {
        config.remote_limits.held_replies_per_host = 3;
        config.remote_limits.pending_followers_per_host = 3;
        config.remote_limits.followers_per_host = 4;
        config.remote_limits.reactions_per_host = 3;
    })
    .await;
    s.app.db().execute("UPDATE blogs SET approve_followers = 1", []).unwrap();

    for n in 1..=5 {
        assert_eq!(s.send("bob", &s.reply("bob", n)).await, 202, "a dropped reply is still answered 202");
    }
    assert_eq!(s.app.count("replies"), 3, "held replies stop at the host's cap");
    let mut again = s.reply("bob", 1);
    again["id"] = json!(format!("{}/again", again["id"].as_str().unwrap()));
    assert_eq!(s.send("bob", &again).await, 202, "a Note already held, sent again");
    for name in ["a1", "a2", "a3", "a4", "a5"] {
        assert_eq!(s.send(name, &s.follow(name)).await, 202);
        assert_eq!(s.send(name, &s.like(name)).await, 202);
    }
    assert_eq!(s.app.count("followers WHERE state = 'pending'"), 3, "pending followers stop at the cap");
    assert_eq!(s.app.count("reactions"), 3, "reactions stop at the cap");
    assert_eq!(s.app.count("deliveries"), 0, "nothing is sent to a dropped follower");
    // Without approval, followers are accepted at once, up to the host's cap on all its followers.
    s.app.db().execute("UPDATE blogs SET approve_followers = 0", []).unwrap();
    assert_eq!(s.send("a6", &s.follow("a6")).await, 202);
    assert_eq!(s.send("a7", &s.follow("a7")).await, 202);
    assert_eq!(s.app.count("followers"), 4, "all followers stop at the host's cap");
    assert_eq!(s.app.count("deliveries"), 1, "one Accept, for a6");

    // The owner sees what was refused, by kind, with the host.
    let refused = s.fediverse().await["refused"].clone();
    let counts: Vec<(&str, i64, &str)> = refused
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["kind"].as_str().unwrap(), r["count"].as_i64().unwrap(), r["lastHost"].as_str().unwrap()))
        .collect();
    let expected = [
        ("follower", 1, "127.0.0.1"),
        ("pending_follower", 2, "127.0.0.1"),
        ("reaction", 2, "127.0.0.1"),
        ("reply", 2, "127.0.0.1"),
    ];
    assert_eq!(counts, expected);

    // Deleting a held reply makes room for one more.
    let held = s.app.get(&format!("/api/my/blogs/{}/replies", s.blog)).await.json::<Value>().await.unwrap();
    let path = format!("/api/my/blogs/{}/replies/{}", s.blog, held["replies"][0]["id"]);
    assert_eq!(s.app.browser.send(Method::DELETE, &path, json!({})).await.status(), 204);
    assert_eq!(s.send("bob", &s.reply("bob", 6)).await, 202);
    assert_eq!(s.send("bob", &s.reply("bob", 7)).await, 202);
    assert_eq!(s.app.count("replies"), 3);
}

#[tokio::test]
async fn a_reply_held_longer_than_its_days_is_deleted_by_the_periodic_sweep() {
    let s = Setup::start("127.0.0.1", |_| {}).await;
    for n in 1..=3 {
        assert_eq!(s.send("bob", &s.reply("bob", n)).await, 202);
    }
    assert_eq!(s.app.count("replies"), 3);
    let conn = s.app.db();
    let old = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-31 days')";
    conn.execute(&format!("UPDATE replies SET received_at = {old} WHERE note_id LIKE '%/notes/1'"), []).unwrap();
    conn.execute(
        &format!("UPDATE replies SET received_at = {old}, state = 'approved' WHERE note_id LIKE '%/notes/2'"),
        [],
    )
    .unwrap();
    drop(conn);
    // The sweep runs at start and every minute after.
    let app = s.app.restart().await;
    let mut left = Vec::new();
    for _ in 0..100 {
        left = notes_of(&app);
        if left.len() < 3 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(left, ["2", "3"], "the old held reply is gone; an approved one and a recent one stay");
}

fn notes_of(app: &TestApp) -> Vec<String> {
    let conn = app.db();
    let mut stmt = conn.prepare("SELECT note_id FROM replies ORDER BY note_id").unwrap();
    stmt.query_map([], |row| row.get::<_, String>(0))
        .unwrap()
        .map(|note| note.unwrap().rsplit('/').next().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn blocking_a_domain_removes_everything_it_sent_and_the_page_stops_showing_it() {
    let s = Setup::start("localhost", |_| {}).await;
    assert_eq!(s.send("bob", &s.follow("bob")).await, 202);
    assert_eq!(s.send("bob", &s.like("bob")).await, 202);
    assert_eq!(s.send("carol", &s.reply("carol", 1)).await, 202);
    let held = s.app.get(&format!("/api/my/blogs/{}/replies", s.blog)).await.json::<Value>().await.unwrap();
    let approve = format!("/api/my/blogs/{}/replies/{}/approve", s.blog, held["replies"][0]["id"]);
    assert_eq!(s.app.browser.post(&approve, json!({})).await.status(), 200);
    let url = url::Url::parse(&s.permalink).unwrap();
    let (host, page) = (format!("{}:{}", url.host_str().unwrap(), s.app.port), url.path().to_owned());
    assert!(s.app.get_with_host(&host, &page).await.text().await.unwrap().contains("Reply 1"));
    let counts = |app: &TestApp| {
        ["followers", "replies", "reactions", "remote_actors", "deliveries"].map(|table| app.count(table))
    };
    assert_eq!(counts(&s.app), [1, 1, 1, 2, 1], "the Accept to bob stays queued: his inbox answers 503");

    let path = format!("/api/my/blogs/{}/fediverse/blocked_domains", s.blog);
    assert_eq!(s.app.browser.post(&path, json!({ "domain": "localhost" })).await.status(), 200);
    assert_eq!(counts(&s.app), [0, 0, 0, 0, 0], "followers, replies, reactions, actors and deliveries gone");
    let shown = s.app.get_with_host(&host, &page).await.text().await.unwrap();
    assert!(!shown.contains("Reply 1"), "the cached page no longer shows the removed reply");
}

#[tokio::test]
async fn the_owner_pages_through_the_replies_and_the_followers() {
    let s = Setup::start("127.0.0.1", |_| {}).await;
    for n in 1..=3 {
        assert_eq!(s.send("bob", &s.reply("bob", n)).await, 202);
    }
    for name in ["a1", "a2", "a3"] {
        assert_eq!(s.send(name, &s.follow(name)).await, 202);
    }
    let replies = format!("/api/my/blogs/{}/replies?page_size=2", s.blog);
    let first = s.app.get(&replies).await;
    assert_eq!(first.status(), 200);
    let headers =
        ["total", "totalPages", "pageNumber", "perPage"].map(|h| first.headers()[h].to_str().unwrap().to_owned());
    assert_eq!(headers, ["3", "2", "1", "2"]);
    let first = first.json::<Value>().await.unwrap()["replies"].as_array().unwrap().len();
    let second = s.app.get(&format!("{replies}&page=2")).await.json::<Value>().await.unwrap();
    assert_eq!((first, second["replies"].as_array().unwrap().len()), (2, 1));
    let (field, _) = error_field(s.app.get(&format!("{replies}&page=3")).await, 400).await;
    assert_eq!(field, "page");

    let followers = format!("/api/my/blogs/{}/fediverse/followers?page_size=2", s.blog);
    let first = s.app.get(&followers).await;
    assert_eq!(first.status(), 200);
    assert_eq!(first.headers()["total"], "3");
    let names = |page: &Value| -> Vec<String> {
        page["followers"].as_array().unwrap().iter().map(|f| f["handle"].as_str().unwrap().to_owned()).collect()
    };
    let first = names(&first.json::<Value>().await.unwrap());
    let second = names(&s.app.get(&format!("{followers}&page=2")).await.json::<Value>().await.unwrap());
    assert_eq!(first.len() + second.len(), 3);
    assert!(first[0].starts_with("@a1@") && second[0].starts_with("@a3@"), "oldest first: {first:?} {second:?}");
    let (field, _) = error_field(s.app.get(&format!("{followers}&page_size=0")).await, 400).await;
    assert_eq!(field, "page_size");
}
