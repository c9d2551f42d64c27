//! The local issuer's pages under `/dev-idp/` (only when it is the provider).

use std::collections::HashMap;
use std::sync::Arc;

use poem::http::{StatusCode, header};
use poem::web::{Data, Json};
use poem::{Endpoint, EndpointExt, IntoResponse, Request, Response, Route, get, handler};
use serde_json::Value;

use crate::auth::local_idp::{CLIENT_ID, LocalIssuer};
use crate::http::client::is_from_this_machine;
use crate::http::plain_pages::escape;
use crate::http::state::AppState;

const CSP: &str =
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/// The `/dev-idp` route table. It answers only requests from this machine: the local issuer
/// signs a token for any e-mail address, so no one else may reach it, even through a proxy here.
pub fn routes() -> impl Endpoint<Output = Response> {
    Route::new()
        .at("/.well-known/openid-configuration", get(discovery))
        .at("/jwks", get(jwks))
        .at("/authorize", get(authorize_form).post(authorize))
        .around(only_this_machine)
}

async fn only_this_machine<E: Endpoint>(ep: Arc<E>, req: Request) -> poem::Result<Response> {
    if !is_from_this_machine(&req) {
        return Ok(page(
            StatusCode::FORBIDDEN,
            "<p class=\"error\">Local sign-in works only from this machine. To sign in from elsewhere, \
             start Quire with a real sign-in provider (--oidc-client-id).</p>",
        ));
    }
    ep.call(req).await.map(IntoResponse::into_response)
}

fn issuer(state: &AppState) -> &LocalIssuer {
    state.auth.local.as_ref().expect("/dev-idp is mounted only with the local issuer")
}

#[handler]
fn discovery(state: Data<&AppState>) -> Json<Value> {
    Json(issuer(&state).discovery())
}

#[handler]
fn jwks(state: Data<&AppState>) -> Response {
    Json(serde_json::to_value(&*issuer(&state).jwks()).unwrap_or_default())
        .with_header(header::CACHE_CONTROL, "public, max-age=300")
        .into_response()
}

/// The parameters of an authorization request, checked.
struct AuthRequest {
    redirect_uri: String,
    nonce: String,
    state: String,
}

fn parse_request(params: &HashMap<String, String>, app_url: &str) -> Result<AuthRequest, &'static str> {
    let get = |key: &str| params.get(key).map(String::as_str).unwrap_or("");
    if get("client_id") != CLIENT_ID {
        return Err("Unknown client_id: this local sign-in serves only Quire itself.");
    }
    if get("response_type") != "id_token" {
        return Err("Only response_type=id_token is supported.");
    }
    if get("redirect_uri") != format!("{app_url}/auth/callback") {
        return Err("The redirect_uri is not this Quire's /auth/callback.");
    }
    if get("nonce").is_empty() || get("nonce").len() > 200 {
        return Err("A nonce is required.");
    }
    Ok(AuthRequest {
        redirect_uri: get("redirect_uri").to_owned(),
        nonce: get("nonce").to_owned(),
        state: get("state").to_owned(),
    })
}

fn query_params(raw: Option<&str>) -> HashMap<String, String> {
    serde_urlencoded::from_str(raw.unwrap_or("")).unwrap_or_default()
}

#[handler]
fn authorize_form(req: &Request, state: Data<&AppState>) -> Response {
    let params = query_params(req.uri().query());
    match parse_request(&params, &state.config.app_url()) {
        Ok(auth) => page(StatusCode::OK, &form(&auth, "", None)),
        Err(message) => page(StatusCode::BAD_REQUEST, &format!("<p class=\"error\">{}</p>", escape(message))),
    }
}

#[handler]
async fn authorize(body: String, state: Data<&AppState>) -> Response {
    let params = query_params(Some(&body));
    let auth = match parse_request(&params, &state.config.app_url()) {
        Ok(auth) => auth,
        Err(message) => return page(StatusCode::BAD_REQUEST, &format!("<p class=\"error\">{}</p>", escape(message))),
    };
    let email = params.get("email").map(|e| e.trim()).unwrap_or("");
    if !is_plausible_email(email) {
        return page(
            StatusCode::UNPROCESSABLE_ENTITY,
            &form(&auth, email, Some("Type an e-mail address, like you@example.com.")),
        );
    }
    match issuer(&state).sign(email, &auth.nonce) {
        Ok(token) => {
            let mut fragment = vec![("id_token", token.as_str())];
            if !auth.state.is_empty() {
                fragment.push(("state", auth.state.as_str()));
            }
            let fragment = serde_urlencoded::to_string(&fragment).unwrap_or_default();
            Response::builder()
                .status(StatusCode::SEE_OTHER)
                .header(header::LOCATION, format!("{}#{fragment}", auth.redirect_uri))
                .header(header::CACHE_CONTROL, "no-store")
                .finish()
        }
        Err(err) => {
            tracing::error!(error = %err, "local issuer could not sign a token");
            page(StatusCode::INTERNAL_SERVER_ERROR, "<p class=\"error\">Could not sign you in; see the server log.</p>")
        }
    }
}

fn is_plausible_email(email: &str) -> bool {
    let Some((local, domain)) = email.split_once('@') else { return false };
    !local.is_empty()
        && !domain.is_empty()
        && email.len() <= 254
        && !email.chars().any(|c| c.is_whitespace() || c.is_control() || c == '<' || c == '>')
}

fn form(auth: &AuthRequest, email: &str, error: Option<&str>) -> String {
    let hidden = [
        ("client_id", CLIENT_ID),
        ("response_type", "id_token"),
        ("redirect_uri", auth.redirect_uri.as_str()),
        ("nonce", auth.nonce.as_str()),
        ("state", auth.state.as_str()),
    ]
    .iter()
    .map(|(name, value)| format!(r#"<input type="hidden" name="{name}" value="{}">"#, escape(value)))
    .collect::<String>();
    let error = error.map(|e| format!(r#"<p class="error" id="email-error">{}</p>"#, escape(e))).unwrap_or_default();
    format!(
        r#"<form method="post" action="/dev-idp/authorize">{hidden}
<label for="email">E-mail address</label>
<input id="email" name="email" type="email" required autofocus autocomplete="email" value="{email}" placeholder="you@example.com">
{error}<button type="submit">Sign in</button></form>"#,
        email = escape(email),
    )
}

fn page(status: StatusCode, content: &str) -> Response {
    let html = format!(
        r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Local sign-in · Quire</title>
<style>
body{{font:16px/1.5 system-ui,sans-serif;color:#1f2328;background:#f6f8fa;margin:0;display:grid;place-items:center;min-height:100vh}}
main{{background:#fff;border:1px solid #d0d7de;border-radius:12px;padding:2rem;max-width:24rem;width:calc(100% - 3rem)}}
h1{{font-size:1.3rem;margin:0 0 .5rem}} p{{color:#57606a;margin:.5rem 0 1rem}}
label{{display:block;font-weight:600;margin-bottom:.25rem}}
input[type=email]{{box-sizing:border-box;width:100%;font:inherit;padding:.55rem .7rem;border:1px solid #8c959f;border-radius:6px}}
button{{margin-top:1rem;width:100%;font:inherit;font-weight:600;padding:.6rem;border:0;border-radius:6px;background:#1f6feb;color:#fff;cursor:pointer}}
.error{{color:#cf222e}}
</style></head><body><main><h1>Local sign-in</h1>
<p>Quire is running without a sign-in provider, so it signs you in itself. Type any e-mail address: the same address is the same account.</p>
{content}</main></body></html>
"#
    );
    Response::builder()
        .status(status)
        .content_type("text/html; charset=utf-8")
        .header("content-security-policy", CSP)
        .header(header::CACHE_CONTROL, "no-store")
        .body(html)
}
