//! Every request Quire makes to a URL someone else chose (imported images, federation's key
//! fetches and deliveries) goes through [`Fetcher`]: private, loopback and link-local targets
//! are refused after DNS resolution and on every redirect (`guard.rs`), no proxy from the
//! environment is used (it would resolve names where the guard cannot see), and each request
//! has a connect timeout, a total deadline and a byte cap enforced while the body streams.
//!
//! `App::build` builds one `Fetcher` into `AppState::fetcher`; code below `http` (the import, the
//! delivery worker) gets it passed in as a plain value, never from a global, and no other
//! `reqwest::Client` may be pointed at a URL someone else chose. (The sign-in provider's discovery
//! and keys, and the ACME CA, are servers the admin configured: `auth/` and `tls/acme.rs` have
//! their own clients.)
//!
//! The rule (`domain::net::addresses`) is enforced in three places (`guard.rs`): the URL, before
//! anything is sent (absolute `http` or `https` only, no user or password, an IP-literal host
//! checked; the URL parser has already turned `0x7f000001`, `127.1` and `2130706433` into
//! `127.0.0.1`); the DNS resolver, which hands the connector only a name's public addresses, so the
//! address checked is the address connected to (none left: "refused: localhost resolves to
//! 127.0.0.1, a loopback address"); and every redirect, at most [`MAX_REDIRECTS`]. Signed POSTs go
//! through a twin client that follows no redirect at all (`deliver.rs`); other POSTs follow only
//! 307 and 308, which keep the method and body (a 301, 302 or 303 is their answer, never a GET).
//!
//! The client keeps no cookies, sends no Referer and says who it is (`Quire/<version> (+<app
//! url>)`). Each request has a 10 s connect timeout, a total deadline from DNS to the body's last
//! byte (`Config::fetch_deadline`, 20 s) and a byte cap checked against Content-Length and again
//! while the body streams. [`Fetcher::get_image`] caps at
//! `domain::content::image::MAX_IMAGE_BYTES` and tells the type by the bytes; [`Fetcher::request`]
//! (method, headers, body, cap, accepted media types) is federation's; [`Fetcher::txt`] is the
//! custom domains' TXT lookup (`dns_txt.rs`). A `FetchError` displays as the sentence an import
//! report shows (`error.rs`).
//!
//! Tests serve on 127.0.0.1, which the rule refuses: `Config::fetch_allow_loopback` opens exactly
//! `127.0.0.0/8` and `::1` (not `::ffff:127.0.0.1`, no other private range). No environment
//! variable sets it; in-process tests set the field (`TestApp::spawn_with(|c|
//! c.fetch_allow_loopback = true)`), and from the command line only `serve
//! --test-only-fetch-loopback` does, a flag compiled only into debug builds, refused unless
//! `--listen` is a loopback address, and logged as a warning at start.

mod deliver;
pub mod dns_txt;
mod error;
mod guard;
pub mod signed;

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use bytes::{Bytes, BytesMut};
use reqwest::Method;
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};

use crate::config::Config;
use crate::domain::content::image::{ImageType, MAX_IMAGE_BYTES};

pub use deliver::{DeliveryError, MAX_ANSWER_BYTES};
pub use error::FetchError;
use guard::Guard;
pub use guard::MAX_REDIRECTS;

/// Longest wait for a TCP (and TLS) connection, within the deadline.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// Byte cap of a [`Request`] that sets none.
const DEFAULT_MAX_BYTES: usize = 1024 * 1024;
/// Most bytes reserved up front for a body, whatever its Content-Length claims.
const INITIAL_CAPACITY: usize = 64 * 1024;

/// The guarded HTTP client; built once at start, cheap to clone.
#[derive(Clone)]
pub struct Fetcher {
    client: reqwest::Client,
    /// The same client following only the redirects that keep the method (307, 308), for
    /// requests other than GET and HEAD: a POST is never turned into a GET.
    keeping_client: reqwest::Client,
    /// The same client without redirects, for signed POSTs (`deliver.rs`).
    post_client: reqwest::Client,
    guard: Guard,
    deadline: Duration,
    dns: dns_txt::DnsTxt,
}

/// One request for [`Fetcher::request`].
#[derive(Debug, Clone)]
pub struct Request {
    method: Method,
    url: String,
    headers: HeaderMap,
    body: Option<Bytes>,
    max_bytes: usize,
    accept: Vec<String>,
}

/// A 2xx answer, its body read in full.
#[derive(Debug, Clone)]
pub struct Response {
    /// The status (2xx).
    pub status: u16,
    /// The URL that answered, after redirects.
    pub url: String,
    /// The Content-Type's media type, lowercase, without parameters (`application/activity+json`).
    pub content_type: Option<String>,
    /// Every response header.
    pub headers: HeaderMap,
    /// The body.
    pub body: Bytes,
}

/// A downloaded image, its type told by its bytes.
#[derive(Debug, Clone)]
pub struct FetchedImage {
    /// The file.
    pub bytes: Bytes,
    /// Its type.
    pub image_type: ImageType,
}

impl Fetcher {
    /// The fetcher of a server with `config`: its User-Agent names the app's URL, and
    /// `fetch_allow_loopback` (tests only) lets it reach 127.0.0.0/8 and ::1.
    pub fn new(config: &Config) -> anyhow::Result<Fetcher> {
        let guard = Guard { allow_loopback: config.fetch_allow_loopback };
        let client = |redirects: reqwest::redirect::Policy| {
            reqwest::Client::builder()
                .no_proxy()
                .dns_resolver(Arc::new(guard))
                .redirect(redirects)
                .referer(false)
                .connect_timeout(CONNECT_TIMEOUT.min(config.fetch_deadline))
                .user_agent(format!("Quire/{} (+{})", env!("CARGO_PKG_VERSION"), config.app_url()))
                .build()
                .context("building the HTTP client for requests to other servers")
        };
        Ok(Fetcher {
            client: client(guard.redirect_policy(false))?,
            keeping_client: client(guard.redirect_policy(true))?,
            post_client: client(reqwest::redirect::Policy::none())?,
            guard,
            deadline: config.fetch_deadline,
            dns: dns_txt::DnsTxt::new(config.dns_server),
        })
    }

    /// Every TXT string of `name` (empty when there is none), from the machine's resolvers
    /// (`fetch::dns_txt`); an error says what failed.
    pub async fn txt(&self, name: &str) -> Result<Vec<String>, String> {
        self.dns.lookup(name).await
    }

    /// Downloads the image at `url` (at most `MAX_IMAGE_BYTES`), refusing anything whose bytes
    /// are not a JPEG, PNG or GIF, whatever its Content-Type says.
    pub async fn get_image(&self, url: &str) -> Result<FetchedImage, FetchError> {
        let accept = ImageType::ALL.map(ImageType::mime).join(", ");
        let accept = HeaderValue::from_str(&accept).expect("MIME types are header values");
        let response = self.request(Request::get(url).header(ACCEPT, accept).max_bytes(MAX_IMAGE_BYTES)).await?;
        match ImageType::sniff(&response.body) {
            Some(image_type) => Ok(FetchedImage { bytes: response.body, image_type }),
            None => Err(FetchError::NotAnImage(response.content_type)),
        }
    }

    /// Sends `request` and reads the answer, all within the deadline. Anything but a 2xx
    /// answer (after at most `MAX_REDIRECTS` redirects) is an error, as are a body over the
    /// request's cap and a Content-Type it does not accept.
    pub async fn request(&self, request: Request) -> Result<Response, FetchError> {
        let deadline = self.deadline;
        tokio::time::timeout(deadline, self.exchange(request)).await.unwrap_or(Err(FetchError::TimedOut(deadline)))
    }

    async fn exchange(&self, request: Request) -> Result<Response, FetchError> {
        let url = self.guard.check_url(&request.url)?;
        let host = url.host_str().unwrap_or_default().to_owned();
        let failed = |err: reqwest::Error| FetchError::from_client(err, &host);
        let client = match request.method {
            Method::GET | Method::HEAD => &self.client,
            _ => &self.keeping_client,
        };
        let mut sending = client.request(request.method, url).headers(request.headers);
        if let Some(body) = request.body {
            sending = sending.body(body);
        }
        let mut response = sending.send().await.map_err(failed)?;
        let status = response.status();
        if !status.is_success() {
            return Err(FetchError::Status(status.as_u16()));
        }
        let content_type = response.headers().get(CONTENT_TYPE).and_then(|value| value.to_str().ok()).map(media_type);
        if !request.accept.is_empty()
            && !content_type.as_ref().is_some_and(|declared| request.accept.contains(declared))
        {
            return Err(FetchError::UnexpectedType(content_type.unwrap_or_else(|| "none given".to_owned())));
        }
        let too_large = FetchError::TooLarge(request.max_bytes);
        let claimed = response.content_length().unwrap_or(0);
        if claimed > request.max_bytes as u64 {
            return Err(too_large);
        }
        let headers = response.headers().clone();
        let final_url = response.url().to_string();
        let mut body = BytesMut::with_capacity((claimed as usize).min(INITIAL_CAPACITY));
        while let Some(chunk) = response.chunk().await.map_err(failed)? {
            if body.len() + chunk.len() > request.max_bytes {
                return Err(too_large);
            }
            body.extend_from_slice(&chunk);
        }
        Ok(Response { status: status.as_u16(), url: final_url, content_type, headers, body: body.freeze() })
    }
}

impl Request {
    /// A request with `method` to `url`, capped at 1 MB until `max_bytes` says otherwise.
    pub fn new(method: Method, url: &str) -> Request {
        Request {
            method,
            url: url.to_owned(),
            headers: HeaderMap::new(),
            body: None,
            max_bytes: DEFAULT_MAX_BYTES,
            accept: Vec::new(),
        }
    }

    /// A GET of `url`.
    pub fn get(url: &str) -> Request {
        Request::new(Method::GET, url)
    }

    /// A POST of `body` to `url` (give its Content-Type with `header`).
    pub fn post(url: &str, body: impl Into<Bytes>) -> Request {
        Request { body: Some(body.into()), ..Request::new(Method::POST, url) }
    }

    /// Adds a header.
    pub fn header(mut self, name: HeaderName, value: HeaderValue) -> Request {
        self.headers.append(name, value);
        self
    }

    /// The largest body accepted in the answer.
    pub fn max_bytes(mut self, max_bytes: usize) -> Request {
        self.max_bytes = max_bytes;
        self
    }

    /// Accepts only answers of these media types (`application/activity+json`), and says so
    /// in the Accept header unless one was given.
    pub fn accept(mut self, media_types: &[&str]) -> Request {
        self.accept = media_types.iter().map(|media_type| media_type.to_ascii_lowercase()).collect();
        if !self.headers.contains_key(ACCEPT)
            && let Ok(value) = HeaderValue::from_str(&media_types.join(", "))
        {
            self.headers.insert(ACCEPT, value);
        }
        self
    }
}

/// `text/html` of `Text/HTML; charset=utf-8`.
fn media_type(content_type: &str) -> String {
    content_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn media_types_lose_their_parameters_and_case() {
        assert_eq!(media_type("Text/HTML; charset=utf-8"), "text/html");
        assert_eq!(
            media_type("application/ld+json; profile=\"https://www.w3.org/ns/activitystreams\""),
            "application/ld+json"
        );
        assert_eq!(media_type("image/png"), "image/png");
    }

    #[test]
    fn accepting_types_sets_the_accept_header_once() {
        let request =
            Request::get("https://example.com/actor").accept(&["application/activity+json", "application/ld+json"]);
        assert_eq!(request.headers[ACCEPT], "application/activity+json, application/ld+json");
        let given = HeaderValue::from_static("application/json");
        let request = Request::get("https://example.com/").header(ACCEPT, given).accept(&["Application/JSON"]);
        assert_eq!(
            (request.headers[ACCEPT].to_str().unwrap(), request.accept.as_slice()),
            ("application/json", &["application/json".to_owned()][..])
        );
    }
}
