//! The HTML pages of a blog: the index, a post, search results and its themed 404.

use std::collections::HashMap;

use askama::Template;
use poem::http::StatusCode;

use super::cache::Page;
use super::comments;
use super::responses::html_page;
use super::templates::{self, FeedLink, ImageSizes, IndexPage, Layout, NotFoundPage, PostPage, SearchPage, TagPage};
use super::themes::Themes;
use crate::config::Config;
use crate::db::images;
use crate::db::posts::Post;
use crate::db::public::{self, PublicBlog};
use crate::db::replies::Reply;
use crate::db::responses::{self, Response};
use crate::db::{pages, replies, tags};
use crate::domain::blog::post_address::split_permalink;
use crate::domain::content::blocks::{Block, Body};
use crate::domain::content::image::ImageType;
use crate::domain::paths;
use crate::domain::{content::dates, content::reader_view};
use crate::error::Error;
use crate::http::state::AppState;

/// Posts per index page.
pub const PAGE_SIZE: u32 = 10;
/// Public search results.
const SEARCH_LIMIT: usize = 20;

/// What renders a blog's pages besides their data: the deployment's addresses and the theme
/// stylesheets. The live pages and the static site export (`static_site.rs`) render with it.
#[derive(Clone, Copy)]
pub struct Look<'a> {
    /// The deployment's settings (the app's and the blogs' addresses).
    pub config: &'a Config,
    /// The theme stylesheets.
    pub themes: &'a Themes,
    /// The email subscribe form's token on a live page of a blog that takes subscribers
    /// ([`subscribe_token`]): the index, posts, tag pages and search; None in the static site
    /// export and on the other pages.
    pub subscribe_token: Option<&'a str>,
}

impl<'a> Look<'a> {
    /// The look of the live site.
    pub fn of(state: &'a AppState) -> Look<'a> {
        Look { config: &state.config, themes: &state.site.themes, subscribe_token: None }
    }

    /// The layout every page of `blog` at `path` shares.
    pub fn layout(self, blog: &PublicBlog, path: &str) -> Layout {
        let theme = self.themes.by_slug(&blog.theme);
        let mut layout = Layout::new(
            blog,
            theme.path.clone(),
            &self.config.app_url(),
            &self.config.blog_origin(&blog.address),
            path,
        );
        layout.subscribe_token = self.subscribe_token.map(str::to_owned);
        layout
    }
}

/// A fresh token for the email subscribe form of `blog`'s pages, when the instance sends mail
/// and the blog takes subscribers (approved, sending email). A cached page keeps the token it
/// was rendered with: its minimum fill time counts from the render.
pub fn subscribe_token(state: &AppState, blog: &PublicBlog) -> Option<String> {
    let takes = state.config.mail_enabled() && blog.state.sends_email(blog.email_enabled);
    takes.then(|| state.auth.forms.issue(super::subscribe::PURPOSE, unix_now()))
}

fn unix_now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |elapsed| elapsed.as_secs())
}

/// The blog's themed 404 page.
pub fn not_found(state: &AppState, blog: &PublicBlog, generation: u64) -> Page {
    html_page(&state.config, blog, StatusCode::NOT_FOUND, not_found_html(Look::of(state), blog), generation)
}

/// The HTML of the blog's 404 page.
pub fn not_found_html(look: Look<'_>, blog: &PublicBlog) -> String {
    let mut layout = look.layout(blog, "/");
    layout.title = format!("Page not found · {}", blog.name);
    layout.noindex = true;
    NotFoundPage { layout }.render().unwrap_or_default()
}

/// A stored post's body.
pub fn parse_body(post: &Post) -> Result<Body, Error> {
    Body::from_json(&post.body_json).map_err(Error::Internal)
}

/// The width and height of the body's images uploaded here (the only ones whose size Quire
/// knows; an image elsewhere is shown without them).
pub async fn image_sizes(state: &AppState, body: &Body) -> Result<ImageSizes, Error> {
    let names = upload_hashes(&state.config, body);
    if names.is_empty() {
        return Ok(ImageSizes::new());
    }
    state.db.read(move |conn| sizes_of(conn, names)).await
}

/// [`image_sizes`] read with `conn`.
pub fn image_sizes_in(conn: &rusqlite::Connection, config: &Config, body: &Body) -> Result<ImageSizes, Error> {
    sizes_of(conn, upload_hashes(config, body))
}

/// The URLs of the body's images uploaded here, with their files' hashes.
fn upload_hashes(config: &Config, body: &Body) -> Vec<(String, String)> {
    let prefix = config.image_prefix();
    body.children
        .iter()
        .filter_map(|block| match block {
            Block::Image { url, .. } => {
                let name = url.strip_prefix(&prefix)?;
                ImageType::of_stored_name(name)?;
                Some((url.clone(), name.split_once('.')?.0.to_owned()))
            }
            _ => None,
        })
        .collect()
}

fn sizes_of(conn: &rusqlite::Connection, names: Vec<(String, String)>) -> Result<ImageSizes, Error> {
    if names.is_empty() {
        return Ok(ImageSizes::new());
    }
    let hashes: Vec<&str> = names.iter().map(|(_, hash)| hash.as_str()).collect();
    let by_hash = images::sizes(conn, &hashes)?;
    Ok(names.iter().filter_map(|(url, hash)| Some((url.clone(), *by_hash.get(hash)?))).collect())
}

/// The HTML of a body's blocks as a post page shows them (without tweet scripts): the
/// editor's preview.
pub async fn blocks_html(state: &AppState, body: Body) -> Result<String, Error> {
    let sizes = image_sizes(state, &body).await?;
    off_runtime(move || {
        let blocks = templates::block_views(&body, &sizes).0;
        templates::BlocksFragment { blocks, rich_tweets: false }.render().map_err(|err| Error::Internal(err.into()))
    })
    .await
}

/// Runs `render` on the blocking pool. Parsing stored bodies, rendering, hashing and
/// compressing a page of big posts takes milliseconds that would hold up an async worker.
pub async fn off_runtime<T: Send + 'static>(
    render: impl FnOnce() -> Result<T, Error> + Send + 'static,
) -> Result<T, Error> {
    tokio::task::spawn_blocking(render).await.map_err(|err| Error::Internal(err.into()))?
}

/// The later of two timestamps (ISO 8601 strings compare in time order); `b` may be absent.
pub fn newest_of<'a>(a: &'a str, b: Option<&'a str>) -> &'a str {
    match b {
        Some(b) if b > a => b,
        _ => a,
    }
}

/// Page `number` of the newest published posts (a 404 past the last page).
pub async fn index(state: &AppState, blog: &PublicBlog, number: u64, generation: u64) -> Result<Page, Error> {
    let id = blog.id;
    let (config, site, shown) = (state.config.clone(), state.site.clone(), blog.clone());
    let token = subscribe_token(state, blog);
    let rendered = state
        .db
        .read_then(
            move |conn| {
                let total = public::count_published(conn, id)?;
                let posts = public::published(conn, id, (number - 1) * u64::from(PAGE_SIZE), PAGE_SIZE)?;
                Ok((total, posts))
            },
            move |(total, posts)| {
                let pages = total.div_ceil(u64::from(PAGE_SIZE)).max(1);
                if number > pages {
                    return Ok(None);
                }
                let look = Look { config: &config, themes: &site.themes, subscribe_token: token.as_deref() };
                let html = index_html(look, &shown, &posts, number, pages)?;
                let mut rendered = html_page(&config, &shown, StatusCode::OK, html, generation);
                rendered.last_modified = dates::http(newest_of(&shown.updated_at, shown.posts_updated_at.as_deref()));
                Ok(Some(rendered))
            },
        )
        .await?;
    Ok(rendered.unwrap_or_else(|| not_found(state, blog, generation)))
}

/// The HTML of index page `number` of `pages`, listing `posts`.
pub fn index_html(look: Look<'_>, blog: &PublicBlog, posts: &[Post], number: u64, pages: u64) -> Result<String, Error> {
    let path = if number == 1 { "/".to_owned() } else { format!("/?page={number}") };
    let mut layout = look.layout(blog, &path);
    layout.home = true;
    if number > 1 {
        layout.title = format!("{} · page {number}", blog.name);
    } else {
        layout.activity = Some(look.config.actor_id(&blog.subdomain));
    }
    IndexPage {
        layout,
        posts: summaries(blog, posts, blog.has("reading-time"))?,
        newer: (number > 1).then(|| if number == 2 { "/".to_owned() } else { format!("/?page={}", number - 1) }),
        older: (number < pages).then(|| format!("/?page={}", number + 1)),
    }
    .render()
    .map_err(|err| Error::Internal(err.into()))
}

/// The published post or page at `/{segment}`: a post's `{slug}-{shortId}` (an old slug with
/// the right short id redirects to the current address, as does a page's), else a page's
/// `{slug}`. Read and rendered in one trip off the async runtime.
pub async fn post(state: &AppState, blog: &PublicBlog, segment: &str, generation: u64) -> Result<Page, Error> {
    let (id, wanted) = (blog.id, segment.to_owned());
    let (reading, rendering, shown) = (state.config.clone(), state.clone(), blog.clone());
    let rendered = state
        .db
        .read_then(
            move |conn| {
                let post = split_permalink(&wanted).map(|(_, short_id)| public::published_post(conn, id, short_id));
                let found = match post.transpose()?.flatten() {
                    Some(post) => Some(post),
                    None => pages::published_page(conn, id, &wanted)?,
                };
                let Some(post) = found else { return Ok(Found::Nothing) };
                let path = post.path();
                if path[1..] != *wanted {
                    return Ok(Found::Moved(path));
                }
                let parts = read_post_parts(conn, &reading, &post, false)?;
                Ok(Found::Post(Box::new((post, parts)), path))
            },
            move |found| match found {
                Found::Nothing => Ok(None),
                Found::Moved(path) => {
                    let mut page = Page::new(
                        StatusCode::MOVED_PERMANENTLY,
                        "text/plain; charset=utf-8",
                        String::new(),
                        generation,
                    );
                    page.location = Some(path);
                    Ok(Some(page))
                }
                Found::Post(found, path) => {
                    let (post, parts) = *found;
                    // Issued only for a page that shows the form: not for a redirect or a 404.
                    let token = subscribe_token(&rendering, &shown);
                    let comment_token =
                        comments::shows_form(&shown, &post).then(|| comments::form_token(&rendering, post.id));
                    let rendered =
                        Rendering { blog: &shown, path: &path, preview: false, generation, token, comment_token };
                    post_page(&rendering, rendered, &post, parts).map(Some)
                }
            },
        )
        .await?;
    Ok(rendered.unwrap_or_else(|| not_found(state, blog, generation)))
}

/// What a post's address found.
enum Found {
    /// No published post or page.
    Nothing,
    /// A post or page now at another path.
    Moved(String),
    /// The post or page at its path, with what its page shows.
    Post(Box<(Post, PostParts)>, String),
}

/// What a post's page shows besides the post: its body parsed, its images' sizes, and its
/// approved replies, comments and webmentions (none in a preview).
struct PostParts {
    body: Body,
    sizes: ImageSizes,
    replies: Vec<Reply>,
    responses: Vec<Response>,
}

/// [`PostParts`] of `post`, read with `conn`.
fn read_post_parts(
    conn: &rusqlite::Connection,
    config: &Config,
    post: &Post,
    preview: bool,
) -> Result<PostParts, Error> {
    let body = parse_body(post)?;
    let sizes = image_sizes_in(conn, config, &body)?;
    let (replies, responses) = match preview {
        true => (Vec::new(), Vec::new()),
        false => (replies::approved_for_post(conn, post.id)?, responses::approved_for_post(conn, post.id)?),
    };
    Ok(PostParts { body, sizes, replies, responses })
}

/// Where and how a post's page is rendered.
struct Rendering<'a> {
    blog: &'a PublicBlog,
    path: &'a str,
    preview: bool,
    generation: u64,
    /// The subscribe form's token.
    token: Option<String>,
    /// The comment form's token.
    comment_token: Option<String>,
}

/// Whether `post` of `blog` takes webmentions: a published post (not a page) of an approved blog.
pub fn takes_webmentions(blog: &PublicBlog, post: &Post) -> bool {
    blog.state == crate::domain::blog::trust_state::TrustState::Approved && post.is_published_post()
}

/// What answers a post on its page: its approved fediverse replies, comments and webmentions,
/// and the comment form's token when it takes comments.
pub struct Answers<'a> {
    /// Approved replies from the fediverse.
    pub replies: &'a [Reply],
    /// Approved comments and webmentions.
    pub responses: &'a [Response],
    /// The comment form's token (None: no form).
    pub comment_token: Option<String>,
    /// The blog's webmention endpoint, when the post takes webmentions.
    pub webmention: Option<String>,
}

/// The page of `post` at `path`: its permalink, or (`preview`) its secret preview link, which
/// is not indexed, shares nothing and counts no view.
pub async fn render_post(
    state: &AppState,
    blog: &PublicBlog,
    post: Post,
    path: &str,
    preview: bool,
    generation: u64,
) -> Result<Page, Error> {
    let (reading, rendering, blog, path) = (state.config.clone(), state.clone(), blog.clone(), path.to_owned());
    let token = if preview { None } else { subscribe_token(state, &blog) };
    let comment_token = (!preview && comments::shows_form(&blog, &post)).then(|| comments::form_token(state, post.id));
    state
        .db
        .read_then(
            move |conn| Ok((read_post_parts(conn, &reading, &post, preview)?, post)),
            move |(parts, post)| {
                let rendered = Rendering { blog: &blog, path: &path, preview, generation, token, comment_token };
                post_page(&rendering, rendered, &post, parts)
            },
        )
        .await
}

/// The page of `post` with its `parts`, rendered as `rendering` says.
fn post_page(state: &AppState, rendering: Rendering<'_>, post: &Post, parts: PostParts) -> Result<Page, Error> {
    let Rendering { blog, path, preview, generation, token, comment_token } = rendering;
    let config = &state.config;
    let look = Look { config, themes: &state.site.themes, subscribe_token: token.as_deref() };
    let webmention = (!preview && takes_webmentions(blog, post))
        .then(|| format!("{}{}", config.blog_origin(&blog.address), paths::WEBMENTION));
    let link = webmention.as_ref().map(|endpoint| format!("<{endpoint}>; rel=\"webmention\""));
    let answers = Answers { replies: &parts.replies, responses: &parts.responses, comment_token, webmention };
    let html = post_html(look, blog, post, &parts.body, &parts.sizes, path, preview, &answers)?;
    let mut page = html_page(config, blog, StatusCode::OK, html, generation);
    if let Some(link) = link {
        page.link = Some(page.link.map_or(link.clone(), |discovery| format!("{discovery}, {link}")));
    }
    page.last_modified = dates::http(newest_of(&post.updated_at, Some(&blog.updated_at)));
    page.counts_view_of = (blog.has("page-views") && !preview).then_some(post.id);
    page.noindex = post.unlisted;
    Ok(page)
}

/// The HTML of `post` (its `body` parsed, its images' `sizes`) at `path`; a `preview` is not
/// indexed and shares nothing.
/// `answers`: its approved replies, comments and webmentions, shown under it, and its comment form.
pub fn post_html(
    look: Look<'_>,
    blog: &PublicBlog,
    post: &Post,
    body: &Body,
    sizes: &ImageSizes,
    path: &str,
    preview: bool,
    answers: &Answers<'_>,
) -> Result<String, Error> {
    let url = format!("{}{path}", look.config.blog_origin(&blog.address));
    let mut layout = look.layout(blog, path);
    layout.title = format!("{} · {}", post.title, blog.name);
    layout.og_type = "article";
    // An unlisted post is reachable by its link, never indexed (the header too: `Page::noindex`).
    layout.noindex |= preview || post.unlisted;
    if post.federates() && !preview {
        layout.activity = Some(look.config.ap_post_id(&blog.subdomain, &post.short_id));
    }
    layout.webmention = answers.webmention.clone();
    if !preview {
        layout.report_url = paths::report_post(&look.config.app_url(), &url);
    }
    let (blocks, toc) = templates::block_views(body, sizes);
    let excerpt = templates::excerpt_of(body, 160);
    if !excerpt.is_empty() {
        layout.description = excerpt;
    }
    let published = post.published_at.as_deref().or(post.scheduled_at.as_deref()).unwrap_or(&post.created_at);
    PostPage {
        layout,
        title: post.title.clone(),
        published_iso: dates::iso_in(published, &blog.time_zone),
        published_human: dates::human(published, &blog.time_zone),
        reading_minutes: blog.has("reading-time").then(|| reader_view::reading_minutes(&body.text())),
        toc: if blog.has("table-of-contents") { toc } else { Vec::new() },
        has_tweets: body.children.iter().any(|b| matches!(b, Block::Tweet { .. })),
        blocks,
        share: (blog.has("share-buttons") && !preview).then(|| templates::share_links(&url, &post.title)),
        rich_tweets: blog.has("rich-tweet-embeds"),
        is_page: post.page_position.is_some(),
        tags: if post.page_position.is_some() { Vec::new() } else { post.tags.clone() },
        replies: answers.replies.iter().map(|reply| templates::reply_view(reply, &blog.time_zone)).collect(),
        responses: answers.responses.iter().map(|r| templates::response_view(r, &blog.time_zone)).collect(),
        comment_form: answers
            .comment_token
            .clone()
            .map(|token| templates::CommentFormView { post: post.short_id.clone(), token }),
    }
    .render()
    .map_err(|err| Error::Internal(err.into()))
}

/// Page `number` of the newest published posts tagged `tag` (a 404 when none is, or past the
/// last page).
pub async fn tag(state: &AppState, blog: &PublicBlog, tag: &str, number: u64, generation: u64) -> Result<Page, Error> {
    let (id, wanted) = (blog.id, tag.to_owned());
    let (config, site, shown, tag) = (state.config.clone(), state.site.clone(), blog.clone(), tag.to_owned());
    let token = subscribe_token(state, blog);
    let rendered = state
        .db
        .read_then(
            move |conn| {
                let total = tags::count_published(conn, id, &wanted)?;
                let posts = tags::published(conn, id, &wanted, (number - 1) * u64::from(PAGE_SIZE), PAGE_SIZE)?;
                Ok((total, posts))
            },
            move |(total, posts)| {
                let pages = total.div_ceil(u64::from(PAGE_SIZE));
                if number > pages {
                    return Ok(None);
                }
                let look = Look { config: &config, themes: &site.themes, subscribe_token: token.as_deref() };
                let html = tag_html(look, &shown, &tag, &posts, number, pages)?;
                let newest = posts.iter().map(|p| p.updated_at.as_str()).max();
                let mut rendered = html_page(&config, &shown, StatusCode::OK, html, generation);
                rendered.last_modified = dates::http(newest_of(&shown.updated_at, newest));
                Ok(Some(rendered))
            },
        )
        .await?;
    Ok(rendered.unwrap_or_else(|| not_found(state, blog, generation)))
}

/// The HTML of page `number` of `pages` of the posts tagged `tag`, listing `posts`.
pub fn tag_html(
    look: Look<'_>,
    blog: &PublicBlog,
    tag: &str,
    posts: &[Post],
    number: u64,
    pages: u64,
) -> Result<String, Error> {
    let base = format!("{}{tag}", paths::TAGS_PREFIX);
    let at = |n: u64| if n == 1 { base.clone() } else { format!("{base}?page={n}") };
    let mut layout = look.layout(blog, &at(number));
    layout.title = format!("Tagged {tag} · {}", blog.name);
    if number > 1 {
        layout.title = format!("Tagged {tag} · page {number} · {}", blog.name);
    }
    layout.description = format!("Posts tagged {tag} on {}", blog.name);
    layout.tag_feed =
        Some(FeedLink { title: format!("{} · {tag} (Atom)", blog.name), path: format!("{base}{}", paths::FEED) });
    let (newer, older) = ((number > 1).then(|| at(number - 1)), (number < pages).then(|| at(number + 1)));
    let posts = summaries(blog, posts, blog.has("reading-time"))?;
    TagPage { layout, tag: tag.to_owned(), posts, newer, older }.render().map_err(|err| Error::Internal(err.into()))
}

/// Public search results for `?q=` (with the Search box addon), narrowed to the posts tagged
/// `tag` when the query has one; never cached.
pub async fn search(state: &AppState, blog: &PublicBlog, query: Option<&str>, generation: u64) -> Result<Page, Error> {
    let params: HashMap<String, String> = serde_urlencoded::from_str(query.unwrap_or("")).unwrap_or_default();
    let q: String = params.get("q").map(|q| q.trim()).unwrap_or("").chars().take(200).collect();
    // A tag that cannot be one matches nothing rather than being ignored.
    let tag = params
        .get("tag")
        .map(|t| t.trim())
        .filter(|t| !t.is_empty())
        .map(|t| crate::domain::content::tags::tag(t).unwrap_or_default());
    let mut results = Vec::new();
    if !q.is_empty() && tag.as_deref() != Some("") {
        let (search, id, text, within) = (state.search.clone(), blog.id, q.clone(), tag.clone());
        let ids =
            tokio::task::spawn_blocking(move || search.search_tagged(id, &text, within.as_deref(), true, SEARCH_LIMIT))
                .await
                .map_err(|err| Error::Internal(err.into()))??;
        let posts = state.db.read(move |conn| public::published_by_ids(conn, id, &ids)).await?;
        let blog = blog.clone();
        results = off_runtime(move || summaries(&blog, &posts, false)).await?;
    }
    let token = subscribe_token(state, blog);
    let look = Look { subscribe_token: token.as_deref(), ..Look::of(state) };
    let mut layout = look.layout(blog, paths::SEARCH);
    layout.title = format!("Search · {}", blog.name);
    layout.noindex = true;
    layout.query = q;
    layout.search_tag = tag.unwrap_or_default();
    let html = SearchPage { layout, results }.render().map_err(|err| Error::Internal(err.into()))?;
    Ok(html_page(&state.config, blog, StatusCode::OK, html, generation))
}

/// The listing entries of `posts` (index, tag and search pages), each body parsed once.
fn summaries(blog: &PublicBlog, posts: &[Post], with_reading_time: bool) -> Result<Vec<templates::Summary>, Error> {
    posts.iter().map(|post| Ok(templates::summary(blog, post, &parse_body(post)?, with_reading_time))).collect()
}
