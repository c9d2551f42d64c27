//! The owner app: the React bundle embedded at build time, served with an SPA fallback.
//!
//! The server fills `<!--QUIRE_CONFIG-->` in `index.html` with the deployment's settings, the block
//! rules (`domain::content::blocks::client_rules`), the tag and page rules and the schedule rules,
//! so the editor checks posts with the server's limits and messages. `ui/build.mjs` keeps every
//! text file of `dist/assets/` of 1 KiB or more only precompressed (`NAME.br`, `NAME.gz`);
//! `asset` sends the form the client's `Accept-Encoding` takes (br, then gzip, with an ETag per
//! form) and unpacks the `.gz` for a client that takes neither. ui/README.md describes the bundle.

use std::borrow::Cow;
use std::io::Read as _;

use bytes::Bytes;
use poem::http::{StatusCode, header};
use poem::web::{Data, Path};
use poem::{IntoResponse, Request, Response, handler};
use rust_embed::{EmbeddedFile, RustEmbed};
use serde::Serialize;
use sha2::{Digest, Sha256};
use ts_rs::TS;

use crate::config::Config;
use crate::domain::content::blocks::{BlockRules, Rules};
use crate::domain::content::reader_view;
use crate::domain::content::schedule::{SCHEDULE_RULES, ScheduleRules};
use crate::domain::content::tags::{POST_RULES, PostRules};
use crate::error::Error;
use crate::http::client::accepts_encoding;
use crate::http::cookies;
use crate::http::csrf;
use crate::http::plain_pages;
use crate::http::state::AppState;

#[derive(RustEmbed)]
#[folder = "ui/dist/"]
struct Dist;

const CONFIG_MARKER: &str = "<!--QUIRE_CONFIG-->";

/// The server's settings the owner app reads from `index.html` (`ui/src/config/app-config.ts`).
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "app-settings.ts")]
pub struct AppSettings<'a> {
    /// Public host name with port when not 80/443, e.g. `localhost:8080`; blogs live at `{subdomain}.{host}`.
    host: &'a str,
    /// The app's own origin, e.g. `http://localhost:8080`.
    app_url: String,
    /// `http` or `https`.
    scheme: &'static str,
    /// Name of the sign-in provider shown on buttons (e.g. `Google`, `Local`).
    provider_name: &'a str,
    /// Creator-funding page for the Support entry; null hides it.
    support_url: &'a Option<String>,
    /// Image host client ID; null means uploads go to this server.
    imgur_client_id: &'a Option<String>,
    /// Emoji image CDN prefix for the icon picker and preview; null means the server's own images.
    emoji_cdn: &'a Option<String>,
    /// Where the server's own emoji images are, e.g. `/emoji/16.0.1/`; null when its build has none.
    emoji_images: Option<String>,
    /// The rules a post's blocks and uploaded images must follow.
    block_rules: BlockRules,
    /// The rules of a post's tags and of pages.
    post_rules: PostRules,
    /// The rules of a post's scheduled publication time.
    schedule_rules: ScheduleRules,
    /// Who may create a blog (`--signups`): `open`, `approval`, `invite` or `closed`.
    #[ts(type = "'open' | 'approval' | 'invite' | 'closed'")]
    signups: &'static str,
    /// Where people write to the operator (`--contact-email`); null when not given.
    contact_email: &'a Option<String>,
    /// The operator's terms page (`/terms`); null when `--terms` is not given.
    terms_url: Option<&'static str>,
    /// The operator's privacy page (`/privacy`); null when `--privacy` is not given.
    privacy_url: Option<&'static str>,
    /// Whether the instance sends email (`--smtp-url`): Settings shows the Subscribers panel and
    /// the post list each post's email only then.
    email: bool,
}

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
        let settings = AppSettings {
            host: &config.host,
            app_url: config.app_url(),
            scheme: config.scheme(),
            provider_name: &config.provider_name,
            support_url: &config.support_url,
            imgur_client_id: &config.imgur_client_id,
            emoji_cdn: &config.emoji_cdn,
            emoji_images: crate::http::emoji::images_prefix(),
            block_rules: BlockRules::new(&Rules { image_prefix: config.image_prefix() }),
            post_rules: POST_RULES,
            schedule_rules: SCHEDULE_RULES,
            signups: config.public.signups.as_str(),
            contact_email: &config.public.contact_email,
            terms_url: config.public.terms.is_some().then_some(plain_pages::TERMS_PATH),
            privacy_url: config.public.privacy.is_some().then_some(plain_pages::PRIVACY_PATH),
            email: config.mail_enabled(),
        };
        // Inside <script>, "<" could end the element early; JSON allows it escaped.
        let settings =
            serde_json::to_string(&settings)?.replace('<', "\\u003c").replace('>', "\\u003e").replace('&', "\\u0026");
        let html = template.replace(
            CONFIG_MARKER,
            &format!(r#"<script id="quire-config" type="application/json">{settings}</script>"#),
        );
        let etag = format!("\"{}\"", &hex::encode(Sha256::digest(html.as_bytes()))[..32]);
        Ok(UiIndex { html, etag, csp: content_security_policy(config) })
    }
}

/// Scripts and styles only from this origin; images also from https (image host, emoji CDN);
/// frames only of the blogs' own pages (the custom CSS and post previews: on a blog's subdomain,
/// or on its custom domain, which is https whenever this server is) and of the embeds the public
/// pages frame (`reader_view::frame_origins`, every addon's), no other.
fn content_security_policy(config: &Config) -> String {
    let mut connect = String::from("'self'");
    if config.imgur_client_id.is_some() {
        connect.push_str(" https://api.imgur.com");
    }
    let blogs = match config.https {
        true => "https:".to_owned(),
        false => format!("http://*.{}", config.host),
    };
    let frames = [blogs.as_str()].into_iter().chain(reader_view::frame_origins(true)).collect::<Vec<_>>().join(" ");
    format!(
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob: https:; \
         connect-src {connect}; frame-src {frames}; object-src 'none'; base-uri 'none'; \
         form-action 'self'; frame-ancestors 'none'"
    )
}

/// Any page of the owner app: `index.html`; sets the `csrf_token` cookie when absent.
#[handler]
pub fn index(req: &Request, state: Data<&AppState>) -> Response {
    let ui = &state.ui;
    let not_modified =
        req.header(header::IF_NONE_MATCH).is_some_and(|tags| tags.split(',').any(|tag| tag.trim() == ui.etag));
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

/// The forms a text file of `assets/` is stored in, best first: ui/build.mjs keeps only `NAME.br` and
/// `NAME.gz` of those of 1 KiB or more (the uncompressed file is not in the binary).
const PRECOMPRESSED: [(&str, &str); 2] = [("br", ".br"), ("gzip", ".gz")];

/// A content-hashed file of the bundle, cached for a year: brotli or gzip as stored when the client takes
/// it (`Vary: Accept-Encoding`), else unpacked from the `.gz`. Each form has its own ETag.
#[handler]
pub fn asset(req: &Request, Path(path): Path<String>) -> Result<Response, Error> {
    let not_found = || Error::not_found("path", "Not found");
    if PRECOMPRESSED.iter().any(|(_, suffix)| path.ends_with(suffix)) {
        return Err(not_found());
    }
    let name = format!("assets/{path}");
    let stored: Vec<_> = PRECOMPRESSED
        .iter()
        .filter_map(|&(coding, suffix)| Dist::get(&format!("{name}{suffix}")).map(|file| (coding, file)))
        .collect();
    // The ETag is the stored file's hash, so each form has its own; the unpacked one says so.
    let tag =
        |file: &EmbeddedFile, form: &str| format!("\"{}{form}\"", &hex::encode(file.metadata.sha256_hash())[..32]);
    let accepted = stored.iter().find(|(coding, _)| accepts_encoding(req, coding));
    let (coding, body, etag) = if let Some((coding, file)) = accepted {
        (Some(*coding), static_bytes(file.data.clone()), tag(file, &format!("-{coding}")))
    } else if let Some(file) = Dist::get(&name) {
        let etag = tag(&file, "");
        (None, static_bytes(file.data), etag)
    } else if let Some((_, file)) = stored.iter().find(|(coding, _)| *coding == "gzip") {
        let mut raw = Vec::new();
        flate2::read::GzDecoder::new(&file.data[..])
            .read_to_end(&mut raw)
            .map_err(|err| Error::Internal(err.into()))?;
        (None, Bytes::from(raw), tag(file, "-identity"))
    } else {
        return Err(not_found());
    };
    let mut builder = Response::builder().header(header::ETAG, &etag);
    if !stored.is_empty() {
        builder = builder.header(header::VARY, "Accept-Encoding");
    }
    if req.header(header::IF_NONE_MATCH).is_some_and(|tags| tags.split(',').any(|tag| tag.trim() == etag)) {
        return Ok(builder.status(StatusCode::NOT_MODIFIED).finish());
    }
    if let Some(coding) = coding {
        builder = builder.header(header::CONTENT_ENCODING, coding);
    }
    Ok(builder
        .content_type(content_type(&path))
        .header(header::CACHE_CONTROL, "public, max-age=31536000, immutable")
        // Said outright so that an answer to HEAD, which poem sends without the body, tells it too.
        .header(header::CONTENT_LENGTH, body.len())
        .body(body))
}

/// An embedded file's bytes without copying them (a release build borrows them from the binary).
fn static_bytes(data: Cow<'static, [u8]>) -> Bytes {
    match data {
        Cow::Borrowed(bytes) => Bytes::from_static(bytes),
        Cow::Owned(bytes) => Bytes::from(bytes),
    }
}

/// The type of a bundle file by its extension (the stored `.br`/`.gz` names do not tell it).
fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("json") => "application/json",
        Some("woff2") => "font/woff2",
        Some("png") => "image/png",
        _ => "application/octet-stream",
    }
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
