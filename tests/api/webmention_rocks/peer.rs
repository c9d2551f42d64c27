//! The HTTP peer the Webmention Rocks tests talk to: a small HTTP/1.1 server on 127.0.0.1 that
//! serves pages exactly as set (header names in their own casing, repeated headers, redirects,
//! any status) and records every request.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// What the peer answers a GET of one path (with its query) with.
#[derive(Clone)]
pub struct Page {
    /// Its status.
    pub status: u16,
    /// Header lines, the name written exactly as given (`LinK` stays `LinK`).
    pub headers: Vec<(String, String)>,
    /// Its body.
    pub body: String,
}

impl Page {
    /// An HTML page with these headers and this `<head>` and `<body>` content.
    pub fn html(headers: &[(&str, &str)], head: &str, body: &str) -> Page {
        let mut headers: Vec<(String, String)> =
            headers.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
        headers.push(("Content-Type".into(), "text/html; charset=utf-8".into()));
        let body = format!(
            "<!doctype html><html><head><meta charset=\"utf-8\"><title>Webmention Rocks</title>{head}</head>\
             <body>{body}</body></html>"
        );
        Page { status: 200, headers, body }
    }

    /// A redirect to `location`.
    pub fn redirect(status: u16, location: &str) -> Page {
        Page { status, headers: vec![("Location".into(), location.to_owned())], body: String::new() }
    }

    /// A plain-text answer with only a status.
    pub fn status(status: u16) -> Page {
        Page { status, headers: vec![("Content-Type".into(), "text/plain".into())], body: format!("{status}") }
    }
}

/// A POST the peer received: its path (with its query) and its form.
#[derive(Debug, Clone)]
pub struct Hit {
    /// The path it was sent to, with its query.
    pub path: String,
    /// Its `Content-Type`.
    pub content_type: String,
    /// Its form, in order.
    pub form: Vec<(String, String)>,
}

/// A small HTTP/1.1 server on 127.0.0.1: one request per connection, GETs answered from
/// `pages` (404 otherwise), every POST recorded and answered 202.
#[derive(Clone)]
pub struct Peer {
    /// `http://127.0.0.1:{port}`.
    pub base: String,
    pages: Arc<Mutex<HashMap<String, Page>>>,
    posts: Arc<Mutex<Vec<Hit>>>,
    /// The paths of the GETs it answered, in order.
    pub gets: Arc<Mutex<Vec<String>>>,
}

impl Peer {
    /// Starts one on a free port.
    pub async fn start() -> Peer {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let peer = Peer {
            base: format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port()),
            pages: Arc::default(),
            posts: Arc::default(),
            gets: Arc::default(),
        };
        let serving = peer.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(serving.clone().answer(stream));
            }
        });
        peer
    }

    /// Answers GETs of `path` (with its query) with `page` from now on.
    pub fn set(&self, path: &str, page: Page) {
        self.pages.lock().unwrap().insert(path.to_owned(), page);
    }

    /// The absolute URL of `path`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// The POSTs received so far.
    pub fn posts(&self) -> Vec<Hit> {
        self.posts.lock().unwrap().clone()
    }

    async fn answer(self, mut stream: TcpStream) {
        let mut raw = Vec::new();
        let mut chunk = [0u8; 4096];
        let deadline = Instant::now() + Duration::from_secs(10);
        let head_end = loop {
            if let Some(at) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
                break at + 4;
            }
            if raw.len() > 64 * 1024 || Instant::now() > deadline {
                return;
            }
            match tokio::time::timeout(Duration::from_secs(5), stream.read(&mut chunk)).await {
                Ok(Ok(n)) if n > 0 => raw.extend_from_slice(&chunk[..n]),
                _ => return,
            }
        };
        let head = String::from_utf8_lossy(&raw[..head_end]).into_owned();
        let mut lines = head.split("\r\n");
        let mut request_line = lines.next().unwrap_or_default().split(' ');
        let (method, path) = (request_line.next().unwrap_or_default(), request_line.next().unwrap_or_default());
        let header = |name: &str| {
            head.split("\r\n")
                .filter_map(|line| line.split_once(':'))
                .find(|(k, _)| k.trim().eq_ignore_ascii_case(name))
                .map(|(_, v)| v.trim().to_owned())
        };
        let length: usize = header("content-length").and_then(|v| v.parse().ok()).unwrap_or(0).min(64 * 1024);
        while raw.len() < head_end + length && Instant::now() < deadline {
            match tokio::time::timeout(Duration::from_secs(5), stream.read(&mut chunk)).await {
                Ok(Ok(n)) if n > 0 => raw.extend_from_slice(&chunk[..n]),
                _ => return,
            }
        }
        let page = if method == "POST" {
            let body = &raw[head_end..(head_end + length).min(raw.len())];
            let form = url::form_urlencoded::parse(body).into_owned().collect();
            let content_type = header("content-type").unwrap_or_default();
            self.posts.lock().unwrap().push(Hit { path: path.to_owned(), content_type, form });
            Page::status(202)
        } else {
            self.gets.lock().unwrap().push(path.to_owned());
            self.pages.lock().unwrap().get(path).cloned().unwrap_or_else(|| Page::status(404))
        };
        let mut answer = format!("HTTP/1.1 {} X\r\n", page.status);
        for (name, value) in &page.headers {
            answer.push_str(&format!("{name}: {value}\r\n"));
        }
        answer.push_str(&format!("Content-Length: {}\r\nConnection: close\r\n\r\n{}", page.body.len(), page.body));
        let _ = stream.write_all(answer.as_bytes()).await;
        let _ = stream.shutdown().await;
    }
}
