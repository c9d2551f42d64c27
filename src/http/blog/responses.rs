//! A rendered page as an HTTP answer: validators and 304s, gzip when accepted, the page's
//! Content-Security-Policy, redirects.

use poem::http::{StatusCode, header};
use poem::{Request, Response};

use super::BlogSite;
use super::cache::Page;
use crate::config::Config;
use crate::db::public::PublicBlog;
use crate::domain::content::reader_view;
use crate::domain::paths;
use crate::http::client::accepts_gzip;

/// An HTML page of `blog` with the policy its addons need: no script at all, unless rich
/// tweet embeds are installed (then only Twitter's).
pub fn html_page(config: &Config, blog: &PublicBlog, status: StatusCode, html: String, generation: u64) -> Page {
    let rich_tweets = blog.has("rich-tweet-embeds");
    let frames = reader_view::frame_origins(rich_tweets).join(" ");
    let scripts = if rich_tweets { reader_view::TWITTER_WIDGETS_ORIGIN } else { "'none'" };
    let mut page = Page::new(status, "text/html; charset=utf-8", html, generation);
    page.link = Some(discovery_link(config));
    page.csp = Some(format!(
        "default-src 'none'; style-src 'self'; connect-src 'self'; img-src 'self' data: https: {app}; \
         frame-src {frames}; \
         script-src {scripts}; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
        app = config.app_url()
    ));
    page
}

/// The `Link` header of every HTML page of a blog: where apps publish to it (Micropub, on the
/// app host; the token says which blog) and where they sign in to it (IndieAuth: a blog's
/// address is its owner's profile URL). The pages' `<link>` elements say the same.
pub fn discovery_link(config: &Config) -> String {
    let app = config.app_url();
    format!(
        "<{app}{micropub}>; rel=\"micropub\", <{app}{metadata}>; rel=\"indieauth-metadata\", \
         <{app}{auth}>; rel=\"authorization_endpoint\", <{app}{token}>; rel=\"token_endpoint\"",
        micropub = paths::MICROPUB,
        metadata = paths::INDIEAUTH_METADATA,
        auth = paths::INDIEAUTH_AUTH,
        token = paths::INDIEAUTH_TOKEN,
    )
}

/// A permanent redirect.
pub fn redirect(location: &str) -> Response {
    Response::builder().status(StatusCode::MOVED_PERMANENTLY).header(header::LOCATION, location).finish()
}

/// Answers with a page: 304 when the client's copy is current, gzip when accepted and the page
/// has its gzip form (see `routes::with_gzip_if_asked`). Counts a view of the post it shows (with
/// the Page views addon).
pub fn respond(req: &Request, site: &BlogSite, page: &Page) -> Response {
    if let Some(post_id) = page.counts_view_of {
        site.page_views.add(post_id);
    }
    if let Some(location) = &page.location {
        return redirect(location);
    }
    let cache_control =
        if page.immutable { "public, max-age=31536000, immutable" } else { "public, max-age=0, must-revalidate" };
    let mut builder =
        Response::builder().header(header::ETAG, page.etag.as_str()).header(header::CACHE_CONTROL, cache_control);
    if let Some(modified) = &page.last_modified {
        builder = builder.header(header::LAST_MODIFIED, modified.as_str());
    }
    if let Some(csp) = &page.csp {
        builder = builder.header(header::CONTENT_SECURITY_POLICY, csp.as_str());
    }
    if let Some(link) = &page.link {
        builder = builder.header(header::LINK, link.as_str());
    }
    if page.compressible() {
        builder = builder.header(header::VARY, "Accept-Encoding");
    }
    if let Some(directives) = crate::domain::blog::ai_crawlers::robots_directives(page.noindex, page.noai) {
        builder = builder.header("x-robots-tag", directives);
    }
    let fresh = match req.header(header::IF_NONE_MATCH) {
        Some(tags) => tags.split(',').any(|tag| tag.trim() == page.etag || tag.trim() == "*"),
        None => page
            .last_modified
            .as_deref()
            .is_some_and(|modified| req.header(header::IF_MODIFIED_SINCE) == Some(modified)),
    };
    if fresh && page.status == StatusCode::OK {
        return builder.status(StatusCode::NOT_MODIFIED).finish();
    }
    let builder = builder.status(page.status).content_type(page.content_type);
    match (&page.gzip, accepts_gzip(req)) {
        (Some(gzip), true) => builder.header(header::CONTENT_ENCODING, "gzip").body(gzip.clone()),
        _ => builder.body(page.body.clone()),
    }
}
