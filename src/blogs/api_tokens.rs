//! API tokens (issue 37, docs/api.md "API tokens"): made in Settings (or by IndieAuth's token
//! endpoint), shown once, kept as a hash; each writes to one blog with its scopes. A token
//! changes nothing a blog shows, so these are plain writes, not [`Blogs::commit`]s; what a
//! token's bearer writes goes through the same write path as the owner's own saves.

use time::OffsetDateTime;

use super::Blogs;

use crate::auth::token_hash;
use crate::db::api_tokens::{self, ApiToken, NewToken};
use crate::db::blogs::{self, Blog};
use crate::domain::access::{self, MAX_TOKENS_PER_BLOG, Scopes};
use crate::domain::blog::trust_state::TrustState;
use crate::domain::messages::Messages;
use crate::error::{Error, Result};

/// How often a token's last use is written: once a minute at most.
const TOUCH_EVERY: time::Duration = time::Duration::minutes(1);

/// What a new token is to be.
pub struct TokenRequest {
    /// Its name as typed.
    pub name: String,
    /// Its scopes' names.
    pub scopes: Vec<String>,
    /// When it stops working (RFC 3339), if ever.
    pub expires_at: Option<String>,
    /// The IndieAuth app it is issued to.
    pub client_id: Option<String>,
    /// The IndieAuth code it is issued for.
    pub code_id: Option<i64>,
}

/// Why a bearer token is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenRefusal {
    /// Not a token of this instance, revoked, or expired (all look the same to the bearer).
    Unknown,
    /// The token's blog is suspended by the admin.
    Suspended,
}

impl Blogs {
    /// Makes a token for `blog`: the token itself (shown once) and its stored row.
    pub async fn create_token(&self, blog: &Blog, request: TokenRequest) -> Result<(String, ApiToken)> {
        let mut errors = Messages::default();
        let name = access::check_name(&request.name).map_err(|m| errors.0.extend(m.0)).ok();
        let scopes = Scopes::from_names(request.scopes.iter().map(String::as_str))
            .map_err(|message| errors.push("scopes", message))
            .ok();
        let expires_at = match request.expires_at.as_deref().filter(|raw| !raw.trim().is_empty()) {
            None => Some(None),
            Some(raw) => {
                access::check_expiry(raw, OffsetDateTime::now_utc()).map(Some).map_err(|m| errors.0.extend(m.0)).ok()
            }
        };
        let (Some(name), Some(scopes), Some(expires_at)) = (name, scopes, expires_at) else {
            return Err(Error::Invalid(errors));
        };
        let token = access::new_token();
        let (hash, last4) = (token_hash(&token), access::last4(&token));
        let (blog_id, client_id, code_id) = (blog.id, request.client_id, request.code_id);
        let stored = self
            .db
            .write(move |conn| {
                // Counted by the one writer connection, so two requests can't both take the last place.
                if api_tokens::count(conn, blog_id)? >= MAX_TOKENS_PER_BLOG {
                    return Err(Error::invalid(
                        "blog",
                        format!("A blog can have at most {MAX_TOKENS_PER_BLOG} tokens: revoke one first"),
                    ));
                }
                let new = NewToken {
                    blog_id,
                    name: &name,
                    scopes: &scopes,
                    hash: &hash,
                    last4: &last4,
                    client_id: client_id.as_deref(),
                    expires_at: expires_at.as_deref(),
                    code_id,
                };
                api_tokens::insert(conn, &new)
            })
            .await?;
        Ok((token, stored))
    }

    /// The blog's tokens, newest first.
    pub async fn tokens(&self, blog: &Blog) -> Result<Vec<ApiToken>> {
        let blog_id = blog.id;
        self.db.read(move |conn| api_tokens::list(conn, blog_id)).await
    }

    /// Revokes the blog's token `raw_id`: a 404 when the blog has no such token.
    pub async fn revoke_token(&self, blog: &Blog, raw_id: &str) -> Result<()> {
        let not_found = || Error::not_found("token", "Token not found");
        let id: i64 = raw_id.parse().map_err(|_| not_found())?;
        let blog_id = blog.id;
        let revoked = self.db.write(move |conn| api_tokens::revoke(conn, blog_id, id)).await?;
        if revoked { Ok(()) } else { Err(not_found()) }
    }

    /// Revokes the token itself, whichever blog it writes to (IndieAuth's revocation endpoint:
    /// whoever holds a token may end it); an unknown token is no error.
    pub async fn revoke_bearer(&self, token: &str) -> Result<()> {
        if !access::is_token(token) {
            return Ok(());
        }
        let hash = token_hash(token);
        self.db.write(move |conn| api_tokens::revoke_by_hash(conn, &hash)).await?;
        Ok(())
    }

    /// The live token `token` and its blog, recording the use (to the minute: a token used again
    /// within [`TOUCH_EVERY`] is not written again, so an app's reads stay reads); refused when it
    /// is not a live token of this instance or its blog is suspended.
    pub async fn authenticate(&self, token: &str) -> Result<std::result::Result<(ApiToken, Blog), TokenRefusal>> {
        if !access::is_token(token) {
            return Ok(Err(TokenRefusal::Unknown));
        }
        let hash = token_hash(token);
        let found = self
            .db
            .read(move |conn| {
                let Some(token) = api_tokens::live_by_hash(conn, &hash)? else {
                    return Ok(Err(TokenRefusal::Unknown));
                };
                let Some(blog) = blogs::by_id(conn, token.blog_id)? else {
                    return Ok(Err(TokenRefusal::Unknown));
                };
                if blog.state == TrustState::Suspended {
                    return Ok(Err(TokenRefusal::Suspended));
                }
                Ok(Ok((token, blog)))
            })
            .await?;
        if let Ok((token, _)) = &found {
            let recent = token
                .last_used_at
                .as_deref()
                .and_then(crate::domain::content::schedule::parse_stored)
                .is_some_and(|at| OffsetDateTime::now_utc() - at < TOUCH_EVERY);
            if !recent {
                let id = token.id;
                self.db.write(move |conn| api_tokens::touch(conn, id)).await?;
            }
        }
        Ok(found)
    }

    /// The live token `token` and its blog without recording a use (IndieAuth's introspection).
    pub async fn token_info(&self, token: &str) -> Result<Option<(ApiToken, Blog)>> {
        if !access::is_token(token) {
            return Ok(None);
        }
        let hash = token_hash(token);
        self.db
            .read(move |conn| {
                let Some(token) = api_tokens::live_by_hash(conn, &hash)? else { return Ok(None) };
                Ok(blogs::by_id(conn, token.blog_id)?
                    .filter(|blog| blog.state != TrustState::Suspended)
                    .map(|blog| (token, blog)))
            })
            .await
    }
}
