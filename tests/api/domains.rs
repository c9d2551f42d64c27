//! Custom domains: the API (docs/api.md), the TXT check against a real DNS server on
//! 127.0.0.1 (a small UDP and TCP responder below), and what a verified domain changes in the
//! blog's pages.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use reqwest::Method;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, UdpSocket};

use crate::helpers::{Browser, TestApp, error_field, quire_command, s, simple_body};

/// A DNS server for TXT questions on 127.0.0.1 (UDP and TCP on one port): it answers from
/// `records`, NXDOMAIN for names it does not know, and with the truncation flag over UDP
/// while `truncate` is set (so the client must ask again over TCP).
#[derive(Clone)]
struct DnsResponder {
    address: SocketAddr,
    records: Arc<Mutex<HashMap<String, Vec<String>>>>,
    truncate: Arc<Mutex<bool>>,
    udp_queries: Arc<Mutex<usize>>,
    tcp_queries: Arc<Mutex<usize>>,
}

impl DnsResponder {
    async fn start() -> DnsResponder {
        // The answer comes over UDP and, when truncated, over TCP on the same port: the port the
        // system picks for UDP may be taken for TCP (another test's connection), so try again.
        let (udp, tcp, address) = 'bind: {
            for _ in 0..50 {
                let udp = UdpSocket::bind("127.0.0.1:0").await.unwrap();
                let address = udp.local_addr().unwrap();
                if let Ok(tcp) = TcpListener::bind(address).await {
                    break 'bind (udp, tcp, address);
                }
            }
            panic!("no port free for both UDP and TCP on 127.0.0.1 after 50 tries");
        };
        let responder = DnsResponder {
            address,
            records: Default::default(),
            truncate: Default::default(),
            udp_queries: Default::default(),
            tcp_queries: Default::default(),
        };
        let on_udp = responder.clone();
        tokio::spawn(async move {
            let mut buffer = [0u8; 512];
            while let Ok((length, peer)) = udp.recv_from(&mut buffer).await {
                *on_udp.udp_queries.lock().unwrap() += 1;
                let truncate = *on_udp.truncate.lock().unwrap();
                let answer = on_udp.answer(&buffer[..length], truncate);
                let _ = udp.send_to(&answer, peer).await;
            }
        });
        let on_tcp = responder.clone();
        tokio::spawn(async move {
            while let Ok((mut stream, _)) = tcp.accept().await {
                *on_tcp.tcp_queries.lock().unwrap() += 1;
                let length = stream.read_u16().await.unwrap() as usize;
                let mut query = vec![0; length];
                stream.read_exact(&mut query).await.unwrap();
                let answer = on_tcp.answer(&query, false);
                let mut framed = (answer.len() as u16).to_be_bytes().to_vec();
                framed.extend_from_slice(&answer);
                let _ = stream.write_all(&framed).await;
            }
        });
        responder
    }

    fn set_txt(&self, name: &str, values: &[&str]) {
        self.records.lock().unwrap().insert(name.to_owned(), values.iter().map(|v| v.to_string()).collect());
    }

    fn clear(&self) {
        self.records.lock().unwrap().clear();
    }

    /// The answer to `query` (one question), its owner names compressed to the question.
    fn answer(&self, query: &[u8], truncate: bool) -> Vec<u8> {
        let mut at = 12;
        let mut labels = Vec::new();
        while query[at] != 0 {
            let length = query[at] as usize;
            labels.push(String::from_utf8_lossy(&query[at + 1..at + 1 + length]).to_lowercase());
            at += 1 + length;
        }
        let question = &query[12..at + 5];
        let records = self.records.lock().unwrap().get(&labels.join(".")).cloned();
        let rcode = if records.is_none() { 3 } else { 0 };
        let records = if truncate { Vec::new() } else { records.unwrap_or_default() };
        let mut answer = query[..2].to_vec();
        answer.extend_from_slice(&[
            0x81 | if truncate { 0x02 } else { 0 },
            0x80 | rcode,
            0,
            1,
            0,
            records.len() as u8,
            0,
            0,
            0,
            0,
        ]);
        answer.extend_from_slice(question);
        for value in records {
            answer.extend_from_slice(&[0xc0, 12, 0, 16, 0, 1, 0, 0, 0, 60]);
            let data: Vec<u8> =
                value.as_bytes().chunks(255).flat_map(|part| [&[part.len() as u8][..], part].concat()).collect();
            answer.extend_from_slice(&(data.len() as u16).to_be_bytes());
            answer.extend_from_slice(&data);
        }
        answer
    }
}

/// A server asking `dns` for TXT records.
async fn app_with(dns: &DnsResponder) -> TestApp {
    let server = dns.address;
    TestApp::spawn_with(move |config| config.dns_server = Some(server)).await
}

fn domain_path(blog: i64) -> String {
    format!("/api/my/blogs/{blog}/domain")
}

async fn json_of(resp: reqwest::Response, status: u16) -> Value {
    assert_eq!(resp.status(), status, "status");
    resp.json().await.unwrap()
}

#[tokio::test]
async fn bad_names_are_refused_with_their_message_and_change_nothing() {
    let app = TestApp::spawn().await;
    let blog = app.browser.sign_up_with_blog("alice@example.com", "alice").await;
    let long = format!("{}.org", "a".repeat(296));
    let cases = [
        ("*.example.org", "Wildcards (*) are not allowed: enter one domain name"),
        ("192.0.2.1", "Enter a domain name, not an IP address"),
        ("[2001:db8::1]", "Enter a domain name, not an IP address"),
        ("localhost", "Enter a full domain name with a dot, like blog.example.org"),
        (
            "alice.localhost",
            "This name can't be reached from the internet (localhost, .local, .internal, .arpa, .onion)",
        ),
        (long.as_str(), "A domain name can't be longer than 253 characters"),
        ("xn--zz.example", "This is not a valid internationalized domain name (bad xn-- part)"),
        ("blog_1.example.org", "Use only letters, digits and hyphens between the dots"),
        ("https://blog.example.org/", "Enter the domain name only, like blog.example.org (no https://, no path)"),
        ("", "Enter a domain name, like blog.example.org"),
    ];
    for (name, message) in cases {
        let resp = app.browser.send(Method::PUT, &domain_path(blog), json!({ "name": name })).await;
        assert_eq!(error_field(resp, 422).await, ("name".to_owned(), message.to_owned()), "{name:?}");
    }
    assert_eq!(json_of(app.browser.get(&domain_path(blog)).await, 200).await, json!({ "domain": null }));
    assert_eq!(app.count("custom_domains"), 0);
    let no_name = app.browser.send(Method::PUT, &domain_path(blog), json!({})).await;
    assert_eq!(no_name.status(), 400);
}

#[tokio::test]
async fn a_name_is_stored_in_its_a_label_form_and_shown_in_both() {
    let app = TestApp::spawn().await;
    let blog = app.browser.sign_up_with_blog("alice@example.com", "alice").await;
    let resp = app.browser.send(Method::PUT, &domain_path(blog), json!({ "name": " Bücher.Example. " })).await;
    let domain = json_of(resp, 200).await["domain"].clone();
    assert_eq!(domain["name"], "xn--bcher-kva.example");
    assert_eq!(domain["displayName"], "bücher.example");
    assert_eq!(domain["state"], "waiting_for_dns");
    assert_eq!(domain["certificate"], json!({ "state": "not_managed" }));
    let records = domain["records"].as_array().unwrap();
    assert_eq!(records[0]["type"], "TXT");
    assert_eq!(records[0]["name"], "_quire.xn--bcher-kva.example");
    let value = records[0]["value"].as_str().unwrap();
    assert!(value.starts_with("quire-verify=") && value.len() == "quire-verify=".len() + 32, "{value}");
    assert_eq!(records[1], json!({ "type": "CNAME", "name": "xn--bcher-kva.example", "value": "alice.localhost" }));
    // The same name again changes nothing; another replaces it with a new token.
    let again = json_of(
        app.browser.send(Method::PUT, &domain_path(blog), json!({ "name": "xn--bcher-kva.example" })).await,
        200,
    )
    .await;
    assert_eq!(again["domain"]["records"][0]["value"], value);
    let other =
        json_of(app.browser.send(Method::PUT, &domain_path(blog), json!({ "name": "blog.example.org" })).await, 200)
            .await;
    assert_eq!(other["domain"]["name"], "blog.example.org");
    assert_ne!(other["domain"]["records"][0]["value"], value);
    assert_eq!(app.count("custom_domains"), 1);
}

#[tokio::test]
async fn another_users_blog_is_not_found_and_writes_need_csrf() {
    let app = TestApp::spawn().await;
    let blog = app.browser.sign_up_with_blog("alice@example.com", "alice").await;
    let mallory = app.new_browser();
    mallory.sign_up_with_blog("mallory@example.com", "mallory").await;
    for (method, path) in [
        (Method::GET, domain_path(blog)),
        (Method::PUT, domain_path(blog)),
        (Method::DELETE, domain_path(blog)),
        (Method::POST, format!("{}/check", domain_path(blog))),
    ] {
        let resp = mallory.send(method.clone(), &path, json!({ "name": "evil.example.org" })).await;
        assert_eq!(error_field(resp, 404).await.0, "blog", "{method} {path}");
    }
    let no_csrf = app
        .client
        .put(format!("{}{}", app.url, domain_path(blog)))
        .json(&json!({ "name": "blog.example.org" }))
        .send()
        .await
        .unwrap();
    assert_eq!(no_csrf.status(), 403);
    assert_eq!(app.count("custom_domains"), 0);
    let none = app.browser.send(Method::DELETE, &domain_path(blog), json!({})).await;
    assert_eq!(error_field(none, 404).await, ("domain".to_owned(), "This blog has no custom domain".to_owned()));
    let none = app.browser.post(&format!("{}/check", domain_path(blog)), json!({})).await;
    assert_eq!(error_field(none, 404).await, ("domain".to_owned(), "This blog has no custom domain".to_owned()));
}

#[tokio::test]
async fn a_verified_domain_serves_the_blog_and_removing_it_reverts() {
    let dns = DnsResponder::start().await;
    let app = app_with(&dns).await;
    let blog = app.browser.sign_up_with_blog("alice@example.com", "alice").await;
    app.browser.create_post(blog, simple_body("Hello there", "First words."), false).await;
    let port = app.port;
    let (domain_host, sub_host) = (format!("blog.example.org:{port}"), format!("alice.localhost:{port}"));
    let origin = format!("http://blog.example.org:{port}");
    assert!(
        app.get_with_host(&sub_host, "/")
            .await
            .text()
            .await
            .unwrap()
            .contains(&format!("http://alice.localhost:{port}/"))
    );

    let set =
        json_of(app.browser.send(Method::PUT, &domain_path(blog), json!({ "name": "blog.example.org" })).await, 200)
            .await;
    let token_value = set["domain"]["records"][0]["value"].as_str().unwrap().to_owned();
    assert_eq!(app.get_with_host(&domain_host, "/").await.status(), 404, "not served before it is verified");

    dns.set_txt("_quire.blog.example.org", &["v=spf1 -all"]);
    let check = format!("{}/check", domain_path(blog));
    let waiting = json_of(app.browser.post(&check, json!({})).await, 200).await["domain"].clone();
    assert_eq!(waiting["state"], "waiting_for_dns");
    assert!(waiting["error"].as_str().unwrap().contains("_quire.blog.example.org"), "{waiting}");
    assert!(waiting["checkedAt"].is_string() && waiting["nextCheckAt"].is_string());
    let soon = app.browser.post(&check, json!({})).await;
    let (field, message) = error_field(soon, 429).await;
    assert_eq!(field, "check");
    assert!(message.starts_with("Checked a moment ago: try again in ") && message.ends_with(" seconds"), "{message}");

    // The record as the owner creates it; the recheck task finds it without a click (its
    // first checks come every minute, so the owner's check is what the test waits for).
    dns.set_txt("_quire.blog.example.org", &["v=spf1 -all", &token_value]);
    tokio::time::sleep(std::time::Duration::from_secs(10)).await;
    let verified = json_of(app.browser.post(&check, json!({})).await, 200).await["domain"].clone();
    assert_eq!(verified["state"], "verified", "{verified}");
    assert_eq!(verified["error"], Value::Null);
    assert!(verified["verifiedAt"].is_string());

    let page = app.get_with_host(&domain_host, "/").await;
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(html.contains(&format!(r#"<link rel="canonical" href="{origin}/">"#)), "{html}");
    assert!(html.contains(&format!(r#"<meta property="og:url" content="{origin}/">"#)));
    let moved = app.get_with_host(&sub_host, "/tags/x?page=2").await;
    assert_eq!(moved.status(), 301);
    assert_eq!(moved.headers()["location"], format!("{origin}/tags/x?page=2"));
    let feed = app.get_with_host(&domain_host, "/feed.xml").await.text().await.unwrap();
    assert!(
        feed.contains(&format!(r#"<link rel="self" type="application/atom+xml" href="{origin}/feed.xml"/>"#)),
        "{feed}"
    );
    assert!(feed.contains(&format!(r#"<link rel="alternate" type="text/html" href="{origin}/"/>"#)), "{feed}");
    assert!(!feed.contains("alice.localhost"), "{feed}");
    let rss = app.get_with_host(&domain_host, "/rss.xml").await.text().await.unwrap();
    assert!(
        rss.contains(&format!("<link>{origin}/</link>"))
            && rss.contains(&format!(r#"<atom:link href="{origin}/rss.xml""#)),
        "{rss}"
    );
    assert!(rss.contains(&format!("<link>{origin}/hello-there")) && !rss.contains("alice.localhost"), "{rss}");
    let sitemap = app.get_with_host(&domain_host, "/sitemap.xml").await.text().await.unwrap();
    assert!(sitemap.contains(&format!("<loc>{origin}/")) && !sitemap.contains("alice.localhost"), "{sitemap}");
    let robots = app.get_with_host(&domain_host, "/robots.txt").await.text().await.unwrap();
    assert!(robots.contains(&format!("Sitemap: {origin}/sitemap.xml")), "{robots}");
    let api_blog = json_of(app.browser.get(&format!("/api/my/blogs/{blog}")).await, 200).await;
    assert_eq!(api_blog["blog"]["url"], origin);
    let posts = json_of(app.browser.get(&format!("/api/my/blogs/{blog}/posts")).await, 200).await;
    assert!(posts["posts"][0]["permalink"].as_str().unwrap().starts_with(&format!("{origin}/hello-there")), "{posts}");

    let (_, site) = crate::exports::exported(&app.browser, blog, "site").await;
    let index = String::from_utf8(site.get("index.html").unwrap().to_vec()).unwrap();
    assert!(index.contains(&format!(r#"<link rel="canonical" href="{origin}/">"#)), "the static site export too");
    let exported_feed = String::from_utf8(site.get("feed.xml").unwrap().to_vec()).unwrap();
    assert!(exported_feed.contains(&format!("{origin}/feed.xml")) && !exported_feed.contains("alice.localhost"));

    assert_eq!(app.browser.send(Method::DELETE, &domain_path(blog), json!({})).await.status(), 204);
    assert_eq!(app.get_with_host(&domain_host, "/").await.status(), 404);
    let back = app.get_with_host(&sub_host, "/").await;
    assert_eq!(back.status(), 200);
    let html = back.text().await.unwrap();
    assert!(
        html.contains(&format!(r#"<link rel="canonical" href="http://alice.localhost:{port}/">"#))
            && !html.contains("blog.example.org")
    );
    let feed = app.get_with_host(&sub_host, "/feed.xml").await.text().await.unwrap();
    assert!(!feed.contains("blog.example.org"), "no cached page keeps the old origin");
    let api_blog = json_of(app.browser.get(&format!("/api/my/blogs/{blog}")).await, 200).await;
    assert_eq!(api_blog["blog"]["url"], format!("http://alice.localhost:{port}"));
    assert_eq!(json_of(app.browser.get(&domain_path(blog)).await, 200).await, json!({ "domain": null }));

    // The name is free for another blog now.
    let bob = app.new_browser();
    let bobs = bob.sign_up_with_blog("bob@example.com", "bobblog").await;
    assert_eq!(bob.send(Method::PUT, &domain_path(bobs), json!({ "name": "blog.example.org" })).await.status(), 200);
}

#[tokio::test]
async fn a_truncated_answer_is_asked_again_over_tcp() {
    let dns = DnsResponder::start().await;
    let app = app_with(&dns).await;
    let blog = app.browser.sign_up_with_blog("alice@example.com", "alice").await;
    *dns.truncate.lock().unwrap() = true;
    let set =
        json_of(app.browser.send(Method::PUT, &domain_path(blog), json!({ "name": "blog.example.org" })).await, 200)
            .await;
    let token_value = set["domain"]["records"][0]["value"].as_str().unwrap().to_owned();
    dns.set_txt("_quire.blog.example.org", &[&token_value]);
    let verified = json_of(app.browser.post(&format!("{}/check", domain_path(blog)), json!({})).await, 200).await;
    assert_eq!(verified["domain"]["state"], "verified", "{verified}");
    assert!(*dns.tcp_queries.lock().unwrap() >= 1);
    dns.clear();
}

#[tokio::test]
async fn deleting_the_account_frees_its_domain() {
    let dns = DnsResponder::start().await;
    let app = app_with(&dns).await;
    let blog = app.browser.sign_up_with_blog("alice@example.com", "alice").await;
    let set =
        json_of(app.browser.send(Method::PUT, &domain_path(blog), json!({ "name": "blog.example.org" })).await, 200)
            .await;
    dns.set_txt("_quire.blog.example.org", &[set["domain"]["records"][0]["value"].as_str().unwrap()]);
    let verified = json_of(app.browser.post(&format!("{}/check", domain_path(blog)), json!({})).await, 200).await;
    assert_eq!(verified["domain"]["state"], "verified");
    assert_eq!(app.get_with_host(&format!("blog.example.org:{}", app.port), "/").await.status(), 200);
    assert_eq!(app.browser.send(Method::DELETE, &format!("/api/my/blogs/{blog}"), json!({})).await.status(), 200);
    assert_eq!(app.count("custom_domains"), 0);
    assert_eq!(app.get_with_host(&format!("blog.example.org:{}", app.port), "/").await.status(), 404);
    let bob = app.new_browser();
    let bobs = bob.sign_up_with_blog("bob@example.com", "bobblog").await;
    assert_eq!(bob.send(Method::PUT, &domain_path(bobs), json!({ "name": "blog.example.org" })).await.status(), 200);
}

/// Caddy's question: `GET /_quire/tls-ask?domain=NAME` with `Host: 127.0.0.1:PORT`.
async fn ask(app: &TestApp, domain: &str) -> (u16, String) {
    let url = format!("http://127.0.0.1:{}/_quire/tls-ask?domain={}", app.port, percent_encode(domain));
    let resp = app.client.get(url).send().await.unwrap();
    (resp.status().as_u16(), resp.text().await.unwrap())
}

fn percent_encode(text: &str) -> String {
    serde_urlencoded::to_string([("", text)]).unwrap()[1..].to_owned()
}

#[tokio::test]
async fn the_tls_ask_endpoint_allows_exactly_the_names_quire_serves() {
    let dns = DnsResponder::start().await;
    let app = app_with(&dns).await;
    let blog = app.browser.sign_up_with_blog("alice@example.com", "alice").await;
    let set =
        json_of(app.browser.send(Method::PUT, &domain_path(blog), json!({ "name": "blog.example.org" })).await, 200)
            .await;
    assert_eq!(ask(&app, "blog.example.org").await.0, 404, "not before it is verified");
    dns.set_txt("_quire.blog.example.org", &[set["domain"]["records"][0]["value"].as_str().unwrap()]);
    assert_eq!(app.browser.post(&format!("{}/check", domain_path(blog)), json!({})).await.status(), 200);
    for allowed in ["localhost", "www.localhost", "alice.localhost", "ALICE.localhost.", "blog.example.org"] {
        assert_eq!(ask(&app, allowed).await, (200, "ok".to_owned()), "{allowed}");
    }
    for unknown in ["nobody.localhost", "evil.test", "a.alice.localhost", "other.example.org"] {
        assert_eq!(ask(&app, unknown).await.0, 404, "{unknown}");
    }
    for not_a_name in ["", "127.0.0.1", "[::1]", "*.example.org", "bad_name.example.org", &"a".repeat(300)] {
        assert_eq!(ask(&app, not_a_name).await.0, 400, "{not_a_name:?}");
    }
    let missing = app.client.get(format!("http://127.0.0.1:{}/_quire/tls-ask", app.port)).send().await.unwrap();
    assert_eq!(missing.status(), 400);
    assert_eq!(app.browser.send(Method::DELETE, &domain_path(blog), json!({})).await.status(), 204);
    assert_eq!(ask(&app, "blog.example.org").await.0, 404, "removed");
}

#[tokio::test]
async fn the_tls_ask_endpoint_answers_only_trusted_proxies_and_is_rate_limited() {
    let untrusted = TestApp::spawn_with(|config| {
        config.trusted_proxies = quire::domain::net::proxies::TrustedProxies::parse(["10.1.2.3"]).unwrap();
    })
    .await;
    assert_eq!(ask(&untrusted, "localhost").await.0, 404, "127.0.0.1 is not a trusted proxy here");

    let app = TestApp::spawn().await;
    let started = std::time::Instant::now();
    let asks = (0..300).map(|_| ask(&app, "localhost"));
    let answers: Vec<u16> = futures_util::future::join_all(asks).await.into_iter().map(|(status, _)| status).collect();
    let allowed_at_most = 100 + (50.0 * started.elapsed().as_secs_f64()).ceil() as usize;
    let ok = answers.iter().filter(|status| **status == 200).count();
    assert!(answers.iter().all(|status| matches!(status, 200 | 429)), "{answers:?}");
    assert!(
        ok < 300 && ok <= allowed_at_most,
        "a flood is cut to the burst (100) and the rate (50/s): {ok} of 300 answered"
    );
}

#[tokio::test]
async fn the_recheck_task_verifies_a_name_whose_record_is_already_there() {
    let dns = DnsResponder::start().await;
    let app = app_with(&dns).await;
    let blog = app.browser.sign_up_with_blog("alice@example.com", "alice").await;
    // The task checked at once when the name was set (no record yet) and waits a minute for
    // the next check: the test moves that time to now, as a minute passing would, and wakes
    // the task by setting the same name again (which changes nothing else).
    let set =
        json_of(app.browser.send(Method::PUT, &domain_path(blog), json!({ "name": "blog.example.org" })).await, 200)
            .await;
    dns.set_txt("_quire.blog.example.org", &[set["domain"]["records"][0]["value"].as_str().unwrap()]);
    app.db().execute("UPDATE custom_domains SET next_check_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')", []).unwrap();
    let again = app.browser.send(Method::PUT, &domain_path(blog), json!({ "name": "blog.example.org" })).await;
    assert_eq!(again.status(), 200);
    let mut state = Value::Null;
    for _ in 0..50 {
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        state = json_of(app.browser.get(&domain_path(blog)).await, 200).await["domain"]["state"].clone();
        if state == "verified" {
            break;
        }
    }
    assert_eq!(state, "verified", "the task checked without the owner's click");
    assert_eq!(app.get_with_host(&format!("blog.example.org:{}", app.port), "/").await.status(), 200);
}

#[tokio::test]
async fn quire_serve_asks_the_test_only_dns_server_and_refuses_it_off_loopback() {
    let dns = DnsResponder::start().await;
    let dir = tempfile::tempdir().unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let dns_flag = dns.address.to_string();
    let mut child =
        quire_command(&["serve", "--listen", &format!("127.0.0.1:{port}"), "--host", &format!("localhost:{port}")])
            .args(["--data-dir", s(dir.path()), "--test-only-dns-server", &dns_flag])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(child.stdout.take().unwrap()), &mut line).unwrap();
    assert!(line.starts_with("Quire is running"), "{line}");
    let browser = Browser::new(&format!("http://localhost:{port}"), port);
    let blog = browser.sign_up_with_blog("alice@example.com", "alice").await;
    let set =
        json_of(browser.send(Method::PUT, &domain_path(blog), json!({ "name": "blog.example.org" })).await, 200).await;
    dns.set_txt("_quire.blog.example.org", &[set["domain"]["records"][0]["value"].as_str().unwrap()]);
    let verified = json_of(browser.post(&format!("{}/check", domain_path(blog)), json!({})).await, 200).await;
    child.kill().unwrap();
    let stderr = String::from_utf8_lossy(&child.wait_with_output().unwrap().stderr).into_owned();
    assert_eq!(verified["domain"]["state"], "verified", "{verified}");
    assert!(stderr.contains("test-only: custom domains' TXT records are asked of this server"), "{stderr}");

    let flags = [
        "serve",
        "--test-only-dns-server",
        &dns_flag,
        "--listen",
        "0.0.0.0:0",
        "--host",
        "blog.example.com",
        "--oidc-client-id",
        "id",
    ];
    let output = quire_command(&flags).args(["--data-dir", s(dir.path())]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success() && stderr.starts_with("quire: --test-only-dns-server"), "{stderr}");
}

/// `browser`'s blog `blog`'s custom domain (`null` when it has none).
async fn domain_of(browser: &Browser, blog: i64) -> Value {
    json_of(browser.get(&domain_path(blog)).await, 200).await["domain"].clone()
}

#[tokio::test]
async fn an_unverified_claim_expires_after_7_days_and_frees_the_name() {
    let dns = DnsResponder::start().await;
    let app = app_with(&dns).await;
    let bob = app.new_browser();
    let bobs = bob.sign_up_with_blog("bob@example.com", "bobblog").await;
    assert_eq!(bob.send(Method::PUT, &domain_path(bobs), json!({ "name": "blog.example.org" })).await.status(), 200);
    // The recheck task's first check (at once) is done before the clock is moved: a check in
    // flight would write back the claim's start it read. Under a loaded machine it can take a while.
    let mut checked = false;
    for _ in 0..300 {
        if domain_of(&bob, bobs).await["checkedAt"].is_string() {
            checked = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(checked, "the recheck task checks a new claim at once");
    // A week and a minute pass without the record.
    app.db()
        .execute(
            "UPDATE custom_domains SET waiting_since = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-7 days', '-1 minutes')",
            [],
        )
        .unwrap();
    // Another blog's new claim wakes the recheck task.
    let alices = app.browser.sign_up_with_blog("alice@example.com", "alice").await;
    let other = app.browser.send(Method::PUT, &domain_path(alices), json!({ "name": "alice.example.net" })).await;
    assert_eq!(other.status(), 200);
    let mut bobs_domain = domain_of(&bob, bobs).await;
    for _ in 0..300 {
        if bobs_domain.is_null() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        bobs_domain = domain_of(&bob, bobs).await;
    }
    assert!(bobs_domain.is_null(), "the week-old unverified claim is dropped: {bobs_domain}");
    assert_eq!(domain_of(&app.browser, alices).await["name"], "alice.example.net", "a fresh claim stays");
    let taken = app.browser.send(Method::PUT, &domain_path(alices), json!({ "name": "blog.example.org" })).await;
    assert_eq!(taken.status(), 200, "the name is free again");
}

#[tokio::test]
async fn a_blog_that_proves_the_txt_record_takes_the_name_from_another_blogs_claim() {
    let dns = DnsResponder::start().await;
    let app = app_with(&dns).await;
    let mallory = app.new_browser();
    let mallorys = mallory.sign_up_with_blog("mallory@example.com", "mallory").await;
    let claim = mallory.send(Method::PUT, &domain_path(mallorys), json!({ "name": "blog.example.org" })).await;
    assert_eq!(claim.status(), 200);
    // The name's real owner claims it too, and proves it.
    let alices = app.browser.sign_up_with_blog("alice@example.com", "alice").await;
    let set = app.browser.send(Method::PUT, &domain_path(alices), json!({ "name": "blog.example.org" })).await;
    let set = json_of(set, 200).await;
    dns.set_txt("_quire.blog.example.org", &[set["domain"]["records"][0]["value"].as_str().unwrap()]);
    let checked = json_of(app.browser.post(&format!("{}/check", domain_path(alices)), json!({})).await, 200).await;
    assert_eq!(checked["domain"]["state"], "verified");
    assert_eq!(app.get_with_host(&format!("blog.example.org:{}", app.port), "/").await.status(), 200);
    assert!(domain_of(&mallory, mallorys).await.is_null(), "the unproved claim is dropped");
    // A verified name is no longer anyone else's to claim, in any spelling.
    let again = mallory.send(Method::PUT, &domain_path(mallorys), json!({ "name": "Blog.Example.ORG." })).await;
    let (field, message) = error_field(again, 422).await;
    assert_eq!((field.as_str(), message.as_str()), ("name", "This domain is already used by another blog"));
}

#[tokio::test]
async fn the_seventh_custom_domain_change_of_a_blog_in_a_day_is_refused_with_a_clear_error() {
    let dns = DnsResponder::start().await;
    let app = app_with(&dns).await;
    let blog = app.browser.sign_up_with_blog("alice@example.com", "alice").await;
    for n in 1..=6 {
        let name = format!("blog{n}.example.org");
        assert_eq!(app.browser.send(Method::PUT, &domain_path(blog), json!({ "name": name })).await.status(), 200);
    }
    let same = app.browser.send(Method::PUT, &domain_path(blog), json!({ "name": "blog6.example.org" })).await;
    assert_eq!(same.status(), 200, "the name the blog has already is no change");
    let seventh = app.browser.send(Method::PUT, &domain_path(blog), json!({ "name": "blog7.example.org" })).await;
    let (field, message) = error_field(seventh, 429).await;
    assert_eq!(field, "name");
    assert!(
        message.starts_with("This blog's custom domain was changed 6 times in the last 24 hours: try again after "),
        "{message}"
    );
    assert_eq!(domain_of(&app.browser, blog).await["name"], "blog6.example.org", "nothing changed");
    let removed = app.browser.send(Method::DELETE, &domain_path(blog), json!({})).await;
    assert_eq!(removed.status(), 204, "removing is always allowed");
    let bob = app.new_browser();
    let bobs = bob.sign_up_with_blog("bob@example.com", "bobblog").await;
    let other = bob.send(Method::PUT, &domain_path(bobs), json!({ "name": "blog7.example.org" })).await;
    assert_eq!(other.status(), 200, "the limit is the blog's");
}
