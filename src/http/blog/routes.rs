//! A blog's route table: which page answers a path, through the page cache.
//!
//! `GET /hello-world-abc123` on `alice.example.com`: the cache key is built from the path, and a
//! page of the blog's current generation is answered at once (`responses.rs`: 304 when the
//! client's validator matches, gzip when accepted). On a miss the generation is read first, then
//! the blog and the post (`db/public.rs`, published posts only); the page is rendered (`views.rs`,
//! `feeds.rs`, the templates of `templates.rs`; paragraphs through
//! `domain::content::markdown::to_html`, which escapes its own output; a post's blocks through
//! `assets/templates/blocks.html`, which the editor's preview renders too) and cached under that
//! generation. A page's reads and its render (parsing bodies, templates, hashing) run in one
//! trip to the blocking pool (`Db::read_then`), gzip in another when asked
//! (`views::off_runtime`), never on an async worker.
//!
//! A path the blog has no page at (its `404`), and `/` with `?p=` or `?page_id=`, is looked up among
//! the old addresses of imported posts (`db/redirects.rs`, keyed by `domain::blog::old_paths`) and
//! answered with a `301` to the post, never cached.

use crate::domain::paths;
use std::collections::HashMap;
use std::sync::Arc;

use poem::http::{Method, StatusCode, header};
use poem::web::Data;
use poem::{Request, Response, Route, get, handler, post};

use super::cache::Page;
use super::{comments, css_preview, feeds, post_preview, preview_links, responses, subscribe, views, webmention};
use crate::db::public::{self, PublicBlog};
use crate::db::redirects;
use crate::domain::blog::old_paths;
use crate::domain::content::tags::is_tag;
use crate::error::Error;
use crate::http::client::client_ip;
use crate::http::state::AppState;

/// The blog's subdomain, put on the request by the host router.
#[derive(Debug, Clone)]
pub struct BlogHost(pub String);

/// The route table of a blog: one handler that dispatches on the path.
pub fn routes() -> Route {
    Route::new()
        .at(paths::SUBSCRIBE, get(subscribe::subscribe_page).post(subscribe::send))
        .at(paths::COMMENTS, post(comments::send))
        .at(paths::WEBMENTION, post(webmention::receive))
        .at("/comments/edit/:token", get(comments::edit_page).post(comments::save_edit))
        .at("/subscribe/confirm/:token", get(subscribe::confirm_form).post(subscribe::confirm))
        .at("/unsubscribe/:token", get(subscribe::unsubscribe_form).post(subscribe::unsubscribe))
        .at("/", serve)
        .at("/*path", serve)
}

#[handler]
async fn serve(req: &Request, state: Data<&AppState>) -> Result<Response, Error> {
    let subdomain = req.extensions().get::<BlogHost>().map(|h| h.0.clone()).unwrap_or_default();
    if subdomain == "www" {
        return Ok(responses::redirect(&format!("{}/", state.config.app_url())));
    }
    if !matches!(*req.method(), Method::GET | Method::HEAD) {
        return Ok(Response::builder()
            .status(StatusCode::METHOD_NOT_ALLOWED)
            .header(header::ALLOW, "GET, HEAD")
            .finish());
    }
    let site = &state.site;
    let path = req.uri().path();
    if let Some(token) = path.strip_prefix(paths::PREVIEW_PREFIX) {
        return preview(&state, subdomain, token).await;
    }
    if let Some(token) = path.strip_prefix(paths::CSS_PREVIEW_PREFIX) {
        return css_preview::page(&state, subdomain, token).await;
    }
    if let Some(token) = path.strip_prefix(paths::POST_PREVIEW_PREFIX) {
        return post_preview::page(&state, subdomain, token).await;
    }
    let query = req.uri().query();
    // `/?p=123` may be an old address of an imported post: not the index page cached for `/`.
    let names_an_item = path == "/" && old_paths::names_an_item(query);
    let key = cache_key(path, query);
    if let Some(key) = key.as_ref().filter(|_| !names_an_item)
        && let Some(page) = site.cache.get(&subdomain, key)
    {
        let page = with_gzip_if_asked(req, site, &subdomain, Some(key), page).await?;
        return Ok(responses::respond(req, site, &page));
    }
    // Past the cache: each render counts against the client's allowance.
    if let Some(too_many) = site.render_limit.refusal(client_ip(req, &state.config.trusted_proxies)) {
        return Ok(too_many);
    }
    // Read before the database, so a render racing a write is stored under the old generation.
    let generation = site.cache.generation(&subdomain);
    let Some(blog) = current_blog(&state, &subdomain, generation).await? else {
        return Ok(crate::http::plain_pages::no_blog(
            &state.config,
            Some(&format!("{subdomain}.{}", state.config.host)),
        ));
    };
    if names_an_item && let Some(location) = old_address(&state, &blog, path, query).await? {
        return Ok(responses::redirect(&location));
    }
    let mut page = render(&state, &blog, path, query, generation).await?;
    page.noai = blog.ai_crawlers.disallowed();
    let page = Arc::new(page);
    // A path the blog has no page at may be an old address of an imported post. The redirect
    // is worked out on each request, never cached: its path is whatever a visitor typed.
    if page.status == StatusCode::NOT_FOUND
        && let Some(location) = old_address(&state, &blog, path, query).await?
    {
        return Ok(responses::redirect(&location));
    }
    if let Some(key) = &key {
        site.cache.put(&subdomain, key, page.clone()); // 200s only: see PageCache::put
    }
    let page = with_gzip_if_asked(req, site, &subdomain, key.as_deref(), page).await?;
    Ok(responses::respond(req, site, &page))
}

/// `page` with its gzip form when the client accepts gzip and it is worth compressing: compressed
/// now (off the runtime) if it was not yet, and kept in the cache under `key` so it is compressed
/// once. A client that does not ask for gzip costs no compression at all.
async fn with_gzip_if_asked(
    req: &Request,
    site: &Arc<super::BlogSite>,
    subdomain: &str,
    key: Option<&str>,
    page: Arc<Page>,
) -> Result<Arc<Page>, Error> {
    if page.gzip.is_some() || !page.compressible() || !crate::http::client::accepts_gzip(req) {
        return Ok(page);
    }
    let (site, subdomain, key) = (site.clone(), subdomain.to_owned(), key.map(str::to_owned));
    views::off_runtime(move || Ok(site.cache.put_gzip(&subdomain, key.as_deref(), page))).await
}

/// The blog at `subdomain` as its pages show it, read once per generation (`generation` read
/// before the database, as for a page, so a read racing a write is kept under the old one).
async fn current_blog(state: &AppState, subdomain: &str, generation: u64) -> Result<Option<Arc<PublicBlog>>, Error> {
    if let Some(blog) = state.site.cache.blog(subdomain, generation) {
        return Ok(Some(blog));
    }
    let lookup = subdomain.to_owned();
    let Some(blog) = state.db.read(move |conn| public::blog(conn, &lookup)).await? else { return Ok(None) };
    let blog = Arc::new(blog);
    state.site.cache.put_blog(generation, blog.clone());
    Ok(Some(blog))
}

/// A preview link's answer, never cached (see `preview_links`).
async fn preview(state: &AppState, subdomain: String, token: &str) -> Result<Response, Error> {
    let generation = state.site.cache.generation(&subdomain);
    match uncached_blog(state, subdomain).await? {
        Ok(blog) => preview_links::serve(state, &blog, token, generation).await,
        Err(not_found) => Ok(not_found),
    }
}

/// The blog at `subdomain` read for a page never cached, or the answer that there is none.
pub(super) async fn uncached_blog(state: &AppState, subdomain: String) -> Result<Result<PublicBlog, Response>, Error> {
    let lookup = subdomain.clone();
    Ok(match state.db.read(move |conn| public::blog(conn, &lookup)).await? {
        Some(blog) => Ok(blog),
        None => {
            Err(crate::http::plain_pages::no_blog(&state.config, Some(&format!("{subdomain}.{}", state.config.host))))
        }
    })
}

/// Where the imported post or page that had the old address `path` (with `query`) is now,
/// if it had one and is published (see `domain::old_paths`).
async fn old_address(
    state: &AppState,
    blog: &PublicBlog,
    path: &str,
    query: Option<&str>,
) -> Result<Option<String>, Error> {
    let Some(key) = old_paths::request_key(path, query) else { return Ok(None) };
    let blog_id = blog.id;
    state.db.read(move |conn| redirects::target(conn, blog_id, &key)).await
}

/// The page at `path` of `blog`.
async fn render(
    state: &AppState,
    blog: &PublicBlog,
    path: &str,
    query: Option<&str>,
    generation: u64,
) -> Result<Page, Error> {
    match path {
        "/" => match page_param(query) {
            None => views::index(state, blog, 1, generation).await,
            Some(Ok(number)) => views::index(state, blog, number, generation).await,
            Some(Err(())) => Ok(views::not_found(state, blog, generation)),
        },
        paths::FEED | paths::RSS => feeds::feed(state, blog, path == paths::RSS, generation).await,
        paths::SITEMAP => feeds::sitemap(state, blog, generation).await,
        paths::ROBOTS => Ok(feeds::robots(state, blog, generation)),
        paths::FAVICON => Ok(feeds::favicon(blog, generation)),
        paths::SEARCH if blog.has("search-box") => views::search(state, blog, query, generation).await,
        _ if path.starts_with("/theme-") => match state.site.themes.at_path(path) {
            Some(theme) => {
                let mut page = Page::new(StatusCode::OK, "text/css; charset=utf-8", theme.css.clone(), generation);
                page.immutable = true;
                Ok(page)
            }
            None => Ok(views::not_found(state, blog, generation)),
        },
        // Slugs hold no dot: a post or page whose slug starts with `custom-` is not caught here.
        _ if path.starts_with("/custom-") && path.ends_with(".css") => {
            match super::themes::custom_path(&blog.custom_css) {
                Some(current) if current == path => {
                    let css = blog.custom_css.clone();
                    let mut page = Page::new(StatusCode::OK, "text/css; charset=utf-8", css, generation);
                    page.immutable = true;
                    Ok(page)
                }
                _ => Ok(views::not_found(state, blog, generation)),
            }
        }
        _ if path.starts_with(paths::TAGS_PREFIX) => match tag_path(path) {
            Some((tag, false)) => match page_param(query) {
                None => views::tag(state, blog, tag, 1, generation).await,
                Some(Ok(number)) => views::tag(state, blog, tag, number, generation).await,
                Some(Err(())) => Ok(views::not_found(state, blog, generation)),
            },
            Some((tag, true)) => feeds::tag_feed(state, blog, tag, generation).await,
            None => Ok(views::not_found(state, blog, generation)),
        },
        _ if path.len() > 1 && !path[1..].contains('/') => views::post(state, blog, &path[1..], generation).await,
        _ => Ok(views::not_found(state, blog, generation)),
    }
}

/// The tag of a `/tags/{tag}` (false) or `/tags/{tag}/feed.xml` (true) path.
fn tag_path(path: &str) -> Option<(&str, bool)> {
    let rest = path.strip_prefix(paths::TAGS_PREFIX)?;
    let (tag, feed) = match rest.strip_suffix(paths::FEED) {
        Some(tag) => (tag, true),
        None => (rest, false),
    };
    is_tag(tag).then_some((tag, feed))
}

/// The cache key of a request, `None` for pages never cached (search results).
fn cache_key(path: &str, query: Option<&str>) -> Option<String> {
    match path {
        paths::SEARCH => None,
        _ if path.starts_with(paths::TAGS_PREFIX) && !path.ends_with(paths::FEED) => Some(match page_param(query) {
            Some(Ok(1)) | None => path.to_owned(),
            Some(Ok(n)) => format!("{path}?page={n}"),
            Some(Err(())) => format!("{path}?page=invalid"),
        }),
        "/" => Some(match page_param(query) {
            Some(Ok(1)) | None => "/".to_owned(),
            Some(Ok(n)) => format!("/?page={n}"),
            Some(Err(())) => "/?page=invalid".to_owned(),
        }),
        _ => Some(path.to_owned()),
    }
}

/// The index page number asked for in `?page=`: absent, valid, or not a page number.
fn page_param(query: Option<&str>) -> Option<Result<u64, ()>> {
    let params: HashMap<String, String> = serde_urlencoded::from_str(query?).ok()?;
    let raw = params.get("page")?;
    Some(raw.parse::<u64>().ok().filter(|&n| (1..=1_000_000).contains(&n)).ok_or(()))
}
