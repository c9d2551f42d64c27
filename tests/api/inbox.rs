//! The inbox (issue 16, docs/federation-inbox.md): a fake remote server in this process (a poem
//! server on 127.0.0.1 publishing Bob's actor document and counting the fetches of it) signs
//! activities with Bob's key and posts them to Quire's shared and personal inboxes. Quire runs
//! with the test-only loopback allowance, fetches Bob's key from the fake server and changes
//! the blog; every refusal says why, and those refused before the key is needed fetch nothing.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use poem::web::Data;
use poem::{EndpointExt, Route, get, handler, post};
use quire::fetch::signed::{SigningKey, generate_key};
use serde_json::{Value, json};

use crate::helpers::{TestApp, error_field, serve_peer, simple_body};

/// The fake remote server: Bob's actor document and inbox.
pub(crate) struct Peer {
    origin: String,
    fetches: Arc<AtomicUsize>,
    signed_fetches: Arc<AtomicUsize>,
    pub(crate) received: Arc<Mutex<Vec<Value>>>,
    pub(crate) key: SigningKey,
}

#[derive(Clone)]
struct PeerState {
    actor: Arc<Value>,
    fetches: Arc<AtomicUsize>,
    signed_fetches: Arc<AtomicUsize>,
    received: Arc<Mutex<Vec<Value>>>,
}

#[handler]
fn actor(state: Data<&PeerState>, req: &poem::Request) -> poem::Response {
    state.fetches.fetch_add(1, Ordering::SeqCst);
    if req.header("signature").is_some() {
        state.signed_fetches.fetch_add(1, Ordering::SeqCst);
    }
    poem::Response::builder().content_type("application/activity+json").body(state.actor.to_string())
}

/// Bob's inbox keeps what it is sent (once the delivery worker sends the queued activities).
#[handler]
fn peer_inbox(state: Data<&PeerState>, body: poem::web::Json<Value>) -> poem::http::StatusCode {
    state.received.lock().unwrap().push(body.0);
    poem::http::StatusCode::ACCEPTED
}

impl Peer {
    async fn start() -> Peer {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        drop(listener);
        let origin = format!("http://127.0.0.1:{port}");
        let key = tokio::task::spawn_blocking(generate_key).await.unwrap().unwrap();
        let bob = format!("{origin}/users/bob");
        let actor_doc = json!({
            "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
            "id": bob, "type": "Person", "preferredUsername": "bob", "name": "Bob Peer",
            "inbox": format!("{bob}/inbox"), "endpoints": {"sharedInbox": format!("{origin}/inbox")},
            "url": format!("{origin}/@bob"),
            "publicKey": {"id": format!("{bob}#main-key"), "owner": bob, "publicKeyPem": key.public_pem()},
        });
        let fetches = Arc::new(AtomicUsize::new(0));
        let signed_fetches = Arc::new(AtomicUsize::new(0));
        let received = Arc::new(Mutex::new(Vec::new()));
        let state = PeerState {
            actor: Arc::new(actor_doc),
            fetches: fetches.clone(),
            signed_fetches: signed_fetches.clone(),
            received: received.clone(),
        };
        let app = Route::new().at("/users/bob", get(actor)).at("/users/bob/inbox", post(peer_inbox)).data(state);
        serve_peer(app, port).await;
        Peer { origin, fetches, signed_fetches, received, key }
    }

    pub(crate) fn bob(&self) -> String {
        format!("{}/users/bob", self.origin)
    }

    pub(crate) fn key_id(&self) -> String {
        format!("{}#main-key", self.bob())
    }

    pub(crate) fn fetches(&self) -> usize {
        self.fetches.load(Ordering::SeqCst)
    }
}

/// A client connecting from 127.0.0.2 (another address of the loopback network, so another
/// client to the inbox's rate limit).
pub(crate) fn client_from_another_address() -> reqwest::Client {
    let address = std::net::IpAddr::V4(std::net::Ipv4Addr::new(127, 0, 0, 2));
    reqwest::Client::builder().local_address(address).build().unwrap()
}

/// A blog `alice` with one published post on a server that may fetch from loopback.
pub(crate) struct Setup {
    pub(crate) app: TestApp,
    pub(crate) peer: Peer,
    pub(crate) post_id: String,
    permalink: String,
}

impl Setup {
    pub(crate) async fn start() -> Setup {
        let app = TestApp::spawn_with(|config| config.fetch_allow_loopback = true).await;
        let blog_id = app.browser.sign_up_with_blog("alice@example.com", "alice").await;
        let post = app.browser.create_post(blog_id, simple_body("Hello", "World"), false).await;
        let short_id = post["shortId"].as_str().unwrap();
        let post_id = format!("http://alice.localhost:{}/_quire/ap/posts/{short_id}", app.port);
        let permalink = post["permalink"].as_str().unwrap().to_owned();
        Setup { peer: Peer::start().await, app, post_id, permalink }
    }

    fn alice(&self) -> String {
        format!("http://alice.localhost:{}/_quire/ap/actor", self.app.port)
    }

    /// Bob's activity with his key, posted to the shared inbox (`host` `localhost:{port}`) or
    /// a blog's (`alice.localhost:{port}`).
    pub(crate) async fn send(&self, host: &str, activity: &Value) -> reqwest::Response {
        let body = activity.to_string().into_bytes();
        self.send_signed(host, &body, &body, &self.peer.key, SystemTime::now(), &[]).await
    }

    /// Posts `sent` with headers signed by `key` over `signed_body` at `at`; `extra` headers added.
    async fn send_signed(
        &self,
        host: &str,
        signed_body: &[u8],
        sent: &[u8],
        key: &SigningKey,
        at: SystemTime,
        extra: &[(&str, &str)],
    ) -> reqwest::Response {
        let url = url::Url::parse(&format!("http://{host}/_quire/ap/inbox")).unwrap();
        let headers =
            key.sign(&self.peer.key_id(), "POST", &url, Some((signed_body, "application/activity+json")), at).unwrap();
        let mut request =
            self.app.client.post(format!("http://127.0.0.1:{}/_quire/ap/inbox", self.app.port)).body(sent.to_vec());
        for (name, value) in headers {
            request = request.header(name, value);
        }
        for (name, value) in extra {
            request = request.header(*name, *value);
        }
        request.send().await.unwrap()
    }

    pub(crate) fn shared(&self) -> String {
        format!("localhost:{}", self.app.port)
    }

    fn personal(&self) -> String {
        format!("alice.localhost:{}", self.app.port)
    }

    pub fn follow(&self, n: u32) -> Value {
        json!({"@context": "https://www.w3.org/ns/activitystreams", "id": format!("{}/follows/{n}", self.peer.bob()),
            "type": "Follow", "actor": self.peer.bob(), "object": self.alice()})
    }

    /// The Accepts for Bob by id, with the inbox they go to: queued (a `deliveries` row) or, once
    /// the delivery worker sent them, received by Bob's inbox.
    fn accepts(&self) -> BTreeMap<String, (String, Value)> {
        let mut accepts = BTreeMap::new();
        let queued =
            self.query("SELECT d.inbox, a.json FROM deliveries d JOIN outgoing_activities a ON a.id = d.activity_id");
        for row in queued {
            let accept: Value = serde_json::from_str(&row[1]).unwrap();
            accepts.insert(accept["id"].as_str().unwrap().to_owned(), (row[0].clone(), accept));
        }
        for accept in self.peer.received.lock().unwrap().iter() {
            let inbox = format!("{}/inbox", self.peer.bob());
            accepts.insert(accept["id"].as_str().unwrap().to_owned(), (inbox, accept.clone()));
        }
        accepts.retain(|_, (_, accept)| accept["type"] == "Accept");
        accepts
    }

    pub fn query(&self, sql: &str) -> Vec<Vec<String>> {
        let conn = self.app.db();
        let mut stmt = conn.prepare(sql).unwrap();
        let columns = stmt.column_count();
        stmt.query_map([], |row| {
            (0..columns).map(|i| row.get::<_, rusqlite::types::Value>(i)).collect::<Result<Vec<_>, _>>()
        })
        .unwrap()
        .map(|row| {
            row.unwrap()
                .into_iter()
                .map(|v| match v {
                    rusqlite::types::Value::Text(t) => t,
                    rusqlite::types::Value::Integer(i) => i.to_string(),
                    rusqlite::types::Value::Null => "NULL".to_owned(),
                    other => format!("{other:?}"),
                })
                .collect()
        })
        .collect()
    }
}

#[tokio::test]
async fn a_follow_reactions_a_reply_and_their_undoing_change_the_blog_with_one_key_fetch() {
    let s = Setup::start().await;
    let bob = s.peer.bob();

    let follow = s.follow(1);
    assert_eq!(s.send(&s.shared(), &follow).await.status(), 202);
    let followers = s.query("SELECT actor_id, handle, inbox, shared_inbox, state FROM followers");
    let expected = [
        bob.clone(),
        format!("@bob@{}", &s.peer.origin[7..]),
        format!("{bob}/inbox"),
        format!("{}/inbox", s.peer.origin),
    ];
    assert_eq!(followers, vec![[&expected[..], &["accepted".to_owned()]].concat()]);
    let accepts = s.accepts();
    assert_eq!(accepts.len(), 1, "one Accept queued");
    let (inbox, accept) = accepts.values().next().unwrap();
    assert_eq!(*inbox, format!("{bob}/inbox"), "to the follower's own inbox");
    // The Follow named by its id, type and actors: nothing else of the body received.
    let mut named = follow.clone();
    named.as_object_mut().unwrap().remove("@context");
    assert_eq!(
        (accept["type"].as_str(), &accept["actor"], &accept["object"]),
        (Some("Accept"), &json!(s.alice()), &named)
    );
    assert_eq!(
        (s.peer.fetches(), s.peer.signed_fetches.load(Ordering::SeqCst)),
        (1, 1),
        "the shared inbox's fetch is signed too, as the instance actor (issue 28, finding 8)"
    );
    // The delivery worker, woken by the queued Accept, delivers it to Bob's inbox.
    let delivered = async {
        while !s.peer.received.lock().unwrap().iter().any(|a| a["type"] == "Accept" && a["object"] == named) {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(10), delivered).await.expect("the Accept is delivered");

    // The same Follow again (a server that lost our Accept) keeps one follower.
    assert_eq!(s.send(&s.shared(), &s.follow(2)).await.status(), 202);
    assert_eq!(s.app.count("followers"), 1);

    let like = json!({"id": format!("{bob}/likes/1"), "type": "Like", "actor": bob, "object": s.post_id});
    let boost = json!({"id": format!("{bob}/boosts/1"), "type": "Announce", "actor": bob, "object": s.permalink});
    assert_eq!(s.send(&s.personal(), &like).await.status(), 202);
    assert_eq!(s.send(&s.personal(), &boost).await.status(), 202);
    assert_eq!(s.query("SELECT kind FROM reactions ORDER BY kind"), vec![vec!["announce"], vec!["like"]]);
    let undo_like = json!({"id": format!("{bob}/likes/1/undo"), "type": "Undo", "actor": bob, "object": like});
    assert_eq!(s.send(&s.personal(), &undo_like).await.status(), 202);
    assert_eq!(s.query("SELECT kind FROM reactions"), vec![vec!["announce"]]);

    let note_id = format!("{bob}/notes/1");
    let reply = json!({"id": format!("{note_id}/activity"), "type": "Create", "actor": bob, "object": {
        "id": note_id, "type": "Note", "attributedTo": bob, "inReplyTo": s.post_id, "url": format!("{}/@bob/1", s.peer.origin),
        "published": "2026-11-24T10:00:00Z",
        "content": "<p>Lovely <b>post</b>!<script>alert(1)</script></p><p>Second &amp; last</p>"}});
    assert_eq!(s.send(&s.shared(), &reply).await.status(), 202);
    let replies = s.query("SELECT state, text, author_name, author_handle, published_at FROM replies");
    assert_eq!(
        replies,
        vec![vec![
            "held".to_owned(),
            "Lovely post!\n\nSecond & last".to_owned(),
            "Bob Peer".to_owned(),
            format!("@bob@{}", &s.peer.origin[7..]),
            "2026-11-24T10:00:00.000Z".to_owned(),
        ]]
    );
    // Someone else's Note, sent by Bob, is refused.
    let mut forged_note = reply.clone();
    forged_note["object"]["attributedTo"] = json!("https://elsewhere.example/users/eve");
    forged_note["object"]["id"] = json!(format!("{bob}/notes/2"));
    assert_eq!(s.send(&s.shared(), &forged_note).await.status(), 401);

    // A Note that answers none of our posts is not kept.
    let mut elsewhere = reply.clone();
    elsewhere["object"]["id"] = json!(format!("{bob}/notes/3"));
    elsewhere["object"]["inReplyTo"] = json!("https://elsewhere.example/notes/1");
    assert_eq!(s.send(&s.shared(), &elsewhere).await.status(), 202);
    assert_eq!(s.app.count("replies"), 1);

    let delete = json!({"id": format!("{note_id}#delete"), "type": "Delete", "actor": bob,
        "object": {"id": note_id, "type": "Tombstone"}});
    assert_eq!(s.send(&s.shared(), &delete).await.status(), 202);
    assert_eq!(s.app.count("replies"), 0);

    let undo_follow =
        json!({"id": format!("{bob}/follows/2/undo"), "type": "Undo", "actor": bob, "object": s.follow(2)});
    assert_eq!(s.send(&s.personal(), &undo_follow).await.status(), 202);
    assert_eq!(s.app.count("followers"), 0);

    // With approval on, a Follow waits and no Accept is queued.
    s.app.db().execute("UPDATE blogs SET approve_followers = 1", []).unwrap();
    let accepts = s.accepts().len();
    assert_eq!(s.send(&s.personal(), &s.follow(3)).await.status(), 202);
    assert_eq!(s.query("SELECT state FROM followers"), vec![vec!["pending"]]);
    assert_eq!(s.accepts().len(), accepts, "no Accept for a pending follower");

    // An Update of the actor fetches its document again.
    assert_eq!(s.peer.fetches(), 1, "one key fetch for every activity so far");
    let update = json!({"id": format!("{bob}#updates/1"), "type": "Update", "actor": bob,
        "object": {"id": bob, "type": "Person"}});
    assert_eq!(s.send(&s.shared(), &update).await.status(), 202);
    assert_eq!(s.peer.fetches(), 2);

    // Deleting the account removes everything of it.
    let gone = json!({"id": format!("{bob}#delete"), "type": "Delete", "actor": bob, "object": bob});
    assert_eq!(s.send(&s.shared(), &gone).await.status(), 202);
    assert_eq!((s.app.count("followers"), s.app.count("reactions"), s.app.count("remote_actors")), (0, 0, 0));

    assert_eq!(s.peer.fetches(), 2, "the Delete used the cached key");
    // Unknown types are answered and dropped.
    let moved = json!({"id": format!("{bob}/moves/1"), "type": "Move", "actor": bob, "object": bob});
    assert_eq!(s.send(&s.shared(), &moved).await.status(), 202);
}

#[tokio::test]
async fn requests_that_fail_a_check_are_refused_and_those_refused_before_the_key_fetch_nothing() {
    let s = Setup::start().await;
    let bob = s.peer.bob();
    let follow = s.follow(1);
    let body = follow.to_string().into_bytes();
    let inbox = format!("http://127.0.0.1:{}/_quire/ap/inbox", s.app.port);

    let unsigned = s.app.client.post(&inbox).header("host", s.shared()).body(body.clone()).send().await.unwrap();
    let (field, message) = error_field(unsigned, 401).await;
    assert_eq!(field, "signature");
    assert!(message.contains("not signed"), "{message}");

    let now = SystemTime::now();
    let rfc9421 = [("signature-input", "sig1=(\"@method\");keyid=\"x\"")];
    let refused = s.send_signed(&s.shared(), &body, &body, &s.peer.key, now, &rfc9421).await;
    assert!(error_field(refused, 401).await.1.contains("RFC 9421"));

    let tampered =
        json!({"id": format!("{bob}/follows/9"), "type": "Follow", "actor": bob, "object": s.alice()}).to_string();
    let refused = s.send_signed(&s.shared(), &body, tampered.as_bytes(), &s.peer.key, now, &[]).await;
    assert!(error_field(refused, 401).await.1.contains("Digest"));

    let stale = now - Duration::from_secs(2 * 3600);
    let refused = s.send_signed(&s.shared(), &body, &body, &s.peer.key, stale, &[]).await;
    assert!(error_field(refused, 401).await.1.contains("hour"));

    let not_json = b"{\"type\": \"Follow\",";
    let refused = s.send_signed(&s.shared(), not_json, not_json, &s.peer.key, now, &[]).await;
    assert_eq!(error_field(refused, 400).await.0, "body");
    let no_actor = json!({"id": format!("{bob}/follows/8"), "type": "Follow", "object": s.alice()}).to_string();
    let refused = s.send_signed(&s.shared(), no_actor.as_bytes(), no_actor.as_bytes(), &s.peer.key, now, &[]).await;
    assert!(error_field(refused, 400).await.1.contains("actor is missing"));

    let huge = vec![b' '; 300 * 1024];
    let refused = s.app.client.post(&inbox).header("host", s.shared()).body(huge).send().await.unwrap();
    assert_eq!(refused.status(), 413);

    let refused = s.send(&format!("nobody.localhost:{}", s.app.port), &follow).await;
    assert_eq!(error_field(refused, 404).await.0, "blog");

    s.app.db().execute("INSERT INTO blocked_domains (blog_id, domain) VALUES (NULL, '127.0.0.1')", []).unwrap();
    assert_eq!(s.send(&s.shared(), &follow).await.status(), 202);
    assert_eq!(s.app.count("followers"), 0, "a blocked domain is dropped");
    s.app.db().execute("DELETE FROM blocked_domains", []).unwrap();

    assert_eq!(s.peer.fetches(), 0, "nothing refused so far needed the key");

    // The personal inbox fetches the key signed with the blog's key.
    let accepted = s.send_signed(&s.personal(), &body, &body, &s.peer.key, now, &[]).await;
    assert_eq!(accepted.status(), 202);
    assert_eq!((s.peer.fetches(), s.peer.signed_fetches.load(Ordering::SeqCst)), (1, 1));
    let replayed = s.send_signed(&s.personal(), &body, &body, &s.peer.key, now, &[]).await;
    assert!(error_field(replayed, 401).await.1.contains("already used"));

    let mallory = tokio::task::spawn_blocking(generate_key).await.unwrap().unwrap();
    let like = json!({"id": format!("{bob}/likes/1"), "type": "Like", "actor": bob, "object": s.post_id}).to_string();
    let forged = s.send_signed(&s.shared(), like.as_bytes(), like.as_bytes(), &mallory, SystemTime::now(), &[]).await;
    assert!(error_field(forged, 401).await.1.contains("does not verify"));
    assert_eq!(s.app.count("reactions"), 0);
    assert_eq!(s.peer.fetches(), 1, "a forged signature refetches the key at most once every 5 minutes");

    // One address's flood of unverified requests is cut off with a 429 and Retry-After.
    let flood = r#"keyId="https://flood.example/actor#key",algorithm="rsa-sha256",headers="date",signature="AAAA""#;
    let flooder = client_from_another_address();
    let mut limited = None;
    for _ in 0..150 {
        let resp =
            flooder.post(&inbox).header("host", s.shared()).header("signature", flood).body("{}").send().await.unwrap();
        if resp.status() == 429 {
            limited = Some(resp);
            break;
        }
        assert_eq!(resp.status(), 401);
    }
    let limited = limited.expect("a 429 within 150 requests");
    assert!(limited.headers()["retry-after"].to_str().unwrap().parse::<u64>().unwrap() >= 1);
    assert_eq!(s.send(&s.shared(), &s.follow(4)).await.status(), 202, "other addresses are not limited");
}

#[tokio::test]
async fn concurrent_first_activities_of_a_server_fetch_its_key_once() {
    let s = Setup::start().await;
    let bob = s.peer.bob();
    let likes: Vec<Value> = (0..6)
        .map(|n| json!({"id": format!("{bob}/likes/{n}"), "type": "Like", "actor": bob, "object": s.post_id}))
        .collect();
    let shared = s.shared();
    let statuses = futures_util::future::join_all(likes.iter().map(|like| s.send(&shared, like))).await;
    assert!(statuses.iter().all(|resp| resp.status() == 202));
    assert_eq!(s.peer.fetches(), 1);
    assert_eq!(s.app.count("reactions"), 1, "one like per actor and post");
}
