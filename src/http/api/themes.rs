//! `GET /api/themes`.

use poem::handler;
use poem::web::{Data, Json};
use serde::Serialize;
use ts_rs::TS;

use crate::db;
use crate::db::themes::Theme;
use crate::error::Result;
use crate::http::state::AppState;

/// `{themes}`, in display order.
#[derive(Serialize, TS)]
#[ts(export_to = "themes.ts")]
pub struct Themes {
    themes: Vec<Theme>,
}

/// Every theme a blog can choose.
#[handler]
pub async fn list(state: Data<&AppState>) -> Result<Json<Themes>> {
    let themes = state.db.read(db::themes::list).await?;
    Ok(Json(Themes { themes }))
}
