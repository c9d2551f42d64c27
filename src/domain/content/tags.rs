//! Tags of a post and the address of a page: the rules and their messages. The owner app
//! applies the same rules from [`client_rules`] (the page config's `postRules`);
//! `tests/fixtures/tag_rules.json` holds the cases both sides are tested against.
//!
//! A tag is one or more words of the letters a to z and digits joined by single hyphens
//! (`road-trip`, `rust`, `2024`), at most [`MAX_TAG`] characters. What a blogger types is
//! trimmed and ASCII-lowercased first (`Rust` becomes `rust`, as every blogging platform does),
//! and the same tag given twice is kept once. Everything else is refused with a message rather
//! than guessed at: spaces (is `road trip` one tag or two?), accented letters and look-alike
//! letters of other scripts (a Cyrillic `а` would make a second, different `java` tag that
//! looks the same in every link).

use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;

use crate::domain::blog::post_address::MAX_SLUG;
use crate::domain::messages::Messages;

/// Most tags on one post.
pub const MAX_TAGS: usize = 10;
/// Longest tag, in characters.
pub const MAX_TAG: usize = 40;
/// Most entries a post's tag list may hold before it is refused unread (duplicates and
/// case variants of one tag count here, not in [`MAX_TAGS`]).
pub const MAX_TAG_ENTRIES: usize = 100;
/// Most pages (About, Now, ...) one blog has: every public page lists them in its header.
pub const MAX_PAGES: u64 = 20;
/// First path segments a blog answers itself, which no page may take.
pub const RESERVED_PATHS: [&str; 16] = [
    "feed.xml",
    "rss.xml",
    "sitemap.xml",
    "robots.txt",
    "favicon.svg",
    "favicon.ico",
    "search",
    "tags",
    "media",
    "api",
    "assets",
    "theme",
    "subscribe",
    "unsubscribe",
    "comments",
    "webmention",
];
/// A prefix of paths a blog answers itself (its theme stylesheets, `/theme-{hash}.css`).
pub const RESERVED_PREFIX: &str = "theme-";

/// The post's tags as stored: each checked and normalized, duplicates dropped, in the order
/// given. Errors are keyed `tags` (too many) or `tags.{index}`.
pub fn normalize(raw: &[String]) -> Result<Vec<String>, Messages> {
    if raw.len() > MAX_TAG_ENTRIES {
        return Err(Messages::one("tags", too_many_tags()));
    }
    let mut errors = Messages::default();
    let mut tags: Vec<String> = Vec::new();
    for (index, given) in raw.iter().enumerate() {
        if tags.len() > MAX_TAGS {
            break; // already too many: the rest is not read
        }
        match tag(given) {
            Ok(tag) if !tags.contains(&tag) => tags.push(tag),
            Ok(_) => {}
            Err(message) => errors.push(format!("tags.{index}"), message),
        }
    }
    if tags.len() > MAX_TAGS {
        return Err(Messages::one("tags", too_many_tags()));
    }
    if errors.is_empty() { Ok(tags) } else { Err(errors) }
}

/// One tag, normalized, or the message saying what is wrong with it.
pub fn tag(given: &str) -> Result<String, String> {
    let tag = given.trim().to_ascii_lowercase();
    if tag.is_empty() {
        return Err("Can't be blank".to_owned());
    }
    if tag.chars().count() > MAX_TAG {
        return Err(format!("Should be at most {MAX_TAG} characters"));
    }
    if tag.chars().any(char::is_whitespace) {
        return Err("Should have no spaces: join words with hyphens, as in road-trip".to_owned());
    }
    if !tag.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-') {
        return Err("Should use only the letters a to z, digits and hyphens".to_owned());
    }
    if tag.starts_with('-') || tag.ends_with('-') || tag.contains("--") {
        return Err("Should not start or end with a hyphen or have two in a row".to_owned());
    }
    Ok(tag)
}

/// A tag or category of another platform ("Road Trip", "Café", "C++") as a Quire tag: words
/// joined by hyphens, accented and other letters transliterated to ASCII (`road-trip`,
/// `cafe`, `c`), cut at a hyphen to [`MAX_TAG`] characters. `None` when nothing is left.
/// Internal tags (see [`is_internal`]) are the caller's to leave out.
pub fn from_source(given: &str) -> Option<String> {
    let full = slug::slugify(given);
    let mut cut = full.as_str();
    if cut.len() > MAX_TAG {
        cut = &cut[..MAX_TAG]; // slugify's output is ASCII
        if let Some(at) = cut.rfind('-') {
            cut = &cut[..at];
        }
    }
    tag(cut).ok()
}

/// Whether another platform's tag is one of its internal tags (Ghost's `#hidden`), which
/// readers never saw and an import leaves out.
pub fn is_internal(given: &str) -> bool {
    given.trim_start().starts_with('#')
}

/// The address an imported page takes when it asks for `/{wanted}`: `wanted` itself when it
/// is free, `page-{wanted}` when the blog answers that address itself, then the first of
/// `-2`, `-3`, ... that no other page has (`taken`), each within [`MAX_SLUG`] characters
/// (a page's address is its slug).
pub fn free_page_address(wanted: &str, mut taken: impl FnMut(&str) -> bool) -> String {
    let base = if is_reserved(wanted) { format!("page-{wanted}") } else { wanted.to_owned() };
    let within = |s: &str, room: usize| s[..s.len().min(room)].trim_end_matches('-').to_owned();
    let first = within(&base, MAX_SLUG);
    if !taken(&first) {
        return first;
    }
    (2..)
        .map(|n: u64| {
            let suffix = format!("-{n}");
            format!("{}{suffix}", within(&base, MAX_SLUG - suffix.len()))
        })
        .find(|candidate| !taken(candidate))
        .expect("a blog has finitely many pages")
}

/// Whether `s` is a tag exactly as stored (for the `/tags/{tag}` path).
pub fn is_tag(s: &str) -> bool {
    tag(s).is_ok_and(|t| t == s)
}

/// The message of a post with more than [`MAX_TAGS`] tags.
pub fn too_many_tags() -> String {
    format!("A post can have at most {MAX_TAGS} tags")
}

/// Whether a page's address (its slug) is one the blog answers itself.
pub fn is_reserved(slug: &str) -> bool {
    RESERVED_PATHS.contains(&slug) || slug.starts_with(RESERVED_PREFIX)
}

/// Why a page may not have the address `/{slug}`, if it may not.
pub fn page_slug_problem(slug: &str) -> Option<String> {
    is_reserved(slug).then(|| format!("The address /{slug} belongs to the blog itself: give the page another title"))
}

/// The message of a page whose address another page of the blog has.
pub fn page_slug_taken(slug: &str) -> String {
    format!("Another page already has the address /{slug}: give this one another title")
}

/// The message of a blog with [`MAX_PAGES`] pages asked for one more.
pub fn too_many_pages() -> String {
    format!("A blog can have at most {MAX_PAGES} pages")
}

/// The tag and page rules as the owner app's page config carries them (`postRules`).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "app-settings.ts")]
pub struct PostRules {
    /// Most tags on one post.
    max_tags: usize,
    /// Longest tag, in characters.
    max_tag: usize,
    /// Most pages one blog has.
    max_pages: u64,
    /// First path segments the blog answers itself, which no page may take.
    reserved_paths: &'static [&'static str],
    /// A prefix of such paths.
    reserved_prefix: &'static str,
}

/// This server's tag and page rules.
pub const POST_RULES: PostRules = PostRules {
    max_tags: MAX_TAGS,
    max_tag: MAX_TAG,
    max_pages: MAX_PAGES,
    reserved_paths: &RESERVED_PATHS,
    reserved_prefix: RESERVED_PREFIX,
};

/// The rules as the owner app's page config carries them (`postRules`), as JSON.
pub fn client_rules() -> Value {
    serde_json::to_value(POST_RULES).expect("post rules are JSON")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    fn strings(tags: &[&str]) -> Vec<String> {
        tags.iter().map(|t| (*t).to_owned()).collect()
    }

    /// One case of `tests/fixtures/tag_rules.json`, shared with the owner app's tests.
    #[derive(Deserialize)]
    struct Case {
        name: String,
        tags: Vec<String>,
        /// Appends this many copies of the last tag (for "too many").
        #[serde(default)]
        repeat: usize,
        #[serde(default)]
        normalized: Vec<String>,
        #[serde(default)]
        errors: std::collections::BTreeMap<String, String>,
    }

    #[test]
    fn the_shared_fixture_cases_give_their_messages() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tag_rules.json");
        let fixture: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("the shared fixture")).unwrap();
        assert_eq!(client_rules(), fixture["rules"], "the fixture's rules are the ones the server sends");
        let cases: Vec<Case> = serde_json::from_value(fixture["cases"].clone()).unwrap();
        assert!(cases.len() >= 8);
        for mut case in cases {
            if case.repeat > 0 {
                let last = case.tags.last().cloned().unwrap_or_default();
                for n in 0..case.repeat {
                    case.tags.push(format!("{last}{n}"));
                }
            }
            match normalize(&case.tags) {
                Ok(tags) => {
                    assert!(case.errors.is_empty(), "case {:?} should fail", case.name);
                    assert_eq!(tags, case.normalized, "case {:?}", case.name);
                }
                Err(messages) => {
                    assert_eq!(
                        messages.0.into_iter().collect::<std::collections::BTreeMap<_, _>>(),
                        case.errors,
                        "case {:?}",
                        case.name
                    )
                }
            }
        }
    }

    #[test]
    fn tags_are_lowercased_trimmed_and_deduplicated() {
        assert_eq!(
            normalize(&strings(&[" Rust ", "rust", "road-trip", "2024"])).unwrap(),
            strings(&["rust", "road-trip", "2024"])
        );
    }

    #[test]
    fn spaces_confusables_and_stray_hyphens_are_refused() {
        for bad in
            ["road trip", "jаva", "café", "Ｒust", "\u{212a}otlin", "-a", "a-", "a--b", "", "  ", "a_b", "a/b", "<b>"]
        {
            assert!(tag(bad).is_err(), "{bad:?}");
        }
        assert!(tag(&"a".repeat(MAX_TAG)).is_ok());
        assert!(tag(&"a".repeat(MAX_TAG + 1)).is_err());
    }

    #[test]
    fn a_thousand_tags_give_one_message() {
        let many: Vec<String> = (0..1000).map(|n| format!("t{n}")).collect();
        assert_eq!(normalize(&many).unwrap_err(), Messages::one("tags", "A post can have at most 10 tags"));
        let ten: Vec<String> = (0..10).map(|n| format!("t{n}")).collect();
        assert_eq!(normalize(&ten).unwrap().len(), 10);
    }

    #[test]
    fn is_tag_takes_only_stored_forms() {
        assert!(is_tag("road-trip"));
        assert!(!is_tag("Road-Trip") && !is_tag(" rust") && !is_tag("a--b"));
    }

    #[test]
    fn other_platforms_tags_become_tags_by_transliteration() {
        let cases = [
            ("Road Trip", "road-trip"),
            ("Café", "cafe"),
            ("Écriture", "ecriture"),
            ("  Rust ", "rust"),
            ("C++", "c"),
            ("RoadTrip", "roadtrip"),
        ];
        for (given, want) in cases {
            assert_eq!(from_source(given).as_deref(), Some(want), "{given}");
        }
        assert_eq!(from_source("!!!"), None);
        assert_eq!(from_source(""), None);
        let long = from_source(&"word ".repeat(20)).unwrap();
        assert!(long.len() <= MAX_TAG && is_tag(&long), "{long}");
        assert!(is_internal("#hidden") && is_internal(" #x") && !is_internal("c#"));
    }

    #[test]
    fn imported_pages_take_a_free_address() {
        assert_eq!(free_page_address("about", |_| false), "about");
        assert_eq!(free_page_address("about", |s| s == "about"), "about-2");
        assert_eq!(free_page_address("about", |s| s == "about" || s == "about-2"), "about-3");
        assert_eq!(free_page_address("search", |_| false), "page-search");
        assert_eq!(free_page_address("theme-dark", |_| false), "page-theme-dark");
        let long = "a".repeat(60);
        let taken = free_page_address(&long, |s| s == long);
        assert_eq!(taken.len(), 60);
        assert!(taken.ends_with("-2"));
    }

    #[test]
    fn pages_cannot_take_the_blogs_own_addresses() {
        for slug in ["search", "tags", "media", "feed.xml", "sitemap.xml", "favicon.svg", "theme-abc"] {
            assert!(page_slug_problem(slug).is_some(), "{slug}");
        }
        for slug in ["about", "now", "contact", "searching", "tag"] {
            assert!(page_slug_problem(slug).is_none(), "{slug}");
        }
    }
}
