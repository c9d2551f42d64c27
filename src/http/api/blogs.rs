//! The owner's blog: create, show, rename, theme, tab icon, time zone, and "Delete Account". Every
//! change goes through the write path ([`crate::blogs::Blogs`]).

use poem::http::{StatusCode, header};
use poem::web::{Data, Json, Path};
use poem::{IntoResponse, Response, handler};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::config::Config;
use crate::db::blogs::Blog;
use crate::db::users::{self, SocialAccount};
use crate::domain::blog::subdomain::Subdomain;
use crate::domain::blog::time_zone::TimeZone;
use crate::error::{Error, Result};
use crate::http::api::json::JsonBody;
use crate::http::cookies;
use crate::http::session::{self, BLOG_COOKIE, SignedIn};
use crate::http::state::AppState;

/// `POST /api/my/blogs` body.
#[derive(Debug, Deserialize)]
pub struct CreateBlog {
    subdomain: String,
    /// The owner's browser's zone; UTC when absent.
    time_zone: Option<String>,
}

/// Creates the caller's one blog.
#[handler]
pub async fn create(
    signed_in: SignedIn,
    state: Data<&AppState>,
    JsonBody(body): JsonBody<CreateBlog>,
) -> Result<Response> {
    let subdomain = Subdomain::parse(&body.subdomain).map_err(|err| Error::invalid("subdomain", err.message()))?;
    let time_zone = match body.time_zone.as_deref() {
        None => TimeZone::UTC,
        Some(raw) => TimeZone::parse(raw).map_err(|message| Error::invalid("timeZone", message))?,
    };
    let blog = state.blogs.create_blog(signed_in.user.id, subdomain, time_zone).await?;
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
pub async fn show(signed_in: SignedIn, state: Data<&AppState>, Path(blog_id): Path<String>) -> Result<Json<Value>> {
    let blog = state.blogs.owned(signed_in.user.id, &blog_id).await?;
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
    signed_in: SignedIn,
    state: Data<&AppState>,
    Path(blog_id): Path<String>,
    JsonBody(body): JsonBody<Rename>,
) -> Result<Json<Value>> {
    let blog = state.blogs.owned(signed_in.user.id, &blog_id).await?;
    state.blogs.rename(&blog, &body.name).await?;
    changed_blog_answer(&state, &signed_in, &blog_id).await
}

/// `PUT .../theme` body.
#[derive(Debug, Deserialize)]
pub struct ChooseTheme {
    theme_id: i64,
}

/// Chooses the blog's theme.
#[handler]
pub async fn set_theme(
    signed_in: SignedIn,
    state: Data<&AppState>,
    Path(blog_id): Path<String>,
    JsonBody(body): JsonBody<ChooseTheme>,
) -> Result<Json<Value>> {
    let blog = state.blogs.owned(signed_in.user.id, &blog_id).await?;
    state.blogs.set_theme(&blog, body.theme_id).await?;
    changed_blog_answer(&state, &signed_in, &blog_id).await
}

/// `PUT .../favicon` body.
#[derive(Debug, Deserialize)]
pub struct ChooseFavicon {
    favicon_id: i64,
}

/// Chooses the blog's tab icon.
#[handler]
pub async fn set_favicon(
    signed_in: SignedIn,
    state: Data<&AppState>,
    Path(blog_id): Path<String>,
    JsonBody(body): JsonBody<ChooseFavicon>,
) -> Result<Json<Value>> {
    let blog = state.blogs.owned(signed_in.user.id, &blog_id).await?;
    state.blogs.set_favicon(&blog, body.favicon_id).await?;
    changed_blog_answer(&state, &signed_in, &blog_id).await
}

/// `PUT .../time_zone` body.
#[derive(Debug, Deserialize)]
pub struct ChooseTimeZone {
    time_zone: String,
}

/// Chooses the zone the blog's public dates are shown in.
#[handler]
pub async fn set_time_zone(
    signed_in: SignedIn,
    state: Data<&AppState>,
    Path(blog_id): Path<String>,
    JsonBody(body): JsonBody<ChooseTimeZone>,
) -> Result<Json<Value>> {
    let blog = state.blogs.owned(signed_in.user.id, &blog_id).await?;
    state.blogs.set_time_zone(&blog, &body.time_zone).await?;
    changed_blog_answer(&state, &signed_in, &blog_id).await
}

/// "Delete Account": the write path removes everything; the answer clears the cookies.
#[handler]
pub async fn delete(signed_in: SignedIn, state: Data<&AppState>, Path(blog_id): Path<String>) -> Result<Response> {
    let blog = state.blogs.owned(signed_in.user.id, &blog_id).await?;
    state.blogs.delete_account(&blog).await?;
    let secure = state.config.https;
    let mut resp = Json(json!({})).into_response();
    for name in [session::COOKIE, BLOG_COOKIE] {
        resp.headers_mut().append(header::SET_COOKIE, cookies::clear(name, secure).parse().expect("ascii cookie"));
    }
    Ok(resp)
}

/// The blog as it is after a change.
async fn changed_blog_answer(state: &AppState, signed_in: &SignedIn, blog_id: &str) -> Result<Json<Value>> {
    let blog = state.blogs.owned(signed_in.user.id, blog_id).await?;
    blog_answer(state, signed_in, &blog).await
}

/// `{blog}` with the owner's social accounts.
async fn blog_answer(state: &AppState, signed_in: &SignedIn, blog: &Blog) -> Result<Json<Value>> {
    let user_id = signed_in.user.id;
    let accounts = state.db.read(move |conn| users::social_accounts(conn, user_id)).await?;
    Ok(Json(blog_json(&state.config, blog, &accounts)))
}

fn blog_json(config: &Config, blog: &Blog, accounts: &[SocialAccount]) -> Value {
    json!({
        "blog": {
            "id": blog.id,
            "url": config.blog_origin(&blog.address()),
            "subdomain": blog.subdomain,
            "name": blog.name,
            "theme": blog.theme,
            "favicon": blog.favicon,
            "timeZone": blog.time_zone.name(),
            "socialAccounts": accounts,
        }
    })
}
