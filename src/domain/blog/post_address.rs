//! A post's public address: its short id and slug (`/{slug}-{shortId}`).

/// Characters of a short id: lowercase letters and digits, so it never holds a '-'.
const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
/// Length of a short id (36^8, about 2.8e12 ids).
pub const SHORT_ID_LEN: usize = 8;
/// Longest slug.
pub const MAX_SLUG: usize = 60;

/// A new random short id.
pub fn new_short_id() -> String {
    let bytes: [u8; SHORT_ID_LEN] = rand::random();
    bytes.iter().map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char).collect()
}

/// Whether `s` has the shape of a short id.
pub fn is_short_id(s: &str) -> bool {
    s.len() == SHORT_ID_LEN && s.bytes().all(|b| ALPHABET.contains(&b))
}

/// The URL slug of a title: ASCII (transliterated), lowercase, hyphenated, at most 60
/// characters cut at a word boundary; "post" when nothing is left.
pub fn slug(title: &str) -> String {
    let full = slug::slugify(title);
    let mut cut = full.as_str();
    if cut.len() > MAX_SLUG {
        cut = &cut[..MAX_SLUG];
        if let Some(at) = cut.rfind('-') {
            cut = &cut[..at];
        }
    }
    if cut.is_empty() { "post".to_owned() } else { cut.to_owned() }
}

/// Whether `s` is a slug exactly as [`slug`] makes them (lowercase ASCII words joined by single
/// hyphens, at most 60 characters): an imported post keeps its own slug when it is one.
pub fn is_slug(s: &str) -> bool {
    !s.is_empty() && slug(s) == s
}

/// Splits a permalink path segment `{slug}-{shortId}` into its parts.
pub fn split_permalink(segment: &str) -> Option<(&str, &str)> {
    let (slug, short_id) = segment.rsplit_once('-')?;
    is_short_id(short_id).then_some((slug, short_id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_ids_are_eight_lowercase_alphanumerics() {
        for _ in 0..100 {
            assert!(is_short_id(&new_short_id()));
        }
        assert!(!is_short_id("ABCDEFGH") && !is_short_id("abc-defg") && !is_short_id("abc"));
    }

    #[test]
    fn slugs_are_ascii_hyphenated_and_bounded() {
        assert_eq!(slug("Hello, World!"), "hello-world");
        assert_eq!(slug("Crème brûlée à Paris"), "creme-brulee-a-paris");
        assert_eq!(slug("!!!"), "post");
        let long = slug(&"word ".repeat(40));
        assert!(long.len() <= 60 && !long.ends_with('-'), "{long}");
    }

    #[test]
    fn only_slugs_as_made_here_are_slugs() {
        for good in ["hello-world", "2015", "a", &"a".repeat(60)] {
            assert!(is_slug(good), "{good}");
        }
        for bad in ["", "Hello", "a--b", "-a", "a-", "crème", "a b", "a_b", &"a".repeat(61)] {
            assert!(!is_slug(bad), "{bad}");
        }
    }

    #[test]
    fn permalinks_split_at_the_last_hyphen() {
        assert_eq!(split_permalink("my-first-post-ab12cd34"), Some(("my-first-post", "ab12cd34")));
        assert_eq!(split_permalink("post-AB12CD34"), None);
        assert_eq!(split_permalink("nohyphen"), None);
    }
}
