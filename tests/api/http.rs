use std::io::Read as _;

use futures_util::StreamExt;
use reqwest::StatusCode;
use reqwest::header::{
    ACCEPT_ENCODING, CACHE_CONTROL, CONTENT_ENCODING, CONTENT_LENGTH, CONTENT_TYPE, ETAG, IF_NONE_MATCH, SET_COOKIE,
    VARY,
};

use crate::helpers::{TestApp, errors_of};

#[tokio::test]
async fn every_owner_app_route_serves_the_app_with_its_settings() {
    let app = TestApp::spawn().await;
    for path in ["/", "/signup", "/d", "/d/posts", "/d/posts/abc/edit", "/catalog", "/catalog/select", "/auth/callback"]
    {
        let resp = app.get(path).await;
        assert_eq!(resp.status(), 200, "{path}");
        assert!(resp.headers()[CONTENT_TYPE].to_str().unwrap().starts_with("text/html"), "{path}");
        let html = resp.text().await.unwrap();
        assert!(html.contains(r#"<script id="quire-config" type="application/json">"#), "{path}");
        assert!(html.contains(&format!(r#""host":"localhost:{}""#, app.port)), "{path}");
        assert!(html.contains(r#""providerName":"Local""#), "{path}");
        assert!(!html.contains("<!--QUIRE_CONFIG-->"));
    }
}

#[tokio::test]
async fn the_first_page_load_sets_a_readable_csrf_cookie_and_later_loads_keep_it() {
    let app = TestApp::spawn().await;
    let first = app.get("/").await;
    let cookie = first.headers()[SET_COOKIE].to_str().unwrap().to_owned();
    assert!(cookie.starts_with("csrf_token="), "{cookie}");
    assert!(!cookie.contains("HttpOnly"), "scripts must read it: {cookie}");
    assert!(cookie.contains("SameSite=Lax"));
    let token = cookie.trim_start_matches("csrf_token=").split(';').next().unwrap();
    assert_eq!(token.len(), 64);
    let second = app.get("/d/posts").await;
    assert!(second.headers().get(SET_COOKIE).is_none(), "the cookie jar sent it back, so no new one");
}

#[tokio::test]
async fn the_app_page_answers_304_to_its_etag_and_is_revalidated_each_time() {
    let app = TestApp::spawn().await;
    let resp = app.get("/").await;
    assert_eq!(resp.headers()[CACHE_CONTROL], "no-cache");
    let etag = resp.headers()[ETAG].to_str().unwrap().to_owned();
    let again = app.client.get(format!("{}/catalog", app.url)).header(IF_NONE_MATCH, &etag).send().await.unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    assert!(again.bytes().await.unwrap().is_empty());
}

#[tokio::test]
async fn bundle_assets_are_served_with_their_type_and_cached_for_a_year() {
    let app = TestApp::spawn().await;
    let html = app.get("/").await.text().await.unwrap();
    let start = html.find("/assets/app-").expect("index.html references the bundle");
    let end = start + html[start..].find('"').unwrap();
    let path = &html[start..end];
    let resp = app.get(path).await;
    assert_eq!(resp.status(), 200, "{path}");
    assert!(resp.headers()[CACHE_CONTROL].to_str().unwrap().contains("immutable"));
    let kind = resp.headers()[CONTENT_TYPE].to_str().unwrap().to_owned();
    assert!(kind.contains("javascript") || kind.contains("css"), "{path}: {kind}");
    let etag = resp.headers()[ETAG].to_str().unwrap().to_owned();
    let again = app.client.get(format!("{}{path}", app.url)).header(IF_NONE_MATCH, etag).send().await.unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(app.get("/assets/missing.js").await.status(), 404);
    assert_eq!(app.get("/assets/../Cargo.toml").await.status(), 404);
}

#[tokio::test]
async fn the_app_page_links_its_svg_icon_and_favicon_ico_answers_with_the_same_icon() {
    let app = TestApp::spawn().await;
    let html = app.get("/").await.text().await.unwrap();
    let start = html.find(r#"<link rel="icon" href=""#).expect("index.html links its icon")
        + r#"<link rel="icon" href=""#.len();
    let path = &html[start..start + html[start..].find('"').unwrap()];
    assert!(path.starts_with("/assets/icon-") && path.ends_with(".svg"), "{path}");
    let linked = app.get(path).await;
    assert_eq!(linked.status(), 200, "{path}");
    assert_eq!(linked.headers()[CONTENT_TYPE], "image/svg+xml");
    let icon = linked.bytes().await.unwrap();

    let favicon = app.get("/favicon.ico").await;
    assert_eq!(favicon.status(), 200);
    assert_eq!(favicon.headers()[CONTENT_TYPE], "image/svg+xml");
    assert!(favicon.headers()[CACHE_CONTROL].to_str().unwrap().contains("max-age"));
    let etag = favicon.headers()[ETAG].to_str().unwrap().to_owned();
    assert_eq!(favicon.bytes().await.unwrap(), icon);
    let again = app.client.get(format!("{}/favicon.ico", app.url)).header(IF_NONE_MATCH, etag).send().await.unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
}

#[tokio::test]
async fn unknown_api_paths_are_json_404s_never_the_app() {
    let app = TestApp::spawn().await;
    for path in ["/api", "/api/", "/api/nothing", "/api/themes/1/extra"] {
        let resp = app.get(path).await;
        assert_eq!(resp.status(), 404, "{path}");
        assert!(resp.headers()[CONTENT_TYPE].to_str().unwrap().starts_with("application/json"), "{path}");
        assert_eq!(errors_of(resp).await, vec![("path".to_owned(), "Not found".to_owned())]);
    }
}

#[tokio::test]
async fn unknown_pages_of_the_app_are_404_pages() {
    let app = TestApp::spawn().await;
    let resp = app.get("/wp-admin.php").await;
    assert_eq!(resp.status(), 404);
    assert!(resp.text().await.unwrap().contains("Page not found"));
}

#[tokio::test]
async fn a_wrong_method_is_refused_in_the_error_shape() {
    let app = TestApp::spawn().await;
    let resp = app.browser.send(reqwest::Method::DELETE, "/api/themes", serde_json::json!({})).await;
    assert_eq!(resp.status(), 405);
    assert_eq!(errors_of(resp).await[0].0, "method");
}

#[tokio::test]
async fn an_oversized_body_is_a_413_in_the_error_shape() {
    let app = TestApp::spawn().await;
    let body = vec![b'x'; 2 * 1024 * 1024];
    let resp = app.client.post(format!("{}/api/themes", app.url)).body(body).send().await.unwrap();
    assert_eq!(resp.status(), 413);
    assert_eq!(errors_of(resp).await[0].0, "body");
}

#[tokio::test]
async fn an_oversized_chunked_body_is_a_413_too() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let app = TestApp::spawn().await;
    let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", app.port)).await.unwrap();
    let head = format!(
        "POST /api/themes HTTP/1.1\r\nHost: localhost:{}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n",
        app.port
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let chunk = vec![b'x'; 64 * 1024];
    for _ in 0..40 {
        let frame = [format!("{:x}\r\n", chunk.len()).as_bytes(), &chunk, b"\r\n"].concat();
        if stream.write_all(&frame).await.is_err() {
            break; // the server may stop reading once over the limit
        }
    }
    let _ = stream.write_all(b"0\r\n\r\n").await;
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response).await;
    let response = String::from_utf8_lossy(&response);
    assert!(response.starts_with("HTTP/1.1 413"), "{}", &response[..response.len().min(200)]);
}

/// HTTP/2 (here cleartext, with prior knowledge) streams a body with neither
/// `Content-Length` nor `Transfer-Encoding`: the cap must hold for it while it streams.
#[tokio::test]
async fn an_http2_body_without_a_length_is_capped_while_it_streams() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    const CHUNK: usize = 64 * 1024;
    const CHUNKS: usize = 1024; // 64 MiB at most
    static ZEROS: [u8; CHUNK] = [0; CHUNK];

    let app = TestApp::spawn().await;
    let client = reqwest::Client::builder()
        .http2_prior_knowledge()
        .resolve("localhost", std::net::SocketAddr::from(([127, 0, 0, 1], app.port)))
        .build()
        .unwrap();
    let sent = Arc::new(AtomicUsize::new(0));
    let counted = sent.clone();
    let chunks = futures_util::stream::iter(0..CHUNKS).map(move |_| {
        counted.fetch_add(CHUNK, Ordering::SeqCst);
        Ok::<_, std::io::Error>(bytes::Bytes::from_static(&ZEROS))
    });
    let request = client
        .post(format!("{}/api/sessions", app.url))
        .header("CSRF-Token", "x")
        .header("Cookie", "csrf_token=x")
        .body(reqwest::Body::wrap_stream(chunks))
        .send();
    let resp =
        tokio::time::timeout(std::time::Duration::from_secs(60), request).await.expect("answered in time").unwrap();
    let sent_when_answered = sent.load(Ordering::SeqCst);
    assert_eq!(resp.version(), reqwest::Version::HTTP_2);
    assert_eq!(resp.status(), 413);
    assert_eq!(errors_of(resp).await[0].0, "body");
    assert!(
        sent_when_answered < 8 * 1024 * 1024,
        "the server stopped reading near the 1 MiB cap, not after {sent_when_answered} bytes"
    );
}

#[tokio::test]
async fn one_http2_connection_may_have_at_most_100_requests_in_flight() {
    let app = TestApp::spawn().await;
    let tcp = tokio::net::TcpStream::connect(("127.0.0.1", app.port)).await.unwrap();
    let (mut send, connection) = h2::client::handshake(tcp).await.unwrap();
    let mut connection = std::pin::pin!(connection);
    let request = poem::http::Request::get(format!("http://localhost:{}/healthz", app.port)).body(()).unwrap();
    let (answer, _) = send.send_request(request, true).unwrap();
    let answered = async {
        tokio::select! {
            resp = answer => resp.unwrap(),
            _ = &mut connection => panic!("the connection ended before the answer"),
        }
    };
    let resp = tokio::time::timeout(std::time::Duration::from_secs(10), answered).await.expect("answered in time");
    assert_eq!(resp.status(), 200);
    assert_eq!(connection.max_concurrent_send_streams(), 100, "the server's SETTINGS_MAX_CONCURRENT_STREAMS");
}

#[tokio::test]
async fn every_response_carries_security_headers_and_a_request_id() {
    let app = TestApp::spawn().await;
    for path in ["/", "/api/themes", "/api/nothing", "/nothing"] {
        let resp = app.get(path).await;
        let headers = resp.headers();
        assert_eq!(headers["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(headers["x-frame-options"], "DENY", "{path}");
        assert!(headers["content-security-policy"].to_str().unwrap().contains("frame-ancestors 'none'"), "{path}");
        assert_eq!(headers["x-request-id"].to_str().unwrap().len(), 12, "{path}");
    }
    let csp = app.get("/").await.headers()["content-security-policy"].to_str().unwrap().to_owned();
    assert!(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"), "{csp}");
}

#[tokio::test]
async fn a_blog_subdomain_reaches_the_blog_side_and_unknown_blogs_are_404_pages() {
    let app = TestApp::spawn().await;
    let resp = app.get_with_host(&format!("alice.localhost:{}", app.port), "/").await;
    assert_eq!(resp.status(), 404);
    let html = resp.text().await.unwrap();
    assert!(html.contains("Blog not found"));
    assert!(html.contains(&format!("There is no blog at alice.localhost:{}.", app.port)), "{html}");
    let landing = format!("<a href=\"http://localhost:{port}/\">Go to localhost:{port}</a>", port = app.port);
    assert!(html.contains(&landing), "a way on to the instance: {html}");
    assert!(!html.contains("quire-config"), "blogs never get the owner app");
}

#[tokio::test]
async fn hosts_are_matched_without_regard_to_case_or_a_trailing_dot() {
    let app = TestApp::spawn().await;
    let resp = app.get_with_host(&format!("LOCALHOST.:{}", app.port), "/api/themes").await;
    assert_eq!(resp.status(), 200);
}

#[tokio::test]
async fn other_hosts_get_a_404_and_never_the_app() {
    let app = TestApp::spawn().await;
    for host in [
        "evil.example".to_owned(),
        format!("127.0.0.1:{}", app.port),
        format!("a.b.localhost:{}", app.port),
        format!("localhost:{}", app.port + 1),
        format!("al%ice.localhost:{}", app.port),
    ] {
        let resp = app.get_with_host(&host, "/api/themes").await;
        assert_eq!(resp.status(), 404, "{host}");
        let html = resp.text().await.unwrap();
        assert!(html.contains("There is no blog at this address."), "the host as sent is not repeated: {html}");
        assert!(html.contains(&format!("<a href=\"http://localhost:{}/\">", app.port)), "{html}");
    }
}

#[tokio::test]
async fn the_health_check_answers_ok() {
    let app = TestApp::spawn().await;
    let resp = app.get("/healthz").await;
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.text().await.unwrap(), "ok");
}

/// Every script and stylesheet the app page loads (its entry script and static chunks are enough here).
async fn bundle_paths(app: &TestApp) -> Vec<String> {
    let html = app.get("/d/posts").await.text().await.unwrap();
    html.match_indices("/assets/app-")
        .map(|(start, _)| html[start..start + html[start..].find('"').unwrap()].to_owned())
        .collect()
}

async fn get_with(app: &TestApp, path: &str, accept: Option<&str>) -> reqwest::Response {
    let mut req = app.client.get(format!("{}{path}", app.url));
    if let Some(accept) = accept {
        req = req.header(ACCEPT_ENCODING, accept);
    }
    req.send().await.unwrap()
}

#[tokio::test]
async fn bundle_assets_are_sent_brotli_or_gzip_as_accepted_and_decode_to_the_same_bytes() {
    let app = TestApp::spawn().await;
    let paths = bundle_paths(&app).await;
    assert!(paths.iter().any(|p| p.ends_with(".js")) && paths.iter().any(|p| p.ends_with(".css")), "{paths:?}");
    for path in &paths {
        let plain = get_with(&app, path, None).await;
        assert_eq!(plain.status(), 200, "{path}");
        assert!(plain.headers().get(CONTENT_ENCODING).is_none(), "{path}");
        assert_eq!(plain.headers()[VARY], "Accept-Encoding", "{path}");
        let plain_tag = plain.headers()[ETAG].to_str().unwrap().to_owned();
        let length: usize = plain.headers()[CONTENT_LENGTH].to_str().unwrap().parse().unwrap();
        let raw = plain.bytes().await.unwrap();
        assert_eq!(raw.len(), length, "{path}");
        assert!(raw.len() > 1000, "{path}");

        let mut tags = vec![plain_tag];
        let forms = [("br, gzip", "br"), ("gzip, deflate, br;q=0", "gzip"), ("gzip;q=0.5, br;q=0", "gzip")];
        for (accept, coding) in forms {
            let resp = get_with(&app, path, Some(accept)).await;
            assert_eq!(resp.status(), 200, "{path} {accept}");
            assert_eq!(resp.headers()[CONTENT_ENCODING], coding, "{path} {accept}");
            assert_eq!(resp.headers()[VARY], "Accept-Encoding", "{path} {accept}");
            assert!(resp.headers()[CACHE_CONTROL].to_str().unwrap().contains("immutable"));
            let length: usize = resp.headers()[CONTENT_LENGTH].to_str().unwrap().parse().unwrap();
            let tag = resp.headers()[ETAG].to_str().unwrap().to_owned();
            let body = resp.bytes().await.unwrap();
            assert_eq!(body.len(), length, "{path} {accept}");
            assert!(body.len() < raw.len() / 2, "{path} {accept}: {} of {} bytes", body.len(), raw.len());
            let mut decoded = Vec::new();
            if coding == "br" {
                brotli_decompressor::BrotliDecompress(&mut &body[..], &mut decoded).unwrap();
            } else {
                flate2::read::GzDecoder::new(&body[..]).read_to_end(&mut decoded).unwrap();
            }
            assert!(decoded == raw, "{path} {accept}: decodes to other bytes");
            if !tags.contains(&tag) {
                tags.push(tag);
            }
        }
        assert_eq!(tags.len(), 3, "one ETag per form: {tags:?}");
    }
}

#[tokio::test]
async fn each_form_of_a_bundle_asset_answers_304_to_its_own_etag_and_head_has_no_body() {
    let app = TestApp::spawn().await;
    let path = bundle_paths(&app).await.into_iter().find(|p| p.ends_with(".js")).unwrap();
    for accept in [Some("br, gzip"), Some("gzip"), None] {
        let resp = get_with(&app, &path, accept).await;
        let etag = resp.headers()[ETAG].to_str().unwrap().to_owned();
        let length = resp.headers()[CONTENT_LENGTH].to_str().unwrap().to_owned();
        let coding = resp.headers().get(CONTENT_ENCODING).map(|v| v.to_str().unwrap().to_owned());

        let url = format!("{}{path}", app.url);
        let mut again = app.client.get(&url).header(IF_NONE_MATCH, format!("\"other\", {etag}"));
        if let Some(accept) = accept {
            again = again.header(ACCEPT_ENCODING, accept);
        }
        let again = again.send().await.unwrap();
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED, "{accept:?}");
        assert_eq!(again.headers()[ETAG].to_str().unwrap(), etag);
        assert_eq!(again.headers()[VARY], "Accept-Encoding");
        assert!(again.bytes().await.unwrap().is_empty());

        // Another form's tag is no match: a cache holding gzip must not be told its copy is the brotli one.
        let other = get_with(&app, &path, Some(if accept == Some("gzip") { "br" } else { "gzip" })).await;
        let other_tag = other.headers()[ETAG].to_str().unwrap().to_owned();
        let mut stale = app.client.get(format!("{}{path}", app.url)).header(IF_NONE_MATCH, other_tag);
        if let Some(accept) = accept {
            stale = stale.header(ACCEPT_ENCODING, accept);
        }
        assert_eq!(stale.send().await.unwrap().status(), 200, "{accept:?}");

        let mut head = app.client.head(format!("{}{path}", app.url));
        if let Some(accept) = accept {
            head = head.header(ACCEPT_ENCODING, accept);
        }
        let head = head.send().await.unwrap();
        assert_eq!(head.status(), 200, "{accept:?}");
        assert_eq!(head.headers()[CONTENT_LENGTH].to_str().unwrap(), length, "{accept:?}");
        assert_eq!(head.headers().get(CONTENT_ENCODING).map(|v| v.to_str().unwrap().to_owned()), coding);
        assert!(head.bytes().await.unwrap().is_empty());
    }
    // The stored forms are not addressable themselves.
    for suffix in [".br", ".gz"] {
        assert_eq!(app.get(&format!("{path}{suffix}")).await.status(), 404, "{suffix}");
    }
}

/// Stopping (SIGTERM, or `App::run`'s shutdown future) closes the listener at once and lets a
/// request already in flight finish: its sender still gets a whole answer.
#[tokio::test]
async fn a_request_in_flight_when_the_server_stops_still_gets_its_answer() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let app = TestApp::spawn().await;
    let port = app.port;
    let mut tcp = tokio::net::TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    // The head and the first part of a 17-byte body: the server is reading it when told to stop.
    let head = format!(
        "POST /api/sessions HTTP/1.1\r\nHost: localhost:{port}\r\nContent-Type: application/json\r\n\
         Cookie: csrf_token=x\r\nCSRF-Token: x\r\nContent-Length: 17\r\n\r\n"
    );
    tcp.write_all(format!("{head}{{\"idToken\":").as_bytes()).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    let stopping = tokio::spawn(app.stop());
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(!stopping.is_finished(), "the server waits for the request in flight");
    assert!(
        tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_err(),
        "a stopping server takes no new connection"
    );
    tcp.write_all(b" \"no\"}").await.unwrap();
    let mut answer = String::new();
    tokio::time::timeout(std::time::Duration::from_secs(10), tcp.read_to_string(&mut answer))
        .await
        .expect("answered, then the connection closed")
        .unwrap();
    assert!(answer.starts_with("HTTP/1.1 4"), "{answer}");
    assert!(answer.contains("\"errors\""), "the API's error shape: {answer}");
    tokio::time::timeout(std::time::Duration::from_secs(10), stopping).await.expect("stopped").unwrap();
}
