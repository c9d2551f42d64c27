//! A blog's API tokens (issue 37, docs/api.md "API tokens"): list, create (the token is in the
//! answer once, as `token`; only its hash is kept), revoke. Apps use them on the Micropub
//! endpoint (`http::micropub`).

use poem::http::StatusCode;
use poem::web::{Data, Json, Path};
use poem::{IntoResponse, Response, handler};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::blogs::api_tokens::TokenRequest;
use crate::db::api_tokens::ApiToken;
use crate::error::Result;
use crate::http::api::answers::Empty;
use crate::http::api::json::JsonBody;
use crate::http::owned_blog::OwnedBlog;
use crate::http::state::AppState;

/// `{name, scopes, expiresAt?}` (the owner app's fetch wrapper sends keys in snake_case; both
/// spellings are read).
#[derive(Debug, Deserialize)]
pub struct CreateToken {
    name: String,
    scopes: Vec<String>,
    #[serde(default, alias = "expiresAt")]
    expires_at: Option<String>,
}

/// One token as the list shows it.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "tokens.ts")]
pub struct TokenJson {
    id: i64,
    name: String,
    /// Its scopes' names: create, update, delete, undelete, media, draft.
    scopes: Vec<String>,
    /// Its last 4 characters, to recognize it.
    last4: String,
    /// The IndieAuth app it was issued to (its `client_id`); null for a token made in Settings.
    client_id: Option<String>,
    created_at: String,
    expires_at: Option<String>,
    last_used_at: Option<String>,
}

impl From<ApiToken> for TokenJson {
    fn from(token: ApiToken) -> TokenJson {
        TokenJson {
            id: token.id,
            name: token.name,
            scopes: token.scopes.names().into_iter().map(str::to_owned).collect(),
            last4: token.last4,
            client_id: token.client_id,
            created_at: token.created_at,
            expires_at: token.expires_at,
            last_used_at: token.last_used_at,
        }
    }
}

/// `{tokens}`, newest first.
#[derive(Serialize, TS)]
#[ts(export_to = "tokens.ts")]
pub struct TokenList {
    tokens: Vec<TokenJson>,
}

/// `{token, apiToken}`: the token itself, shown this once, and its entry in the list.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "tokens.ts")]
pub struct CreatedToken {
    token: String,
    api_token: TokenJson,
}

/// The blog's tokens.
#[handler]
pub async fn list(OwnedBlog { blog, .. }: OwnedBlog, state: Data<&AppState>) -> Result<Json<TokenList>> {
    let tokens = state.blogs.tokens(&blog).await?;
    Ok(Json(TokenList { tokens: tokens.into_iter().map(TokenJson::from).collect() }))
}

/// Makes a token: 201 with the token, once.
#[handler]
pub async fn create(
    OwnedBlog { blog, input: JsonBody(input), .. }: OwnedBlog<JsonBody<CreateToken>>,
    state: Data<&AppState>,
) -> Result<Response> {
    let request = TokenRequest {
        name: input.name,
        scopes: input.scopes,
        expires_at: input.expires_at,
        client_id: None,
        code_id: None,
    };
    let (token, stored) = state.blogs.create_token(&blog, request).await?;
    let body = CreatedToken { token, api_token: stored.into() };
    Ok(Json(body).with_status(StatusCode::CREATED).into_response())
}

/// Revokes a token: it stops working at once.
#[handler]
pub async fn revoke(
    OwnedBlog { blog, .. }: OwnedBlog,
    state: Data<&AppState>,
    Path((_, token_id)): Path<(String, String)>,
) -> Result<Json<Empty>> {
    state.blogs.revoke_token(&blog, &token_id).await?;
    Ok(Json(Empty {}))
}
