//! The Micropub endpoint and its media endpoint (W3C Micropub, issue 37, docs/api.md
//! "Micropub"), on the app host: `GET|POST /micropub`, `POST /micropub/media`. The bearer's
//! API token says which blog (`blogs::api_tokens`); it comes in `Authorization: Bearer` or, in a
//! form-encoded or multipart body, as `access_token` (never both). No cookie is read, so no
//! CSRF token is asked for.
//!
//! Every answer that is not a success is Micropub's shape, `{"error", "error_description"}`:
//! 400 `invalid_request`, 401 `unauthorized` (no token, or one that is unknown, revoked or
//! expired), 401 `insufficient_scope` (with the `scope` needed), 403 `forbidden` (a URL of
//! another blog, a suspended blog), 413 for a body over its cap, 429 past the token's allowance
//! (with `Retry-After`). The writes themselves are `blogs/micropub.rs`'s.

use bytes::Bytes;
use poem::http::{HeaderValue, StatusCode, header};
use poem::web::{Data, Multipart, Query, RequestBody};
use poem::{Body, FromRequest, IntoResponse, Request, Response, handler};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::auth::rate_limit::TokenUse;
use crate::blogs::api_tokens::TokenRefusal;
use crate::db::api_tokens::ApiToken;
use crate::db::blogs::Blog;
use crate::domain::access::Scope;
use crate::domain::content::micropub::{self, Action, MAX_PHOTOS, Photo};
use crate::domain::paths;
use crate::error::Error;
use crate::http::client::client_ip;
use crate::http::state::AppState;

/// Largest body of a Micropub request: two photos of the image limit in one multipart body
/// (Micropub Rocks 301); more photos go through the media endpoint or by URL.
pub const BODY_LIMIT: usize = 2 * crate::domain::content::image::MAX_IMAGE_BYTES + 64 * 1024;

/// A refusal in Micropub's shape.
struct Refusal {
    status: StatusCode,
    error: &'static str,
    description: String,
    scope: Option<Scope>,
    retry_after: Option<u64>,
}

impl Refusal {
    fn new(status: StatusCode, error: &'static str, description: impl Into<String>) -> Refusal {
        Refusal { status, error, description: description.into(), scope: None, retry_after: None }
    }

    fn invalid(description: impl Into<String>) -> Refusal {
        Refusal::new(StatusCode::BAD_REQUEST, "invalid_request", description)
    }

    fn unauthorized(description: impl Into<String>) -> Refusal {
        Refusal::new(StatusCode::UNAUTHORIZED, "unauthorized", description)
    }

    fn insufficient_scope(scope: Scope) -> Refusal {
        let description = format!("This token may not do this: it needs the {scope} scope");
        Refusal { scope: Some(scope), ..Refusal::new(StatusCode::UNAUTHORIZED, "insufficient_scope", description) }
    }

    fn answer(self) -> Response {
        let mut body = json!({ "error": self.error, "error_description": self.description });
        if let Some(scope) = self.scope {
            body["scope"] = json!(scope.name());
        }
        let mut response = Response::builder()
            .status(self.status)
            .content_type("application/json")
            .header(header::CACHE_CONTROL, "no-store")
            .body(body.to_string());
        if self.status == StatusCode::UNAUTHORIZED {
            let challenge = match self.error {
                "insufficient_scope" => "Bearer error=\"insufficient_scope\"",
                _ => "Bearer",
            };
            response.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static(challenge));
        }
        if let Some(seconds) = self.retry_after
            && let Ok(value) = HeaderValue::from_str(&seconds.to_string())
        {
            response.headers_mut().insert(header::RETRY_AFTER, value);
        }
        response
    }
}

impl From<Error> for Refusal {
    fn from(err: Error) -> Refusal {
        let text = |messages: &crate::error::Messages| {
            messages.0.iter().map(|(_, message)| message.as_str()).collect::<Vec<_>>().join("; ")
        };
        match &err {
            Error::BadRequest(m) | Error::Invalid(m) | Error::NotFound(m) => Refusal::invalid(text(m)),
            Error::Unauthorized(m) => Refusal::unauthorized(text(m)),
            Error::Forbidden(m) => Refusal::new(StatusCode::FORBIDDEN, "forbidden", text(m)),
            Error::TooLarge(m) => Refusal::new(StatusCode::PAYLOAD_TOO_LARGE, "invalid_request", text(m)),
            Error::RateLimited(m) => Refusal::new(StatusCode::TOO_MANY_REQUESTS, "rate_limited", text(m)),
            Error::Upstream(m) => Refusal::new(StatusCode::BAD_GATEWAY, "server_error", text(m)),
            Error::Full(m) => Refusal::new(StatusCode::INSUFFICIENT_STORAGE, "server_error", text(m)),
            Error::Internal(cause) => {
                tracing::error!(error = format!("{cause:#}"), "micropub request failed");
                Refusal::new(StatusCode::INTERNAL_SERVER_ERROR, "server_error", "Something went wrong on the server")
            }
        }
    }
}

/// The answer to an error the layer around every request raised for a Micropub path (a body
/// over its cap), in Micropub's shape.
pub fn error_answer(err: Error) -> Response {
    Refusal::from(err).answer()
}

/// Whether `path` is one of Micropub's (their errors are answered in its shape).
pub fn is_micropub_path(path: &str) -> bool {
    path == paths::MICROPUB || path == paths::MICROPUB_MEDIA
}

/// The token of `Authorization: Bearer` or of the body's `access_token`, checked: its blog,
/// its row, and the use counted against its allowance.
async fn bearer(
    req: &Request,
    state: &AppState,
    in_body: Option<&str>,
    kind: TokenUse,
) -> Result<(ApiToken, Blog), Refusal> {
    let in_header = match req.header(header::AUTHORIZATION) {
        None => None,
        Some(value) => match value.split_once(' ') {
            Some((scheme, token)) if scheme.eq_ignore_ascii_case("bearer") => Some(token.trim()),
            _ => return Err(Refusal::unauthorized("The Authorization header must be 'Bearer <token>'")),
        },
    };
    let token = match (in_header, in_body) {
        (Some(_), Some(_)) => {
            return Err(Refusal::invalid("Send the token once: in the Authorization header or as access_token"));
        }
        (Some(token), None) | (None, Some(token)) => token,
        (None, None) => {
            return Err(Refusal::unauthorized(
                "No access token: send one in the Authorization header (Settings → API tokens makes one)",
            ));
        }
    };
    let (token, blog) = match state.blogs.authenticate(token).await.map_err(Refusal::from)? {
        Ok(found) => found,
        Err(refusal) => {
            // Guessing costs the guesser: a client's failed attempts count as sign-in attempts.
            state.auth.limiter.check(client_ip(req, &state.config.trusted_proxies)).map_err(Refusal::from)?;
            return Err(match refusal {
                TokenRefusal::Unknown => {
                    Refusal::unauthorized("The access token is not valid: it is unknown, revoked or expired")
                }
                TokenRefusal::Suspended => Refusal::new(
                    StatusCode::FORBIDDEN,
                    "forbidden",
                    "This blog is suspended: its tokens cannot be used",
                ),
            });
        }
    };
    if let Err((wait, message)) = state.auth.tokens.check(token.id, kind) {
        return Err(Refusal {
            retry_after: Some(wait),
            ..Refusal::new(StatusCode::TOO_MANY_REQUESTS, "rate_limited", message)
        });
    }
    Ok((token, blog))
}

/// `GET /micropub?q=...`.
#[derive(Debug, Deserialize)]
pub struct QueryParams {
    q: Option<String>,
    url: Option<String>,
}

/// The queries: `q=config`, `q=source` (with `url`, and `properties[]` to pick), `q=syndicate-to`.
#[handler]
pub async fn query(req: &Request, state: Data<&AppState>) -> Response {
    match answer_query(req, &state).await {
        Ok(response) => response,
        Err(refusal) => refusal.answer(),
    }
}

async fn answer_query(req: &Request, state: &AppState) -> Result<Response, Refusal> {
    let (_, blog) = bearer(req, state, None, TokenUse::Read).await?;
    let Query(params) = Query::<QueryParams>::from_request_without_body(req)
        .await
        .map_err(|_| Refusal::invalid("The query string could not be read"))?;
    let body = match params.q.as_deref() {
        Some("config") => json!({
            "media-endpoint": format!("{}{}", state.config.app_url(), paths::MICROPUB_MEDIA),
            "syndicate-to": [],
            "post-types": [
                {"type": "note", "name": "Note"},
                {"type": "article", "name": "Article"},
                {"type": "photo", "name": "Photo"},
                {"type": "bookmark", "name": "Bookmark"},
            ],
            "q": ["config", "source", "syndicate-to"],
        }),
        Some("syndicate-to") => json!({ "syndicate-to": [] }),
        Some("source") => {
            let url = params.url.ok_or_else(|| Refusal::invalid("q=source needs the post's url"))?;
            let wanted = wanted_properties(req.uri().query().unwrap_or_default());
            state.blogs.micropub_source(&blog, &url, &wanted).await.map_err(Refusal::from)?
        }
        Some(other) => {
            return Err(Refusal::invalid(format!(
                "Unknown query {other:?}: the queries are config, source and syndicate-to"
            )));
        }
        None => return Err(Refusal::invalid("Say what to query: q=config, q=source or q=syndicate-to")),
    };
    Ok(json_answer(StatusCode::OK, &body))
}

/// The `properties[]` (or `properties`) values of a query string.
fn wanted_properties(raw: &str) -> Vec<String> {
    url::form_urlencoded::parse(raw.as_bytes())
        .filter(|(key, _)| key == "properties[]" || key == "properties")
        .map(|(_, value)| value.into_owned())
        .collect()
}

fn json_answer(status: StatusCode, body: &Value) -> Response {
    Response::builder()
        .status(status)
        .content_type("application/json")
        .header(header::CACHE_CONTROL, "no-store")
        .body(body.to_string())
}

/// A success with the post's address.
fn located(status: StatusCode, url: &str) -> Response {
    let mut response = Response::builder().status(status).header(header::CACHE_CONTROL, "no-store").finish();
    if let Ok(value) = HeaderValue::from_str(url) {
        response.headers_mut().insert(header::LOCATION, value);
    }
    response
}

/// A request's body, read by its type.
struct Read {
    action: Action,
    /// A form's `access_token`.
    token: Option<String>,
    /// A multipart request's photo files.
    files: Vec<Bytes>,
}

/// Reads a form-encoded, multipart or JSON body.
async fn read_body(req: &Request, body: Body) -> Result<Read, Refusal> {
    let content_type = req.header(header::CONTENT_TYPE).unwrap_or_default().to_ascii_lowercase();
    let media_type = content_type.split(';').next().unwrap_or_default().trim().to_owned();
    match media_type.as_str() {
        "application/json" => {
            let bytes = body.into_bytes().await.map_err(|_| Refusal::invalid("The body could not be read"))?;
            let value: Value = serde_json::from_slice(&bytes)
                .map_err(|err| Refusal::invalid(format!("The body is not JSON: {err}")))?;
            let action = micropub::from_json(&value).map_err(Refusal::invalid)?;
            Ok(Read { action, token: None, files: Vec::new() })
        }
        "application/x-www-form-urlencoded" => {
            let bytes = body.into_bytes().await.map_err(|_| Refusal::invalid("The body could not be read"))?;
            let pairs: Vec<(String, String)> = url::form_urlencoded::parse(&bytes).into_owned().collect();
            let token = pairs.iter().find(|(key, _)| key == "access_token").map(|(_, value)| value.clone());
            let action = micropub::from_form(&pairs).map_err(Refusal::invalid)?;
            Ok(Read { action, token, files: Vec::new() })
        }
        "multipart/form-data" => {
            let malformed = || Refusal::invalid("The multipart body could not be read");
            let mut multipart = multipart_of(req, body).await.ok_or_else(malformed)?;
            let (mut pairs, mut files) = (Vec::new(), Vec::new());
            while let Some(field) = multipart.next_field().await.map_err(|_| malformed())? {
                let name = field.name().unwrap_or_default().to_owned();
                if field.file_name().is_some() {
                    if name != "photo" && name != "photo[]" {
                        return Err(Refusal::invalid(format!(
                            "The file field {name:?} is not understood: send photos as photo or photo[]"
                        )));
                    }
                    if files.len() == MAX_PHOTOS {
                        return Err(Refusal::invalid(format!("At most {MAX_PHOTOS} photos in one request")));
                    }
                    files.push(Bytes::from(field.bytes().await.map_err(|_| malformed())?));
                } else {
                    pairs.push((name, field.text().await.map_err(|_| malformed())?));
                }
            }
            let token = pairs.iter().find(|(key, _)| key == "access_token").map(|(_, value)| value.clone());
            let action = micropub::from_form(&pairs).map_err(Refusal::invalid)?;
            Ok(Read { action, token, files })
        }
        _ => Err(Refusal::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "invalid_request",
            "Send the request form-encoded, as multipart/form-data or as JSON",
        )),
    }
}

/// The parts of a multipart body.
async fn multipart_of(req: &Request, body: Body) -> Option<Multipart> {
    Multipart::from_request(req, &mut RequestBody::new(body)).await.ok()
}

/// Creates, updates, deletes or undeletes a post.
#[handler]
pub async fn write(req: &Request, body: Body, state: Data<&AppState>) -> Response {
    match answer_write(req, body, &state).await {
        Ok(response) => response,
        Err(refusal) => refusal.answer(),
    }
}

async fn answer_write(req: &Request, body: Body, state: &AppState) -> Result<Response, Refusal> {
    let Read { action, token: body_token, files } = read_body(req, body).await?;
    let (token, blog) = bearer(req, state, body_token.as_deref(), TokenUse::Write).await?;
    let scopes = &token.scopes;
    let need = |scope: Scope| if scopes.has(scope) { Ok(()) } else { Err(Refusal::insufficient_scope(scope)) };
    let (blogs, fetcher) = (&state.blogs, &state.fetcher);
    match action {
        Action::Create(properties) => {
            if !scopes.may_create() {
                return Err(Refusal::insufficient_scope(Scope::Create));
            }
            let mut uploads = Vec::with_capacity(files.len());
            for bytes in files {
                let name = blogs.store_image(blog.user_id, bytes).await.map_err(Refusal::from)?;
                let url = format!("{}{}{name}", state.config.app_url(), paths::MEDIA_PREFIX);
                uploads.push(Photo { url, alt: String::new() });
            }
            let url = blogs
                .micropub_create(&blog, &properties, uploads, scopes.drafts_only(), fetcher)
                .await
                .map_err(Refusal::from)?;
            Ok(located(StatusCode::CREATED, &url))
        }
        Action::Update { url, replace, add, delete_properties, delete_values } => {
            need(Scope::Update)?;
            let new_url = blogs
                .micropub_update(&blog, &url, &replace, &add, &delete_properties, &delete_values, fetcher)
                .await
                .map_err(Refusal::from)?;
            // A changed address is a 201 with the new one; otherwise nothing to say.
            if new_url == url {
                Ok(StatusCode::NO_CONTENT.into_response())
            } else {
                Ok(located(StatusCode::CREATED, &new_url))
            }
        }
        Action::Delete { url } => {
            need(Scope::Delete)?;
            blogs.micropub_delete(&blog, &url).await.map_err(Refusal::from)?;
            Ok(StatusCode::NO_CONTENT.into_response())
        }
        Action::Undelete { url } => {
            need(Scope::Undelete)?;
            let url = blogs.micropub_undelete(&blog, &url).await.map_err(Refusal::from)?;
            Ok(located(StatusCode::CREATED, &url))
        }
    }
}

/// The media endpoint: one file, field `file`, a JPEG, PNG or GIF told by its bytes, within the
/// image limit and the blog's upload quota; 201 with its URL in `Location`.
#[handler]
pub async fn upload(req: &Request, body: Body, state: Data<&AppState>) -> Response {
    match answer_upload(req, body, &state).await {
        Ok(response) => response,
        Err(refusal) => refusal.answer(),
    }
}

async fn answer_upload(req: &Request, body: Body, state: &AppState) -> Result<Response, Refusal> {
    let malformed = || Refusal::invalid("Send the file as multipart/form-data in the field \"file\"");
    let media_type = req.header(header::CONTENT_TYPE).unwrap_or_default().to_ascii_lowercase();
    if !media_type.starts_with("multipart/form-data") {
        return Err(malformed());
    }
    let mut multipart = multipart_of(req, body).await.ok_or_else(malformed)?;
    let (mut file, mut body_token) = (None, None);
    while let Some(field) = multipart.next_field().await.map_err(|_| malformed())? {
        match field.name() {
            Some("file") if file.is_none() => file = Some(Bytes::from(field.bytes().await.map_err(|_| malformed())?)),
            Some("access_token") => body_token = Some(field.text().await.map_err(|_| malformed())?),
            _ => {}
        }
    }
    let (token, blog) = bearer(req, state, body_token.as_deref(), TokenUse::Write).await?;
    if !token.scopes.has(Scope::Media) {
        return Err(Refusal::insufficient_scope(Scope::Media));
    }
    let bytes = file.ok_or_else(malformed)?;
    let name = state.blogs.store_image(blog.user_id, bytes).await.map_err(Refusal::from)?;
    let url = format!("{}{}{name}", state.config.app_url(), paths::MEDIA_PREFIX);
    Ok(located(StatusCode::CREATED, &url))
}
