//! What the issue's abuse list sends at comments and webmentions (issue 31, docs/responses.md),
//! through the real server: floods from one address and from many, hostile comment bodies, and
//! webmention sources that redirect to private addresses, never end, never answer or do not
//! link. Each is refused or held, never shown before approval, never a 500.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use reqwest::Method;
use reqwest::header::HOST;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::helpers::{TestApp, simple_body};

/// How many requests each flood sends, and how many at once.
const FLOOD: usize = 10_000;
const AT_ONCE: usize = 8;

/// alice's post with comments held; answers its path and the comment form's post id and token
/// (already old enough to be sent).
async fn commentable(app: &TestApp) -> (i64, String, String, String) {
    let alice = app.browser.clone();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let post = alice.create_post(blog, simple_body("Hello readers", "First words"), false).await;
    assert_eq!(
        alice.send(Method::PUT, &format!("/api/my/blogs/{blog}/comments"), json!({ "mode": "held" })).await.status(),
        200
    );
    let path = format!("/{}", post["permalink"].as_str().unwrap().splitn(4, '/').nth(3).unwrap());
    let html = app.get_with_host(&host(app), &path).await.text().await.unwrap();
    let form = &html[html.find("class=\"comment-form\"").unwrap()..];
    let value = |name: &str| {
        let at = form.find(&format!("name=\"{name}\" value=\"")).unwrap() + name.len() + 15;
        form[at..at + form[at..].find('"').unwrap()].to_owned()
    };
    let (post_id, token) = (value("post"), value("token"));
    tokio::time::sleep(Duration::from_millis(3100)).await;
    (blog, path, post_id, token)
}

fn host(app: &TestApp) -> String {
    format!("alice.localhost:{}", app.port)
}

/// POSTs `form` to `path` on alice's blog from `client`; answers the status.
async fn post_form(client: &reqwest::Client, app: &TestApp, path: &str, form: &[(&str, &str)], from: &str) -> u16 {
    client
        .post(format!("http://127.0.0.1:{}{path}", app.port))
        .header(HOST, host(app))
        .header("x-forwarded-for", from)
        .form(form)
        .send()
        .await
        .map_or(0, |resp| resp.status().as_u16())
}

/// The address of the `n`th of many senders.
fn many(n: usize) -> String {
    format!("198.18.{}.{}", n / 250, n % 250 + 1)
}

fn count(app: &TestApp, sql: &str) -> i64 {
    app.db().query_row(sql, [], |r| r.get(0)).unwrap()
}

#[tokio::test]
async fn ten_thousand_comments_from_one_address_and_from_many_store_what_the_limits_allow() {
    let app = TestApp::spawn().await;
    let (_, _, post, token) = commentable(&app).await;
    let client = reqwest::Client::new();
    let started = Instant::now();
    let send = |n: usize, from: String| {
        let (client, app, post, token) = (&client, &app, &post, &token);
        async move {
            let text = format!("Comment number {n}");
            let form = [("post", post.as_str()), ("token", token.as_str()), ("name", "Flood"), ("text", text.as_str())];
            post_form(client, app, "/comments", &form, &from).await
        }
    };
    let statuses: Vec<u16> = futures_util::stream::iter(0..FLOOD)
        .map(|n| send(n, "192.0.2.77".to_owned()))
        .buffer_unordered(AT_ONCE)
        .collect()
        .await;
    let held = statuses.iter().filter(|s| **s == 200).count();
    assert_eq!(held, 20, "one address's 20 a day (--max-comments-per-address)");
    assert_eq!(statuses.iter().filter(|s| **s == 429).count(), FLOOD - 20, "the rest are 429, never a 500");

    let statuses: Vec<u16> = futures_util::stream::iter(0..FLOOD)
        .map(|n| send(FLOOD + n, many(n)))
        .buffer_unordered(AT_ONCE)
        .collect()
        .await;
    assert_eq!(
        statuses.iter().filter(|s| **s == 200).count(),
        500 - 20,
        "the blog's 500 a day (--max-comments-per-blog)"
    );
    assert_eq!(statuses.iter().filter(|s| **s == 429).count(), FLOOD - 480);
    assert_eq!(count(&app, "SELECT count(*) FROM responses WHERE state = 'held'"), 500, "all held");
    assert_eq!(count(&app, "SELECT count(*) FROM responses WHERE state = 'approved'"), 0);
    let page = app.get_with_host(&host(&app), "/").await;
    assert_eq!(page.status(), 200, "the blog still answers");
    eprintln!("20,000 comment POSTs in {:?}", started.elapsed());
}

#[tokio::test]
async fn hostile_comment_bodies_are_refused_or_shown_only_as_text_after_approval() {
    let app = TestApp::spawn().await;
    let (blog, path, post, token) = commentable(&app).await;
    let client = reqwest::Client::new();
    let send = |name: String, text: String, website: &'static str, from: &'static str| {
        let (client, app, post, token) = (&client, &app, &post, &token);
        async move {
            let form = [
                ("post", post.as_str()),
                ("token", token.as_str()),
                ("name", name.as_str()),
                ("website", website),
                ("text", text.as_str()),
            ];
            post_form(client, app, "/comments", &form, from).await
        }
    };
    // 1 MB of text: refused while the body streams in, nothing stored.
    let status = send("Big".into(), "x".repeat(1 << 20), "", "203.0.113.1").await;
    assert!(status == 413 || status == 422, "1 MB of text: {status}");
    // 200 links: past the link limit.
    let links: String = (0..200).map(|n| format!("https://l{n}.example/ ")).collect();
    assert_eq!(send("Links".into(), links, "", "203.0.113.1").await, 422);
    // A javascript: website.
    assert_eq!(send("Js".into(), "Hi".into(), "javascript:alert(1)", "203.0.113.1").await, 422);
    assert_eq!(count(&app, "SELECT count(*) FROM responses"), 0, "nothing refused is stored");

    // Script, event handlers, javascript: links, control characters and a right-to-left override:
    // held, then shown as text once approved.
    let hostile = "[ok](https://ok.example/) [me](javascript:alert(3)) <a href=\"x\" onclick=\"alert(2)\">click</a> \
                   <script>alert(1)</script> bell\u{7}nul\u{0}end \u{202E}evil\u{202C}";
    assert_eq!(send("Mallory\u{202E}\u{7}".into(), hostile.into(), "", "203.0.113.2").await, 200);
    let html = app.get_with_host(&host(&app), &path).await.text().await.unwrap();
    assert!(!html.contains("click</a>") && !html.contains("bellnul"), "not shown before approval");
    let alice = app.browser.clone();
    let held: Value = alice.get(&format!("/api/my/blogs/{blog}/responses")).await.json().await.unwrap();
    let stored = &held["responses"][0];
    assert_eq!(stored["authorName"], "Mallory", "controls and overrides are dropped from the name");
    let text = stored["text"].as_str().unwrap();
    assert!(text.contains("bellnulend") && !text.contains('\u{202E}'), "{text:?}");
    let id = stored["id"].as_i64().unwrap();
    assert_eq!(alice.post(&format!("/api/my/blogs/{blog}/responses/{id}/approve"), json!({})).await.status(), 200);
    let html = app.get_with_host(&host(&app), &path).await.text().await.unwrap();
    let shown = &html[html.find("class=\"responses\"").expect("the approved comment")..];
    let shown = &shown[..shown.find("</section>").unwrap()];
    assert!(!shown.contains("<script") && !shown.contains("<a href=\"x\""), "no element from the text: {shown}");
    assert!(!shown.contains("href=\"javascript:"), "no javascript: link: {shown}");
    assert!(shown.contains("&#60;script&#62;") || shown.contains("&lt;script&gt;"), "the script is text: {shown}");
    assert!(shown.contains(r#"<a href="https://ok.example/" rel="nofollow ugc noopener">ok</a> me "#), "{shown}");
}

/// A local server whose pages are the hostile sources; counts the requests to each.
struct Sources {
    port: u16,
    hits: Arc<[AtomicUsize; 6]>,
}

const PATHS: [&str; 6] = ["/metadata", "/private", "/huge", "/hang", "/nolink", "/good"];

impl Sources {
    async fn start(target: String) -> Sources {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let hits: Arc<[AtomicUsize; 6]> = Arc::new(Default::default());
        let counted = hits.clone();
        tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                let (hits, target) = (counted.clone(), target.clone());
                tokio::spawn(async move {
                    let mut buf = vec![0u8; 4096];
                    let n = stream.read(&mut buf).await.unwrap_or(0);
                    let request = String::from_utf8_lossy(&buf[..n]).to_string();
                    let path =
                        request.split_whitespace().nth(1).unwrap_or("").split('?').next().unwrap_or("").to_owned();
                    let Some(index) = PATHS.iter().position(|p| *p == path) else { return };
                    hits[index].fetch_add(1, Ordering::SeqCst);
                    let html = |body: &str| {
                        format!(
                            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                            body.len()
                        )
                    };
                    let answer = match path.as_str() {
                        "/metadata" => "HTTP/1.1 302 Found\r\nLocation: http://169.254.169.254/latest/meta-data/\r\nContent-Length: 0\r\n\r\n".to_owned(),
                        "/private" => "HTTP/1.1 302 Found\r\nLocation: http://10.1.2.3/\r\nContent-Length: 0\r\n\r\n".to_owned(),
                        "/huge" => {
                            // Two gigabytes, claimed and then streamed for as long as the reader reads.
                            let head = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 2147483648\r\n\r\n";
                            if stream.write_all(head.as_bytes()).await.is_err() {
                                return;
                            }
                            let chunk = vec![b'a'; 64 * 1024];
                            for _ in 0..(2usize << 30) / chunk.len() {
                                if stream.write_all(&chunk).await.is_err() {
                                    return;
                                }
                            }
                            return;
                        }
                        "/hang" => {
                            tokio::time::sleep(Duration::from_secs(60)).await;
                            return;
                        }
                        "/nolink" => html("<html><body><p>Nothing about alice here.</p></body></html>"),
                        _ => html(&format!("<html><body><p class=\"h-entry\">Read <a href=\"{target}\">this</a>.</p></body></html>")),
                    };
                    let _ = stream.write_all(answer.as_bytes()).await;
                });
            }
        });
        Sources { port, hits }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    fn hits(&self, path: &str) -> usize {
        self.hits[PATHS.iter().position(|p| *p == path).unwrap()].load(Ordering::SeqCst)
    }
}

async fn mention(client: &reqwest::Client, app: &TestApp, source: &str, target: &str, from: &str) -> u16 {
    post_form(client, app, "/webmention", &[("source", source), ("target", target)], from).await
}

/// A server that reads sources on loopback within `deadline`, Alice's published post (its
/// address, the target) and the source pages that link to it.
async fn mentionable(deadline: Duration) -> (TestApp, String, Sources) {
    let app = TestApp::spawn_with(|config| {
        config.fetch_allow_loopback = true;
        config.fetch_deadline = deadline;
    })
    .await;
    let alice = app.browser.clone();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let post = alice.create_post(blog, simple_body("Alice writes", "Words"), false).await;
    let target = post["permalink"].as_str().unwrap().to_owned();
    let sources = Sources::start(target.clone()).await;
    (app, target, sources)
}

#[tokio::test]
async fn webmention_sources_that_redirect_inward_never_end_never_answer_or_do_not_link_make_nothing() {
    let (app, target, sources) = mentionable(Duration::from_secs(3)).await;
    let client = reqwest::Client::new();
    let started = Instant::now();
    for path in PATHS {
        assert_eq!(mention(&client, &app, &sources.url(path), &target, "203.0.113.5").await, 202, "{path}");
    }
    // Bounded: every source read once (the one that never answers is given up on at the deadline).
    let deadline = Instant::now() + Duration::from_secs(30);
    while count(&app, "SELECT count(*) FROM incoming_webmentions WHERE attempts = 0") > 0 {
        assert!(Instant::now() < deadline, "every source is read once within the deadline");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let kept: Vec<String> = {
        let db = app.db();
        let mut stmt = db.prepare("SELECT source_url FROM responses").unwrap();
        stmt.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
    };
    assert_eq!(kept, [sources.url("/good")], "only the page that links is kept, held");
    assert_eq!(count(&app, "SELECT count(*) FROM responses WHERE state = 'held'"), 1);
    for path in PATHS {
        assert_eq!(sources.hits(path), 1, "{path} is read once");
    }
    // The page that never answered is tried again later, not at once.
    let later = count(
        &app,
        "SELECT count(*) FROM incoming_webmentions WHERE attempts = 1 AND next_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
    );
    assert!(later <= 1, "at most the hanging page waits for another try");
    assert!(started.elapsed() < Duration::from_secs(30), "{:?}", started.elapsed());
    assert_eq!(app.get_with_host(&host(&app), "/").await.status(), 200);
}

#[tokio::test]
async fn ten_thousand_webmentions_naming_distinct_sources_queue_no_more_than_the_cap() {
    // Every source hangs, so what was queued stays queued while the flood goes on.
    let (app, target, sources) = mentionable(Duration::from_secs(30)).await;
    let client = reqwest::Client::new();
    let started = Instant::now();
    let statuses: Vec<u16> = futures_util::stream::iter(0..FLOOD)
        .map(|n| {
            let (client, app, target, source) = (&client, &app, &target, format!("{}?n={n}", sources.url("/hang")));
            async move { mention(client, app, &source, target, &many(n / 100)).await }
        })
        .buffer_unordered(AT_ONCE)
        .collect()
        .await;
    assert_eq!(statuses.iter().filter(|s| **s == 202).count(), 1_000, "--max-pending-webmentions");
    assert_eq!(statuses.iter().filter(|s| **s == 429).count(), FLOOD - 1_000, "the rest 429, never a 500");
    assert_eq!(count(&app, "SELECT count(*) FROM incoming_webmentions"), 1_000);
    assert_eq!(count(&app, "SELECT count(*) FROM responses"), 0);
    assert_eq!(app.get_with_host(&host(&app), "/").await.status(), 200);
    eprintln!("10,000 webmention POSTs in {:?}", started.elapsed());
}

#[tokio::test]
async fn a_silenced_or_suspended_blog_takes_no_comment_and_no_webmention() {
    use quire::domain::blog::trust_state::Moderation;
    let app = TestApp::spawn_with(|config| config.fetch_allow_loopback = true).await;
    let (_, path, post, token) = commentable(&app).await;
    let target = format!("http://{}{path}", host(&app));
    let client = reqwest::Client::new();
    let comment = |text: &'static str| {
        let (client, app, post, token) = (&client, &app, &post, &token);
        async move {
            let form = [("post", post.as_str()), ("token", token.as_str()), ("name", "Ann"), ("text", text)];
            post_form(client, app, "/comments", &form, "203.0.113.9").await
        }
    };
    assert_eq!(comment("While approved").await, 200, "the control: an approved blog takes it");

    app.state.blogs.moderate("alice", Moderation::Silence, "Spam", "ops@example.com").await.unwrap();
    let html = app.get_with_host(&host(&app), &path).await.text().await.unwrap();
    assert!(!html.contains("class=\"comment-form\"") && !html.contains("rel=\"webmention\""), "no form, no endpoint");
    assert_eq!(comment("While silenced").await, 404, "Comments are closed");
    assert_eq!(mention(&client, &app, "https://peer.example/a", &target, "203.0.113.9").await, 400);

    app.state.blogs.moderate("alice", Moderation::Suspend, "Spam", "ops@example.com").await.unwrap();
    assert_eq!(comment("While suspended").await, 410);
    assert_eq!(mention(&client, &app, "https://peer.example/b", &target, "203.0.113.9").await, 410);
    assert_eq!(count(&app, "SELECT count(*) FROM responses"), 1, "only the comment sent while approved");
    assert_eq!(count(&app, "SELECT count(*) FROM incoming_webmentions"), 0);
}
