//! The owner's blog: create, show, rename, description, listing on the landing page, theme, tab
//! icon, time zone, and "Delete Account". Every
//! change goes through the write path ([`crate::blogs::Blogs`]).

use poem::http::{StatusCode, header};
use poem::web::{Data, Json};
use poem::{IntoResponse, Request, Response, handler};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::blogs::Signup;
use crate::config::Config;
use crate::db::blogs::Blog;
use crate::db::favicons::Favicon;
use crate::db::images;
use crate::db::themes::Theme;
use crate::db::users::{self, SocialAccount};
use crate::domain::blog::ai_crawlers::AiCrawlers;
use crate::domain::blog::subdomain::Subdomain;
use crate::domain::blog::time_zone::TimeZone;
use crate::domain::public_instance::human_bytes;
use crate::error::{Error, Result};
use crate::http::api::answers::Empty;
use crate::http::api::json::JsonBody;
use crate::http::client::client_ip;
use crate::http::cookies;
use crate::http::owned_blog::OwnedBlog;
use crate::http::session::{self, BLOG_COOKIE, SignedIn};
use crate::http::state::AppState;

/// The owner's blog, as every call of this file answers it.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "blogs.ts", rename = "Blog")]
pub struct BlogJson<'a> {
    id: i64,
    /// The public address, e.g. `http://alice.localhost:8080`.
    url: String,
    subdomain: &'a str,
    name: &'a str,
    /// One paragraph of plain text under its name ('' for none).
    description: &'a str,
    /// Whether it is listed on the instance's landing page (shown there only while approved).
    listed: bool,
    /// Whether it lets AI crawlers use it, or asks them not to (its robots.txt and the `noai`
    /// directives on its pages).
    #[ts(type = "\"allow\" | \"disallow\"")]
    ai_crawlers: &'static str,
    theme: &'a Theme,
    favicon: &'a Favicon,
    /// The IANA zone its public pages show dates in, e.g. `Europe/Paris`.
    time_zone: &'a str,
    social_accounts: &'a [SocialAccount],
    /// Its standing on the instance (docs/public-instance.md): waiting for review, approved,
    /// silenced or suspended.
    #[ts(type = "\"new\" | \"approved\" | \"silenced\" | \"suspended\"")]
    state: &'static str,
    /// What the admin told the owner with a silence or suspension ('' when nothing).
    state_reason: &'a str,
    /// Bytes of images the owner's account stores (its upload quota's use).
    #[ts(type = "number")]
    upload_bytes: u64,
    /// Bytes of images the blog may store (`--upload-quota-mb`).
    #[ts(type = "number")]
    upload_quota_bytes: u64,
    /// The two as Settings shows them, e.g. `12.3 MB of 1 GB`.
    upload_use: String,
}

/// `{blog}`.
#[derive(Serialize, TS)]
#[ts(export_to = "blogs.ts")]
pub struct BlogAnswer<'a> {
    blog: BlogJson<'a>,
}

/// `POST /api/my/blogs` body.
#[derive(Debug, Deserialize)]
pub struct CreateBlog {
    subdomain: String,
    /// The owner's browser's zone; UTC when absent.
    time_zone: Option<String>,
    /// The invite code, under `--signups invite`.
    invite: Option<String>,
}

/// Creates the caller's one blog.
#[handler]
pub async fn create(
    req: &Request,
    signed_in: SignedIn,
    state: Data<&AppState>,
    JsonBody(body): JsonBody<CreateBlog>,
) -> Result<Response> {
    let subdomain = Subdomain::parse(&body.subdomain).map_err(|err| Error::invalid("subdomain", err.message()))?;
    let time_zone = match body.time_zone.as_deref() {
        None => TimeZone::UTC,
        Some(raw) => TimeZone::parse(raw).map_err(|message| Error::invalid("timeZone", message))?,
    };
    let signup = Signup { invite: body.invite, client: client_ip(req, &state.config.trusted_proxies) };
    let blog = state.blogs.create_blog(signed_in.user.id, subdomain, time_zone, signup).await?;
    let cookie =
        cookies::set(BLOG_COOKIE, &blog.id.to_string(), false, state.config.https, Some(cookies::LONG_MAX_AGE));
    Ok(blog_answer(&state, &signed_in, &blog)
        .await?
        .with_status(StatusCode::CREATED)
        .with_header(header::SET_COOKIE, cookie)
        .into_response())
}

/// The caller's blog; another user's blog, or none, is a 404.
#[handler]
pub async fn show(OwnedBlog { blog, signed_in, .. }: OwnedBlog, state: Data<&AppState>) -> Result<Response> {
    blog_answer(&state, &signed_in, &blog).await
}

/// `PUT /api/my/blogs/{blogId}` body.
#[derive(Debug, Deserialize)]
pub struct Rename {
    name: String,
}

/// Renames the blog.
#[handler]
pub async fn update(
    OwnedBlog { blog, signed_in, input: JsonBody(body) }: OwnedBlog<JsonBody<Rename>>,
    state: Data<&AppState>,
) -> Result<Response> {
    state.blogs.rename(&blog, &body.name).await?;
    changed_blog_answer(&state, &signed_in, &blog).await
}

/// `PUT .../description` body.
#[derive(Debug, Deserialize)]
pub struct SetDescription {
    description: String,
}

/// Sets the blog's description ('' clears it).
#[handler]
pub async fn set_description(
    OwnedBlog { blog, signed_in, input: JsonBody(body) }: OwnedBlog<JsonBody<SetDescription>>,
    state: Data<&AppState>,
) -> Result<Response> {
    state.blogs.set_description(&blog, &body.description).await?;
    changed_blog_answer(&state, &signed_in, &blog).await
}

/// `PUT .../listed` body.
#[derive(Debug, Deserialize)]
pub struct SetListed {
    listed: bool,
}

/// Lists the blog on the instance's landing page, or takes it off.
#[handler]
pub async fn set_listed(
    OwnedBlog { blog, signed_in, input: JsonBody(body) }: OwnedBlog<JsonBody<SetListed>>,
    state: Data<&AppState>,
) -> Result<Response> {
    state.blogs.set_listed(&blog, body.listed).await?;
    changed_blog_answer(&state, &signed_in, &blog).await
}

/// `PUT .../ai-crawlers` body.
#[derive(Debug, Deserialize)]
pub struct SetAiCrawlers {
    ai_crawlers: String,
}

/// Lets AI crawlers use the blog, or asks them not to.
#[handler]
pub async fn set_ai_crawlers(
    OwnedBlog { blog, signed_in, input: JsonBody(body) }: OwnedBlog<JsonBody<SetAiCrawlers>>,
    state: Data<&AppState>,
) -> Result<Response> {
    let Some(ai_crawlers) = AiCrawlers::parse(&body.ai_crawlers) else {
        return Err(Error::invalid("aiCrawlers", "Choose allow or disallow"));
    };
    state.blogs.set_ai_crawlers(&blog, ai_crawlers).await?;
    changed_blog_answer(&state, &signed_in, &blog).await
}

/// `PUT .../theme` body.
#[derive(Debug, Deserialize)]
pub struct ChooseTheme {
    theme_id: i64,
}

/// Chooses the blog's theme.
#[handler]
pub async fn set_theme(
    OwnedBlog { blog, signed_in, input: JsonBody(body) }: OwnedBlog<JsonBody<ChooseTheme>>,
    state: Data<&AppState>,
) -> Result<Response> {
    state.blogs.set_theme(&blog, body.theme_id).await?;
    changed_blog_answer(&state, &signed_in, &blog).await
}

/// `PUT .../favicon` body.
#[derive(Debug, Deserialize)]
pub struct ChooseFavicon {
    favicon_id: i64,
}

/// Chooses the blog's tab icon.
#[handler]
pub async fn set_favicon(
    OwnedBlog { blog, signed_in, input: JsonBody(body) }: OwnedBlog<JsonBody<ChooseFavicon>>,
    state: Data<&AppState>,
) -> Result<Response> {
    state.blogs.set_favicon(&blog, body.favicon_id).await?;
    changed_blog_answer(&state, &signed_in, &blog).await
}

/// `PUT .../time_zone` body.
#[derive(Debug, Deserialize)]
pub struct ChooseTimeZone {
    time_zone: String,
}

/// Chooses the zone the blog's public dates are shown in.
#[handler]
pub async fn set_time_zone(
    OwnedBlog { blog, signed_in, input: JsonBody(body) }: OwnedBlog<JsonBody<ChooseTimeZone>>,
    state: Data<&AppState>,
) -> Result<Response> {
    state.blogs.set_time_zone(&blog, &body.time_zone).await?;
    changed_blog_answer(&state, &signed_in, &blog).await
}

/// "Delete Account": the write path removes everything; the answer clears the cookies.
#[handler]
pub async fn delete(OwnedBlog { blog, .. }: OwnedBlog, state: Data<&AppState>) -> Result<Response> {
    state.blogs.delete_account(&blog).await?;
    let secure = state.config.https;
    let mut resp = Json(Empty {}).into_response();
    for name in [session::COOKIE, BLOG_COOKIE] {
        resp.headers_mut().append(header::SET_COOKIE, cookies::clear(name, secure).parse().expect("ascii cookie"));
    }
    Ok(resp)
}

/// The blog as it is after a change (read again: the change was made by the write path).
async fn changed_blog_answer(state: &AppState, signed_in: &SignedIn, blog: &Blog) -> Result<Response> {
    let blog = state.blogs.owned(signed_in.user.id, &blog.id.to_string()).await?;
    blog_answer(state, signed_in, &blog).await
}

/// `{blog}` with the owner's social accounts.
async fn blog_answer(state: &AppState, signed_in: &SignedIn, blog: &Blog) -> Result<Response> {
    let user_id = signed_in.user.id;
    let (accounts, upload_bytes) = state
        .db
        .read(move |conn| Ok((users::social_accounts(conn, user_id)?, images::bytes_of_user(conn, user_id)?)))
        .await?;
    Ok(Json(blog_json(&state.config, blog, &accounts, upload_bytes)).into_response())
}

fn blog_json<'a>(config: &Config, blog: &'a Blog, accounts: &'a [SocialAccount], upload_bytes: u64) -> BlogAnswer<'a> {
    BlogAnswer {
        blog: BlogJson {
            id: blog.id,
            url: config.blog_origin(&blog.address()),
            subdomain: &blog.subdomain,
            name: &blog.name,
            description: &blog.description,
            listed: blog.listed,
            ai_crawlers: blog.ai_crawlers.as_str(),
            theme: &blog.theme,
            favicon: &blog.favicon,
            time_zone: blog.time_zone.name(),
            social_accounts: accounts,
            state: blog.state.as_str(),
            state_reason: &blog.state_reason,
            upload_bytes,
            upload_quota_bytes: config.public.quotas.upload_bytes,
            upload_use: format!("{} of {}", human_bytes(upload_bytes), human_bytes(config.public.quotas.upload_bytes)),
        },
    }
}
