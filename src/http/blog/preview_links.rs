//! `/preview/{token}`: a draft or scheduled post read through its secret preview link.
//! Never cached (neither here nor by anyone else: `no-store`), never indexed (`noindex` in the
//! page and in `X-Robots-Tag`). An unknown or revoked token is the blog's 404; once the post is
//! published the link leads to its permalink.

use poem::http::{StatusCode, header};
use poem::{Response, ResponseBuilder};

use super::cache::Page;
use super::views;
use crate::auth::token_hash;
use crate::db::preview_links;
use crate::db::public::PublicBlog;
use crate::domain::blog::preview_token::is_token;
use crate::error::Error;
use crate::http::state::AppState;

/// The answer for the preview link `token` of `blog`.
pub async fn serve(state: &AppState, blog: &PublicBlog, token: &str, generation: u64) -> Result<Response, Error> {
    let post = if is_token(token) {
        let (id, hash) = (blog.id, token_hash(token));
        state.db.read(move |conn| preview_links::post_by_token(conn, id, &hash)).await?
    } else {
        None
    };
    let Some(post) = post else {
        return Ok(answer(&views::not_found(state, blog, generation)));
    };
    if post.published_at.is_some() {
        let location = format!("/{}-{}", post.slug, post.short_id);
        return Ok(private().status(StatusCode::FOUND).header(header::LOCATION, location).finish());
    }
    let path = format!("{}{token}", crate::domain::paths::PREVIEW_PREFIX);
    let page = views::render_post(state, blog, post, &path, true, generation).await?;
    Ok(answer(&page))
}

/// The headers of every preview answer.
fn private() -> ResponseBuilder {
    Response::builder().header(header::CACHE_CONTROL, "no-store").header("x-robots-tag", "noindex")
}

fn answer(page: &Page) -> Response {
    let mut builder = private().status(page.status).content_type(page.content_type);
    if let Some(csp) = &page.csp {
        builder = builder.header("content-security-policy", csp.as_str());
    }
    builder.body(page.body.clone())
}
