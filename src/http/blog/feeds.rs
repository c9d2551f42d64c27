//! What machines read: Atom and RSS feeds, the sitemap, robots.txt and the tab icon.

use askama::Template;
use poem::http::StatusCode;

use super::cache::Page;
use super::pages::{newest_of, parse_body};
use super::templates::{self, AtomFeed, FeedEntry, RssFeed, Sitemap, SitemapEntry};
use crate::db::public::{self, PublicBlog};
use crate::domain::dates;
use crate::error::Error;
use crate::http::pages::escape;
use crate::http::state::AppState;

/// Posts in a feed.
const FEED_SIZE: u32 = 20;
/// Most posts a sitemap lists.
const SITEMAP_SIZE: u32 = 50_000;

/// The Atom (`rss` false) or RSS feed of the newest published posts, with full content.
pub async fn feed(state: &AppState, blog: &PublicBlog, rss: bool, generation: u64) -> Result<Page, Error> {
    let id = blog.id;
    let posts = state.db.read(move |conn| public::published(conn, id, 0, FEED_SIZE)).await?;
    let blog_url = state.config.blog_url(&blog.subdomain);
    let mut entries = Vec::with_capacity(posts.len());
    for post in &posts {
        let (blocks, _) = templates::block_views(&parse_body(post)?);
        let published = post.published_at.as_deref().unwrap_or(&post.created_at);
        entries.push(FeedEntry {
            title: post.title.clone(),
            url: format!("{blog_url}/{}-{}", post.slug, post.short_id),
            published: if rss { dates::rfc2822(published) } else { dates::iso(published) },
            updated: dates::iso(&post.updated_at),
            html: templates::feed_html(&blocks),
        });
    }
    let newest = newest_of(&blog.updated_at, blog.posts_updated_at.as_deref()).to_owned();
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

/// Every published post's URL.
pub async fn sitemap(state: &AppState, blog: &PublicBlog, generation: u64) -> Result<Page, Error> {
    let id = blog.id;
    let posts = state.db.read(move |conn| public::published(conn, id, 0, SITEMAP_SIZE)).await?;
    let blog_url = state.config.blog_url(&blog.subdomain);
    let entries = posts
        .iter()
        .map(|post| SitemapEntry { url: format!("{blog_url}/{}-{}", post.slug, post.short_id), updated: dates::day(&post.updated_at) })
        .collect();
    let lastmod = blog.posts_updated_at.as_deref().map(dates::day);
    let xml = Sitemap { blog_url, lastmod, entries }.render().map_err(|err| Error::Internal(err.into()))?;
    Ok(Page::new(StatusCode::OK, "application/xml; charset=utf-8", xml, generation))
}

/// Everything may be crawled; the sitemap says where.
pub fn robots(state: &AppState, blog: &PublicBlog, generation: u64) -> Page {
    let blog_url = state.config.blog_url(&blog.subdomain);
    Page::new(
        StatusCode::OK,
        "text/plain; charset=utf-8",
        format!("User-agent: *\nAllow: /\n\nSitemap: {blog_url}/sitemap.xml\n"),
        generation,
    )
}

/// The blog's emoji as its tab icon.
pub fn favicon(blog: &PublicBlog, generation: u64) -> Page {
    Page::new(
        StatusCode::OK,
        "image/svg+xml",
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 100 100\"><text x=\"50\" y=\".9em\" font-size=\"85\" text-anchor=\"middle\">{}</text></svg>",
            escape(&blog.favicon)
        ),
        generation,
    )
}
