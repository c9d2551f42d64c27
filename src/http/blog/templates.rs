//! Template models and askama templates (`assets/templates/`; every value is escaped): what
//! a blog and its posts look like to a template.
//!
//! An approved reply from the fediverse (`reply_view`) reaches the post page as plain text escaped
//! like every value, its links only when they are http(s), with `rel="nofollow ugc"`.

use std::collections::{HashMap, HashSet};

use askama::Template;

use crate::db::posts::Post;
use crate::db::public::PublicBlog;
use crate::db::replies::Reply;
use crate::db::responses::Response;
use crate::domain::blog::time_zone::TimeZone;
use crate::domain::content::blocks::{Block, Body};
use crate::domain::{content::dates, content::markdown, content::reader_view};

/// One block, ready for a template.
#[derive(Debug, Clone)]
pub enum BlockView {
    /// A section heading with its anchor.
    Heading { text: String, anchor: String },
    /// Plain text, one entry per line (a feed entry's excerpt).
    Paragraph { lines: Vec<String> },
    /// A paragraph's Markdown, rendered (escaped) by `domain::markdown::to_html`.
    Markdown { html: String },
    /// A link and its text (the URL when the text is empty).
    Link { url: String, text: String },
    /// An image, with its width and height when known (uploads).
    Image { url: String, alt: String, caption: String, size: Option<(u32, u32)> },
    /// A Spotify player and the original link.
    Spotify { embed: String, url: String },
    /// A post on X: its link, the link as shown (without `https://`) and, when the link names
    /// it, its author.
    Tweet { url: String, shown: String, author: Option<String> },
}

/// A table-of-contents entry.
#[derive(Debug, Clone)]
pub struct TocEntry {
    /// The heading's anchor.
    pub anchor: String,
    /// The heading's text.
    pub text: String,
}

/// What every page's layout shows.
pub struct Layout {
    pub title: String,
    pub description: String,
    pub canonical: String,
    pub blog_name: String,
    /// The blog's description, shown under its name on its home ('' for none).
    pub blog_description: String,
    /// Whether the page is the blog's home: its name is the page's heading there, shown once.
    pub home: bool,
    pub og_type: &'static str,
    pub stylesheet: String,
    /// The blog's custom stylesheet, linked after the theme's (issue 32).
    pub custom_stylesheet: Option<String>,
    pub search_box: bool,
    pub subscribe: bool,
    pub query: String,
    pub noindex: bool,
    /// The blog asks AI crawlers not to use it: `noai, noimageai` (issue 35).
    pub noai: bool,
    pub app_url: String,
    /// The blog's pages, in the navigation of every page.
    pub nav: Vec<NavView>,
    /// The Atom feed of the tag this page lists, if it lists one.
    pub tag_feed: Option<FeedLink>,
    /// The tag a search is narrowed to (empty for none).
    pub search_tag: String,
    /// The ActivityPub id of what the page shows (the blog's actor on its home page, a post's
    /// object), linked as an alternate so that a permalink pasted into Mastodon's search finds it.
    pub activity: Option<String>,
    /// The instance's report page for this blog, or for the post the page shows.
    pub report_url: String,
    /// The email subscribe form's token, when the blog takes subscribers (issue 30).
    pub subscribe_token: Option<String>,
    /// The blog's webmention endpoint, on a post that takes webmentions (issue 31).
    pub webmention: Option<String>,
}

/// A link of the blog's navigation.
pub struct NavView {
    pub title: String,
    pub path: String,
    /// Whether it is the page shown.
    pub current: bool,
}

/// An alternate feed of a page.
pub struct FeedLink {
    pub title: String,
    pub path: String,
}

impl Layout {
    /// What its `<meta name="robots">` says: `noindex`, the `noai` directives, or both.
    pub fn robots_content(&self) -> String {
        crate::domain::blog::ai_crawlers::robots_directives(self.noindex, self.noai).unwrap_or_default().to_owned()
    }

    /// The layout of one of `blog`'s pages.
    pub fn new(blog: &PublicBlog, stylesheet: String, app_url: &str, blog_url: &str, path: &str) -> Layout {
        Layout {
            title: blog.name.clone(),
            description: blog.summary(),
            canonical: format!("{blog_url}{path}"),
            blog_name: blog.name.clone(),
            blog_description: blog.description.clone(),
            home: false,
            og_type: "website",
            stylesheet,
            custom_stylesheet: super::themes::custom_path(&blog.custom_css),
            search_box: blog.has("search-box"),
            subscribe: blog.has("subscribe-links"),
            query: String::new(),
            // A blog waiting for review or silenced asks search engines to stay away from all
            // of its pages (issue 29); cached pages follow, as a state change invalidates them.
            noindex: !blog.state.is_listed(),
            noai: blog.ai_crawlers.disallowed(),
            app_url: app_url.to_owned(),
            nav: blog
                .pages
                .iter()
                .map(|page| {
                    let page_path = format!("/{}", page.slug);
                    NavView { title: page.title.clone(), current: page_path == path, path: page_path }
                })
                .collect(),
            tag_feed: None,
            search_tag: String::new(),
            activity: None,
            report_url: crate::domain::paths::report_blog(app_url, &blog.subdomain),
            subscribe_token: None,
            webmention: None,
        }
    }
}

/// A post in a list.
pub struct Summary {
    pub title: String,
    pub path: String,
    pub published_iso: String,
    pub published_human: String,
    pub reading_minutes: Option<u32>,
    pub excerpt: String,
    pub tags: Vec<String>,
}

/// Share links under a post.
pub struct ShareLinks {
    pub x: String,
    pub facebook: String,
    pub linkedin: String,
    pub email: String,
}

#[derive(Template)]
#[template(path = "post.html")]
pub struct PostPage {
    pub layout: Layout,
    pub title: String,
    pub published_iso: String,
    pub published_human: String,
    pub reading_minutes: Option<u32>,
    pub toc: Vec<TocEntry>,
    pub blocks: Vec<BlockView>,
    pub share: Option<ShareLinks>,
    pub rich_tweets: bool,
    pub has_tweets: bool,
    /// Its tags (none shown on a page).
    pub tags: Vec<String>,
    /// Whether it is a page: no date, no tags.
    pub is_page: bool,
    /// The approved replies from the fediverse, oldest first (none on a preview).
    pub replies: Vec<ReplyView>,
    /// The approved comments and webmentions, oldest first (none on a preview).
    pub responses: Vec<ResponseView>,
    /// The comment form, when the post takes comments.
    pub comment_form: Option<CommentFormView>,
}

/// The comment form under a post: the post's short id and the form's signed token.
pub struct CommentFormView {
    pub post: String,
    pub token: String,
}

/// An approved comment or webmention under a post.
pub struct ResponseView {
    /// "commented" or "mentioned this on their blog".
    pub said: &'static str,
    pub author_name: String,
    /// The author's website, when it is an http(s) URL.
    pub author_url: Option<String>,
    /// A webmention's source page.
    pub source_url: Option<String>,
    pub created_iso: String,
    pub created_human: String,
    /// The text as HTML: a comment's Markdown through the one renderer, a webmention's excerpt
    /// escaped.
    pub html: String,
    /// The owner's reply as HTML ('' for none).
    pub owner_reply_html: String,
}

/// An approved comment or webmention as the post page shows it, its date in the blog's zone.
pub fn response_view(response: &Response, zone: &TimeZone) -> ResponseView {
    let webmention = response.kind == "webmention";
    let html = match webmention {
        true => format!("<p>{}</p>", crate::domain::content::html::escape(&response.text)),
        false => markdown::to_html(&response.text),
    };
    ResponseView {
        said: if webmention { "mentioned this on their blog" } else { "commented" },
        author_name: response.author_name.clone(),
        author_url: web_link(&response.author_url),
        source_url: response.source_url.as_deref().and_then(web_link),
        created_iso: dates::iso_in(&response.created_at, zone),
        created_human: dates::human(&response.created_at, zone),
        html,
        owner_reply_html: match response.owner_reply.is_empty() {
            true => String::new(),
            false => markdown::to_html(&response.owner_reply),
        },
    }
}

/// An approved reply under a post: plain text, escaped like every value.
pub struct ReplyView {
    pub author_name: String,
    pub author_handle: String,
    /// The author's profile page, when it is an http(s) URL (else the name is not a link).
    pub author_url: Option<String>,
    /// The reply's own page, when it is an http(s) URL.
    pub url: Option<String>,
    pub published_iso: String,
    pub published_human: String,
    /// Its paragraphs, each as its lines.
    pub paragraphs: Vec<Vec<String>>,
}

/// `url` if it is an http(s) URL, the only links a remote server may give a page.
fn web_link(url: &str) -> Option<String> {
    let lowered = url.trim_start().to_ascii_lowercase();
    (lowered.starts_with("https://") || lowered.starts_with("http://")).then(|| url.trim_start().to_owned())
}

/// An approved reply as the post page shows it, its date in the blog's zone.
pub fn reply_view(reply: &Reply, zone: &TimeZone) -> ReplyView {
    let paragraphs = reply
        .text
        .split("\n\n")
        .map(|paragraph| paragraph.trim_matches('\n'))
        .filter(|paragraph| !paragraph.trim().is_empty())
        .map(|paragraph| paragraph.lines().map(str::to_owned).collect())
        .collect();
    ReplyView {
        author_name: reply.author_name.clone(),
        author_handle: reply.author_handle.clone(),
        author_url: web_link(&reply.author_url),
        url: reply.url.as_deref().and_then(web_link),
        published_iso: dates::iso_in(&reply.published_at, zone),
        published_human: dates::human(&reply.published_at, zone),
        paragraphs,
    }
}

#[derive(Template)]
#[template(path = "index.html")]
pub struct IndexPage {
    pub layout: Layout,
    pub posts: Vec<Summary>,
    pub newer: Option<String>,
    pub older: Option<String>,
}

#[derive(Template)]
#[template(path = "tag.html")]
pub struct TagPage {
    pub layout: Layout,
    pub tag: String,
    pub posts: Vec<Summary>,
    pub newer: Option<String>,
    pub older: Option<String>,
}

#[derive(Template)]
#[template(path = "search.html")]
pub struct SearchPage {
    pub layout: Layout,
    pub results: Vec<Summary>,
}

#[derive(Template)]
#[template(path = "not_found.html")]
pub struct NotFoundPage {
    pub layout: Layout,
}

/// A feed entry.
pub struct FeedEntry {
    pub title: String,
    pub url: String,
    pub published: String,
    pub updated: String,
    pub html: String,
}

#[derive(Template)]
#[template(path = "feed.xml")]
pub struct AtomFeed {
    pub title: String,
    pub blog_name: String,
    /// The blog's description (`<subtitle>`, left out when '').
    pub subtitle: String,
    /// The HTML page the feed follows (`{blog_url}/`, or a tag page).
    pub home_url: String,
    /// The feed's own URL.
    pub self_url: String,
    pub updated: String,
    pub entries: Vec<FeedEntry>,
}

#[derive(Template)]
#[template(path = "rss.xml")]
pub struct RssFeed {
    pub blog_name: String,
    /// The channel's `<description>`: the blog's description, else "Posts from {name}".
    pub description: String,
    pub blog_url: String,
    pub updated: String,
    pub items: Vec<FeedEntry>,
}

/// A sitemap entry.
pub struct SitemapEntry {
    pub url: String,
    pub updated: String,
}

#[derive(Template)]
#[template(path = "sitemap.xml")]
pub struct Sitemap {
    pub blog_url: String,
    pub lastmod: Option<String>,
    pub entries: Vec<SitemapEntry>,
}

/// The blocks alone, as a post page shows them: what the editor's preview displays.
#[derive(Template)]
#[template(path = "blocks.html")]
pub struct BlocksFragment {
    pub blocks: Vec<BlockView>,
    pub rich_tweets: bool,
}

/// Widths and heights of images by URL.
pub type ImageSizes = HashMap<String, (u32, u32)>;

#[derive(Template)]
#[template(path = "feed_content.html")]
struct FeedContent<'a> {
    blocks: &'a [BlockView],
}

/// The blocks of a body as views, and the table of contents of its headings. The first
/// heading is the post's title (shown as the page's h1), so it is left out. Images get their
/// size from `sizes` when it is known.
pub fn block_views(body: &Body, sizes: &ImageSizes) -> (Vec<BlockView>, Vec<TocEntry>) {
    let mut used = HashSet::new();
    let mut views = Vec::with_capacity(body.children.len());
    let mut toc = Vec::new();
    let mut skipped_title = false;
    for block in &body.children {
        let view = match block {
            Block::Heading { text } if !skipped_title => {
                skipped_title = true;
                continue;
            }
            Block::Heading { text } => {
                let anchor = reader_view::anchor(text, &mut used);
                toc.push(TocEntry { anchor: anchor.clone(), text: text.clone() });
                BlockView::Heading { text: text.clone(), anchor }
            }
            Block::Paragraph { text } => BlockView::Markdown { html: markdown::to_html(text) },
            Block::Link { url, title } => BlockView::Link {
                url: url.clone(),
                text: if title.trim().is_empty() { url.clone() } else { title.clone() },
            },
            Block::Image { url, alt, caption } => BlockView::Image {
                url: url.clone(),
                alt: alt.clone(),
                caption: caption.clone(),
                size: sizes.get(url).copied(),
            },
            Block::Spotify { url } => match reader_view::spotify_embed(url) {
                Some(embed) => BlockView::Spotify { embed, url: url.clone() },
                None => BlockView::Link { url: url.clone(), text: url.clone() },
            },
            Block::Tweet { url } => BlockView::Tweet {
                url: url.clone(),
                shown: url.strip_prefix("https://").unwrap_or(url).to_owned(),
                author: reader_view::tweet_author(url).map(str::to_owned),
            },
        };
        views.push(view);
    }
    (views, toc)
}

/// The HTML of a post's blocks for a feed (escaped again by the feed template).
pub fn feed_html(blocks: &[BlockView]) -> String {
    FeedContent { blocks }.render().unwrap_or_default()
}

/// The first paragraph's opening words.
pub fn excerpt_of(body: &Body, max: usize) -> String {
    body.children
        .iter()
        .find_map(|block| match block {
            Block::Paragraph { text } => Some(reader_view::excerpt(&markdown::plain_text(text), max)),
            _ => None,
        })
        .unwrap_or_default()
}

/// A post as a list entry of `blog`.
pub fn summary(blog: &PublicBlog, post: &Post, body: &Body, with_reading_time: bool) -> Summary {
    let published = post.published_at.as_deref().unwrap_or(&post.created_at);
    Summary {
        title: post.title.clone(),
        path: post.path(),
        published_iso: dates::iso_in(published, &blog.time_zone),
        published_human: dates::human(published, &blog.time_zone),
        reading_minutes: with_reading_time.then(|| reader_view::reading_minutes(&body.text())),
        excerpt: excerpt_of(body, 200),
        tags: if post.page_position.is_some() { Vec::new() } else { post.tags.clone() },
    }
}

/// Share-intent links for a post.
pub fn share_links(url: &str, title: &str) -> ShareLinks {
    let enc = |s: &str| serde_urlencoded::to_string([("v", s)]).unwrap_or_default().trim_start_matches("v=").to_owned();
    ShareLinks {
        x: format!("https://x.com/intent/post?url={}&text={}", enc(url), enc(title)),
        facebook: format!("https://www.facebook.com/sharer/sharer.php?u={}", enc(url)),
        linkedin: format!("https://www.linkedin.com/sharing/share-offsite/?url={}", enc(url)),
        email: format!("mailto:?subject={}&body={}", enc(title).replace('+', "%20"), enc(url)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_links_only_to_web_pages_and_keeps_its_paragraphs_and_lines() {
        let reply = Reply {
            id: 1,
            note_id: "https://peer.example/n/1".into(),
            post_id: 1,
            actor_id: "https://peer.example/u/bob".into(),
            author_name: "Bob".into(),
            author_handle: "@bob@peer.example".into(),
            author_url: "javascript:alert(1)".into(),
            url: Some(" JaVaScRiPt:alert(2)".into()),
            text: "one\ntwo\n\n\n\nthree\n".into(),
            published_at: "2026-11-24T23:30:00.000Z".into(),
            state: crate::db::responses::ResponseState::Approved,
            received_at: "2026-11-24T23:31:00.000Z".into(),
        };
        let tokyo = TimeZone::parse("Asia/Tokyo").unwrap();
        let view = reply_view(&reply, &tokyo);
        assert_eq!((view.author_url, view.url), (None, None));
        assert_eq!(view.paragraphs, [vec!["one", "two"], vec!["three"]]);
        assert_eq!(view.published_human, "25 November 2026", "in the blog's zone");
        let linked = Reply { author_url: "https://peer.example/@bob".into(), ..reply };
        assert_eq!(reply_view(&linked, &TimeZone::UTC).author_url.as_deref(), Some("https://peer.example/@bob"));
    }
}
