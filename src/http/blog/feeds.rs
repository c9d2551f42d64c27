//! What machines read: Atom and RSS feeds, the sitemap, robots.txt and the tab icon.
//!
//! Feeds and the sitemap are bounded, so that no post can make them expensive to build or too
//! heavy for the page cache: a feed carries a post's full content only while it is short and
//! the feed's total stays under a budget (other posts get an excerpt and a "Read more" link),
//! and the sitemap reads only what it prints.

use askama::Template;
use poem::http::StatusCode;

use super::cache::Page;
use super::templates::{self, AtomFeed, BlockView, FeedEntry, RssFeed, Sitemap, SitemapEntry};
use super::views::{newest_of, parse_body};
use crate::config::Config;
use crate::db::posts::Post;
use crate::db::public::{self, PublicBlog};
use crate::db::tags;
use crate::domain::limits::MAX_POSTS_PER_BLOG;
use crate::domain::paths;
use crate::domain::{content::dates, content::emoji};
use crate::error::Error;
use crate::http::state::AppState;

/// Posts in a feed.
pub const FEED_SIZE: u32 = 20;
/// Most bytes of HTML one entry carries in full; a longer post gets an excerpt.
const ENTRY_HTML_MAX: usize = 128 * 1024;
/// Most bytes of HTML a feed's entries carry in full together; the entries past it get an
/// excerpt. With XML's own escaping a feed stays under about 2 MB.
const FEED_HTML_MAX: usize = 512 * 1024;
/// Characters of an entry's excerpt.
const EXCERPT_CHARS: usize = 500;
/// Most tag pages a sitemap lists (by name), so that with the posts it stays well under the
/// 50,000 addresses a sitemap may hold.
const MAX_SITEMAP_TAGS: u64 = 5_000;

/// The Atom (`rss` false) or RSS feed of the newest published posts, with full content while
/// it fits (see the module's comment). Built off the async workers.
pub async fn feed(state: &AppState, blog: &PublicBlog, rss: bool, generation: u64) -> Result<Page, Error> {
    let id = blog.id;
    let atom = AtomLinks::blog(&state.config, blog);
    let read = move |conn: &rusqlite::Connection| public::published(conn, id, 0, FEED_SIZE);
    let page = render_feed(state, blog, read, rss, atom, generation).await?;
    Ok(page.unwrap_or_else(|| super::views::not_found(state, blog, generation)))
}

/// The Atom feed of the newest published posts tagged `tag` (a 404 when none is), with the
/// limits of the blog's feed.
pub async fn tag_feed(state: &AppState, blog: &PublicBlog, tag: &str, generation: u64) -> Result<Page, Error> {
    let (id, wanted) = (blog.id, tag.to_owned());
    let atom = AtomLinks::tag(&state.config, blog, tag);
    let read = move |conn: &rusqlite::Connection| {
        let posts = tags::published(conn, id, &wanted, 0, FEED_SIZE)?;
        // No post with the tag: no feed (a 404), where the blog's own feed may be empty.
        Ok(if posts.is_empty() { None } else { Some(posts) })
    };
    let page = render_feed(state, blog, read, false, atom, generation).await?;
    Ok(page.unwrap_or_else(|| super::views::not_found(state, blog, generation)))
}

/// What names an Atom feed: its title, the page it follows and its own address.
pub struct AtomLinks {
    title: String,
    home_url: String,
    self_url: String,
}

impl AtomLinks {
    /// The blog's feed.
    pub fn blog(config: &Config, blog: &PublicBlog) -> AtomLinks {
        let blog_url = config.blog_origin(&blog.address);
        AtomLinks {
            title: blog.name.clone(),
            home_url: format!("{blog_url}/"),
            self_url: format!("{blog_url}{}", paths::FEED),
        }
    }

    /// The feed of the posts tagged `tag`.
    pub fn tag(config: &Config, blog: &PublicBlog, tag: &str) -> AtomLinks {
        let blog_url = config.blog_origin(&blog.address);
        AtomLinks {
            title: format!("{} · {tag}", blog.name),
            home_url: format!("{blog_url}/tags/{tag}"),
            self_url: format!("{blog_url}{}{tag}{}", paths::TAGS_PREFIX, paths::FEED),
        }
    }
}

/// The feed of the posts `read` finds (None: no feed), read and built in one trip off the async
/// runtime.
async fn render_feed<P>(
    state: &AppState,
    blog: &PublicBlog,
    read: impl FnOnce(&rusqlite::Connection) -> Result<P, Error> + Send + 'static,
    rss: bool,
    atom: AtomLinks,
    generation: u64,
) -> Result<Option<Page>, Error>
where
    P: Into<Option<Vec<Post>>> + Send + 'static,
{
    let (blog, blog_url) = (blog.clone(), state.config.blog_origin(&blog.address));
    state
        .db
        .read_then(read, move |posts| {
            let Some(posts) = posts.into() else { return Ok(None) };
            let (body, content_type, newest) = feed_xml(&blog, &blog_url, &posts, rss, atom)?;
            let mut page = Page::new(StatusCode::OK, content_type, body, generation);
            page.last_modified = dates::http(&newest);
            Ok(Some(page))
        })
        .await
}

/// A feed of `posts` (RSS, or Atom named by `atom`) with its content type and the time of its
/// newest change.
pub fn feed_xml(
    blog: &PublicBlog,
    blog_url: &str,
    posts: &[Post],
    rss: bool,
    atom: AtomLinks,
) -> Result<(String, &'static str, String), Error> {
    let mut budget = FEED_HTML_MAX;
    let mut entries = Vec::with_capacity(posts.len());
    for post in posts {
        let url = format!("{blog_url}{}", post.path());
        let published = post.published_at.as_deref().unwrap_or(&post.created_at);
        entries.push(FeedEntry {
            title: post.title.clone(),
            published: if rss { dates::rfc2822(published) } else { dates::iso(published) },
            updated: dates::iso(&post.updated_at),
            html: entry_html(post, &url, &mut budget)?,
            url,
        });
    }
    let newest = newest_of(&blog.updated_at, blog.posts_updated_at.as_deref()).to_owned();
    let (body, content_type) = if rss {
        let feed = RssFeed {
            blog_name: blog.name.clone(),
            description: blog.summary(),
            blog_url: blog_url.to_owned(),
            updated: dates::rfc2822(&newest),
            items: entries,
        };
        (feed.render(), "application/rss+xml; charset=utf-8")
    } else {
        let feed = AtomFeed {
            title: atom.title,
            blog_name: blog.name.clone(),
            subtitle: blog.description.clone(),
            home_url: atom.home_url,
            self_url: atom.self_url,
            updated: dates::iso(&newest),
            entries,
        };
        (feed.render(), "application/atom+xml; charset=utf-8")
    };
    let body = xml_safe(body.map_err(|err| Error::Internal(err.into()))?);
    Ok((body, content_type, newest))
}

/// A post's content for its feed entry: in full if it is short enough and fits what is left
/// of `budget` (which it then uses up), else its opening words and a link to read the rest.
/// A body too large to fit is never rendered.
fn entry_html(post: &Post, url: &str, budget: &mut usize) -> Result<String, Error> {
    let body = parse_body(post)?;
    if post.body_json.len() <= ENTRY_HTML_MAX {
        let html = templates::feed_html(&templates::block_views(&body, &templates::ImageSizes::new()).0);
        if html.len() <= ENTRY_HTML_MAX.min(*budget) {
            *budget -= html.len();
            return Ok(html);
        }
    }
    let excerpt = templates::excerpt_of(&body, EXCERPT_CHARS);
    let mut blocks = Vec::with_capacity(2);
    if !excerpt.is_empty() {
        blocks.push(BlockView::Paragraph { lines: vec![excerpt] });
    }
    blocks.push(BlockView::Link { url: url.to_owned(), text: "Read more".to_owned() });
    Ok(templates::feed_html(&blocks))
}

/// Every published post's URL (the newest [`MAX_POSTS_PER_BLOG`]), read without their bodies.
pub async fn sitemap(state: &AppState, blog: &PublicBlog, generation: u64) -> Result<Page, Error> {
    if !blog.state.is_listed() {
        // A blog waiting for review or silenced lists nothing (issue 29).
        let xml = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n</urlset>\n";
        return Ok(Page::new(StatusCode::OK, "application/xml; charset=utf-8", xml.to_owned(), generation));
    }
    let id = blog.id;
    let read = move |conn: &rusqlite::Connection| {
        Ok((public::sitemap_entries(conn, id, MAX_POSTS_PER_BLOG)?, tags::published_tags(conn, id, MAX_SITEMAP_TAGS)?))
    };
    let blog_url = state.config.blog_origin(&blog.address);
    let lastmod = blog.posts_updated_at.as_deref().map(dates::day);
    state
        .db
        .read_then(read, move |(posts, tags)| {
            let post_url = |post: &public::SitemapPost| match post.page {
                true => format!("{blog_url}/{}", post.slug),
                false => format!("{blog_url}/{}-{}", post.slug, post.short_id),
            };
            let entries = posts
                .iter()
                .map(|post| SitemapEntry { url: post_url(post), updated: dates::day(&post.updated_at) })
                .chain(tags.iter().map(|tag| SitemapEntry {
                    url: format!("{blog_url}/tags/{}", tag.tag),
                    updated: dates::day(&tag.updated_at),
                }))
                .collect();
            let xml = Sitemap { blog_url, lastmod, entries }.render().map_err(|err| Error::Internal(err.into()))?;
            Ok(Page::new(StatusCode::OK, "application/xml; charset=utf-8", xml_safe(xml), generation))
        })
        .await
}

/// `xml` without the characters XML 1.0 forbids (control characters other than tab, line feed
/// and carriage return; U+FFFE and U+FFFF). A post may hold them, but a feed reader refuses
/// the whole document for one of them.
fn xml_safe(xml: String) -> String {
    let forbidden =
        |c: char| matches!(c, '\0'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}');
    if xml.contains(forbidden) { xml.chars().filter(|&c| !forbidden(c)).collect() } else { xml }
}

/// Everything may be crawled; the sitemap says where (a blog that is not listed has none).
pub fn robots(state: &AppState, blog: &PublicBlog, generation: u64) -> Page {
    let blog_url = state.config.blog_origin(&blog.address);
    // A blog asking AI crawlers to stay away names them first (`domain::blog::ai_crawlers`).
    let ai_group = blog.ai_crawlers.robots_group();
    let body = match blog.state.is_listed() {
        true => format!("{ai_group}User-agent: *\nAllow: /\n\nSitemap: {blog_url}/sitemap.xml\n"),
        // Its pages say `noindex`; a crawler must be allowed in to read it. No sitemap.
        false => format!("{ai_group}User-agent: *\nAllow: /\n"),
    };
    Page::new(StatusCode::OK, "text/plain; charset=utf-8", body, generation)
}

/// The blog's emoji as its tab icon: the embedded image of it, so every reader sees the same
/// picture whatever their fonts; the emoji as text when the image set has none for it.
pub fn favicon(blog: &PublicBlog, generation: u64) -> Page {
    let svg = emoji::svg(&blog.favicon_code).unwrap_or_else(|| emoji::text_svg(&blog.favicon));
    Page::new(StatusCode::OK, "image/svg+xml", svg, generation)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_safe_drops_only_what_xml_forbids() {
        assert_eq!(xml_safe("a\u{0}b\u{1}c\u{b}\u{c}\u{1f}d\u{fffe}\u{ffff}e".to_owned()), "abcde");
        let allowed = "tab\tline\ncr\r \u{7f} \u{fffd} \u{10000} é".to_owned();
        assert_eq!(xml_safe(allowed.clone()), allowed);
    }
}
