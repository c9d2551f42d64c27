//! Where the addresses in a body point: links and images written relative to the old site
//! (`/2015/01/other-post/`, `../images/a.png`) become absolute, and images inside a zip
//! become `file:<path in the zip>`.

use url::Url;

use crate::domain::content::blocks::markdown_url_allowed;

/// Finds a relative image path among an export's own files: `Some("file:<path>")` when there.
pub type FindFile<'a> = &'a dyn Fn(&str) -> Option<String>;

/// Resolves a body's relative addresses.
#[derive(Clone, Copy, Default)]
pub struct Base<'a> {
    /// The old site's address (or the page's own URL), against which relative URLs resolve.
    site: Option<&'a Url>,
    /// Finds a relative image path among the export's own files (`file:<path>`).
    files: Option<FindFile<'a>>,
}

impl std::fmt::Debug for Base<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Base").field("site", &self.site.map(Url::as_str)).field("files", &self.files.is_some()).finish()
    }
}

impl<'a> Base<'a> {
    /// No base: only absolute addresses are kept.
    pub fn none() -> Base<'static> {
        Base { site: None, files: None }
    }

    /// Relative addresses resolve against `site` (when known).
    pub fn site(site: Option<&'a Url>) -> Base<'a> {
        Base { site, files: None }
    }

    /// Relative image paths are first looked up with `files` (a path inside the export,
    /// answered as `file:<path>`), then resolved against `site`.
    pub fn with_files(site: Option<&'a Url>, files: FindFile<'a>) -> Base<'a> {
        Base { site, files: Some(files) }
    }

    /// The absolute URL a link inside a paragraph may point at (`http`, `https`, `mailto`,
    /// within the block rules), or `None` when it may not or cannot be resolved.
    pub fn link(&self, href: &str) -> Option<String> {
        let href = href.trim();
        if href.is_empty() || href.starts_with('#') {
            return None;
        }
        let url = self.absolute(href)?;
        let url = url.as_str();
        markdown_url_allowed(url).then(|| url.to_owned())
    }

    /// Where an image is: an absolute `http(s)` URL or `file:<path>` inside the export;
    /// `None` when it can be neither (a `data:` URL, a relative path with no base).
    pub fn image(&self, src: &str) -> Option<String> {
        let src = src.trim();
        if src.is_empty() || has_scheme(src) && !is_http(src) {
            return None;
        }
        if !is_http(src)
            && !src.starts_with("//")
            && let Some(found) = self.files.and_then(|files| files(src))
        {
            return Some(found);
        }
        let url = self.absolute(src)?;
        (is_http(url.as_str())
            && crate::domain::content::blocks::LINK_PREFIXES.iter().any(|p| url.as_str().starts_with(p)))
        .then(|| url.to_string())
    }

    /// `href` made absolute: as it is when it has a scheme, `https:` before `//host/...`,
    /// else against the site.
    pub fn absolute(&self, href: &str) -> Option<Url> {
        if let Some(rest) = href.strip_prefix("//") {
            return Url::parse(&format!("https://{rest}")).ok();
        }
        if has_scheme(href) {
            return Url::parse(href).ok();
        }
        self.site?.join(href).ok()
    }
}

/// Whether `s` starts with a URL scheme (`https:`, `mailto:`, `data:`, `javascript:`).
fn has_scheme(s: &str) -> bool {
    match s.find(':') {
        Some(at) if at > 0 => {
            let scheme = &s[..at];
            scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                && scheme.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        }
        _ => false,
    }
}

fn is_http(s: &str) -> bool {
    let lower = s.get(..8).unwrap_or(s).to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

/// The path (with its query) of `url` under `root`: `https://e.com/blog/2015/01/a/` under
/// `https://e.com/blog` is `/2015/01/a/`. `None` when it is on another site.
pub(crate) fn path_under(url: &str, root: Option<&Url>) -> Option<String> {
    let url = Url::parse(url.trim()).ok()?;
    let mut path = url.path().to_owned();
    if let Some(root) = root {
        if root.host_str().map(|h| h.trim_start_matches("www.")) != url.host_str().map(|h| h.trim_start_matches("www."))
        {
            return None;
        }
        let prefix = root.path().trim_end_matches('/');
        if !prefix.is_empty() {
            path = match path.strip_prefix(prefix) {
                Some(rest) if rest.is_empty() || rest.starts_with('/') => rest.to_owned(),
                _ => return None,
            };
        }
    }
    if !path.starts_with('/') {
        path.insert(0, '/');
    }
    if let Some(query) = url.query() {
        path.push('?');
        path.push_str(query);
    }
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_and_images_resolve_against_the_site() {
        let site = Url::parse("https://old.example.com/blog/").unwrap();
        let base = Base::site(Some(&site));
        assert_eq!(base.link("/2015/01/a/").as_deref(), Some("https://old.example.com/2015/01/a/"));
        assert_eq!(base.link("other").as_deref(), Some("https://old.example.com/blog/other"));
        assert_eq!(base.link("//cdn.example.com/x").as_deref(), Some("https://cdn.example.com/x"));
        assert_eq!(base.link("mailto:a@b.c").as_deref(), Some("mailto:a@b.c"));
        assert_eq!(base.link("javascript:alert(1)"), None);
        assert_eq!(base.link("#footnote-1"), None);
        assert_eq!(base.image("data:image/png;base64,AAAA"), None);
        assert_eq!(base.image("a b.png").as_deref(), Some("https://old.example.com/blog/a%20b.png"));
        assert_eq!(Base::none().image("a.png"), None);
        assert_eq!(Base::none().image("HTTPS://E.COM/A.PNG").as_deref(), Some("https://e.com/A.PNG"));
    }

    #[test]
    fn images_inside_the_export_are_files() {
        let files = |path: &str| (path == "img/a.png").then(|| "file:posts/img/a.png".to_owned());
        let base = Base::with_files(None, &files);
        assert_eq!(base.image("img/a.png").as_deref(), Some("file:posts/img/a.png"));
        assert_eq!(base.image("img/missing.png"), None);
        assert_eq!(base.image("https://e.com/a.png").as_deref(), Some("https://e.com/a.png"));
    }

    #[test]
    fn old_paths_are_taken_under_the_sites_root() {
        let root = Url::parse("https://example.com/blog").unwrap();
        assert_eq!(path_under("https://example.com/blog/2015/01/a/", Some(&root)).as_deref(), Some("/2015/01/a/"));
        assert_eq!(path_under("https://www.example.com/blog/?p=12", Some(&root)).as_deref(), Some("/?p=12"));
        assert_eq!(path_under("https://other.com/blog/a/", Some(&root)), None);
        assert_eq!(path_under("https://example.com/blogroll/", Some(&root)), None);
        assert_eq!(path_under("https://example.com/a", None).as_deref(), Some("/a"));
    }
}
