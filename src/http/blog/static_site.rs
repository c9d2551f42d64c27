//! The static site export: a blog's public pages rendered to files by the live site's own
//! renderers (`views.rs`, `feeds.rs`, the same templates), with every link to the blog made
//! relative and pointing at a file (`tags/rust/index.html`), so the site opens from disk
//! (file:// has no directory index) and from any static host.
//!
//! What needs the server is left out: the search box (no search without it) and page-view
//! counting; the canonical links, the feeds' addresses and share links keep naming the blog's
//! Quire address, and a page's own images are copied under `media/`. Preview links, the
//! sitemap and robots.txt (they name the Quire address) are not exported.

use anyhow::anyhow;
use rusqlite::Connection;

use super::feeds::{self, AtomLinks, FEED_SIZE};
use super::themes::Themes;
use super::views::{self, Look, PAGE_SIZE};
use crate::blogs::exports::{SiteOut, SiteRenderer};
use crate::config::Config;
use crate::db::posts::Post;
use crate::db::public::{self, PublicBlog};
use crate::db::{pages as db_pages, replies, tags};
use crate::domain::content::custom_css::{CustomCss, rebase_media};
use crate::domain::content::image::ImageType;
use crate::domain::limits::MAX_POSTS_PER_BLOG;
use crate::domain::paths;

/// Addons that work only with the server behind the pages; the static site goes without them.
const SERVER_ADDONS: [&str; 2] = ["search-box", "page-views"];

/// Renders blogs of this deployment as static sites.
pub struct StaticSite {
    config: Config,
    themes: Themes,
}

impl StaticSite {
    /// The renderer for the blogs of `config`'s deployment (their addresses and image host).
    pub fn new(config: Config) -> StaticSite {
        StaticSite { config, themes: Themes::default() }
    }
}

impl SiteRenderer for StaticSite {
    fn render(&self, conn: &Connection, subdomain: &str, out: &mut dyn SiteOut) -> anyhow::Result<()> {
        let look = Look { config: &self.config, themes: &self.themes, subscribe_token: None };
        let mut blog = public::blog(conn, subdomain)?.ok_or_else(|| anyhow!("there is no blog {subdomain}"))?;
        blog.addons.retain(|addon| !SERVER_ADDONS.contains(&addon.as_str()));
        let mut site = Files { out, media: format!("{}{}", self.config.app_url(), paths::MEDIA_PREFIX) };
        let theme = self.themes.by_slug(&blog.theme);
        site.out.file(&theme.path[1..], theme.css.as_bytes())?;
        site.custom_css(&blog)?;
        site.out.file("favicon.svg", &feeds::favicon(&blog, 0).body)?;
        let blog_url = self.config.blog_origin(&blog.address);
        let newest = public::published(conn, blog.id, 0, FEED_SIZE)?;
        for (file, rss) in [(paths::FEED, false), (paths::RSS, true)] {
            let (xml, _, _) = feeds::feed_xml(&blog, &blog_url, &newest, rss, AtomLinks::blog(&self.config, &blog))?;
            site.out.file(file.trim_start_matches('/'), xml.as_bytes())?;
        }

        let count = public::count_published(conn, blog.id)?;
        let total = count + blog.pages.len() as u64;
        let mut done = 0;
        let index_pages = count.div_ceil(u64::from(PAGE_SIZE)).max(1);
        for number in 1..=index_pages {
            let posts = public::published(conn, blog.id, (number - 1) * u64::from(PAGE_SIZE), PAGE_SIZE)?;
            site.page(
                &static_path(&page_link("/", number)),
                &views::index_html(look, &blog, &posts, number, index_pages)?,
            )?;
            for post in posts {
                site.post(conn, look, &blog, post)?;
                done += 1;
                site.out.progress(done, total)?;
            }
        }
        for link in blog.pages.clone() {
            if let Some(page) = db_pages::published_page(conn, blog.id, &link.slug)? {
                site.post(conn, look, &blog, page)?;
            }
            done += 1;
            site.out.progress(done, total)?;
        }
        for tag in tags::published_tags(conn, blog.id, MAX_POSTS_PER_BLOG)? {
            let tag = tag.tag;
            let tag_pages = tags::count_published(conn, blog.id, &tag)?.div_ceil(u64::from(PAGE_SIZE));
            for number in 1..=tag_pages {
                let posts = tags::published(conn, blog.id, &tag, (number - 1) * u64::from(PAGE_SIZE), PAGE_SIZE)?;
                let html = views::tag_html(look, &blog, &tag, &posts, number, tag_pages)?;
                site.page(&static_path(&page_link(&format!("{}{tag}", paths::TAGS_PREFIX), number)), &html)?;
            }
            let newest = tags::published(conn, blog.id, &tag, 0, FEED_SIZE)?;
            let (xml, _, _) =
                feeds::feed_xml(&blog, &blog_url, &newest, false, AtomLinks::tag(&self.config, &blog, &tag))?;
            let file = format!("{}{tag}{}", paths::TAGS_PREFIX, paths::FEED);
            site.out.file(file.trim_start_matches('/'), xml.as_bytes())?;
        }
        site.page("404.html", &views::not_found_html(look, &blog))?;
        site.out.progress(total, total)
    }
}

/// The live address of page `number` of the list at `path`.
fn page_link(path: &str, number: u64) -> String {
    match number {
        1 => path.to_owned(),
        n => format!("{path}?page={n}"),
    }
}

/// The site's files going out, each page with its links made relative.
struct Files<'a> {
    out: &'a mut dyn SiteOut,
    /// What the URLs of this deployment's uploads start with.
    media: String,
}

impl Files<'_> {
    /// The page of a post or page.
    fn post(&mut self, conn: &Connection, look: Look<'_>, blog: &PublicBlog, post: Post) -> anyhow::Result<()> {
        let body = views::parse_body(&post)?;
        let sizes = views::image_sizes_in(conn, look.config, &body)?;
        let path = post.path();
        let replies = replies::approved_for_post(conn, post.id)?;
        let responses = crate::db::responses::approved_for_post(conn, post.id)?;
        let answers =
            views::Answers { replies: &replies, responses: &responses, comment_token: None, webmention: None };
        let html = views::post_html(look, blog, &post, &body, &sizes, &path, false, &answers)?;
        self.page(&static_path(&path), &html)
    }

    /// The blog's custom stylesheet (issue 32) at the root, beside the theme's, with the uploads it
    /// names copied under `media/` and pointed at there (a stylesheet's URLs are relative to it).
    fn custom_css(&mut self, blog: &PublicBlog) -> anyhow::Result<()> {
        let Some(path) = super::themes::custom_path(&blog.custom_css) else { return Ok(()) };
        // Stored CSS passed the check when it was saved; read again here only for its images.
        let names = CustomCss::parse(&blog.custom_css, &self.media, usize::MAX)
            .map(|checked| checked.media().iter().map(|image| image.name.clone()).collect::<Vec<_>>())
            .unwrap_or_default();
        for name in &names {
            self.out.image(name)?;
        }
        let css = rebase_media(&blog.custom_css, paths::MEDIA_PREFIX, "media/", |name| names.iter().any(|n| n == name));
        self.out.file(&path[1..], css.as_bytes())
    }

    /// An HTML page at `file`, its links made relative to it and its uploads copied.
    fn page(&mut self, file: &str, html: &str) -> anyhow::Result<()> {
        let mut images = Vec::new();
        let html = relative_links(html, file, &self.media, &mut images);
        for name in images {
            self.out.image(&name)?;
        }
        self.out.file(file, html.as_bytes())
    }
}

/// The file that answers the blog's address `link` (`/`, `/?page=2`, `/tags/rust`,
/// `/feed.xml`, `/about#team`), relative to the site's root.
fn static_path(link: &str) -> String {
    let (link, fragment) = match link.split_once('#') {
        Some((link, fragment)) => (link, format!("#{fragment}")),
        None => (link, String::new()),
    };
    let (path, query) = link.split_once('?').unwrap_or((link, ""));
    let page = query.split('&').find_map(|pair| pair.strip_prefix("page=")?.parse::<u64>().ok()).unwrap_or(1);
    let dir = path.trim_matches('/');
    // Slugs and tags hold no dot, so a last segment with one is a file (feed.xml, theme-*.css).
    let file = if dir.rsplit('/').next().is_some_and(|last| last.contains('.')) {
        dir.to_owned()
    } else {
        let base = if dir.is_empty() { String::new() } else { format!("{dir}/") };
        if page > 1 { format!("{base}page/{page}/index.html") } else { format!("{base}index.html") }
    };
    file + &fragment
}

/// `html` of the page at `file` with its `href` and `src` values that point into the blog made
/// relative to `file`, and this deployment's uploads (`{media}<name>`) pointed at
/// `media/<name>` (their names pushed to `images`). Other values are left as they are.
fn relative_links(html: &str, file: &str, media: &str, images: &mut Vec<String>) -> String {
    let up = "../".repeat(file.matches('/').count());
    let mut out = String::with_capacity(html.len() + 256);
    let mut rest = html;
    loop {
        let next = [" href=\"", " src=\""].iter().filter_map(|attr| rest.find(attr).map(|at| at + attr.len())).min();
        let Some(start) = next else { break };
        let (before, after) = rest.split_at(start);
        out.push_str(before);
        let end = after.find('"').unwrap_or(after.len());
        let value = &after[..end];
        match value.strip_prefix(media).filter(|name| ImageType::of_stored_name(name).is_some()) {
            Some(name) => {
                images.push(name.to_owned());
                out.push_str(&format!("{up}media/{name}"));
            }
            None if value.starts_with('/') && !value.starts_with("//") => {
                out.push_str(&format!("{up}{}", static_path(value)))
            }
            None => out.push_str(value),
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_address_of_the_blog_has_its_file() {
        assert_eq!(static_path("/"), "index.html");
        assert_eq!(static_path("/?page=3"), "page/3/index.html");
        assert_eq!(static_path("/hello-abcd1234"), "hello-abcd1234/index.html");
        assert_eq!(static_path("/about#team"), "about/index.html#team");
        assert_eq!(static_path("/tags/rust"), "tags/rust/index.html");
        assert_eq!(static_path("/tags/rust?page=2"), "tags/rust/page/2/index.html");
        assert_eq!(static_path("/tags/rust/feed.xml"), "tags/rust/feed.xml");
        assert_eq!(static_path("/theme-default-0123456789.css"), "theme-default-0123456789.css");
    }

    #[test]
    fn links_into_the_blog_become_relative_and_others_stay() {
        let name = format!("{}.png", "c".repeat(64));
        let html = format!(
            r##"<a href="/">x</a> <a href="/tags/rust?page=2">y</a> <img src="http://h/media/{name}" alt="">
<link rel="canonical" href="http://a.h/p"> <a href="https://elsewhere.example/">z</a> <a href="#top">t</a>
<script src="//cdn.example/x.js"></script>"##
        );
        let mut images = Vec::new();
        let out = relative_links(&html, "tags/rust/index.html", "http://h/media/", &mut images);
        assert!(out.contains(r#"<a href="../../index.html">x</a>"#), "{out}");
        assert!(out.contains(r#"href="../../tags/rust/page/2/index.html""#), "{out}");
        assert!(out.contains(&format!(r#"src="../../media/{name}""#)), "{out}");
        assert!(out.contains(r#"href="http://a.h/p""#) && out.contains(r#"href="https://elsewhere.example/""#));
        assert!(out.contains(r##"href="#top""##) && out.contains(r#"src="//cdn.example/x.js""#));
        assert_eq!(images, [name]);
    }
}
