//! Which site a request's Host names: the app, one blog, or nothing of ours.
//!
//! The app host goes to the owner app and the API, `{subdomain}.{host}` to that blog, a verified
//! custom domain to its blog, anything else to a 404. The names come from `blogs::ServedNames`, in
//! memory (`classify_with`), so dispatch needs no SQL. The inbox, `/_quire/tls-ask` and the
//! ActivityPub documents are answered before a blog's redirect to its custom domain
//! (`http/mod.rs`).

/// Where a request goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Site {
    /// The owner app and API at `{host}`.
    App,
    /// The blog at `{subdomain}.{host}` (the label is lowercase letters, digits and hyphens).
    Blog(String),
    /// A blog's verified custom domain: the blog's subdomain.
    CustomDomain(String),
    /// Any other host.
    Unknown,
}

/// Classifies a request's Host header against the configured (normalized) app host.
/// Case and a trailing dot are ignored; a default port (80, 443), in the request or in the
/// configured host, matches a host without one (browsers leave it out of the header).
pub fn classify(request_host: &str, app_host: &str) -> Site {
    classify_with(request_host, app_host, |_| None)
}

/// Classifies like [`classify`], and a name `custom_domain` knows (a verified custom domain,
/// lowercase without a trailing dot or port) as that blog's, on the app's port.
pub fn classify_with(request_host: &str, app_host: &str, custom_domain: impl Fn(&str) -> Option<String>) -> Site {
    let request_host = request_host.trim().to_ascii_lowercase();
    let (name, port) = split_port(&request_host);
    let name = name.strip_suffix('.').unwrap_or(name);
    let (app_name, app_port) = split_port(app_host);
    if without_default(port) != without_default(app_port) {
        return Site::Unknown;
    }
    if name == app_name {
        return Site::App;
    }
    match name.strip_suffix(app_name).and_then(|rest| rest.strip_suffix('.')) {
        Some(label) if is_label(label) => Site::Blog(label.to_owned()),
        _ => custom_domain(name).map_or(Site::Unknown, Site::CustomDomain),
    }
}

fn split_port(host: &str) -> (&str, Option<&str>) {
    match host.rsplit_once(':') {
        Some((name, port)) if !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()) => (name, Some(port)),
        _ => (host, None),
    }
}

fn without_default(port: Option<&str>) -> Option<&str> {
    port.filter(|port| !matches!(*port, "80" | "443"))
}

fn is_label(label: &str) -> bool {
    !label.is_empty()
        && label.len() <= 63
        && label.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_app_host_is_matched_loosely_on_case_dots_and_default_ports() {
        assert_eq!(classify("localhost:8080", "localhost:8080"), Site::App);
        assert_eq!(classify("LocalHost:8080", "localhost:8080"), Site::App);
        assert_eq!(classify("blog.example.com.", "blog.example.com"), Site::App);
        assert_eq!(classify("blog.example.com:443", "blog.example.com"), Site::App);
        assert_eq!(classify("localhost:8081", "localhost:8080"), Site::Unknown);
        assert_eq!(classify("localhost", "localhost:8080"), Site::Unknown);
    }

    #[test]
    fn a_host_configured_with_a_default_port_matches_requests_without_it() {
        // Browsers leave a default port out of the Host header.
        assert_eq!(classify("example.com", "example.com:443"), Site::App);
        assert_eq!(classify("alice.example.com", "example.com:443"), Site::Blog("alice".into()));
        assert_eq!(classify("localhost", "localhost:80"), Site::App);
        assert_eq!(classify("localhost:80", "localhost:80"), Site::App);
        assert_eq!(classify("localhost:8080", "localhost:80"), Site::Unknown);
    }

    #[test]
    fn one_label_in_front_of_the_host_is_a_blog() {
        assert_eq!(classify("alice.localhost:8080", "localhost:8080"), Site::Blog("alice".into()));
        assert_eq!(classify("ALICE.example.com.", "example.com"), Site::Blog("alice".into()));
        assert_eq!(classify("a.b.localhost:8080", "localhost:8080"), Site::Unknown);
        assert_eq!(classify("evil.com", "localhost:8080"), Site::Unknown);
        assert_eq!(classify("xlocalhost:8080", "localhost:8080"), Site::Unknown);
        assert_eq!(classify("", "localhost:8080"), Site::Unknown);
        assert_eq!(classify("al_ice.localhost:8080", "localhost:8080"), Site::Unknown);
    }

    #[test]
    fn a_verified_custom_domain_is_its_blogs_on_the_apps_port() {
        let domains = |name: &str| (name == "blog.alice.org").then(|| "alice".to_owned());
        assert_eq!(classify_with("Blog.Alice.org.", "example.com", domains), Site::CustomDomain("alice".into()));
        assert_eq!(classify_with("blog.alice.org:443", "example.com", domains), Site::CustomDomain("alice".into()));
        assert_eq!(classify_with("blog.alice.org:8080", "localhost:8080", domains), Site::CustomDomain("alice".into()));
        assert_eq!(classify_with("blog.alice.org:8081", "localhost:8080", domains), Site::Unknown);
        assert_eq!(classify_with("other.alice.org", "example.com", domains), Site::Unknown);
        assert_eq!(classify_with("alice.example.com", "example.com", domains), Site::Blog("alice".into()));
    }
}

#[cfg(test)]
mod proptests;
