//! `GET /api/themes`.

use poem::handler;
use poem::web::{Data, Json};
use serde_json::{Value, json};

use crate::http::state::AppState;
use crate::db;
use crate::error::Result;

/// Every theme a blog can choose.
#[handler]
pub async fn list(state: Data<&AppState>) -> Result<Json<Value>> {
    let themes = state.db.read(|conn| db::themes::list(conn)).await?;
    Ok(Json(json!({ "themes": themes })))
}
