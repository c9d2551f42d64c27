//! Public blogs at `{subdomain}.{host}`. Until blog pages exist, every address is a 404.

use poem::web::Data;
use poem::{Request, Response, Route, handler};

use crate::app::AppState;
use crate::http::pages;

/// The blog's subdomain, put on the request by the host router.
#[derive(Debug, Clone)]
pub struct BlogHost(pub String);

/// The route table of a blog.
pub fn routes() -> Route {
    Route::new().at("/*path", not_found).at("/", not_found)
}

#[handler]
fn not_found(req: &Request, state: Data<&AppState>) -> Response {
    let subdomain = req.extensions().get::<BlogHost>().map_or("", |h| h.0.as_str());
    pages::not_found(
        "Blog not found",
        &format!("There is no blog at {subdomain}.{}.", state.config.host),
    )
}
