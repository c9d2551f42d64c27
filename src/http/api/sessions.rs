//! Signing in and out: `POST /api/auth/nonce`, `POST /api/sessions`, `GET /api/my/session`,
//! `POST /d/signout`.

use poem::http::{StatusCode, header};
use poem::web::{Data, Json};
use poem::{IntoResponse, Request, Response, handler};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::auth::{nonces, token_hash};
use crate::config::SignupMode;
use crate::db::users::User;
use crate::db::{blogs, sessions, users};
use crate::error::{Error, Messages, Result};
use crate::http::api::answers::Empty;
use crate::http::api::json::JsonBody;
use crate::http::client::client_ip;
use crate::http::cookies;
use crate::http::session::{self, BLOG_COOKIE, COOKIE, NONCE_COOKIE, SignedIn};
use crate::http::state::AppState;

/// What `POST /api/auth/nonce` answers: the provider page to open in the popup.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "sessions.ts")]
pub struct SignInStart {
    nonce: String,
    /// The provider's authorization endpoint with client, redirect, scope and nonce filled in.
    authorization_url: String,
}

/// Who is signed in and which blog is theirs (null until they create one).
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "sessions.ts")]
pub struct Session<'a> {
    user: &'a User,
    blog_id: Option<i64>,
    /// Whether the user is one of the instance's admins (`--admin`): the owner area shows Admin.
    is_admin: bool,
}

/// `{session}`: the session a sign-in started, or the current one.
#[derive(Serialize, TS)]
#[ts(export_to = "sessions.ts")]
pub struct OneSession<'a> {
    session: Session<'a>,
}

/// `{session}`: the session, or null for a visitor (`GET /api/session`).
#[derive(Serialize, TS)]
#[ts(export_to = "sessions.ts")]
pub struct MaybeSession<'a> {
    session: Option<Session<'a>>,
}

/// Starts a sign-in: a nonce bound to this browser and the provider URL to open in a popup.
#[handler]
pub async fn nonce(req: &Request, state: Data<&AppState>) -> Result<Response> {
    state.auth.limiter.check(client_ip(req, &state.config.trusted_proxies))?;
    let verifier = &state.auth.verifier;
    let endpoint = verifier.authorization_endpoint().await?;
    let nonce = cookies::random_token();
    state.auth.nonces.remember(&nonce);
    let redirect_uri = format!("{}/auth/callback", state.config.app_url());
    let mut params = vec![
        ("response_type", "id_token"),
        ("client_id", verifier.client_id()),
        ("redirect_uri", redirect_uri.as_str()),
        ("scope", "openid email profile"),
        ("nonce", nonce.as_str()),
    ];
    if verifier.issuer() == crate::config::GOOGLE_ISSUER {
        params.push(("prompt", "select_account"));
    }
    let query = serde_urlencoded::to_string(&params).map_err(|err| Error::Internal(err.into()))?;
    let separator = if endpoint.contains('?') { '&' } else { '?' };
    let body = SignInStart { nonce: nonce.clone(), authorization_url: format!("{endpoint}{separator}{query}") };
    let cookie = cookies::set(NONCE_COOKIE, &nonce, true, state.config.https, Some(nonces::LIFETIME.as_secs()));
    Ok(Json(body).with_header(header::SET_COOKIE, cookie).into_response())
}

/// `POST /api/sessions` body.
#[derive(Debug, Deserialize)]
pub struct CreateSession {
    id_token: String,
}

/// Signs in with a token from the popup, making the account of a sign-in not known yet.
#[handler]
pub async fn create(
    req: &Request,
    state: Data<&AppState>,
    JsonBody(body): JsonBody<CreateSession>,
) -> Result<Response> {
    let identity = session::verify_popup_token(&state, req, &body.id_token).await?;
    let provider = state.config.provider_name.clone();
    // Login and Signup both make the account of a sign-in Quire does not know yet (issue 33: a
    // new person pressing 'Login with' gets in rather than a silent refusal); the `signup` flag
    // older clients send is ignored like any unknown field. A closed instance takes no new
    // blogs, so it keeps no new accounts either: a stranger's sign-in stores nothing. Existing
    // users sign in as before.
    let closed = state.config.public.signups == SignupMode::Closed;
    let (user, blog_id) = state
        .db
        .write(move |conn| {
            let user = match users::find_by_identity(conn, &identity)? {
                Some(user) => user,
                None if closed => {
                    return Err(Error::Forbidden(Messages::one("signups", "Signups are closed on this instance.")));
                }
                None => users::create_with_identity(conn, &identity, &provider)?,
            };
            let blog_id = blogs::id_of_user(conn, user.id)?;
            Ok((user, blog_id))
        })
        .await?;
    let token = session::start(&state, user.id).await?;
    let secure = state.config.https;
    let is_admin = state.config.public.is_admin(&user.email);
    let mut resp = Json(session_body(&user, blog_id, is_admin)).into_response();
    let headers = resp.headers_mut();
    let mut add = |cookie: String| headers.append(header::SET_COOKIE, cookie.parse().expect("ascii cookie"));
    add(cookies::set(COOKIE, &token, true, secure, Some(cookies::LONG_MAX_AGE)));
    add(cookies::clear(NONCE_COOKIE, secure));
    match blog_id {
        Some(id) => add(cookies::set(BLOG_COOKIE, &id.to_string(), false, secure, Some(cookies::LONG_MAX_AGE))),
        None => add(cookies::clear(BLOG_COOKIE, secure)),
    };
    Ok(resp)
}

/// The signed-in user and their blog id (a 401 without a session, like all of `/api/my`).
#[handler]
pub async fn show(signed_in: SignedIn, state: Data<&AppState>) -> Result<Response> {
    show_session(&state, &signed_in).await
}

async fn show_session(state: &AppState, signed_in: &SignedIn) -> Result<Response> {
    let user_id = signed_in.user.id;
    let blog_id = state.db.read(move |conn| blogs::id_of_user(conn, user_id)).await?;
    let is_admin = state.config.public.is_admin(&signed_in.user.email);
    Ok(Json(session_body(&signed_in.user, blog_id, is_admin)).into_response())
}

/// Whether this browser is signed in: `{session: {...}}`, or `{session: null}` for a visitor
/// (a normal answer, not an error, so the landing page can ask without a failed request).
#[handler]
pub async fn current(req: &Request, state: Data<&AppState>) -> Result<Response> {
    match session::lookup(&state, req).await? {
        Some(signed_in) => show_session(&state, &signed_in).await,
        None => Ok(Json(MaybeSession { session: None }).into_response()),
    }
}

fn session_body(user: &User, blog_id: Option<i64>, is_admin: bool) -> OneSession<'_> {
    OneSession { session: Session { user, blog_id, is_admin } }
}

/// Ends the session (if any) and clears the session and blog cookies.
#[handler]
pub async fn signout(req: &Request, state: Data<&AppState>) -> Result<Response> {
    if let Some(token) = cookies::get(req, COOKIE) {
        let hash = token_hash(token);
        state.db.write(move |conn| sessions::delete(conn, &hash)).await?;
    }
    let secure = state.config.https;
    let mut resp = Json(Empty {}).with_status(StatusCode::OK).into_response();
    for name in [COOKIE, BLOG_COOKIE] {
        resp.headers_mut().append(header::SET_COOKIE, cookies::clear(name, secure).parse().expect("ascii"));
    }
    Ok(resp)
}
