//! The plain-HTTP listener of a server that serves HTTPS itself (`--http-listen`):
//!
//! - `GET /.well-known/acme-challenge/{token}`: the key authorization of an HTTP-01 challenge
//!   being validated, for any Host (tokens cannot be guessed); 404 for an unknown token;
//! - a 301 to `https://{name}{:port}{path?query}` when the Host names a served name;
//! - a 404 for any other Host, so Quire redirects only for names it serves.

use std::sync::Arc;

use poem::http::StatusCode;
use poem::{Endpoint, IntoResponse, Request, Response};

use crate::tls::{Manager, NamePolicy, normalize};

/// The port-80 endpoint.
pub struct PlainHttp {
    /// The ACME manager (its challenges), with `--acme-email`.
    pub manager: Option<Arc<Manager>>,
    /// Whether Quire serves a name.
    pub allows: NamePolicy,
    /// The https URLs' port: `None` for 443.
    pub https_port: Option<u16>,
}

impl Endpoint for PlainHttp {
    type Output = Response;

    async fn call(&self, req: Request) -> poem::Result<Response> {
        if let Some(token) = req.uri().path().strip_prefix(crate::domain::paths::ACME_CHALLENGE_PREFIX) {
            let answer = self.manager.as_ref().and_then(|manager| manager.challenges().get(token));
            return Ok(match answer {
                Some(key_authorization) => {
                    Response::builder().content_type("application/octet-stream").body(key_authorization)
                }
                None => StatusCode::NOT_FOUND.into_response(),
            });
        }
        let host = req.header("host").unwrap_or_default();
        let name = match host.rsplit_once(':') {
            Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
            _ => host,
        };
        let Some(name) = normalize(name).filter(|name| (self.allows)(name)) else {
            return Ok(Response::builder()
                .status(StatusCode::NOT_FOUND)
                .content_type("text/plain; charset=utf-8")
                .body("Not found\n"));
        };
        let port = self.https_port.map(|port| format!(":{port}")).unwrap_or_default();
        let path = req.uri().path_and_query().map_or("/", |p| p.as_str());
        Ok(Response::builder()
            .status(StatusCode::MOVED_PERMANENTLY)
            .header("location", format!("https://{name}{port}{path}"))
            .finish())
    }
}
