//! Every URL path Quire serves that is also written somewhere else: into an id, a link or a
//! document another server reads. The route tables and the URL builders both use these
//! constants, so a path is spelt once (a route and the ids pointing at it cannot drift apart).
//!
//! Paths with a parameter have two forms: the route's pattern (`:name`, poem's syntax) and the
//! prefix the URL builders append the value to.

/// Quire's ActivityPub documents on a blog host (and the shared inbox on the app host) live under this.
pub const AP_PREFIX: &str = "/_quire/ap/";
/// A blog's actor, on its subdomain.
pub const AP_ACTOR: &str = "/_quire/ap/actor";
/// A blog's outbox.
pub const AP_OUTBOX: &str = "/_quire/ap/outbox";
/// A blog's followers collection.
pub const AP_FOLLOWERS: &str = "/_quire/ap/followers";
/// A post's ActivityPub object: the route's pattern.
pub const AP_POST: &str = "/_quire/ap/posts/:short_id";
/// A post's ActivityPub object: the prefix of its id, followed by the post's short id.
pub const AP_POSTS_PREFIX: &str = "/_quire/ap/posts/";
/// The instance's shared inbox, on the app host (a blog's `inbox` names it too).
pub const AP_INBOX: &str = "/_quire/ap/inbox";
/// The instance actor, on the app host: its key signs the key fetches no blog makes.
pub const AP_INSTANCE: &str = "/_quire/ap/instance";

/// A blog's Atom feed; a tag's is `{TAGS_PREFIX}{tag}{FEED}`.
pub const FEED: &str = "/feed.xml";
/// A blog's RSS feed.
pub const RSS: &str = "/rss.xml";
/// A blog's sitemap.
pub const SITEMAP: &str = "/sitemap.xml";
/// A blog's robots.txt.
pub const ROBOTS: &str = "/robots.txt";
/// A blog's tab icon.
pub const FAVICON: &str = "/favicon.svg";
/// A blog's search results (the Search box addon).
pub const SEARCH: &str = "/search";
/// A tag's page (`/tags/{tag}`) and feed, followed by the tag.
pub const TAGS_PREFIX: &str = "/tags/";
/// A draft's or scheduled post's preview link, followed by its token.
pub const PREVIEW_PREFIX: &str = "/preview/";
/// The live preview of a blog's unsaved custom CSS, followed by its token.
pub const CSS_PREVIEW_PREFIX: &str = "/css-preview/";
/// The editor's Preview of an unsaved post, followed by its token.
pub const POST_PREVIEW_PREFIX: &str = "/post-preview/";
/// An uploaded image on the app host: the route's pattern.
pub const MEDIA: &str = "/media/:name";
/// An uploaded image on the app host: the prefix of its URL, followed by its file name.
pub const MEDIA_PREFIX: &str = "/media/";

/// WebFinger, on every host.
pub const WEBFINGER: &str = "/.well-known/webfinger";
/// NodeInfo's discovery document, on the app host.
pub const NODEINFO_LINKS: &str = "/.well-known/nodeinfo";
/// The NodeInfo 2.1 document the discovery document links to.
pub const NODEINFO: &str = "/nodeinfo/2.1";

/// ACME HTTP-01 challenges, followed by the token.
pub const ACME_CHALLENGE_PREFIX: &str = "/.well-known/acme-challenge/";
/// The on-demand TLS question a proxy asks (`?domain=NAME`).
pub const TLS_ASK: &str = "/_quire/tls-ask";

/// The abuse report page, on the app host (`?blog=SUB` or `?post=URL`).
pub const REPORT: &str = "/report";
/// A blog's email subscribe form and its POST (issue 30), on the blog's host.
pub const SUBSCRIBE: &str = "/subscribe";
/// Where a blog's comment form posts (issue 31).
pub const COMMENTS: &str = "/comments";
/// A blog's webmention endpoint (issue 31).
pub const WEBMENTION: &str = "/webmention";
/// The Micropub endpoint (issue 37), on the app host: the token says which blog.
pub const MICROPUB: &str = "/micropub";
/// Micropub's media endpoint, on the app host.
pub const MICROPUB_MEDIA: &str = "/micropub/media";
/// IndieAuth's server metadata (RFC 8414), on the app host.
pub const INDIEAUTH_METADATA: &str = "/.well-known/oauth-authorization-server";
/// IndieAuth's authorization endpoint, on the app host.
pub const INDIEAUTH_AUTH: &str = "/indieauth/auth";
/// IndieAuth's token endpoint, on the app host.
pub const INDIEAUTH_TOKEN: &str = "/indieauth/token";
/// IndieAuth's token revocation endpoint (RFC 7009), on the app host.
pub const INDIEAUTH_REVOKE: &str = "/indieauth/revoke";
/// IndieAuth's token introspection endpoint (RFC 7662), on the app host.
pub const INDIEAUTH_INTROSPECT: &str = "/indieauth/introspect";
/// The owner app's consent screen for an app's sign-in (the request in its query).
pub const INDIEAUTH_CONSENT: &str = "/d/indieauth";
/// Where the report page sends a reader once their report is stored.
pub const REPORT_SENT: &str = "/report/sent";

/// The report page's address for the blog on `subdomain`, under `app_url`.
pub fn report_blog(app_url: &str, subdomain: &str) -> String {
    format!("{app_url}{REPORT}?blog={}", url::form_urlencoded::byte_serialize(subdomain.as_bytes()).collect::<String>())
}

/// The report page's address for the post at `post_url`, under `app_url`.
pub fn report_post(app_url: &str, post_url: &str) -> String {
    format!("{app_url}{REPORT}?post={}", url::form_urlencoded::byte_serialize(post_url.as_bytes()).collect::<String>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prefixed_paths_are_under_their_prefix() {
        for path in [AP_ACTOR, AP_OUTBOX, AP_FOLLOWERS, AP_POST, AP_POSTS_PREFIX, AP_INBOX, AP_INSTANCE] {
            assert!(path.starts_with(AP_PREFIX), "{path}");
        }
        assert!(AP_POST.starts_with(AP_POSTS_PREFIX));
        assert!(MEDIA.starts_with(MEDIA_PREFIX));
        assert!(REPORT_SENT.starts_with(REPORT));
    }

    #[test]
    fn report_links_carry_their_target_encoded() {
        assert_eq!(report_blog("https://q.example", "alice"), "https://q.example/report?blog=alice");
        assert_eq!(
            report_post("https://q.example", "https://alice.q.example/a-b?x=1&y=2"),
            "https://q.example/report?post=https%3A%2F%2Falice.q.example%2Fa-b%3Fx%3D1%26y%3D2"
        );
    }
}
