//! The guarded fetcher against real HTTP servers on 127.0.0.1: what it refuses never reaches
//! the server (every connection is counted), what it allows downloads for real.

use std::io::{Read, Write};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use quire::Config;
use quire::domain::content::image::ImageType;
use quire::fetch::{FetchError, Fetcher, Request};
use reqwest::header::{CONTENT_TYPE, HeaderValue};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};

use crate::helpers::{quire_command, s};

/// A 1×1 PNG.
pub(crate) const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89\0\0\0\rIDATx\x9cc\xf8\xff\xff?\0\x05\xfe\x02\xfe\xa7\x35\x81\x84\0\0\0\0IEND\xaeB`\x82";

/// What the test server answers for a path.
pub(crate) enum Reply {
    /// 200 with this type and body.
    Body(&'static str, Vec<u8>),
    /// 302 to this URL.
    Redirect(String),
    /// This redirect status (301, 303, 307, 308) to this URL.
    RedirectWith(u16, String),
    /// This status, empty body.
    Status(u16),
    /// 200 with a PNG header, then bytes until the client hangs up.
    Endless,
    /// 200 claiming this Content-Length, then nothing.
    Claims(u64),
    /// 200 with a PNG header, then one byte every 100 ms.
    Trickle,
}

/// One request the test server received.
#[derive(Debug, Clone)]
struct Seen {
    head: String,
    body: Vec<u8>,
}

/// A tiny HTTP/1.1 server on 127.0.0.1 that counts every connection made to it.
pub(crate) struct Origin {
    port: u16,
    connections: Arc<AtomicUsize>,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl Origin {
    pub(crate) async fn start(route: impl Fn(&str) -> Reply + Send + Sync + 'static) -> Origin {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let connections = Arc::new(AtomicUsize::new(0));
        let seen = Arc::new(Mutex::new(Vec::new()));
        let route = Arc::new(route);
        let (counter, log) = (connections.clone(), seen.clone());
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                counter.fetch_add(1, Ordering::SeqCst);
                let (route, log) = (route.clone(), log.clone());
                tokio::spawn(async move {
                    let _ = serve(stream, |path| route(path), &log).await;
                });
            }
        });
        Origin { port, connections, seen }
    }

    pub(crate) fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    pub(crate) fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }

    fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

async fn serve(stream: TcpStream, route: impl Fn(&str) -> Reply, log: &Mutex<Vec<Seen>>) -> std::io::Result<()> {
    let mut stream = BufReader::new(stream);
    let mut head = String::new();
    while !head.ends_with("\r\n\r\n") {
        if stream.read_line(&mut head).await? == 0 {
            return Ok(());
        }
    }
    let path = head.split(' ').nth(1).unwrap_or("/").to_owned();
    let length = head
        .lines()
        .find_map(|line| {
            line.to_ascii_lowercase().strip_prefix("content-length:").map(|n| n.trim().parse().unwrap_or(0))
        })
        .unwrap_or(0);
    let mut body = vec![0; length];
    stream.read_exact(&mut body).await?;
    log.lock().unwrap().push(Seen { head, body });
    let mut stream = stream.into_inner();
    let close = "Connection: close\r\n";
    let png_head = format!("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n{close}\r\n");
    match route(&path) {
        Reply::Body(kind, body) => {
            let head =
                format!("HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n{close}\r\n", body.len());
            stream.write_all(head.as_bytes()).await?;
            stream.write_all(&body).await?;
        }
        Reply::Redirect(to) => {
            let head = format!("HTTP/1.1 302 Found\r\nLocation: {to}\r\nContent-Length: 0\r\n{close}\r\n");
            stream.write_all(head.as_bytes()).await?;
        }
        Reply::RedirectWith(code, to) => {
            let head = format!("HTTP/1.1 {code} Moved\r\nLocation: {to}\r\nContent-Length: 0\r\n{close}\r\n");
            stream.write_all(head.as_bytes()).await?;
        }
        Reply::Status(code) => {
            stream.write_all(format!("HTTP/1.1 {code} Nope\r\nContent-Length: 0\r\n{close}\r\n").as_bytes()).await?;
        }
        Reply::Endless => {
            stream.write_all(png_head.as_bytes()).await?;
            stream.write_all(PNG).await?;
            let chunk = vec![0u8; 64 * 1024];
            loop {
                stream.write_all(&chunk).await?;
            }
        }
        Reply::Claims(length) => {
            let head = format!("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: {length}\r\n{close}\r\n");
            stream.write_all(head.as_bytes()).await?;
            tokio::time::sleep(Duration::from_secs(30)).await;
        }
        Reply::Trickle => {
            stream.write_all(png_head.as_bytes()).await?;
            for byte in PNG.iter().cycle() {
                stream.write_all(&[*byte]).await?;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
    stream.shutdown().await
}

/// A fetcher as `App` builds it, from a local config changed by `adjust`.
fn fetcher(adjust: impl FnOnce(&mut Config)) -> Fetcher {
    let mut config = Config::local(&std::env::temp_dir(), SocketAddr::from(([127, 0, 0, 1], 8080)), "localhost:8080");
    adjust(&mut config);
    Fetcher::new(&config).expect("fetcher builds")
}

fn strict() -> Fetcher {
    fetcher(|_| {})
}

fn testing() -> Fetcher {
    fetcher(|config| config.fetch_allow_loopback = true)
}

/// The user-facing message of a failed image download.
async fn image_error(fetcher: &Fetcher, url: &str) -> String {
    match fetcher.get_image(url).await {
        Ok(_) => panic!("{url} should have been refused"),
        Err(err) => err.to_string(),
    }
}

/// `localhost` resolves to 127.0.0.1 or ::1 first, depending on the machine.
fn assert_refused_by_name(message: &str) {
    let address = message
        .strip_prefix("refused: localhost resolves to ")
        .and_then(|rest| rest.strip_suffix(", a loopback address"));
    assert!(matches!(address, Some("127.0.0.1" | "::1")), "{message}");
}

fn serves_png(path: &str) -> Reply {
    match path {
        "/x.png" => Reply::Body("image/png", PNG.to_vec()),
        _ => Reply::Status(404),
    }
}

#[tokio::test]
async fn a_loopback_image_is_refused_before_any_request_unless_the_test_allowance_is_on() {
    let origin = Origin::start(serves_png).await;
    let port = origin.port;
    let fetcher = strict();
    assert_eq!(image_error(&fetcher, &origin.url("/x.png")).await, "refused: 127.0.0.1 is a loopback address");
    assert_refused_by_name(&image_error(&fetcher, &format!("http://localhost:{port}/x.png")).await);
    assert_eq!(origin.connections(), 0, "no request reached the server");

    let image = testing().get_image(&origin.url("/x.png")).await.expect("the test allowance reaches 127.0.0.1");
    assert_eq!((image.image_type, image.bytes.as_ref()), (ImageType::Png, PNG));
    let by_name = testing().get_image(&format!("http://localhost:{port}/x.png")).await.expect("and localhost");
    assert_eq!(by_name.image_type, ImageType::Png);
    let head = &origin.seen()[0].head;
    assert!(head.contains("user-agent: Quire/0.1.0 (+http://localhost:8080)\r\n"), "{head}");
    assert!(head.contains("accept: image/jpeg, image/png, image/gif\r\n"), "{head}");
}

#[tokio::test]
async fn every_other_spelling_of_a_loopback_address_is_refused() {
    let origin = Origin::start(serves_png).await;
    let port = origin.port;
    for host in ["0x7f000001", "2130706433", "127.1", "0177.0.0.1", "127.0.0.1."] {
        let message = image_error(&strict(), &format!("http://{host}:{port}/x.png")).await;
        assert_eq!(message, "refused: 127.0.0.1 is a loopback address", "{host}");
    }
    for fetcher in [strict(), testing()] {
        let message = image_error(&fetcher, &format!("http://[::ffff:127.0.0.1]:{port}/x.png")).await;
        assert_eq!(message, "refused: ::ffff:127.0.0.1 is a loopback address");
        let message = image_error(&fetcher, &format!("http://0.0.0.0:{port}/x.png")).await;
        assert_eq!(message, "refused: 0.0.0.0 is an unspecified address");
    }
    assert_eq!(origin.connections(), 0);
}

#[tokio::test]
async fn a_redirect_to_a_private_address_is_refused_without_connecting_to_it() {
    let origin = Origin::start(|path| match path {
        "/metadata.png" => Reply::Redirect("http://169.254.169.254/latest/meta-data/".into()),
        "/ten.png" => Reply::Redirect("http://10.0.0.1/".into()),
        "/mapped.png" => Reply::Redirect("http://[::ffff:a9fe:a9fe]/".into()),
        "/ftp.png" => Reply::Redirect("ftp://example.com/x.png".into()),
        _ => Reply::Status(404),
    })
    .await;
    let started = Instant::now();
    let cases = [
        ("/metadata.png", "refused: 169.254.169.254 is a link-local address"),
        ("/ten.png", "refused: 10.0.0.1 is a private address"),
        ("/mapped.png", "refused: ::ffff:169.254.169.254 is a link-local address"),
        ("/ftp.png", "not an http or https URL"),
    ];
    for (path, message) in cases {
        assert_eq!(image_error(&testing(), &origin.url(path)).await, message, "{path}");
    }
    // A connection attempt to those unroutable addresses would hang until the connect timeout.
    assert!(started.elapsed() < Duration::from_secs(3), "refused at once: {:?}", started.elapsed());
    assert_eq!(origin.connections(), 4, "only the allowed first hops were requested");
}

#[tokio::test]
async fn five_redirects_are_followed_and_a_sixth_is_refused() {
    let origin = Origin::start(|path| match path.trim_start_matches("/hop/").parse::<u32>() {
        Ok(0) => Reply::Body("image/png", PNG.to_vec()),
        Ok(hops) => Reply::Redirect(format!("/hop/{}", hops - 1)),
        Err(_) => Reply::Status(404),
    })
    .await;
    assert!(testing().get_image(&origin.url("/hop/5")).await.is_ok(), "five redirects");
    assert_eq!(image_error(&testing(), &origin.url("/hop/6")).await, "too many redirects");
    assert_eq!(origin.connections(), 6 + 6, "the seventh URL was never requested");
}

#[tokio::test]
async fn an_endless_body_stops_at_the_cap() {
    let origin = Origin::start(|path| match path {
        "/endless.png" => Reply::Endless,
        "/claims.png" => Reply::Claims(11 * 1024 * 1024),
        _ => Reply::Status(404),
    })
    .await;
    assert_eq!(image_error(&testing(), &origin.url("/endless.png")).await, "larger than 10 MB");
    let small = testing().request(Request::get(&origin.url("/endless.png")).max_bytes(64 * 1024)).await.unwrap_err();
    assert_eq!(small.to_string(), "larger than 64 KB");
    let started = Instant::now();
    assert_eq!(image_error(&testing(), &origin.url("/claims.png")).await, "larger than 10 MB");
    assert!(started.elapsed() < Duration::from_secs(5), "refused from Content-Length, not after waiting for the body");
}

#[tokio::test]
async fn a_slow_body_times_out_at_the_deadline() {
    let origin = Origin::start(|_| Reply::Trickle).await;
    let fetcher = fetcher(|config| {
        config.fetch_allow_loopback = true;
        config.fetch_deadline = Duration::from_secs(1);
    });
    let started = Instant::now();
    assert_eq!(image_error(&fetcher, &origin.url("/slow.png")).await, "timed out after 1 s");
    let took = started.elapsed();
    assert!(took >= Duration::from_millis(900) && took < Duration::from_secs(3), "{took:?}");
}

#[tokio::test]
async fn html_served_as_an_image_is_refused_by_its_bytes() {
    let html = b"<!doctype html><title>Not an image</title>".to_vec();
    let origin = Origin::start(move |path| match path {
        "/page.png" => Reply::Body("text/html; charset=utf-8", html.clone()),
        "/lying.png" => Reply::Body("image/png", html.clone()),
        "/gone.png" => Reply::Status(404),
        _ => Reply::Status(500),
    })
    .await;
    assert_eq!(image_error(&testing(), &origin.url("/page.png")).await, "not an image (text/html)");
    assert_eq!(
        image_error(&testing(), &origin.url("/lying.png")).await,
        "not an image Quire accepts (JPEG, PNG or GIF)"
    );
    assert_eq!(image_error(&testing(), &origin.url("/gone.png")).await, "the server answered 404");
}

#[tokio::test]
async fn only_http_and_https_urls_are_fetched() {
    for url in ["ftp://example.com/x.png", "file:///etc/passwd", "data:image/png;base64,iVBORw0KGgo=", "gopher://x/"] {
        assert_eq!(image_error(&strict(), url).await, "not an http or https URL", "{url}");
    }
    assert_eq!(image_error(&strict(), "/uploads/x.png").await, "not a valid URL");
    assert_eq!(
        image_error(&strict(), "http://user:secret@example.com/x.png").await,
        "a URL with a user name or password is not fetched"
    );
}

#[tokio::test]
async fn a_general_request_posts_its_body_and_checks_the_answers_type() {
    let origin = Origin::start(|path| match path {
        "/inbox" => Reply::Body("application/activity+json", br#"{"ok":true}"#.to_vec()),
        _ => Reply::Body("text/html", b"<p>hello</p>".to_vec()),
    })
    .await;
    let activity = HeaderValue::from_static("application/activity+json");
    let delivery = Request::post(&origin.url("/inbox"), r#"{"type":"Create"}"#)
        .header(CONTENT_TYPE, activity)
        .accept(&["application/activity+json", "application/ld+json"]);
    let answer = testing().request(delivery).await.expect("delivered");
    assert_eq!((answer.status, answer.content_type.as_deref()), (200, Some("application/activity+json")));
    assert_eq!(answer.body.as_ref(), br#"{"ok":true}"#);
    let seen = origin.seen();
    assert!(seen[0].head.starts_with("POST /inbox HTTP/1.1\r\n"), "{}", seen[0].head);
    assert!(seen[0].head.contains("content-type: application/activity+json\r\n"), "{}", seen[0].head);
    assert_eq!(seen[0].body, br#"{"type":"Create"}"#);

    let key_fetch = Request::get(&origin.url("/actor")).accept(&["application/activity+json"]);
    assert_eq!(testing().request(key_fetch).await.unwrap_err(), FetchError::UnexpectedType("text/html".into()));
    let refused = strict().request(Request::post(&origin.url("/inbox"), "{}")).await.unwrap_err();
    assert_eq!(refused.to_string(), "refused: 127.0.0.1 is a loopback address");
    assert_eq!(origin.connections(), 2);
}

#[tokio::test]
async fn a_post_follows_only_the_redirects_that_keep_it_a_post() {
    let origin = Origin::start(|path| match path {
        "/moved-for-good" => Reply::RedirectWith(301, "/endpoint".into()),
        "/found" => Reply::Redirect("/endpoint".into()),
        "/see-other" => Reply::RedirectWith(303, "/endpoint".into()),
        "/temporary" => Reply::RedirectWith(307, "/endpoint".into()),
        "/permanent" => Reply::RedirectWith(308, "/endpoint".into()),
        _ => Reply::Body("text/plain", b"taken".to_vec()),
    })
    .await;
    let form = HeaderValue::from_static("application/x-www-form-urlencoded");
    let post = |path: &str| Request::post(&origin.url(path), "source=a&target=b").header(CONTENT_TYPE, form.clone());
    for (path, code) in [("/moved-for-good", 301), ("/found", 302), ("/see-other", 303)] {
        assert_eq!(testing().request(post(path)).await.unwrap_err(), FetchError::Status(code), "{path}");
    }
    assert_eq!(origin.seen().len(), 3, "no GET of the redirect's target");
    for path in ["/temporary", "/permanent"] {
        assert_eq!(testing().request(post(path)).await.expect(path).body.as_ref(), b"taken");
    }
    let seen = origin.seen();
    let followed: Vec<&Seen> = seen.iter().filter(|s| s.head.contains(" /endpoint ")).collect();
    assert_eq!(followed.len(), 2, "{seen:?}");
    for hop in followed {
        assert!(hop.head.starts_with("POST /endpoint HTTP/1.1\r\n"), "{}", hop.head);
        assert_eq!(hop.body, b"source=a&target=b");
    }
    // A GET still follows a 301 or 302.
    assert_eq!(testing().request(Request::get(&origin.url("/found"))).await.unwrap().body.as_ref(), b"taken");
}

/// Set in the child process of [`a_proxy_from_the_environment_is_not_used`].
const PROXY_CHILD: &str = "QUIRE_TEST_PROXY_CHILD";

#[test]
fn a_proxy_from_the_environment_is_not_used() {
    // Proxy variables are read when an HTTP client is built, by every client of the process,
    // so the check runs in a child process of this test binary with them set.
    let proxy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let proxy_url = format!("http://{}", proxy.local_addr().unwrap());
    let proxied = Arc::new(AtomicUsize::new(0));
    let count = proxied.clone();
    std::thread::spawn(move || {
        for mut stream in proxy.incoming().flatten() {
            count.fetch_add(1, Ordering::SeqCst);
            let mut head = [0u8; 4096];
            let _ = stream.read(&mut head);
            let _ = stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\nConnection: close\r\n\r\nvia proxy");
        }
    });
    let output = Command::new(std::env::current_exe().unwrap())
        .args(["fetch::proxy_child", "--exact", "--ignored", "--test-threads=1", "--nocapture"])
        .env(PROXY_CHILD, "1")
        .envs(
            ["HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"]
                .map(|key| (key, &proxy_url)),
        )
        .env_remove("NO_PROXY")
        .env_remove("no_proxy")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("1 passed"),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(proxied.load(Ordering::SeqCst), 1, "only the ordinary client went through the proxy");
}

#[tokio::test]
#[ignore = "run by a_proxy_from_the_environment_is_not_used, with proxy variables set"]
async fn proxy_child() {
    assert!(std::env::var_os(PROXY_CHILD).is_some(), "run by a_proxy_from_the_environment_is_not_used");
    let origin = Origin::start(serves_png).await;
    // The proxy variables are in effect: an ordinary client goes through the proxy.
    let ordinary = reqwest::Client::new().get(origin.url("/x.png")).send().await.unwrap().text().await.unwrap();
    assert_eq!(ordinary, "via proxy");
    // The fetcher does not: with the allowance it reaches the server itself...
    let image = testing().get_image(&origin.url("/x.png")).await.expect("fetched directly");
    assert_eq!(image.bytes.as_ref(), PNG);
    // ...and without it, a name the proxy would have resolved for it is still refused here.
    assert_refused_by_name(&image_error(&strict(), &format!("http://localhost:{}/x.png", origin.port)).await);
    assert_eq!(origin.connections(), 1);
}

/// Starts `quire serve` with `flags` and `env` on a free loopback port; returns its stderr
/// once it has printed the URL to open (then it is stopped).
fn serve_log(flags: &[&str], env: &[(&str, &str)]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let listen = format!("127.0.0.1:{port}");
    let mut child = quire_command(&["serve", "--listen", &listen, "--host", &format!("localhost:{port}")])
        .args(["--data-dir", s(dir.path())])
        .args(flags)
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 5];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    assert_eq!(&first, b"Quire", "the server started");
    child.kill().unwrap();
    String::from_utf8_lossy(&child.wait_with_output().unwrap().stderr).into_owned()
}

#[test]
fn the_loopback_allowance_is_a_debug_build_flag_that_warns_and_needs_a_loopback_listen() {
    let warning = "test-only: requests to URLs others chose";
    assert!(serve_log(&["--test-only-fetch-loopback"], &[]).contains(warning), "the flag warns at start");
    let env = [("QUIRE_TEST_ONLY_FETCH_LOOPBACK", "true"), ("QUIRE_FETCH_ALLOW_LOOPBACK", "true")];
    assert!(!serve_log(&[], &env).contains(warning), "no environment variable turns it on");

    let dir = tempfile::tempdir().unwrap();
    let flags = [
        "serve",
        "--test-only-fetch-loopback",
        "--listen",
        "0.0.0.0:0",
        "--host",
        "blog.example.com",
        "--oidc-client-id",
        "id",
    ];
    let output = quire_command(&flags).args(["--data-dir", s(dir.path())]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(
        stderr.starts_with("quire: --test-only-fetch-loopback") && stderr.contains("listen on 127.0.0.1"),
        "{stderr}"
    );
}
