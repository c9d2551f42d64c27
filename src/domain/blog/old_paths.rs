//! The addresses an imported post had on its old site (`/2015/01/slug/`, `/slug`, `/?p=123`),
//! which its new blog answers with a 301 to the post. An old path is stored, and a request
//! looked up, under one [`key`], so the forms a link may take meet:
//!
//! - percent-encoding is normalized: `/cr%C3%A8me`, `/cr%c3%a8me` and `/crème` are one path;
//! - a trailing slash does not count: `/2015/01/slug/` and `/2015/01/slug` are one path;
//! - of the query, only the parameters that name an item ([`ITEM_PARAMS`], WordPress's
//!   `?p=123` and `?page_id=7`) count; the rest (`utm_source`, ...) is ignored;
//! - the fragment is never sent by browsers, and is dropped.
//!
//! Case is kept (paths are case-sensitive), and the home page `/` is never an old path: the
//! blog answers it itself.

use percent_encoding::{AsciiSet, CONTROLS, percent_decode_str, utf8_percent_encode};

/// Longest key kept, in bytes: a longer old path is not redirected.
pub const MAX_KEY: usize = 2048;
/// Query parameters that name an item on the old site, in the order a key lists them.
pub const ITEM_PARAMS: [&str; 2] = ["p", "page_id"];

/// What stays percent-encoded in a key: everything but the unreserved characters, the
/// sub-delimiters, `:`, `@` and `/` (the characters a path may hold as they are).
const ENCODED: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'[')
    .add(b'\\')
    .add(b']')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

/// The old site's address as the person importing gives it (an export that does not name its
/// site, like Ghost's): an absolute `http` or `https` URL with a host; `None` for anything else.
pub fn site_url(raw: &str) -> Option<url::Url> {
    let url = url::Url::parse(raw.trim()).ok()?;
    (matches!(url.scheme(), "http" | "https") && url.host_str().is_some_and(|host| !host.is_empty())).then_some(url)
}

/// The key of an old path as an export gives it (`/2015/01/slug/`, `/?p=123`, or a whole URL
/// on the old site, whose origin is dropped); `None` for the home page, for what is not a
/// path, and for keys over [`MAX_KEY`].
pub fn key(old: &str) -> Option<String> {
    let old = old.trim();
    let old = match old.split_once("://") {
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https") => {
            rest.find(['/', '?']).map_or("/", |at| &rest[at..])
        }
        _ => old,
    };
    let old = old.split('#').next().unwrap_or_default();
    let (path, query) = match old.split_once('?') {
        Some((path, query)) => (if path.is_empty() { "/" } else { path }, Some(query)),
        None => (old, None),
    };
    request_key(path, query)
}

/// The key of a request for `path` (as sent, percent-encoded) with `query`.
pub fn request_key(path: &str, query: Option<&str>) -> Option<String> {
    if !path.starts_with('/') {
        return None;
    }
    let mut key = canonical(path);
    while key.len() > 1 && key.ends_with('/') {
        key.pop();
    }
    let items = item_params(query);
    if key == "/" && items.is_empty() {
        return None;
    }
    if !items.is_empty() {
        key.push('?');
        key.push_str(&items.join("&"));
    }
    (key.len() <= MAX_KEY).then_some(key)
}

/// Whether a query names an item of the old site (`?p=123`): a request for the home page
/// with one is looked up among the old paths before the index page answers it.
pub fn names_an_item(query: Option<&str>) -> bool {
    !item_params(query).is_empty()
}

/// `p=123`, `page_id=7`: the item parameters of a query, first value of each, in
/// [`ITEM_PARAMS`] order.
fn item_params(query: Option<&str>) -> Vec<String> {
    let Some(query) = query else { return Vec::new() };
    let pairs: Vec<(String, String)> = query
        .split('&')
        .filter_map(|pair| {
            let (name, value) = pair.split_once('=')?;
            Some((form_decode(name), form_decode(value)))
        })
        .collect();
    ITEM_PARAMS
        .iter()
        .filter_map(|param| {
            let value = pairs.iter().find(|(name, value)| name == param && !value.trim().is_empty())?;
            Some(format!("{param}={}", canonical(value.1.trim())))
        })
        .collect()
}

/// A query's `+` is a space; then its percent-encoding is undone.
fn form_decode(raw: &str) -> String {
    percent_decode_str(&raw.replace('+', " ")).decode_utf8_lossy().into_owned()
}

/// Decoded, then encoded again the one way a key encodes: non-ASCII characters and
/// [`ENCODED`] as `%XX` in uppercase hex (bytes that are not UTF-8 become U+FFFD, as no link
/// to them can be typed anyway).
fn canonical(raw: &str) -> String {
    utf8_percent_encode(&percent_decode_str(raw).decode_utf8_lossy(), ENCODED).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_http_addresses_with_a_host_are_old_sites() {
        assert!(site_url("https://old.example.com/blog/").is_some());
        assert!(site_url(" http://127.0.0.1:2368 ").is_some());
        for bad in ["ftp://example.com", "javascript:alert(1)", "example.com", "http://", "file:///etc/passwd"] {
            assert!(site_url(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn the_forms_of_one_path_share_a_key() {
        let want = Some("/2015/01/slug".to_owned());
        for form in [
            "/2015/01/slug/",
            "/2015/01/slug",
            "/2015/01/slug//",
            "/2015/01/%73lug/",
            "http://old.example.com/2015/01/slug/#top",
        ] {
            assert_eq!(key(form), want, "{form}");
        }
        let unicode = key("/2024/01/crème-brûlée-emoji-and-שלום/").unwrap();
        assert_eq!(key("/2024/01/cr%C3%A8me-br%C3%BBl%C3%A9e-emoji-and-%D7%A9%D7%9C%D7%95%D7%9D/").unwrap(), unicode);
        assert_eq!(key("/2024/01/cr%c3%a8me-br%c3%bbl%c3%a9e-emoji-and-%d7%a9%d7%9c%d7%95%d7%9d").unwrap(), unicode);
        assert_eq!(unicode, "/2024/01/cr%C3%A8me-br%C3%BBl%C3%A9e-emoji-and-%D7%A9%D7%9C%D7%95%D7%9D");
        assert_eq!(
            request_key("/2024/01/cr%C3%A8me-br%C3%BBl%C3%A9e-emoji-and-%D7%A9%D7%9C%D7%95%D7%9D/", None).unwrap(),
            unicode
        );
        assert_eq!(key("/a b"), key("/a%20b"));
        assert_ne!(key("/Slug"), key("/slug"), "paths are case-sensitive");
    }

    #[test]
    fn only_the_item_parameters_of_a_query_count() {
        assert_eq!(key("/?p=123").as_deref(), Some("/?p=123"));
        assert_eq!(key("?p=123").as_deref(), Some("/?p=123"));
        assert_eq!(request_key("/", Some("utm_source=x&p=123")).as_deref(), Some("/?p=123"));
        assert_eq!(key("/?page_id=7&p=3").as_deref(), Some("/?p=3&page_id=7"));
        assert_eq!(key("/index.php?p=12").as_deref(), Some("/index.php?p=12"));
        assert_eq!(key("/slug/?utm_source=feed").as_deref(), Some("/slug"));
        assert_eq!(key("/?p=1&p=2").as_deref(), Some("/?p=1"));
        assert!(names_an_item(Some("p=5")) && names_an_item(Some("a=1&page_id=5")));
        assert!(!names_an_item(Some("page=2")) && !names_an_item(Some("p=")) && !names_an_item(None));
    }

    #[test]
    fn the_home_page_and_what_is_not_a_path_have_no_key() {
        for bad in
            ["/", "", "//", "/?cat=3", "slug", "https://old.example.com", "https://old.example.com/", "mailto:a@b.c"]
        {
            assert_eq!(key(bad), None, "{bad}");
        }
        assert_eq!(key(&format!("/{}", "a".repeat(MAX_KEY))), None);
        assert!(key(&format!("/{}", "a".repeat(MAX_KEY - 1))).is_some());
    }

    #[test]
    fn every_old_path_of_the_import_fixtures_has_a_key() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import");
        let mut seen = 0;
        for system in ["wordpress", "ghost", "writefreely", "bearblog", "hugo", "jekyll", "obsidian"] {
            let text =
                std::fs::read_to_string(dir.join(system).join("expected.json")).expect("the fixture's expected.json");
            let expected: serde_json::Value = serde_json::from_str(&text).unwrap();
            for item in expected["items"].as_array().unwrap() {
                for path in item["old_paths"].as_array().into_iter().flatten() {
                    let path = path.as_str().unwrap();
                    let key = key(path).unwrap_or_else(|| panic!("{system}: {path}"));
                    assert!(!key.ends_with('/'), "{key}");
                    seen += 1;
                }
            }
        }
        assert!(seen > 50, "{seen}");
        // Hugo's Unicode slug, as its site links it and as a browser may send it.
        let encoded = "/2024/01/cr%C3%A8me-br%C3%BBl%C3%A9e-emoji-and-%D7%A9%D7%9C%D7%95%D7%9D/";
        assert_eq!(key("/2024/01/crème-brûlée-emoji-and-שלום/"), key(encoded));
    }

    #[test]
    fn keys_hold_no_character_that_needs_quoting() {
        let key = key("/<script>\"x\"`{}|\\^ é?p=<b>").unwrap();
        assert!(key.bytes().all(|b| b.is_ascii_graphic() && !b"<>\"`{}|\\^ ".contains(&b)), "{key}");
    }
}
