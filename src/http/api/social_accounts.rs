//! `POST /api/my/social_accounts`: connect a provider account to the signed-in user.

use poem::http::StatusCode;
use poem::web::{Data, Json};
use poem::{IntoResponse, Request, Response, handler};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::db::users::{self, Connect, SocialAccount};
use crate::error::{Error, Result};
use crate::http::api::json::JsonBody;
use crate::http::session::{self, SignedIn};
use crate::http::state::AppState;

/// Request body.
#[derive(Debug, Deserialize)]
pub struct ConnectAccount {
    id_token: String,
}

/// `{socialAccount}`: the account just connected.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "social-accounts.ts")]
pub struct Connected {
    social_account: SocialAccount,
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
            Ok(Json(Connected { social_account: account }).with_status(StatusCode::CREATED).into_response())
        }
        Connect::OwnedByAnother => {
            Err(Error::invalid("idToken", "This account is already connected to another Quire user"))
        }
    }
}
