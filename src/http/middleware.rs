//! The layer around every request: request id, one access line, body limit, errors in
//! Quire's shape, security headers.
//!
//! `observe` wraps every request: it gives it an id, caps its body while it streams (`limit_body`;
//! an import's upload is the one body it does not buffer: only its declared length is checked, and
//! `Blogs::start_import` streams it through its own cap), turns errors into the API's JSON shape
//! (or an HTML page outside `/api`), adds the security headers (and, when Quire serves HTTPS itself,
//! `Strict-Transport-Security: max-age=31536000`) and hands one line to the access log
//! (`access_log.rs`), which formats and writes it on a thread of its own.

use std::any::Any;
use std::sync::Arc;
use std::time::{Instant, SystemTime};

use poem::error::ReadBodyError;
use poem::http::{HeaderName, HeaderValue, Method, StatusCode, Uri, Version, header};
use poem::middleware::PanicHandler;
use poem::{Body, Endpoint, IntoResponse, Request, Response};
use tracing::Instrument;

use crate::domain::net::proxies::TrustedProxies;
use crate::error::{Error, Messages};
use crate::http::access_log::{AccessLog, Entry};
use crate::http::client::client_ip;
use crate::http::plain_pages;

/// Largest request body of a JSON call.
pub const JSON_BODY_LIMIT: usize = 1024 * 1024;
/// The body of `POST .../subscribers/import`: another service's CSV of subscribers (about
/// 100,000 addresses with Ghost's columns), in JSON.
pub const SUBSCRIBER_LIST_BODY_LIMIT: usize = 8 * 1024 * 1024;
/// The body of a custom stylesheet's save or check (issue 32): a megabyte of CSS, line breaks
/// escaped, is still read, so that it is refused on `css` with the line where it passes the limit.
pub const CUSTOM_CSS_BODY_LIMIT: usize = 4 * 1024 * 1024;
/// Largest image upload (the multipart body around it may add a little).
pub const UPLOAD_BODY_LIMIT: usize = 10 * 1024 * 1024 + 64 * 1024;
/// The header naming each request's id on its answer.
const X_REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

tokio::task_local! {
    /// The current request's id, for 500 bodies built deep inside a handler.
    pub static REQUEST_ID: String;
}

/// What [`observe`] needs of the server, set once.
pub struct Observe {
    /// Whether answers carry `Strict-Transport-Security`.
    pub https: bool,
    pub access_log: AccessLog,
    /// Who the client is behind a proxy, for the access line.
    pub trusted_proxies: TrustedProxies,
}

/// What the access line takes from the request, gathered before the handler consumes it.
struct Asked {
    method: Method,
    uri: Uri,
    version: Version,
    host: Option<HeaderValue>,
    referer: Option<HeaderValue>,
    user_agent: Option<HeaderValue>,
    client: Option<std::net::IpAddr>,
}

/// Wraps one request: see the module doc.
pub async fn observe<E: Endpoint>(ep: Arc<E>, mut req: Request, observe: Arc<Observe>) -> poem::Result<Response> {
    let id = new_request_id();
    let started = Instant::now();
    let is_api = req.uri().path().starts_with("/api/") || req.uri().path() == "/api";
    let is_micropub = crate::http::micropub::is_micropub_path(req.uri().path());
    let asked = observe.access_log.is_on().then(|| Asked {
        method: req.method().clone(),
        uri: req.uri().clone(),
        version: req.version(),
        host: req.headers().get(header::HOST).cloned(),
        referer: req.headers().get(header::REFERER).cloned(),
        user_agent: req.headers().get(header::USER_AGENT).cloned(),
        client: client_ip(&req, &observe.trusted_proxies),
    });
    let span = tracing::info_span!("request", id = %id);

    let outcome = async {
        let path = req.uri().path().to_owned();
        limit_body(&mut req, &path).await?;
        ep.call(req).await.map(IntoResponse::into_response)
    };
    let outcome = REQUEST_ID.scope(id.clone(), outcome).instrument(span.clone()).await;
    let mut resp = match outcome {
        Ok(resp) => resp,
        // Micropub's clients read its own error shape (a body over the cap, refused here).
        Err(err) if is_micropub => match err.downcast::<Error>() {
            Ok(err) => crate::http::micropub::error_answer(err),
            Err(err) => span.in_scope(|| render_error(err, &id, true)),
        },
        Err(err) => span.in_scope(|| render_error(err, &id, is_api)),
    };
    add_security_headers(&mut resp, observe.https);
    if let Ok(value) = HeaderValue::from_str(&id) {
        resp.headers_mut().insert(X_REQUEST_ID, value);
    }
    if let Some(asked) = asked {
        let bytes = body_length(&mut resp);
        observe.access_log.log(Entry {
            time: SystemTime::now(),
            id,
            client: asked.client,
            method: asked.method,
            uri: asked.uri,
            version: asked.version,
            host: asked.host,
            status: resp.status().as_u16(),
            bytes,
            referer: asked.referer,
            user_agent: asked.user_agent,
            elapsed: started.elapsed(),
        });
    }
    Ok(resp)
}

/// The body's length when it is known before sending (a streamed body's is not).
fn body_length(resp: &mut Response) -> Option<u64> {
    let body: http_body_util::combinators::BoxBody<bytes::Bytes, std::io::Error> = resp.take_body().into();
    let length = http_body::Body::size_hint(&body).exact();
    resp.set_body(Body::from(body));
    length
}

fn new_request_id() -> String {
    let bytes: [u8; 6] = rand::random();
    hex::encode(bytes)
}

/// Buffers the body with a cap while it streams, so no handler ever reads an unbounded body.
///
/// Every request is read through the cap, whatever its headers say: an HTTP/1.1 request
/// without `Content-Length` or `Transfer-Encoding` has no body (reading it ends at once), but an
/// HTTP/2 body streams with neither header. A declared length over the cap is refused unread.
///
/// One exception: an import's upload is too large to hold in memory. Its declared length is
/// checked here; its body is left to the write path, which streams it to disk through the same
/// cap ([`crate::blogs::MAX_IMPORT_BYTES`]).
async fn limit_body(req: &mut Request, path: &str) -> Result<(), Error> {
    let streamed = req.method() == poem::http::Method::POST && is_import_upload(path);
    let limit = if streamed {
        crate::blogs::MAX_IMPORT_BYTES
    } else if req.method() == poem::http::Method::POST && is_subscriber_import(path) {
        SUBSCRIBER_LIST_BODY_LIMIT as u64
    } else if is_custom_css(path) {
        CUSTOM_CSS_BODY_LIMIT as u64
    } else if path == "/api/images" || path == crate::domain::paths::MICROPUB_MEDIA {
        UPLOAD_BODY_LIMIT as u64
    } else if path == crate::domain::paths::MICROPUB {
        crate::http::micropub::BODY_LIMIT as u64
    } else if path == crate::domain::paths::AP_INBOX {
        crate::http::inbox::BODY_LIMIT as u64
    } else {
        JSON_BODY_LIMIT as u64
    };
    let declared = req.header(header::CONTENT_LENGTH).and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|len| len > limit) {
        return Err(Error::body_too_large(limit));
    }
    if streamed {
        return Ok(());
    }
    match req.take_body().into_bytes_limit(limit as usize).await {
        Ok(bytes) => {
            req.set_body(bytes);
            Ok(())
        }
        Err(ReadBodyError::PayloadTooLarge) => Err(Error::body_too_large(limit)),
        Err(_) => Err(Error::bad_request("body", "The request body could not be read")),
    }
}

/// Whether `path` is `/api/my/blogs/{blogId}/css` or `.../css/check`.
fn is_custom_css(path: &str) -> bool {
    path.strip_prefix("/api/my/blogs/")
        .and_then(|rest| rest.strip_suffix("/css").or_else(|| rest.strip_suffix("/css/check")))
        .is_some_and(|id| !id.is_empty() && !id.contains('/'))
}

/// Whether `path` is `/api/my/blogs/{blogId}/subscribers/import`, where another service's list
/// of email subscribers is sent.
fn is_subscriber_import(path: &str) -> bool {
    path.strip_prefix("/api/my/blogs/")
        .and_then(|rest| rest.strip_suffix("/subscribers/import"))
        .is_some_and(|id| !id.is_empty() && !id.contains('/'))
}

/// Whether `path` is `/api/my/blogs/{blogId}/imports`, where an import's file is uploaded.
fn is_import_upload(path: &str) -> bool {
    path.strip_prefix("/api/my/blogs/")
        .and_then(|rest| rest.strip_suffix("/imports"))
        .is_some_and(|id| !id.is_empty() && !id.contains('/'))
}

/// Turns any error into Quire's JSON error shape (API) or an HTML page (pages: a 404 page, or
/// an error page naming the request id for a fault of ours).
fn render_error(err: poem::Error, id: &str, is_api: bool) -> Response {
    if let Some(err) = err.downcast_ref::<Error>() {
        if let Error::Internal(cause) = err {
            tracing::error!(error = format!("{cause:#}"), "request failed");
            if !is_api {
                return plain_pages::server_error(id);
            }
        }
        return err.to_response(id);
    }
    let status = err.status();
    if !is_api && status == StatusCode::NOT_FOUND {
        return plain_pages::not_found("Page not found", "There is no page at this address.");
    }
    let ours = match status {
        StatusCode::NOT_FOUND => Error::not_found("path", "Not found"),
        StatusCode::METHOD_NOT_ALLOWED => {
            let mut resp = Error::bad_request("method", "Method not allowed").to_response(id);
            resp.set_status(status);
            return resp;
        }
        StatusCode::PAYLOAD_TOO_LARGE => Error::TooLarge(Messages::one("body", "The request body is too large")),
        s if s.is_client_error() => Error::bad_request("body", err.to_string()),
        _ => {
            tracing::error!(error = %err, "request failed");
            Error::Internal(anyhow::anyhow!("{err}"))
        }
    };
    ours.to_response(id)
}

fn add_security_headers(resp: &mut Response, https: bool) {
    // Names as constants: a `&str` name is parsed and validated again on every lookup and insert.
    const PERMISSIONS_POLICY: HeaderName = HeaderName::from_static("permissions-policy");
    let defaults: [(HeaderName, &'static str); 5] = [
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "strict-origin-when-cross-origin"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::CONTENT_SECURITY_POLICY, "default-src 'none'; frame-ancestors 'none'; base-uri 'none'"),
        (PERMISSIONS_POLICY, "camera=(), microphone=(), geolocation=(), interest-cohort=()"),
    ];
    let headers = resp.headers_mut();
    // A page whose own policy names who may frame it (the custom CSS preview) gets no
    // X-Frame-Options, which can only deny everyone.
    let framable = headers
        .get(header::CONTENT_SECURITY_POLICY)
        .and_then(|csp| csp.to_str().ok())
        .is_some_and(|csp| csp.contains("frame-ancestors") && !csp.contains("frame-ancestors 'none'"));
    for (name, value) in defaults {
        if framable && name == header::X_FRAME_OPTIONS {
            continue;
        }
        headers.entry(name).or_insert(HeaderValue::from_static(value));
    }
    if https {
        headers.entry(header::STRICT_TRANSPORT_SECURITY).or_insert(HeaderValue::from_static("max-age=31536000"));
    }
}

/// Turns a panic into a 500 in the error shape; the panic message goes to the log.
#[derive(Clone)]
pub struct PanicToError;

impl PanicHandler for PanicToError {
    type Response = Response;

    fn get_response(&self, err: Box<dyn Any + Send + 'static>) -> Response {
        let message = err
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| err.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_owned());
        let id = REQUEST_ID.try_with(|id| id.clone()).unwrap_or_default();
        tracing::error!(panic = %message, "handler panicked");
        Error::Internal(anyhow::anyhow!("panic: {message}")).to_response(&id)
    }
}
