//! `GET /api/favicons?page=&page_size=`.

use poem::web::Data;
use poem::{Request, Response, handler};
use serde_json::json;

use crate::app::AppState;
use crate::db;
use crate::domain::paging::PageRequest;
use crate::error::Result;
use crate::http::api::paged;

/// Page size when none is asked for (SPEC §9).
pub const DEFAULT_PAGE_SIZE: u32 = 100;
/// Largest page size (DESIGN §5).
pub const MAX_PAGE_SIZE: u32 = 500;

/// One page of the emoji favicons, in Unicode order.
#[handler]
pub async fn list(req: &Request, state: Data<&AppState>) -> Result<Response> {
    let request = PageRequest::parse(req.uri().query(), DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)?;
    let (page, favicons) = state
        .db
        .read(move |conn| {
            let page = request.within(db::favicons::count(conn)?)?;
            Ok((page, db::favicons::page(conn, request.offset(), request.page_size)?))
        })
        .await?;
    Ok(paged(json!({ "favicons": favicons }), page))
}
