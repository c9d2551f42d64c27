//! `POST /api/my/social_accounts`: connect a provider account to the signed-in user.

use poem::http::StatusCode;
use poem::web::{Data, Json};
use poem::{IntoResponse, Request, Response, handler};
use serde::Deserialize;
use serde_json::json;

use crate::db::users::{self, Connect};
use crate::error::{Error, Result};
use crate::http::api::json::JsonBody;
use crate::http::session::{self, SignedIn};
use crate::http::state::AppState;

/// Request body.
#[derive(Debug, Deserialize)]
pub struct ConnectAccount {
    id_token: String,
}

/// Connects the account named by a popup token; refused when it belongs to someone else.
#[handler]
pub async fn create(
    req: &Request,
    signed_in: SignedIn,
    state: Data<&AppState>,
    JsonBody(body): JsonBody<ConnectAccount>,
) -> Result<Response> {
    let identity = session::verify_popup_token(&state, req, &body.id_token).await?;
    let provider = state.config.provider_name.clone();
    let user_id = signed_in.user.id;
    let outcome = state.db.write(move |conn| users::connect(conn, user_id, &identity, &provider)).await?;
    match outcome {
        Connect::Connected(account) => {
            Ok(Json(json!({ "socialAccount": account })).with_status(StatusCode::CREATED).into_response())
        }
        Connect::OwnedByAnother => {
            Err(Error::invalid("idToken", "This account is already connected to another Quire user"))
        }
    }
}
