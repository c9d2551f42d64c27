//! The owner app: the React bundle embedded at build time, served with an SPA fallback.

use poem::http::{StatusCode, header};
use poem::web::{Data, Path};
use poem::{IntoResponse, Request, Response, handler};
use rust_embed::RustEmbed;
use serde_json::json;
use sha2::{Digest, Sha256};

use crate::http::state::AppState;
use crate::config::Config;
use crate::domain::blocks::{Rules, client_rules};
use crate::error::Error;
use crate::http::csrf;
use crate::http::cookies;

#[derive(RustEmbed)]
#[folder = "ui/dist/"]
struct Dist;

const CONFIG_MARKER: &str = "<!--QUIRE_CONFIG-->";

/// `index.html` with this server's settings filled in, rendered once at start.
pub struct UiIndex {
    html: String,
    etag: String,
    csp: String,
}

impl UiIndex {
    /// Fills the config marker of the embedded `index.html`.
    pub fn render(config: &Config) -> anyhow::Result<UiIndex> {
        let file = Dist::get("index.html")
            .ok_or_else(|| anyhow::anyhow!("the owner app is missing from this build (ui/dist/index.html)"))?;
        let template = String::from_utf8(file.data.into_owned())?;
        let settings = json!({
            "host": config.host,
            "appUrl": config.app_url(),
            "scheme": config.scheme(),
            "providerName": config.provider_name,
            "supportUrl": config.support_url,
            "imgurClientId": config.imgur_client_id,
            "emojiCdn": config.emoji_cdn,
            "emojiImages": crate::http::emoji::images_prefix(),
            "blockRules": client_rules(&Rules { image_prefix: config.image_prefix() }),
            "postRules": crate::domain::tags::client_rules(),
            "scheduleRules": crate::domain::schedule::client_rules(),
        });
        // Inside <script>, "<" could end the element early; JSON allows it escaped.
        let settings = settings.to_string().replace('<', "\\u003c").replace('>', "\\u003e").replace('&', "\\u0026");
        let html = template.replace(
            CONFIG_MARKER,
            &format!(r#"<script id="quire-config" type="application/json">{settings}</script>"#),
        );
        let etag = format!("\"{}\"", &hex::encode(Sha256::digest(html.as_bytes()))[..32]);
        Ok(UiIndex { html, etag, csp: content_security_policy(config) })
    }
}

/// Scripts and styles only from this origin; images also from https (image host, emoji CDN).
fn content_security_policy(config: &Config) -> String {
    let mut connect = String::from("'self'");
    if config.imgur_client_id.is_some() {
        connect.push_str(" https://api.imgur.com");
    }
    format!(
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob: https:; \
         connect-src {connect}; frame-src 'none'; object-src 'none'; base-uri 'none'; \
         form-action 'self'; frame-ancestors 'none'"
    )
}

/// Any page of the owner app: `index.html`; sets the `csrf_token` cookie when absent.
#[handler]
pub fn index(req: &Request, state: Data<&AppState>) -> Response {
    let ui = &state.ui;
    let not_modified = req
        .header(header::IF_NONE_MATCH)
        .is_some_and(|tags| tags.split(',').any(|tag| tag.trim() == ui.etag));
    let mut resp = if not_modified {
        Response::builder().status(StatusCode::NOT_MODIFIED).finish()
    } else {
        Response::builder().content_type("text/html; charset=utf-8").body(ui.html.clone())
    };
    let headers = resp.headers_mut();
    headers.insert(header::ETAG, ui.etag.parse().expect("hex etag"));
    headers.insert(header::CACHE_CONTROL, "no-cache".parse().expect("static value"));
    headers.insert("content-security-policy", ui.csp.parse().expect("ascii csp"));
    if cookies::get(req, csrf::COOKIE).is_none() {
        let cookie = cookies::set(csrf::COOKIE, &cookies::random_token(), false, state.config.https, None);
        headers.insert(header::SET_COOKIE, cookie.parse().expect("ascii cookie"));
    }
    resp
}

/// A content-hashed file of the bundle, cached for a year.
#[handler]
pub fn asset(req: &Request, Path(path): Path<String>) -> Result<Response, Error> {
    let file = Dist::get(&format!("assets/{path}")).ok_or_else(|| Error::not_found("path", "Not found"))?;
    let etag = format!("\"{}\"", &hex::encode(file.metadata.sha256_hash())[..32]);
    if req.header(header::IF_NONE_MATCH).is_some_and(|tag| tag == etag) {
        return Ok(StatusCode::NOT_MODIFIED.with_header(header::ETAG, etag).into_response());
    }
    Ok(Response::builder()
        .content_type(file.metadata.mimetype())
        .header(header::ETAG, etag)
        .header(header::CACHE_CONTROL, "public, max-age=31536000, immutable")
        .body(file.data.into_owned()))
}

/// `/favicon.ico`, which browsers ask for on their own: the app's SVG icon, revalidated daily.
#[handler]
pub fn favicon(req: &Request) -> Result<Response, Error> {
    let file = Dist::get("icon.svg").ok_or_else(|| Error::not_found("path", "Not found"))?;
    let etag = format!("\"{}\"", &hex::encode(file.metadata.sha256_hash())[..32]);
    if req.header(header::IF_NONE_MATCH).is_some_and(|tag| tag == etag) {
        return Ok(StatusCode::NOT_MODIFIED.with_header(header::ETAG, etag).into_response());
    }
    Ok(Response::builder()
        .content_type("image/svg+xml")
        .header(header::ETAG, etag)
        .header(header::CACHE_CONTROL, "public, max-age=86400")
        .body(file.data.into_owned()))
}
