//! The live preview of unsaved custom CSS (issue 32, docs/custom-css.md "Live preview").
//!
//! Each check of the theme panel's CSS (`POST /api/my/blogs/{id}/css/check`) that passes holds
//! that CSS here for ten minutes under a fresh random token, one per blog (a newer check replaces
//! the older), and answers the address of `/css-preview/{token}` on the blog's subdomain: the
//! blog's real home page, rendered with the held CSS linked at its own `/custom-{hash}.css`
//! address, which the owner app shows in a frame. The page keeps the blog's strict policy (no
//! script, its own stylesheets only) except that the owner app may frame it; it is never cached,
//! never indexed, and a token of another blog, an expired one or a guess is the blog's 404.
//! Nothing is stored: a restart forgets every preview.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use poem::Response;
use poem::http::{StatusCode, header};

use super::cache::Page;
use super::{themes, views};
use crate::db::public::PublicBlog;
use crate::domain::paths;
use crate::error::Error;
use crate::http::state::AppState;

/// How long a checked stylesheet stays previewable.
const HOLD_FOR: Duration = Duration::from_secs(10 * 60);
/// At most this many blogs' previews at once (the oldest go first)...
const MAX_HELD: usize = 256;
/// ...and at most this many bytes of CSS in all.
const MAX_HELD_BYTES: usize = 8 << 20;

/// One blog's previewed stylesheet.
struct Held {
    token: String,
    css: String,
    at: Instant,
}

/// The previews held, by blog subdomain.
#[derive(Default)]
pub struct CssPreviews {
    held: Mutex<HashMap<String, Held>>,
}

impl CssPreviews {
    /// Holds `css` (already checked) as `subdomain`'s preview; the token of its page.
    pub fn hold(&self, subdomain: &str, css: &str) -> String {
        self.hold_at(subdomain, css, Instant::now())
    }

    fn hold_at(&self, subdomain: &str, css: &str, now: Instant) -> String {
        let token = hex::encode(rand::random::<[u8; 16]>());
        let mut held = self.held.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        held.retain(|_, entry| now.saturating_duration_since(entry.at) < HOLD_FOR);
        held.remove(subdomain);
        while held.len() >= MAX_HELD || held.values().map(|e| e.css.len()).sum::<usize>() + css.len() > MAX_HELD_BYTES {
            let Some(oldest) = held.iter().min_by_key(|(_, e)| e.at).map(|(name, _)| name.clone()) else { break };
            held.remove(&oldest);
        }
        let entry = Held { token: token.clone(), css: css.to_owned(), at: now };
        held.insert(subdomain.to_owned(), entry);
        token
    }

    /// The CSS `subdomain` holds under `token`, if it has not expired.
    fn css_for_token(&self, subdomain: &str, token: &str, now: Instant) -> Option<String> {
        let held = self.held.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let entry = held.get(subdomain)?;
        let fresh = now.saturating_duration_since(entry.at) < HOLD_FOR;
        (fresh && !token.is_empty() && entry.token == token).then(|| entry.css.clone())
    }
}

/// `/css-preview/{token}` on `subdomain`: the home page with the held CSS; `{token}.css`: that
/// CSS; or the blog's 404.
pub async fn page(state: &AppState, subdomain: String, token: &str) -> Result<Response, Error> {
    if let Some(token) = token.strip_suffix(".css")
        && let Some(css) = state.site.css_previews.css_for_token(&subdomain, token, Instant::now())
    {
        return Ok(private().status(StatusCode::OK).content_type("text/css; charset=utf-8").body(css));
    }
    let generation = state.site.cache.generation(&subdomain);
    let blog = match super::routes::uncached_blog(state, subdomain.clone()).await? {
        Ok(blog) => blog,
        Err(not_found) => return Ok(not_found),
    };
    let page = match state.site.css_previews.css_for_token(&subdomain, token, Instant::now()) {
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
fn private() -> poem::ResponseBuilder {
    Response::builder().header(header::CACHE_CONTROL, "no-store").header("x-robots-tag", "noindex")
}

/// A preview page: the blog's policy, framable by the owner app only.
fn answer(page: &Page, app_url: &str) -> Response {
    let mut builder = private().status(page.status).content_type(page.content_type);
    if let Some(csp) = &page.csp {
        let framed = csp.replace("frame-ancestors 'none'", &format!("frame-ancestors {app_url}"));
        builder = builder.header(header::CONTENT_SECURITY_POLICY, framed);
    }
    builder.body(page.body.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_preview_answers_its_own_token_on_its_own_blog_until_it_expires() {
        let previews = CssPreviews::default();
        let start = Instant::now();
        let token = previews.hold_at("alice", "body{color:red}", start);
        assert_eq!(token.len(), 32);
        assert_eq!(previews.css_for_token("alice", &token, start).as_deref(), Some("body{color:red}"));
        assert_eq!(previews.css_for_token("bob", &token, start), None, "another blog's host");
        assert_eq!(previews.css_for_token("alice", "0123", start), None, "a guess");
        assert_eq!(previews.css_for_token("alice", &token, start + HOLD_FOR), None, "expired");
        let newer = previews.hold_at("alice", "body{color:blue}", start);
        assert_ne!(newer, token);
        assert_eq!(previews.css_for_token("alice", &token, start), None, "a newer check replaces it");
    }

    #[test]
    fn the_previews_held_are_bounded_in_number_and_bytes() {
        let previews = CssPreviews::default();
        let start = Instant::now();
        for n in 0..MAX_HELD + 10 {
            previews.hold_at(&format!("blog{n}"), "a{}", start + Duration::from_millis(n as u64));
        }
        assert_eq!(previews.held.lock().unwrap().len(), MAX_HELD);
        assert!(previews.held.lock().unwrap().contains_key(&format!("blog{}", MAX_HELD + 9)), "the newest stays");
        assert!(!previews.held.lock().unwrap().contains_key("blog0"), "the oldest went");
        let big = "a".repeat(MAX_HELD_BYTES / 2 + 1);
        previews.hold_at("x", &big, start + Duration::from_secs(1));
        previews.hold_at("y", &big, start + Duration::from_secs(2));
        let held = previews.held.lock().unwrap();
        assert!(held.values().map(|e| e.css.len()).sum::<usize>() <= MAX_HELD_BYTES);
        assert!(held.contains_key("y") && !held.contains_key("x"));
    }
}
