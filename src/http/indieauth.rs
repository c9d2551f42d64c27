//! IndieAuth's endpoints (issue 37, docs/api.md "IndieAuth"), on the app host:
//!
//! - `GET /.well-known/oauth-authorization-server`: the server's metadata, named by every blog
//!   page's `rel="indieauth-metadata"` (a blog's address is its owner's profile URL);
//! - `GET /indieauth/auth`: the authorization endpoint; it checks nothing and stores nothing
//!   (anyone may call it), it sends the browser to the owner app's consent screen
//!   (`/d/indieauth?...`, the request in its address), where the signed-in owner's app checks
//!   the request (`POST /api/my/indieauth/check`) and approves or refuses it;
//! - `POST /indieauth/auth`: a profile-only sign-in's code redeemed for `{me}`;
//! - `POST /indieauth/token`: a code and its PKCE verifier redeemed for an API token
//!   (`action=revoke` there revokes one, as older clients do);
//! - `POST /indieauth/revoke` (RFC 7009) and `POST /indieauth/introspect` (RFC 7662).
//!
//! The token endpoints answer OAuth's errors, `{"error", "error_description"}`; a client's
//! failed attempts count against its address's sign-in allowance.

use poem::http::{StatusCode, header};
use poem::web::{Data, Json};
use poem::{Body, Request, Response, handler};
use serde::{Deserialize, Serialize};
use serde_json::json;
use ts_rs::TS;

use crate::blogs::indieauth::{AppRequest, AuthParams, AuthRefusal, GrantRefusal, Redeemed};
use crate::domain::access::Scope;
use crate::domain::paths;
use crate::error::{Error, Result};
use crate::http::api::json::JsonBody;
use crate::http::client::client_ip;
use crate::http::session::SignedIn;
use crate::http::state::AppState;

/// The server's metadata (RFC 8414, as IndieAuth uses it).
#[handler]
pub fn metadata(state: Data<&AppState>) -> Response {
    let app = state.config.app_url();
    let scopes: Vec<&str> = crate::domain::access::ALL_SCOPES.iter().map(|scope| scope.name()).collect();
    let body = json!({
        "issuer": format!("{app}/"),
        "authorization_endpoint": format!("{app}{}", paths::INDIEAUTH_AUTH),
        "token_endpoint": format!("{app}{}", paths::INDIEAUTH_TOKEN),
        "revocation_endpoint": format!("{app}{}", paths::INDIEAUTH_REVOKE),
        "revocation_endpoint_auth_methods_supported": ["none"],
        "introspection_endpoint": format!("{app}{}", paths::INDIEAUTH_INTROSPECT),
        "introspection_endpoint_auth_methods_supported": ["Bearer"],
        "code_challenge_methods_supported": ["S256"],
        "grant_types_supported": ["authorization_code"],
        "response_types_supported": ["code"],
        "scopes_supported": scopes,
        "authorization_response_iss_parameter_supported": true,
        "service_documentation": "https://www.w3.org/TR/micropub/",
    });
    oauth_json(StatusCode::OK, &body)
}

fn oauth_json(status: StatusCode, body: &serde_json::Value) -> Response {
    Response::builder()
        .status(status)
        .content_type("application/json")
        .header(header::CACHE_CONTROL, "no-store")
        .body(body.to_string())
}

fn oauth_error(status: StatusCode, error: &str, description: &str) -> Response {
    oauth_json(status, &json!({ "error": error, "error_description": description }))
}

/// The authorization endpoint: to the consent screen, the request in its address.
#[handler]
pub fn authorize(req: &Request) -> Response {
    let query = req.uri().query().unwrap_or_default();
    let location = format!("{}?{query}", paths::INDIEAUTH_CONSENT);
    Response::builder().status(StatusCode::SEE_OTHER).header(header::LOCATION, location).finish()
}

/// A form body's fields.
fn form_fields(bytes: &[u8]) -> std::collections::HashMap<String, String> {
    url::form_urlencoded::parse(bytes).into_owned().collect()
}

/// Redeems a code: at the token endpoint for a token (or, with `action=revoke`, revokes one),
/// at the authorization endpoint for the profile URL only.
async fn redeem(req: &Request, body: Body, state: &AppState, issue_token: bool) -> Response {
    let Ok(bytes) = body.into_bytes().await else {
        return oauth_error(StatusCode::BAD_REQUEST, "invalid_request", "The body could not be read");
    };
    let fields = form_fields(&bytes);
    let field = |name: &str| fields.get(name).map(String::as_str).unwrap_or_default();
    if issue_token && field("action") == "revoke" {
        return revoke_token(req, state, field("token")).await;
    }
    if field("grant_type") != "authorization_code" {
        return oauth_error(StatusCode::BAD_REQUEST, "unsupported_grant_type", "grant_type must be authorization_code");
    }
    for required in ["code", "client_id", "redirect_uri", "code_verifier"] {
        if field(required).is_empty() {
            return oauth_error(StatusCode::BAD_REQUEST, "invalid_request", &format!("{required} is missing"));
        }
    }
    let outcome = state
        .blogs
        .redeem_code(field("code"), field("client_id"), field("redirect_uri"), field("code_verifier"), issue_token)
        .await;
    match outcome {
        Ok(Ok(Redeemed::Token { token, scopes, me })) => oauth_json(
            StatusCode::OK,
            &json!({ "access_token": token, "token_type": "Bearer", "scope": scopes.stored(), "me": me }),
        ),
        Ok(Ok(Redeemed::Profile { me })) if issue_token => oauth_error(
            StatusCode::BAD_REQUEST,
            "invalid_grant",
            &format!("No scope was granted, so there is no token: {me} signed in"),
        ),
        Ok(Ok(Redeemed::Profile { me })) => oauth_json(StatusCode::OK, &json!({ "me": me })),
        Ok(Err(GrantRefusal { error, description })) => {
            if let Err(limited) = state.auth.limiter.check(client_ip(req, &state.config.trusted_proxies)) {
                return oauth_error(StatusCode::TOO_MANY_REQUESTS, "slow_down", &limited.to_string());
            }
            oauth_error(StatusCode::BAD_REQUEST, error, &description)
        }
        Err(err) => crate::http::micropub::error_answer(err),
    }
}

/// `POST /indieauth/auth`: a profile-only code for `{me}`.
#[handler]
pub async fn redeem_profile(req: &Request, body: Body, state: Data<&AppState>) -> Response {
    redeem(req, body, &state, false).await
}

/// `POST /indieauth/token`.
#[handler]
pub async fn token_endpoint(req: &Request, body: Body, state: Data<&AppState>) -> Response {
    redeem(req, body, &state, true).await
}

/// Revokes the token; an unknown one is no error (RFC 7009). Anyone may ask and each asking is
/// a write, so revocations count on the sign-in limit per address, as refused redemptions do.
async fn revoke_token(req: &Request, state: &AppState, token: &str) -> Response {
    if let Err(limited) = state.auth.limiter.check(client_ip(req, &state.config.trusted_proxies)) {
        return oauth_error(StatusCode::TOO_MANY_REQUESTS, "slow_down", &limited.to_string());
    }
    match state.blogs.revoke_bearer(token).await {
        Ok(()) => oauth_json(StatusCode::OK, &json!({})),
        Err(err) => crate::http::micropub::error_answer(err),
    }
}

/// `POST /indieauth/revoke` with `token`.
#[handler]
pub async fn revoke(req: &Request, body: Body, state: Data<&AppState>) -> Response {
    let Ok(bytes) = body.into_bytes().await else {
        return oauth_error(StatusCode::BAD_REQUEST, "invalid_request", "The body could not be read");
    };
    let fields = form_fields(&bytes);
    revoke_token(req, &state, fields.get("token").map(String::as_str).unwrap_or_default()).await
}

/// `POST /indieauth/introspect` with `token`, authorized by a live token of this instance in
/// `Authorization: Bearer`: `{active: true, me, client_id, scope, iat, exp?}` or `{active: false}`.
#[handler]
pub async fn introspect(req: &Request, body: Body, state: Data<&AppState>) -> Response {
    let bearer = req
        .header(header::AUTHORIZATION)
        .and_then(|value| value.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim().to_owned());
    let authorized = match &bearer {
        Some(token) => matches!(state.blogs.token_info(token).await, Ok(Some(_))),
        None => false,
    };
    if !authorized {
        let _ = state.auth.limiter.check(client_ip(req, &state.config.trusted_proxies));
        let mut answer = oauth_error(
            StatusCode::UNAUTHORIZED,
            "invalid_token",
            "Introspection needs a live token of this server in the Authorization header",
        );
        answer.headers_mut().insert(header::WWW_AUTHENTICATE, poem::http::HeaderValue::from_static("Bearer"));
        return answer;
    }
    let Ok(bytes) = body.into_bytes().await else {
        return oauth_error(StatusCode::BAD_REQUEST, "invalid_request", "The body could not be read");
    };
    let fields = form_fields(&bytes);
    let token = fields.get("token").map(String::as_str).unwrap_or_default();
    match state.blogs.token_info(token).await {
        Ok(Some((token, blog))) => {
            let mut body = json!({
                "active": true,
                "me": state.blogs.profile_url(&blog),
                "scope": token.scopes.stored(),
                "iat": unix_seconds(&token.created_at),
            });
            if let Some(client_id) = &token.client_id {
                body["client_id"] = json!(client_id);
            }
            if let Some(expires_at) = &token.expires_at {
                body["exp"] = json!(unix_seconds(expires_at));
            }
            oauth_json(StatusCode::OK, &body)
        }
        Ok(None) => oauth_json(StatusCode::OK, &json!({ "active": false })),
        Err(err) => crate::http::micropub::error_answer(err),
    }
}

/// A stored time as seconds since 1970.
fn unix_seconds(stored: &str) -> i64 {
    crate::domain::content::schedule::parse_stored(stored).map(|at| at.unix_timestamp()).unwrap_or_default()
}

/// `{query}`: the authorization request's query string, as the consent screen's address has it.
#[derive(Debug, Deserialize)]
pub struct ConsentInput {
    query: String,
    /// On approval: the scopes the owner grants (those asked for, or fewer).
    #[serde(default)]
    scopes: Vec<String>,
}

/// The app asking, as the consent screen shows it.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "indieauth.ts")]
pub struct AppJson {
    client_id: String,
    /// Its name: its metadata's, its page's title, or its host.
    client_name: String,
    redirect_uri: String,
    /// The scopes asked for that Quire can grant.
    scopes: Vec<String>,
    /// The blog's address, the profile URL the app will know.
    profile_url: String,
}

/// `{app}` to show, or `{redirectTo}` when the request must go back to the app at once (one it
/// can be told about: its redirect URI is its own).
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "indieauth.ts")]
pub struct ConsentJson {
    app: Option<AppJson>,
    redirect_to: Option<String>,
}

/// Checks the request the consent screen shows; a request no app can be told about is a 422.
async fn checked(state: &AppState, query: &str) -> Result<std::result::Result<AppRequest, String>> {
    let params: AuthParams = serde_urlencoded::from_str(query)
        .map_err(|_| Error::invalid("request", "The sign-in request could not be read"))?;
    match state.blogs.check_app_request(&params, &state.fetcher).await {
        Ok(request) => Ok(Ok(request)),
        Err(AuthRefusal::Unsafe(message)) => Err(Error::invalid("request", message)),
        Err(AuthRefusal::Invalid(redirect)) => Ok(Err(redirect.to_string())),
    }
}

/// `POST /api/my/indieauth/check`.
#[handler]
pub async fn check(
    signed_in: SignedIn,
    JsonBody(input): JsonBody<ConsentInput>,
    state: Data<&AppState>,
) -> Result<Json<ConsentJson>> {
    let blog = own_blog(&state, &signed_in).await?;
    Ok(Json(match checked(&state, &input.query).await? {
        Ok(request) => ConsentJson {
            app: Some(AppJson {
                client_id: request.client_id.to_string(),
                client_name: request.client_name,
                redirect_uri: request.redirect_uri.to_string(),
                scopes: request.scopes.iter().map(|scope| scope.name().to_owned()).collect(),
                profile_url: state.blogs.profile_url(&blog),
            }),
            redirect_to: None,
        },
        Err(redirect) => ConsentJson { app: None, redirect_to: Some(redirect) },
    }))
}

/// `{redirectTo}`: where the owner's browser goes now.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "indieauth.ts")]
pub struct Answered {
    redirect_to: String,
}

/// `POST /api/my/indieauth/approve`: a code for the app, in its redirect URI.
#[handler]
pub async fn approve(
    signed_in: SignedIn,
    JsonBody(input): JsonBody<ConsentInput>,
    state: Data<&AppState>,
) -> Result<Json<Answered>> {
    let blog = own_blog(&state, &signed_in).await?;
    let request = match checked(&state, &input.query).await? {
        Ok(request) => request,
        Err(redirect_to) => return Ok(Json(Answered { redirect_to })),
    };
    let granted = input
        .scopes
        .iter()
        .map(|name| Scope::parse(name).ok_or_else(|| Error::invalid("scopes", format!("Unknown scope {name:?}"))))
        .collect::<Result<Vec<_>>>()?;
    let url = state.blogs.approve_app(&blog, &request, &granted).await?;
    Ok(Json(Answered { redirect_to: url.to_string() }))
}

/// `POST /api/my/indieauth/refuse`: the app is told `access_denied`.
#[handler]
pub async fn refuse(
    signed_in: SignedIn,
    JsonBody(input): JsonBody<ConsentInput>,
    state: Data<&AppState>,
) -> Result<Json<Answered>> {
    own_blog(&state, &signed_in).await?;
    let redirect_to = match checked(&state, &input.query).await? {
        Ok(request) => state.blogs.refuse_app(&request).to_string(),
        Err(redirect) => redirect,
    };
    Ok(Json(Answered { redirect_to }))
}

/// The signed-in user's blog: a 422 without one (an app signs in to a blog).
async fn own_blog(state: &AppState, signed_in: &SignedIn) -> Result<crate::db::blogs::Blog> {
    let user_id = signed_in.user.id;
    let blog = state.db.read(move |conn| crate::db::blogs::of_user(conn, user_id)).await?;
    blog.ok_or_else(|| Error::invalid("blog", "Create your blog first: an app signs in to a blog"))
}
