//! CSRF: every non-GET request to `/api/*` and `/d/signout` carries header `CSRF-Token`
//! equal to the `csrf_token` cookie, and its `Origin`, when present, is the app's.

use std::sync::Arc;

use poem::http::Method;
use poem::{Endpoint, IntoResponse, Request, Response};

use crate::auth::constant_time_eq;
use crate::error::{Error, Messages};
use crate::http::cookies;

/// The cookie scripts read the token from.
pub const COOKIE: &str = "csrf_token";
/// The header requests carry it in.
pub const HEADER: &str = "csrf-token";

/// Middleware: refuses a write that fails the checks with a 403.
pub async fn guard<E: Endpoint>(ep: Arc<E>, req: Request, app_origin: Arc<str>) -> poem::Result<Response> {
    if needs_check(&req) {
        check(&req, &app_origin)?;
    }
    ep.call(req).await.map(IntoResponse::into_response)
}

fn needs_check(req: &Request) -> bool {
    let path = req.uri().path();
    let is_write = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    is_write && (path.starts_with("/api/") || path == "/d/signout")
}

fn check(req: &Request, app_origin: &str) -> Result<(), Error> {
    if let Some(origin) = req.header("origin")
        && origin != app_origin
    {
        return Err(Error::Forbidden(Messages::one("origin", "Requests from other sites are refused")));
    }
    let cookie = cookies::get(req, COOKIE).filter(|c| !c.is_empty());
    let header = req.header(HEADER);
    match (cookie, header) {
        (Some(cookie), Some(header)) if constant_time_eq(cookie, header) => Ok(()),
        _ => Err(Error::Forbidden(Messages::one(
            "csrf",
            "The CSRF token is missing or wrong; reload the page and try again",
        ))),
    }
}
