//! `GET /api/time_zones`.

use poem::handler;
use poem::web::Json;
use serde::Serialize;
use ts_rs::TS;

use crate::domain::blog::time_zone;

/// `{timeZones}`: IANA names, sorted.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "time-zones.ts")]
pub struct TimeZones {
    time_zones: Vec<&'static str>,
}

/// Every zone the settings screen offers (the server also accepts the tz database's old
/// aliases, such as `US/Pacific`).
#[handler]
pub async fn list() -> Json<TimeZones> {
    Json(TimeZones { time_zones: time_zone::choices() })
}
