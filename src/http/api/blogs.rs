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
