//! The editor's Preview (issue 33, docs/api.md "Preview"): the post page exactly as readers will
//! see it, before it is saved.
//!
//! `POST /api/my/blogs/{id}/preview` checks the blocks as a save would, renders them as a draft
//! post of the blog through the public post page's own renderer (`views::render_post`: the
//! blog's template, theme stylesheet, custom CSS and embeds, nothing shared, no view counted)
//! and holds that page here for ten minutes under a fresh token, one per blog (`held.rs`). The
//! owner app frames `/post-preview/{token}` on the blog's own host: the held page with the
//! blog's policy, except that the owner app may frame it; never cached, never indexed. A token
//! of another blog, an expired one or a guess is the blog's 404. Only the owner's session can
//! hold one; the token is its only key, which is why a suspended blog's host still answers it
//! (and the theme stylesheets, which are no blog's content), as the Preview worked before.

use std::sync::Arc;

use poem::Response;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::cache::Page;
use super::css_preview::answer;
use super::held::Held;
use super::{BlogSite, views};
use crate::db::blogs::Blog;
use crate::db::posts::Post;
use crate::db::public;
use crate::domain::content::blocks::Body;
use crate::domain::paths;
use crate::error::Error;
use crate::http::state::AppState;

/// At most this many blogs' previews at once (the oldest go first)...
const MAX_HELD: usize = 256;
/// ...and at most this many bytes of pages in all (the largest post's page is about 5 MiB).
const MAX_HELD_BYTES: usize = 64 << 20;

/// The previewed post pages, by blog subdomain.
pub struct PostPreviews(Held<Arc<Page>>);

impl Default for PostPreviews {
    fn default() -> PostPreviews {
        PostPreviews(Held::new(MAX_HELD, MAX_HELD_BYTES))
    }
}

/// Renders `body` (already checked) as a draft post page of `blog` and holds it: the address
/// of the page on the blog's own host.
pub async fn hold(state: &AppState, blog: &Blog, body: &Body) -> Result<String, Error> {
    let subdomain = blog.subdomain.clone();
    let generation = state.site.cache.generation(&subdomain);
    let lookup = subdomain.clone();
    let public = state.db.read(move |conn| public::blog(conn, &lookup)).await?;
    let public = public.ok_or_else(|| Error::not_found("blog", "Blog not found"))?;
    let page =
        views::render_post(state, &public, draft(blog, body)?, paths::POST_PREVIEW_PREFIX, true, generation).await?;
    let bytes = page.body.len();
    let token = state.site.post_previews.0.hold(&subdomain, Arc::new(page), bytes);
    Ok(format!("{}{}{token}", state.config.blog_origin(&blog.address()), paths::POST_PREVIEW_PREFIX))
}

/// An unsaved draft of `blog` with `body`, written now.
fn draft(blog: &Blog, body: &Body) -> Result<Post, Error> {
    let now = OffsetDateTime::now_utc().format(&Rfc3339).map_err(|err| Error::Internal(err.into()))?;
    Ok(Post {
        id: 0,
        blog_id: blog.id,
        short_id: String::new(),
        slug: String::new(),
        title: body.title(),
        body_json: serde_json::to_string(body).map_err(|err| Error::Internal(err.into()))?,
        published_at: None,
        created_at: now.clone(),
        updated_at: now,
        tags: Vec::new(),
        page_position: None,
        scheduled_at: None,
        comments_closed: true,
        unlisted: false,
        version: 1,
    })
}

/// Whether `path` on `subdomain`'s host is a preview held there, or a theme stylesheet it
/// links (the same file on every blog): answered even when the blog is suspended.
pub fn answered_when_suspended(site: &BlogSite, subdomain: &str, path: &str) -> bool {
    match path.strip_prefix(paths::POST_PREVIEW_PREFIX) {
        Some(token) => site.post_previews.0.get(subdomain, token).is_some(),
        None => path.starts_with("/theme-") && path.ends_with(".css"),
    }
}

/// `/post-preview/{token}` on `subdomain`: the held page, or the blog's 404.
pub async fn page(state: &AppState, subdomain: String, token: &str) -> Result<Response, Error> {
    if let Some(page) = state.site.post_previews.0.get(&subdomain, token) {
        return Ok(answer(&page, &state.config.app_url()));
    }
    let generation = state.site.cache.generation(&subdomain);
    Ok(match super::routes::uncached_blog(state, subdomain).await? {
        Ok(blog) => answer(&views::not_found(state, &blog, generation), &state.config.app_url()),
        Err(not_found) => not_found,
    })
}
