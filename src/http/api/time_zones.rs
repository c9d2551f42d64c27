//! `GET /api/time_zones`.

use poem::handler;
use poem::web::Json;
use serde_json::{Value, json};

use crate::domain::blog::time_zone;

/// Every zone the settings screen offers (the server also accepts the tz database's old
/// aliases, such as `US/Pacific`).
#[handler]
pub async fn list() -> Json<Value> {
    Json(json!({ "timeZones": time_zone::choices() }))
}
