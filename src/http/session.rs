//! Sessions: the `session` cookie, the `SignedIn` extractor that guards `/api/my/*`, and
//! sign-in with a popup token bound to this browser's nonce.

use poem::web::RequestBody;
use poem::{FromRequest, Request};

use crate::auth::token_hash;
use crate::db::sessions;
use crate::db::users::User;
use crate::domain::identity::Identity;
use crate::error::{Error, Messages};
use crate::http::client::client_ip;
use crate::http::cookies;
use crate::http::state::AppState;

/// The session cookie (HttpOnly).
pub const COOKIE: &str = "session";
/// The cookie naming the user's blog (readable by scripts).
pub const BLOG_COOKIE: &str = "blog_id";
/// The cookie binding a sign-in nonce to this browser (HttpOnly, ten minutes).
pub const NONCE_COOKIE: &str = "oidc_nonce";
/// Longest ID token accepted.
const MAX_TOKEN_LEN: usize = 16 * 1024;

/// The signed-in user of a request; a 401 when there is none.
#[derive(Debug, Clone)]
pub struct SignedIn {
    /// The session's id.
    pub session_id: i64,
    /// Its user.
    pub user: User,
}

impl<'a> FromRequest<'a> for SignedIn {
    async fn from_request(req: &'a Request, _body: &mut RequestBody) -> poem::Result<Self> {
        let state = req.data::<AppState>().expect("AppState is attached to every app route");
        Ok(lookup(state, req).await?.ok_or_else(not_signed_in)?)
    }
}

/// The request's live session, if its `session` cookie names one; slides its expiry forward
/// when it was last used over an hour ago.
pub async fn lookup(state: &AppState, req: &Request) -> Result<Option<SignedIn>, Error> {
    let Some(token) = cookies::get(req, COOKIE) else { return Ok(None) };
    let hash = token_hash(token);
    let Some((session, stale)) = state.db.read(move |conn| sessions::find(conn, &hash)).await? else {
        return Ok(None);
    };
    if stale {
        let id = session.id;
        state.db.write(move |conn| sessions::touch(conn, id)).await?;
    }
    Ok(Some(SignedIn { session_id: session.id, user: session.user }))
}

fn not_signed_in() -> Error {
    Error::Unauthorized(Messages::one("session", "Sign in to continue"))
}

/// Verifies a token from the sign-in popup: the nonce this browser was given is used up,
/// then the token is checked against the provider and that nonce.
pub async fn verify_popup_token(state: &AppState, req: &Request, id_token: &str) -> Result<Identity, Error> {
    let id_token = id_token.trim();
    if id_token.is_empty() {
        return Err(Error::invalid("idToken", "Can't be blank"));
    }
    if id_token.len() > MAX_TOKEN_LEN {
        return Err(Error::invalid("idToken", "The sign-in token is too long"));
    }
    state.auth.limiter.check(client_ip(req, &state.config.trusted_proxies))?;
    let nonce = cookies::get(req, NONCE_COOKIE)
        .ok_or_else(|| {
            Error::Unauthorized(Messages::one("idToken", "Sign-in was not started in this browser; try again"))
        })?
        .to_owned();
    if !state.auth.nonces.consume(&nonce) {
        return Err(Error::Unauthorized(Messages::one(
            "idToken",
            "This sign-in was already used or has expired; sign in again",
        )));
    }
    state.auth.verifier.verify(id_token, &nonce).await
}

/// Starts a session for `user_id`; returns its cookie token.
pub async fn start(state: &AppState, user_id: i64) -> Result<String, Error> {
    let token = cookies::random_token();
    let hash = token_hash(&token);
    state.db.write(move |conn| sessions::create(conn, user_id, &hash)).await?;
    Ok(token)
}
