//! `GET /api/themes`.

use poem::handler;
use poem::web::{Data, Json};
use serde_json::{Value, json};

use crate::db;
use crate::error::Result;
use crate::http::state::AppState;

/// Every theme a blog can choose.
#[handler]
pub async fn list(state: Data<&AppState>) -> Result<Json<Value>> {
    let themes = state.db.read(|conn| db::themes::list(conn)).await?;
    Ok(Json(json!({ "themes": themes })))
}
