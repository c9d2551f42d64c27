//! `GET /api/favicons?page=&page_size=`.

use poem::web::{Data, Json};
use poem::{Request, Response, handler};
use serde_json::json;

use crate::http::state::AppState;
use crate::db;
use crate::domain::paging::PageRequest;
use crate::error::{Error, Result};
use crate::http::api::paged;

/// Page size when none is asked for.
pub const DEFAULT_PAGE_SIZE: u32 = 100;
/// Largest page size.
pub const MAX_PAGE_SIZE: u32 = 500;

/// One page of the emoji favicons, in Unicode order.
#[handler]
pub async fn list(req: &Request, state: Data<&AppState>) -> Result<Response> {
    let request = PageRequest::parse(req.uri().query(), DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE).map_err(Error::BadRequest)?;
    let (page, favicons) = state
        .db
        .read(move |conn| {
            let page = request.within(db::favicons::count(conn)?).map_err(Error::BadRequest)?;
            Ok((page, db::favicons::page(conn, request.offset(), request.page_size)?))
        })
        .await?;
    Ok(paged(Json(json!({ "favicons": favicons })), page))
}
