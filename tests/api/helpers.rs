//! `TestApp`: a real Quire server on 127.0.0.1 with a fresh data directory, and `Browser`:
//! a client with its own cookie jar that acts like the owner app (CSRF header, sign-in).

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use quire::http::state::AppState;
use quire::{App, Config};
use reqwest::cookie::{CookieStore, Jar};
use reqwest::header::HOST;
use serde_json::{Value, json};
use tempfile::TempDir;
use tokio::sync::oneshot;

/// A running server for one test.
pub struct TestApp {
    /// `http://localhost:{port}`.
    pub url: String,
    /// The bound port.
    pub port: u16,
    /// The default browser's client.
    pub client: reqwest::Client,
    /// The default browser.
    pub browser: Browser,
    /// The data directory (deleted when the test ends).
    pub dir: Arc<TempDir>,
    /// The running server's shared state (its write path, its fetcher).
    pub state: AppState,
    shutdown: Option<oneshot::Sender<()>>,
    running: Option<tokio::task::JoinHandle<anyhow::Result<()>>>,
}

impl TestApp {
    /// Starts a server on a free port with local sign-in.
    pub async fn spawn() -> TestApp {
        TestApp::spawn_with(|_| {}).await
    }

    /// Starts a server after `adjust` changes the local config.
    pub async fn spawn_with(adjust: impl FnOnce(&mut Config)) -> TestApp {
        TestApp::spawn_in(Arc::new(tempfile::tempdir().expect("temp dir")), adjust).await
    }

    /// Starts a server on an existing data directory (to restart one on the same data).
    pub async fn spawn_in(dir: Arc<TempDir>, adjust: impl FnOnce(&mut Config)) -> TestApp {
        TestApp::spawn_at(dir, 0, adjust).await
    }

    /// Stops the server and starts a new one on the same data and port (the local issuer's
    /// accounts belong to its host and port, like any issuer's belong to its URL).
    pub async fn restart(self) -> TestApp {
        let port = self.port;
        let dir = self.stop().await;
        TestApp::spawn_at(dir, port, |_| {}).await
    }

    /// Starts a server on `dir` listening on `port` (0 for any).
    pub async fn spawn_at(dir: Arc<TempDir>, port: u16, adjust: impl FnOnce(&mut Config)) -> TestApp {
        let listen = SocketAddr::from(([127, 0, 0, 1], port));
        let mut config = Config::local(dir.path(), listen, "localhost:0");
        adjust(&mut config);
        // The app stopped a moment ago has closed its lock file, but a process another test
        // is starting (fork, then exec) may still hold a copy of that descriptor, and with it
        // the lock, until its exec closes it: wait that out, as a person restarting would.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        let app = loop {
            match App::build(config.clone()).await {
                Err(err) if err.is::<quire::data_dir::InUse>() && std::time::Instant::now() < deadline => {
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                }
                built => break built.expect("app builds"),
            }
        };
        let port = app.port();
        let state = app.state().clone();
        let (tx, rx) = oneshot::channel::<()>();
        let running = tokio::spawn(app.run(async {
            let _ = rx.await;
        }));
        let url = format!("http://localhost:{port}");
        let browser = Browser::new(&url, port);
        TestApp {
            client: browser.client.clone(),
            browser,
            url,
            port,
            dir,
            state,
            shutdown: Some(tx),
            running: Some(running),
        }
    }

    /// Stops the server and waits until it has let go of the data directory; returns the
    /// directory for a restart.
    pub async fn stop(mut self) -> Arc<TempDir> {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(running) = self.running.take() {
            running.await.expect("server task").expect("server ran");
        }
        self.dir.clone()
    }

    /// A browser with an empty cookie jar.
    pub fn new_browser(&self) -> Browser {
        Browser::new(&self.url, self.port)
    }

    /// GET a path of the owner app with the default browser.
    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.browser.get(path).await
    }

    /// GET a path with an explicit Host header (blogs, odd hosts).
    pub async fn get_with_host(&self, host: &str, path: &str) -> reqwest::Response {
        self.client
            .get(format!("http://127.0.0.1:{}{path}", self.port))
            .header(HOST, host)
            .send()
            .await
            .expect("request sent")
    }

    /// The database file of this server.
    pub fn db_path(&self) -> PathBuf {
        self.dir.path().join("quire.db")
    }

    /// A direct connection to the database, for checking what a request changed.
    pub fn db(&self) -> rusqlite::Connection {
        rusqlite::Connection::open(self.db_path()).expect("db opens")
    }

    /// Rows in `table`.
    pub fn count(&self, table: &str) -> i64 {
        self.db().query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0)).unwrap()
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

/// One browser: its own cookies, sending the CSRF header the way the owner app does.
#[derive(Clone)]
pub struct Browser {
    /// The HTTP client.
    pub client: reqwest::Client,
    jar: Arc<Jar>,
    url: String,
}

impl Browser {
    /// A browser for the app at `url` (on 127.0.0.1:`port`).
    pub fn new(url: &str, port: u16) -> Browser {
        let jar = Arc::new(Jar::default());
        let client = reqwest::Client::builder()
            .resolve("localhost", SocketAddr::from(([127, 0, 0, 1], port)))
            .cookie_provider(jar.clone())
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        Browser { client, jar, url: url.to_owned() }
    }

    /// The app's URL.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The value of a cookie this browser holds for the app.
    pub fn cookie(&self, name: &str) -> Option<String> {
        let header = self.jar.cookies(&self.url.parse().unwrap())?;
        header
            .to_str()
            .ok()?
            .split("; ")
            .filter_map(|pair| pair.split_once('='))
            .find(|(key, _)| *key == name)
            .map(|(_, value)| value.to_owned())
    }

    /// GET a path.
    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client.get(format!("{}{path}", self.url)).send().await.expect("request sent")
    }

    /// Loads the app page once so the `csrf_token` cookie is set.
    pub async fn open_app(&self) {
        if self.cookie("csrf_token").is_none() {
            assert_eq!(self.get("/").await.status(), 200);
        }
    }

    /// A write with a JSON body and the CSRF header, as the owner app sends it.
    pub async fn send(&self, method: reqwest::Method, path: &str, body: Value) -> reqwest::Response {
        self.open_app().await;
        let csrf = self.cookie("csrf_token").expect("csrf cookie");
        self.client
            .request(method, format!("{}{path}", self.url))
            .header("CSRF-Token", csrf)
            .json(&body)
            .send()
            .await
            .expect("request sent")
    }

    /// POST JSON with the CSRF header.
    pub async fn post(&self, path: &str, body: Value) -> reqwest::Response {
        self.send(reqwest::Method::POST, path, body).await
    }

    /// Starts a sign-in; returns the nonce (its cookie is now in the jar) and the provider URL.
    pub async fn start_sign_in(&self) -> (String, String) {
        let resp = self.post("/api/auth/nonce", json!({})).await;
        assert_eq!(resp.status(), 200, "nonce");
        let body: Value = resp.json().await.unwrap();
        (body["nonce"].as_str().unwrap().to_owned(), body["authorizationUrl"].as_str().unwrap().to_owned())
    }

    /// Signs in at the local issuer's page as `email`; returns the ID token it hands back.
    pub async fn local_issuer_token(&self, email: &str, nonce: &str) -> String {
        let form = [
            ("client_id", "quire-local"),
            ("response_type", "id_token"),
            ("redirect_uri", &format!("{}/auth/callback", self.url)),
            ("nonce", nonce),
            ("email", email),
        ];
        let resp = self.client.post(format!("{}/dev-idp/authorize", self.url)).form(&form).send().await.unwrap();
        assert_eq!(resp.status(), 303, "the local issuer redirects back");
        let location = resp.headers()["location"].to_str().unwrap().to_owned();
        let fragment = location.split_once('#').expect("token in the fragment").1;
        let params: std::collections::HashMap<String, String> = serde_urlencoded::from_str(fragment).unwrap();
        params["id_token"].clone()
    }

    /// The whole popup flow through the local issuer; returns the `POST /api/sessions` reply.
    pub async fn sign_in_as(&self, email: &str, signup: bool) -> reqwest::Response {
        let (nonce, _) = self.start_sign_in().await;
        let token = self.local_issuer_token(email, &nonce).await;
        self.post("/api/sessions", json!({ "id_token": token, "signup": signup })).await
    }

    /// Signs up (or in) as `email`; returns the user id.
    pub async fn sign_up(&self, email: &str) -> i64 {
        let resp = self.sign_in_as(email, true).await;
        assert_eq!(resp.status(), 200, "sign-up");
        let body: Value = resp.json().await.unwrap();
        body["session"]["user"]["id"].as_i64().unwrap()
    }

    /// Signs up as `email` and creates the blog `subdomain`; returns the blog id.
    pub async fn sign_up_with_blog(&self, email: &str, subdomain: &str) -> i64 {
        self.sign_up(email).await;
        let resp = self.post("/api/my/blogs", json!({ "subdomain": subdomain })).await;
        assert_eq!(resp.status(), 201, "blog creation");
        let body: Value = resp.json().await.unwrap();
        body["blog"]["id"].as_i64().unwrap()
    }
}

/// The body's `errors` list as (field, message) pairs.
pub async fn errors_of(resp: reqwest::Response) -> Vec<(String, String)> {
    let body: Value = resp.json().await.expect("JSON error body");
    body["errors"]
        .as_array()
        .expect("errors is a list")
        .iter()
        .flat_map(|entry| {
            entry
                .as_object()
                .expect("each error is an object")
                .iter()
                .map(|(k, v)| (k.clone(), v.as_str().expect("message is a string").to_owned()))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The single error's field of a response, checking its status.
pub async fn error_field(resp: reqwest::Response, status: u16) -> (String, String) {
    assert_eq!(resp.status(), status, "status");
    let errors = errors_of(resp).await;
    assert_eq!(errors.len(), 1, "{errors:?}");
    errors[0].clone()
}

/// The real `quire` binary with `args`, without its environment's QUIRE_* settings.
pub fn quire_command(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_quire"));
    for (key, _) in std::env::vars() {
        if key.starts_with("QUIRE_") {
            command.env_remove(key);
        }
    }
    command.args(args);
    command
}

/// Runs the real `quire` binary with `args` to its end.
pub fn quire(args: &[&str]) -> Output {
    quire_command(args).output().expect("quire runs")
}

/// Runs the real `quire` binary with `args`, killing it if it still runs after `limit` (for
/// commands that must refuse to start, so a regression fails instead of serving forever).
pub fn quire_within(args: &[&str], limit: Duration) -> Output {
    let mut child = quire_command(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("quire runs");
    let deadline = Instant::now() + limit;
    while child.try_wait().expect("quire waits").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().expect("quire ends")
}

/// The real `quire serve` on a free 127.0.0.1 port with a fresh data directory, killed when
/// dropped.
pub struct ServeProcess {
    /// The running binary.
    pub child: Child,
    /// Its port.
    pub port: u16,
    /// `http://localhost:{port}`.
    pub url: String,
    _dir: TempDir,
}

impl ServeProcess {
    /// Starts the server and waits until it prints the URL to open.
    pub fn start() -> ServeProcess {
        ServeProcess::start_with_env(&[])
    }

    /// Starts the server with settings given in its environment (`QUIRE_...`).
    pub fn start_with_env(env: &[(&str, &str)]) -> ServeProcess {
        let dir = tempfile::tempdir().expect("temp dir");
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let child = serve_on_with_env(dir.path(), port, &[], env);
        ServeProcess { child, port, url: format!("http://localhost:{port}"), _dir: dir }
    }

    /// The process's resident memory now, in bytes (from `/proc`, so Linux only).
    pub fn resident_bytes(&self) -> u64 {
        self.status_kib("VmRSS:") * 1024
    }

    /// The most resident memory the process has had since it started, in bytes.
    pub fn peak_resident_bytes(&self) -> u64 {
        self.status_kib("VmHWM:") * 1024
    }

    fn status_kib(&self, field: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).expect("/proc status");
        status
            .lines()
            .find_map(|line| line.strip_prefix(field))
            .and_then(|value| value.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .unwrap_or_else(|| panic!("{field} in /proc status"))
    }
}

/// Starts `quire serve` on `dir` at 127.0.0.1:`port` with `extra` flags, and waits until it
/// prints the URL to open.
pub fn serve_on(dir: &Path, port: u16, extra: &[&str]) -> Child {
    serve_on_with_env(dir, port, extra, &[])
}

/// [`serve_on`], with `env` set in the server's environment.
pub fn serve_on_with_env(dir: &Path, port: u16, extra: &[&str], env: &[(&str, &str)]) -> Child {
    let mut child =
        quire_command(&["serve", "--listen", &format!("127.0.0.1:{port}"), "--host", &format!("localhost:{port}")])
            .args(["--data-dir", s(dir)])
            .args(extra)
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("quire serve runs");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    assert_eq!(line.trim(), format!("Quire is running at http://localhost:{port}/"));
    child
}

impl Drop for ServeProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// stderr of a finished command, as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// stdout of a finished command, as text.
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A path as &str.
pub fn s(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

/// A post body of blocks given as (type, value) pairs.
pub fn body(blocks: &[(&str, Value)]) -> Value {
    let children: Vec<Value> = blocks.iter().map(|(kind, value)| json!({ "type": kind, "value": value })).collect();
    json!({ "type": "root", "children": children })
}

/// A list of blocks (a post body's `children`, a paste's `blocks`) as `(type, value)` pairs.
pub fn block_pairs(blocks: &Value) -> Vec<(String, Value)> {
    blocks
        .as_array()
        .expect("a list of blocks")
        .iter()
        .map(|b| (b["type"].as_str().unwrap().to_owned(), b["value"].clone()))
        .collect()
}

/// A one-heading, one-paragraph body.
pub fn simple_body(title: &str, text: &str) -> Value {
    body(&[("heading", json!({ "text": title })), ("paragraph", json!({ "text": text }))])
}

impl Browser {
    /// Creates a post; returns the `post` object.
    pub async fn create_post(&self, blog_id: i64, body: Value, draft: bool) -> Value {
        let resp = self.post(&format!("/api/my/blogs/{blog_id}/posts"), json!({ "body": body, "draft": draft })).await;
        assert_eq!(resp.status(), 201, "post created");
        resp.json::<Value>().await.unwrap()["post"].clone()
    }

    /// Searches the blog; returns the titles found, best first.
    pub async fn search_titles(&self, blog_id: i64, query: &str) -> Vec<String> {
        let resp = self.post(&format!("/api/my/blogs/{blog_id}/posts/search"), json!({ "query": query })).await;
        assert_eq!(resp.status(), 200, "search {query:?}");
        let body: Value = resp.json().await.unwrap();
        body["posts"].as_array().unwrap().iter().map(|p| p["title"].as_str().unwrap().to_owned()).collect()
    }
}

/// Serves `app` (a fake remote server) on 127.0.0.1:`port` and waits, at most two seconds, until
/// it accepts connections.
pub async fn serve_peer(app: impl poem::Endpoint + 'static, port: u16) {
    let server = poem::Server::new(poem::listener::TcpListener::bind(format!("127.0.0.1:{port}")));
    tokio::spawn(server.run(app));
    for _ in 0..100 {
        if tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}
