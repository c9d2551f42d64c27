//! The live preview of unsaved custom CSS (issue 32, docs/custom-css.md "Live preview").
//!
//! Each check of the theme panel's CSS (`POST /api/my/blogs/{id}/css/check`) that passes holds
//! that CSS here for ten minutes under a fresh random token, one per blog (a newer check replaces
//! the older), and answers the address of `/css-preview/{token}` on the blog's subdomain: the
//! blog's real home page, rendered with the held CSS linked at its own `/custom-{hash}.css`
//! address, which the owner app shows in a frame. The page keeps the blog's strict policy (no
//! script, its own stylesheets only) except that the owner app may frame it; it is never cached,
//! never indexed, and a token of another blog, an expired one or a guess is the blog's 404.
//! Nothing is stored: a restart forgets every preview (the holding: `held.rs`).

use poem::Response;
use poem::http::{StatusCode, header};

use super::cache::Page;
use super::held::Held;
use super::{themes, views};
use crate::db::public::PublicBlog;
use crate::domain::paths;
use crate::error::Error;
use crate::http::state::AppState;

/// At most this many blogs' previews at once (the oldest go first)...
const MAX_HELD: usize = 256;
/// ...and at most this many bytes of CSS in all.
const MAX_HELD_BYTES: usize = 8 << 20;

/// The previewed stylesheets, by blog subdomain (`held.rs`).
pub struct CssPreviews(Held<String>);

impl Default for CssPreviews {
    fn default() -> CssPreviews {
        CssPreviews(Held::new(MAX_HELD, MAX_HELD_BYTES))
    }
}

impl CssPreviews {
    /// Holds `css` (already checked) as `subdomain`'s preview; the token of its page.
    pub fn hold(&self, subdomain: &str, css: &str) -> String {
        self.0.hold(subdomain, css.to_owned(), css.len())
    }

    /// The CSS `subdomain` holds under `token`, if it has not expired.
    fn css_for_token(&self, subdomain: &str, token: &str) -> Option<String> {
        self.0.get(subdomain, token)
    }
}

/// `/css-preview/{token}` on `subdomain`: the home page with the held CSS; `{token}.css`: that
/// CSS; or the blog's 404.
pub async fn page(state: &AppState, subdomain: String, token: &str) -> Result<Response, Error> {
    if let Some(token) = token.strip_suffix(".css")
        && let Some(css) = state.site.css_previews.css_for_token(&subdomain, token)
    {
        return Ok(private().status(StatusCode::OK).content_type("text/css; charset=utf-8").body(css));
    }
    let generation = state.site.cache.generation(&subdomain);
    let blog = match super::routes::uncached_blog(state, subdomain.clone()).await? {
        Ok(blog) => blog,
        Err(not_found) => return Ok(not_found),
    };
    let page = match state.site.css_previews.css_for_token(&subdomain, token) {
        Some(css) => {
            let linked = themes::custom_path(&css);
            let previewed = PublicBlog { custom_css: css, ..blog };
            let mut page = views::index(state, &previewed, 1, generation).await?;
            if let Some(linked) = linked {
                let html = String::from_utf8_lossy(&page.body).replace(
                    &format!("href=\"{linked}\""),
                    &format!("href=\"{}{token}.css\"", paths::CSS_PREVIEW_PREFIX),
                );
                page.body = html.into();
            }
            page
        }
        None => views::not_found(state, &blog, generation),
    };
    Ok(answer(&page, &state.config.app_url()))
}

/// The headers of every preview answer.
pub(super) fn private() -> poem::ResponseBuilder {
    Response::builder().header(header::CACHE_CONTROL, "no-store").header("x-robots-tag", "noindex")
}

/// A preview page: the blog's policy, framable by the owner app only.
pub(super) fn answer(page: &Page, app_url: &str) -> Response {
    let mut builder = private().status(page.status).content_type(page.content_type);
    if let Some(csp) = &page.csp {
        let framed = csp.replace("frame-ancestors 'none'", &format!("frame-ancestors {app_url}"));
        builder = builder.header(header::CONTENT_SECURITY_POLICY, framed);
    }
    builder.body(page.body.clone())
}
