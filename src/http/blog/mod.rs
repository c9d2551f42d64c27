//! Public blogs at `{subdomain}.{host}`: server-rendered, cached, no script of our own.

pub mod cache;
pub mod render;
pub mod views;

use std::collections::HashMap;
use std::sync::Arc;

use askama::Template;
use poem::http::{Method, StatusCode, header};
use poem::web::Data;
use poem::{Request, Response, Route, handler};
use sha2::{Digest, Sha256};

use crate::app::AppState;
use crate::config::Config;
use crate::db::posts::Post;
use crate::db::public::{self, PublicBlog};
use crate::domain::blocks::{Block, Body};
use crate::domain::post::split_permalink;
use crate::domain::{dates, embed};
use crate::error::Error;
use crate::http::pages;
use cache::{Page, PageCache};
use render::{AtomFeed, FeedEntry, IndexPage, Layout, NotFoundPage, PostPage, RssFeed, SearchPage, Sitemap, SitemapEntry};
use views::ViewCounter;

/// The blog's subdomain, put on the request by the host router.
#[derive(Debug, Clone)]
pub struct BlogHost(pub String);

/// Posts per index page.
const PAGE_SIZE: u32 = 10;
/// Posts in a feed.
const FEED_SIZE: u32 = 20;
/// Public search results.
const SEARCH_LIMIT: usize = 20;

/// What public pages share: the page cache, theme styles and view counts.
pub struct Public {
    /// Rendered pages.
    pub cache: PageCache,
    /// Pending page views.
    pub views: ViewCounter,
    themes: HashMap<&'static str, Theme>,
}

struct Theme {
    css: String,
    /// Its content-addressed path on every blog, e.g. `/theme-default-1a2b3c4d5e.css`.
    path: String,
}

const BASE_CSS: &str = include_str!("../../../assets/themes/base.css");
const THEMES: [(&str, &str); 4] = [
    ("default", include_str!("../../../assets/themes/default.css")),
    ("serif", include_str!("../../../assets/themes/serif.css")),
    ("mono", include_str!("../../../assets/themes/mono.css")),
    ("dark", include_str!("../../../assets/themes/dark.css")),
];

impl Default for Public {
    fn default() -> Self {
        let themes = THEMES
            .iter()
            .map(|(slug, vars)| {
                let css = format!("{}{}", vars.trim(), BASE_CSS.trim());
                let path = format!("/theme-{slug}-{}.css", &hex::encode(Sha256::digest(css.as_bytes()))[..10]);
                (*slug, Theme { css, path })
            })
            .collect();
        Public { cache: PageCache::default(), views: ViewCounter::default(), themes }
    }
}

impl Public {
    fn theme(&self, slug: &str) -> &Theme {
        self.themes.get(slug).unwrap_or_else(|| &self.themes["default"])
    }

    fn theme_at(&self, path: &str) -> Option<&Theme> {
        self.themes.values().find(|theme| theme.path == path)
    }
}

/// The route table of a blog: one handler that dispatches on the path.
pub fn routes() -> Route {
    Route::new().at("/", serve).at("/*path", serve)
}

#[handler]
async fn serve(req: &Request, state: Data<&AppState>) -> Result<Response, Error> {
    let subdomain = req.extensions().get::<BlogHost>().map(|h| h.0.clone()).unwrap_or_default();
    if subdomain == "www" {
        return Ok(redirect(&format!("{}/", state.config.app_url())));
    }
    if !matches!(*req.method(), Method::GET | Method::HEAD) {
        return Ok(Response::builder().status(StatusCode::METHOD_NOT_ALLOWED).header(header::ALLOW, "GET, HEAD").finish());
    }
    let path = req.uri().path();
    let key = cache_key(path, req.uri().query());
    if let Some(key) = &key {
        if let Some(page) = state.public.cache.get(&subdomain, key) {
            return Ok(respond(req, &state, &page));
        }
    }
    let generation = state.public.cache.generation(&subdomain);
    let lookup = subdomain.clone();
    let Some(blog) = state.db.read(move |conn| public::blog(conn, &lookup)).await? else {
        return Ok(pages::not_found("Blog not found", &format!("There is no blog at {subdomain}.{}.", state.config.host)));
    };
    let page = Arc::new(render(&state, &blog, path, req.uri().query(), generation).await?);
    if let (Some(key), StatusCode::OK | StatusCode::MOVED_PERMANENTLY) = (&key, page.status) {
        state.public.cache.put(&subdomain, key, page.clone());
    }
    Ok(respond(req, &state, &page))
}

/// The cache key of a request, `None` for pages never cached (search results).
fn cache_key(path: &str, query: Option<&str>) -> Option<String> {
    match path {
        "/search" => None,
        "/" => Some(match page_param(query) {
            Some(Ok(1)) | None => "/".to_owned(),
            Some(Ok(n)) => format!("/?page={n}"),
            Some(Err(())) => "/?page=invalid".to_owned(),
        }),
        _ => Some(path.to_owned()),
    }
}

fn page_param(query: Option<&str>) -> Option<Result<u64, ()>> {
    let params: HashMap<String, String> = serde_urlencoded::from_str(query?).ok()?;
    let raw = params.get("page")?;
    Some(raw.parse::<u64>().ok().filter(|&n| (1..=1_000_000).contains(&n)).ok_or(()))
}

async fn render(state: &AppState, blog: &PublicBlog, path: &str, query: Option<&str>, generation: u64) -> Result<Page, Error> {
    let config = &state.config;
    let blog_url = config.blog_url(&blog.subdomain);
    match path {
        "/" => index_page(state, blog, query, generation).await,
        "/feed.xml" | "/rss.xml" => feed(state, blog, path == "/rss.xml", generation).await,
        "/sitemap.xml" => sitemap(state, blog, generation).await,
        "/robots.txt" => Ok(Page::new(
            StatusCode::OK,
            "text/plain; charset=utf-8",
            format!("User-agent: *\nAllow: /\n\nSitemap: {blog_url}/sitemap.xml\n"),
            generation,
        )),
        "/favicon.svg" => Ok(Page::new(
            StatusCode::OK,
            "image/svg+xml",
            format!(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 100 100\"><text x=\"50\" y=\".9em\" font-size=\"85\" text-anchor=\"middle\">{}</text></svg>",
                pages::escape(&blog.favicon)
            ),
            generation,
        )),
        "/search" if blog.has("search-box") => search_page(state, blog, query, generation).await,
        _ if path.starts_with("/theme-") => match state.public.theme_at(path) {
            Some(theme) => {
                let mut page = Page::new(StatusCode::OK, "text/css; charset=utf-8", theme.css.clone(), generation);
                page.immutable = true;
                Ok(page)
            }
            None => Ok(not_found(state, blog, generation)),
        },
        _ => match split_permalink(path.trim_start_matches('/')) {
            Some((slug, short_id)) if !path[1..].contains('/') => post_page(state, blog, slug, short_id, generation).await,
            _ => Ok(not_found(state, blog, generation)),
        },
    }
}

fn html_page(config: &Config, blog: &PublicBlog, status: StatusCode, html: String, generation: u64) -> Page {
    let mut frames = String::from("https://open.spotify.com");
    let mut scripts = String::from("'none'");
    if blog.has("rich-tweet-embeds") {
        frames.push_str(" https://platform.twitter.com");
        scripts = "https://platform.twitter.com".to_owned();
    }
    let mut page = Page::new(status, "text/html; charset=utf-8", html, generation);
    page.csp = Some(format!(
        "default-src 'none'; style-src 'self'; connect-src 'self'; img-src 'self' data: https: {app}; \
         frame-src {frames}; \
         script-src {scripts}; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
        app = config.app_url()
    ));
    page
}

fn layout(state: &AppState, blog: &PublicBlog, path: &str) -> Layout {
    let theme = state.public.theme(&blog.theme);
    Layout::new(blog, theme.path.clone(), &state.config.app_url(), &state.config.blog_url(&blog.subdomain), path)
}

fn not_found(state: &AppState, blog: &PublicBlog, generation: u64) -> Page {
    let mut layout = layout(state, blog, "/");
    layout.title = format!("Page not found · {}", blog.name);
    layout.noindex = true;
    let html = NotFoundPage { layout }.render().unwrap_or_default();
    html_page(&state.config, blog, StatusCode::NOT_FOUND, html, generation)
}

fn parse_body(post: &Post) -> Result<Body, Error> {
    Body::from_json(&post.body_json).map_err(Error::Internal)
}

fn later<'a>(a: &'a str, b: Option<&'a str>) -> &'a str {
    match b {
        Some(b) if b > a => b,
        _ => a,
    }
}

async fn index_page(state: &AppState, blog: &PublicBlog, query: Option<&str>, generation: u64) -> Result<Page, Error> {
    let page = match page_param(query) {
        None => 1,
        Some(Ok(n)) => n,
        Some(Err(())) => return Ok(not_found(state, blog, generation)),
    };
    let id = blog.id;
    let (total, posts) = state
        .db
        .read(move |conn| {
            let total = public::count_published(conn, id)?;
            let posts = public::published(conn, id, (page - 1) * u64::from(PAGE_SIZE), PAGE_SIZE)?;
            Ok((total, posts))
        })
        .await?;
    let pages = total.div_ceil(u64::from(PAGE_SIZE)).max(1);
    if page > pages {
        return Ok(not_found(state, blog, generation));
    }
    let path = if page == 1 { "/".to_owned() } else { format!("/?page={page}") };
    let mut layout = layout(state, blog, &path);
    if page > 1 {
        layout.title = format!("{} · page {page}", blog.name);
    }
    let reading_time = blog.has("reading-time");
    let summaries = posts
        .iter()
        .map(|post| Ok(render::summary(post, &parse_body(post)?, reading_time)))
        .collect::<Result<Vec<_>, Error>>()?;
    let html = IndexPage {
        layout,
        posts: summaries,
        newer: (page > 1).then(|| if page == 2 { "/".to_owned() } else { format!("/?page={}", page - 1) }),
        older: (page < pages).then(|| format!("/?page={}", page + 1)),
    }
    .render()
    .map_err(|err| Error::Internal(err.into()))?;
    let mut rendered = html_page(&state.config, blog, StatusCode::OK, html, generation);
    rendered.last_modified = dates::http(later(&blog.updated_at, blog.posts_updated_at.as_deref()));
    Ok(rendered)
}

async fn post_page(state: &AppState, blog: &PublicBlog, slug: &str, short_id: &str, generation: u64) -> Result<Page, Error> {
    let (id, sid) = (blog.id, short_id.to_owned());
    let Some(post) = state.db.read(move |conn| public::published_post(conn, id, &sid)).await? else {
        return Ok(not_found(state, blog, generation));
    };
    let path = format!("/{}-{}", post.slug, post.short_id);
    if slug != post.slug {
        let mut page = Page::new(StatusCode::MOVED_PERMANENTLY, "text/plain; charset=utf-8", String::new(), generation);
        page.location = Some(path);
        return Ok(page);
    }
    let body = parse_body(&post)?;
    let (blocks, toc) = render::block_views(&body);
    let url = format!("{}{path}", state.config.blog_url(&blog.subdomain));
    let mut layout = layout(state, blog, &path);
    layout.title = format!("{} · {}", post.title, blog.name);
    layout.og_type = "article";
    let excerpt = render::excerpt_of(&body, 160);
    if !excerpt.is_empty() {
        layout.description = excerpt;
    }
    let published = post.published_at.clone().unwrap_or_else(|| post.created_at.clone());
    let html = PostPage {
        layout,
        title: post.title.clone(),
        published_iso: dates::iso(&published),
        published_human: dates::human(&published),
        reading_minutes: blog.has("reading-time").then(|| embed::reading_minutes(&body.text())),
        toc: if blog.has("table-of-contents") { toc } else { Vec::new() },
        has_tweets: body.children.iter().any(|b| matches!(b, Block::Tweet { .. })),
        blocks,
        share: blog.has("share-buttons").then(|| render::share_links(&url, &post.title)),
        rich_tweets: blog.has("rich-tweet-embeds"),
    }
    .render()
    .map_err(|err| Error::Internal(err.into()))?;
    let mut page = html_page(&state.config, blog, StatusCode::OK, html, generation);
    page.last_modified = dates::http(later(&post.updated_at, Some(&blog.updated_at)));
    page.counts_view_of = blog.has("page-views").then_some(post.id);
    Ok(page)
}

async fn search_page(state: &AppState, blog: &PublicBlog, query: Option<&str>, generation: u64) -> Result<Page, Error> {
    let params: HashMap<String, String> = serde_urlencoded::from_str(query.unwrap_or("")).unwrap_or_default();
    let q: String = params.get("q").map(|q| q.trim()).unwrap_or("").chars().take(200).collect();
    let mut results = Vec::new();
    if !q.is_empty() {
        let (search, id, text) = (state.search.clone(), blog.id, q.clone());
        let ids = tokio::task::spawn_blocking(move || search.search(id, &text, true, SEARCH_LIMIT))
            .await
            .map_err(|err| Error::Internal(err.into()))??;
        let posts = state.db.read(move |conn| public::published_by_ids(conn, id, &ids)).await?;
        for post in &posts {
            results.push(render::summary(post, &parse_body(post)?, false));
        }
    }
    let mut layout = layout(state, blog, "/search");
    layout.title = format!("Search · {}", blog.name);
    layout.noindex = true;
    layout.query = q;
    let html = SearchPage { layout, results }.render().map_err(|err| Error::Internal(err.into()))?;
    Ok(html_page(&state.config, blog, StatusCode::OK, html, generation))
}

async fn feed(state: &AppState, blog: &PublicBlog, rss: bool, generation: u64) -> Result<Page, Error> {
    let id = blog.id;
    let posts = state.db.read(move |conn| public::published(conn, id, 0, FEED_SIZE)).await?;
    let blog_url = state.config.blog_url(&blog.subdomain);
    let mut entries = Vec::with_capacity(posts.len());
    for post in &posts {
        let (blocks, _) = render::block_views(&parse_body(post)?);
        let published = post.published_at.as_deref().unwrap_or(&post.created_at);
        entries.push(FeedEntry {
            title: post.title.clone(),
            url: format!("{blog_url}/{}-{}", post.slug, post.short_id),
            published: if rss { dates::rfc2822(published) } else { dates::iso(published) },
            updated: dates::iso(&post.updated_at),
            html: render::feed_html(&blocks),
        });
    }
    let newest = later(&blog.updated_at, blog.posts_updated_at.as_deref()).to_owned();
    let (body, content_type) = if rss {
        let feed = RssFeed { blog_name: blog.name.clone(), blog_url, updated: dates::rfc2822(&newest), items: entries };
        (feed.render(), "application/rss+xml; charset=utf-8")
    } else {
        let feed = AtomFeed { blog_name: blog.name.clone(), blog_url, updated: dates::iso(&newest), entries };
        (feed.render(), "application/atom+xml; charset=utf-8")
    };
    let mut page = Page::new(StatusCode::OK, content_type, body.map_err(|err| Error::Internal(err.into()))?, generation);
    page.last_modified = dates::http(&newest);
    Ok(page)
}

async fn sitemap(state: &AppState, blog: &PublicBlog, generation: u64) -> Result<Page, Error> {
    let id = blog.id;
    let posts = state.db.read(move |conn| public::published(conn, id, 0, 50_000)).await?;
    let blog_url = state.config.blog_url(&blog.subdomain);
    let entries = posts
        .iter()
        .map(|post| SitemapEntry { url: format!("{blog_url}/{}-{}", post.slug, post.short_id), updated: dates::day(&post.updated_at) })
        .collect();
    let lastmod = blog.posts_updated_at.as_deref().map(dates::day);
    let xml = Sitemap { blog_url, lastmod, entries }.render().map_err(|err| Error::Internal(err.into()))?;
    Ok(Page::new(StatusCode::OK, "application/xml; charset=utf-8", xml, generation))
}

fn redirect(location: &str) -> Response {
    Response::builder().status(StatusCode::MOVED_PERMANENTLY).header(header::LOCATION, location).finish()
}

/// Answers with a page: 304 when the client's copy is current, gzip when accepted.
fn respond(req: &Request, state: &AppState, page: &Page) -> Response {
    if let Some(post_id) = page.counts_view_of {
        state.public.views.add(post_id);
    }
    if let Some(location) = &page.location {
        return redirect(location);
    }
    let cache_control = if page.immutable { "public, max-age=31536000, immutable" } else { "public, max-age=0, must-revalidate" };
    let mut builder = Response::builder().header(header::ETAG, page.etag.as_str()).header(header::CACHE_CONTROL, cache_control);
    if let Some(modified) = &page.last_modified {
        builder = builder.header(header::LAST_MODIFIED, modified.as_str());
    }
    if let Some(csp) = &page.csp {
        builder = builder.header("content-security-policy", csp.as_str());
    }
    if page.gzip.is_some() {
        builder = builder.header(header::VARY, "Accept-Encoding");
    }
    let fresh = match req.header(header::IF_NONE_MATCH) {
        Some(tags) => tags.split(',').any(|tag| tag.trim() == page.etag || tag.trim() == "*"),
        None => page.last_modified.as_deref().is_some_and(|modified| req.header(header::IF_MODIFIED_SINCE) == Some(modified)),
    };
    if fresh && page.status == StatusCode::OK {
        return builder.status(StatusCode::NOT_MODIFIED).finish();
    }
    let builder = builder.status(page.status).content_type(page.content_type);
    let accepts_gzip = req
        .header(header::ACCEPT_ENCODING)
        .is_some_and(|v| v.split(',').any(|enc| enc.trim() == "gzip" || enc.trim().starts_with("gzip;") && !enc.contains("q=0")));
    match (&page.gzip, accepts_gzip) {
        (Some(gzip), true) => builder.header(header::CONTENT_ENCODING, "gzip").body(gzip.clone()),
        _ => builder.body(page.body.clone()),
    }
}
