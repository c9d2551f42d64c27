//! The owner's blog: `POST /api/my/blogs`, `GET /api/my/blogs/{blogId}`.

use poem::http::{StatusCode, header};
use poem::web::{Data, Json, Path};
use poem::{IntoResponse, Response, handler};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::app::AppState;
use crate::auth::session::{BLOG_COOKIE, SignedIn};
use crate::config::Config;
use crate::db::blogs::{self, Blog, Created};
use crate::db::users::{self, SocialAccount};
use crate::domain::subdomain::Subdomain;
use crate::error::{Error, Result};
use crate::http::api::json::JsonBody;
use crate::http::cookies;

/// `POST /api/my/blogs` body.
#[derive(Debug, Deserialize)]
pub struct CreateBlog {
    subdomain: String,
}

/// Creates the caller's one blog.
#[handler]
pub async fn create(signed_in: SignedIn, state: Data<&AppState>, JsonBody(body): JsonBody<CreateBlog>) -> Result<Response> {
    let subdomain = Subdomain::parse(&body.subdomain).map_err(|err| Error::invalid("subdomain", err.message()))?;
    let user_id = signed_in.user.id;
    let (blog, accounts) = state
        .db
        .write(move |conn| match blogs::create(conn, user_id, &subdomain)? {
            Created::Blog(blog) => Ok((blog, users::social_accounts(conn, user_id)?)),
            Created::UserHasOne => Err(Error::invalid("subdomain", "You already have a blog")),
            Created::Taken => Err(Error::invalid(
                "subdomain",
                "This subdomain is taken (subdomains are never reused)",
            )),
        })
        .await?;
    let cookie = cookies::set(BLOG_COOKIE, &blog.id.to_string(), false, state.config.https, Some(cookies::LONG_MAX_AGE));
    Ok(Json(blog_body(&state.config, &blog, &accounts))
        .with_status(StatusCode::CREATED)
        .with_header(header::SET_COOKIE, cookie)
        .into_response())
}

/// The caller's blog; another user's blog, or none, is a 404.
#[handler]
pub async fn show(signed_in: SignedIn, state: Data<&AppState>, Path(blog_id): Path<String>) -> Result<Json<Value>> {
    let (blog, accounts) = owned_blog(&state, &signed_in, &blog_id).await?;
    Ok(Json(blog_body(&state.config, &blog, &accounts)))
}

/// Loads a blog the caller owns, with their social accounts.
pub async fn owned_blog(state: &AppState, signed_in: &SignedIn, raw_id: &str) -> Result<(Blog, Vec<SocialAccount>)> {
    let not_found = || Error::not_found("blog", "Blog not found");
    let blog_id: i64 = raw_id.parse().map_err(|_| not_found())?;
    let user_id = signed_in.user.id;
    state
        .db
        .read(move |conn| {
            let blog = blogs::owned(conn, blog_id, user_id)?.ok_or_else(not_found)?;
            Ok((blog, users::social_accounts(conn, user_id)?))
        })
        .await
}

fn blog_body(config: &Config, blog: &Blog, accounts: &[SocialAccount]) -> Value {
    json!({
        "blog": {
            "id": blog.id,
            "url": config.blog_url(&blog.subdomain),
            "subdomain": blog.subdomain,
            "name": blog.name,
            "theme": blog.theme,
            "favicon": blog.favicon,
            "socialAccounts": accounts,
        }
    })
}

/// Longest blog name.
pub const MAX_NAME: usize = 100;

/// `PUT /api/my/blogs/{blogId}` body.
#[derive(Debug, Deserialize)]
pub struct Rename {
    name: String,
}

/// Renames the blog.
#[handler]
pub async fn update(signed_in: SignedIn, state: Data<&AppState>, Path(blog_id): Path<String>, JsonBody(body): JsonBody<Rename>) -> Result<Json<Value>> {
    let (blog, _) = owned_blog(&state, &signed_in, &blog_id).await?;
    let name = body.name.trim().to_owned();
    if name.is_empty() {
        return Err(Error::invalid("name", "Can't be blank"));
    }
    if name.chars().count() > MAX_NAME {
        return Err(Error::invalid("name", format!("Should be at most {MAX_NAME} characters")));
    }
    if name.chars().any(char::is_control) {
        return Err(Error::invalid("name", "Should be one line of text"));
    }
    state.db.write(move |conn| blogs::rename(conn, blog.id, &name)).await?;
    show_after_change(&state, &signed_in, &blog_id).await
}

/// `PUT .../theme` body.
#[derive(Debug, Deserialize)]
pub struct ChooseTheme {
    theme_id: i64,
}

/// Chooses the blog's theme.
#[handler]
pub async fn set_theme(signed_in: SignedIn, state: Data<&AppState>, Path(blog_id): Path<String>, JsonBody(body): JsonBody<ChooseTheme>) -> Result<Json<Value>> {
    let (blog, _) = owned_blog(&state, &signed_in, &blog_id).await?;
    let found = state.db.write(move |conn| blogs::set_theme(conn, blog.id, body.theme_id)).await?;
    if !found {
        return Err(Error::invalid("themeId", "There is no such theme"));
    }
    show_after_change(&state, &signed_in, &blog_id).await
}

/// `PUT .../favicon` body.
#[derive(Debug, Deserialize)]
pub struct ChooseFavicon {
    favicon_id: i64,
}

/// Chooses the blog's tab icon.
#[handler]
pub async fn set_favicon(signed_in: SignedIn, state: Data<&AppState>, Path(blog_id): Path<String>, JsonBody(body): JsonBody<ChooseFavicon>) -> Result<Json<Value>> {
    let (blog, _) = owned_blog(&state, &signed_in, &blog_id).await?;
    let found = state.db.write(move |conn| blogs::set_favicon(conn, blog.id, body.favicon_id)).await?;
    if !found {
        return Err(Error::invalid("faviconId", "There is no such icon"));
    }
    show_after_change(&state, &signed_in, &blog_id).await
}

async fn show_after_change(state: &AppState, signed_in: &SignedIn, blog_id: &str) -> Result<Json<Value>> {
    let (blog, accounts) = owned_blog(state, signed_in, blog_id).await?;
    state.public.cache.invalidate(&blog.subdomain);
    Ok(Json(blog_body(&state.config, &blog, &accounts)))
}

/// "Delete Account": removes the blog, its posts (and their search entries), images,
/// installations, the user, their social accounts and sessions; retires the subdomain;
/// clears the cookies.
#[handler]
pub async fn delete(signed_in: SignedIn, state: Data<&AppState>, Path(blog_id): Path<String>) -> Result<Response> {
    let (blog, _) = owned_blog(&state, &signed_in, &blog_id).await?;
    let search = state.search.clone();
    let uploads = state.config.data_dir.join(crate::app::UPLOADS_DIR);
    let subdomain = blog.subdomain.clone();
    state
        .db
        .write(move |conn| {
            let deleted = blogs::delete_account(conn, &blog)?;
            if let Err(err) = search.remove_blog(blog.id, deleted.seq) {
                tracing::error!(error = format!("{err:#}"), "search index not updated; it is rebuilt at the next start");
            }
            for file in deleted.orphaned_files {
                if let Err(err) = std::fs::remove_file(uploads.join(&file)) {
                    tracing::warn!(%file, error = %err, "could not remove an upload of a deleted account");
                }
            }
            Ok(())
        })
        .await?;
    state.public.cache.invalidate(&subdomain);
    let secure = state.config.https;
    let mut resp = Json(json!({})).into_response();
    for name in [crate::auth::session::COOKIE, BLOG_COOKIE] {
        resp.headers_mut().append(header::SET_COOKIE, cookies::clear(name, secure).parse().expect("ascii cookie"));
    }
    Ok(resp)
}
