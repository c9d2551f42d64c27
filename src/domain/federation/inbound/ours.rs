//! Whose an id is: its host (what blocks are keyed on), its registrable domain (what the inbox's
//! rate limit is keyed on), whether two URLs share an origin, and which of our actors or posts one
//! of our URLs names.

/// The `host[:port]` of an id, lowercase ([`host_of`] gives it without the port).
pub fn authority_of(id: &str) -> Option<String> {
    let url = url::Url::parse(id).ok()?;
    let host = url.host_str()?.to_ascii_lowercase();
    Some(match url.port() {
        Some(port) => format!("{host}:{port}"),
        None => host,
    })
}

/// The host of an id, lowercase, without port or trailing dot (what `blocked_domains` holds).
pub fn host_of(id: &str) -> Option<String> {
    let url = url::Url::parse(id).ok()?;
    let host = url.host_str()?.trim_end_matches('.').to_ascii_lowercase();
    Some(host.trim_start_matches('[').trim_end_matches(']').to_owned())
}

/// The registrable domain of an id's host: `evil.example` for `https://a1.evil.example/...` and
/// `example.co.uk` for `https://social.example.co.uk/...`, by the public suffix list compiled
/// into the `psl` crate (no network). An IP address, or a name that is itself a public suffix,
/// stands for itself. What the inbox's rate limit counts verified activities by, so that a
/// server cannot multiply its allowance with subdomains.
pub fn registrable_domain_of(id: &str) -> Option<String> {
    let host = host_of(id)?;
    if host.parse::<std::net::IpAddr>().is_ok() {
        return Some(host);
    }
    Some(psl::domain_str(&host).map_or_else(|| host.clone(), str::to_owned))
}

/// Whether two URLs have the same origin (scheme, host, port).
pub fn same_origin(a: &str, b: &str) -> bool {
    match (url::Url::parse(a), url::Url::parse(b)) {
        (Ok(a), Ok(b)) => a.origin() == b.origin(),
        _ => false,
    }
}

/// What one of our URLs names, as the inbox matches objects (a Follow's, a Like's, a reply's
/// `inReplyTo`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ours {
    /// A blog's actor (`{scheme}://alice.{host}/_quire/ap/actor`).
    Actor { subdomain: String },
    /// A post, by its object id (`/_quire/ap/posts/{short_id}`) or its permalink
    /// (`/{slug}-{short_id}` on the blog's subdomain or custom domain).
    Post { subdomain: String, short_id: String },
}

/// What `id` names among our URLs: `scheme` and `app_host` (`localhost:8080`) are the
/// server's, `custom_domain` answers the blog of a verified custom domain (lowercase name).
pub fn ours(id: &str, scheme: &str, app_host: &str, custom_domain: impl Fn(&str) -> Option<String>) -> Option<Ours> {
    let url = url::Url::parse(id).ok()?;
    if url.scheme() != scheme || url.query().is_some() {
        return None;
    }
    let host = url.host_str()?.to_ascii_lowercase();
    let (app_name, app_port) = match app_host.rsplit_once(':') {
        Some((name, port)) => (name, port.parse::<u16>().ok()),
        None => (app_host, None),
    };
    if url.port() != app_port {
        return None;
    }
    let subdomain = match host.strip_suffix(app_name).and_then(|rest| rest.strip_suffix('.')) {
        Some(label) if !label.is_empty() && label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') => {
            Some(label.to_owned())
        }
        _ => None,
    };
    let path = url.path();
    if let Some(subdomain) = &subdomain {
        if path == crate::domain::paths::AP_ACTOR {
            return Some(Ours::Actor { subdomain: subdomain.clone() });
        }
        if let Some(short_id) = path
            .strip_prefix(crate::domain::paths::AP_POSTS_PREFIX)
            .filter(|s| crate::domain::blog::post_address::is_short_id(s))
        {
            return Some(Ours::Post { subdomain: subdomain.clone(), short_id: short_id.to_owned() });
        }
    }
    let subdomain = subdomain.or_else(|| custom_domain(&host))?;
    let (_, short_id) = path.strip_prefix('/')?.rsplit_once('-')?;
    crate::domain::blog::post_address::is_short_id(short_id)
        .then(|| Ours::Post { subdomain, short_id: short_id.to_owned() })
}
