//! A blog's webmention endpoint (issue 31, docs/responses.md "Webmentions"): `POST /webmention`
//! with `source` and `target`, form-encoded. What can be checked at once is: both http(s) URLs,
//! not the same, the target one of this blog's published posts (at its own address, or the
//! blog's other one), the blog approved, the sender within its limits. Then `202 Accepted`, and
//! the source is read in the background through the guarded fetcher (`blogs/webmentions.rs`).
//! Answers are plain text.

use poem::http::StatusCode;
use poem::web::Data;
use poem::{Body, Request, Response, handler};
use serde::Deserialize;
use url::Url;

use super::routes::BlogHost;
use crate::auth::rate_limit::client_key;
use crate::db::public;
use crate::db::webmentions::Received;
use crate::domain::blog::address::BlogAddress;
use crate::domain::blog::post_address::split_permalink;
use crate::error::Error;
use crate::http::client::client_ip;
use crate::http::state::AppState;

/// The longest source or target taken.
pub const MAX_URL: usize = 2048;

/// The form as sent.
#[derive(Debug, Default, Deserialize)]
struct Sent {
    #[serde(default)]
    source: String,
    #[serde(default)]
    target: String,
}

fn text(status: StatusCode, line: &str) -> Response {
    Response::builder()
        .status(status)
        .content_type("text/plain; charset=utf-8")
        .header("cache-control", "no-store")
        .body(format!("{line}\n"))
}

fn web_url(raw: &str) -> Option<Url> {
    let raw = raw.trim();
    if raw.is_empty() || raw.len() > MAX_URL {
        return None;
    }
    Url::parse(raw).ok().filter(|url| matches!(url.scheme(), "http" | "https") && url.host_str().is_some())
}

/// `POST /webmention`.
#[handler]
pub async fn receive(req: &Request, body: Body, state: Data<&AppState>) -> Result<Response, Error> {
    let subdomain = req.extensions().get::<BlogHost>().map(|h| h.0.clone()).unwrap_or_default();
    let Some(blog) = state.db.read(move |conn| public::blog(conn, &subdomain)).await? else {
        return Ok(text(StatusCode::NOT_FOUND, "There is no blog at this address."));
    };
    let bytes = body.into_vec().await.map_err(|_| Error::bad_request("body", "The request could not be read"))?;
    let Ok(sent) = serde_urlencoded::from_bytes::<Sent>(&bytes) else {
        return Ok(text(StatusCode::BAD_REQUEST, "Send source and target, form-encoded."));
    };
    let (Some(source), Some(target)) = (web_url(&sent.source), web_url(&sent.target)) else {
        return Ok(text(StatusCode::BAD_REQUEST, "source and target must be http or https URLs."));
    };
    if source.as_str().trim_end_matches('/') == target.as_str().trim_end_matches('/') {
        return Ok(text(StatusCode::BAD_REQUEST, "source and target are the same page."));
    }
    let origins = [
        state.config.blog_origin(&blog.address),
        state.config.blog_origin(&BlogAddress { subdomain: blog.address.subdomain.clone(), domain: None }),
    ];
    let origin = target.origin().ascii_serialization();
    let segment = target.path().strip_prefix('/').unwrap_or_default().to_owned();
    let short_id = split_permalink(&segment).map(|(_, short_id)| short_id.to_owned());
    let blog_id = blog.id;
    let post = match (origins.contains(&origin), short_id) {
        (true, Some(short_id)) => state.db.read(move |conn| public::published_post(conn, blog_id, &short_id)).await?,
        _ => None,
    };
    let Some(post) = post.filter(|post| super::views::takes_webmentions(&blog, post)) else {
        return Ok(text(StatusCode::BAD_REQUEST, "target is not a published post of this blog."));
    };
    let client = client_ip(req, &state.config.trusted_proxies)
        .map_or_else(|| "unknown".to_owned(), |ip| client_key(ip).to_string());
    Ok(match state.blogs.receive_webmention(&blog, post.id, source.into(), target.into(), client).await? {
        Received::Queued => text(StatusCode::ACCEPTED, "Accepted: the source is read in the background."),
        Received::AddressLimit => text(StatusCode::TOO_MANY_REQUESTS, "Too many webmentions from this address today."),
        Received::BlogFull => {
            text(StatusCode::TOO_MANY_REQUESTS, "This blog has too many webmentions waiting; try later.")
        }
    })
}
