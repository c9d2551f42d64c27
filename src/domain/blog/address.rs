//! Where a blog answers: its subdomain, or its verified custom domain.

/// Where a blog answers: its subdomain, and its verified custom domain when it has one (which
/// then is its one address: the subdomain redirects there).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlogAddress {
    /// The blog's subdomain.
    pub subdomain: String,
    /// Its verified custom domain (A-label), if any.
    pub domain: Option<String>,
}

impl BlogAddress {
    /// The address of a blog with no custom domain.
    pub fn subdomain(subdomain: &str) -> BlogAddress {
        BlogAddress { subdomain: subdomain.to_owned(), domain: None }
    }
}
