//! `GET /api/favicons?page=&page_size=&query=`.

use poem::web::{Data, Json};
use poem::{Request, Response, handler};
use serde::Serialize;
use ts_rs::TS;

use crate::db;
use crate::db::favicons::Favicon;
use crate::domain::content::emoji::Search;
use crate::domain::paging::PageRequest;
use crate::error::{Error, Result};
use crate::http::api::paged;
use crate::http::state::AppState;

/// Page size when none is asked for.
pub const DEFAULT_PAGE_SIZE: u32 = 100;
/// Largest page size.
pub const MAX_PAGE_SIZE: u32 = 500;

/// `{favicons}`: one page of them.
#[derive(Serialize, TS)]
#[ts(export_to = "favicons.ts")]
pub struct Favicons {
    favicons: Vec<Favicon>,
}

/// One page of the emoji favicons, in Unicode order; with `query`, only those whose name or
/// keywords it names, best matches first.
#[handler]
pub async fn list(req: &Request, state: Data<&AppState>) -> Result<Response> {
    let request = PageRequest::parse(req.uri().query(), DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE).map_err(Error::BadRequest)?;
    let search = Search::from_url_query(req.uri().query());
    let (page, favicons) = state
        .db
        .read(move |conn| {
            let Some(search) = search else {
                let page = request.within(db::favicons::count(conn)?).map_err(Error::BadRequest)?;
                return Ok((page, db::favicons::page(conn, request.offset(), request.page_size)?));
            };
            let found = search.filter(db::favicons::all_named(conn)?, |(favicon, name)| (&favicon.code, name));
            let page = request.within(found.len() as u64).map_err(Error::BadRequest)?;
            let offset = usize::try_from(request.offset()).unwrap_or(usize::MAX);
            let favicons = found.into_iter().skip(offset).take(request.page_size as usize).map(|(favicon, _)| favicon);
            Ok((page, favicons.collect()))
        })
        .await?;
    Ok(paged(Json(Favicons { favicons }), page))
}
