//! The emoji images and keywords carried in the binary, packed by `build.rs` from two npm
//! packages: the Twemoji SVGs (`@discordapp/twemoji`, Discord's maintained fork of Twemoji; graphics
//! by Twitter and contributors, CC-BY 4.0)
//! and Emojibase's English names and keywords (`emojibase-data`, MIT).
//!
//! Emoji are named by their code: the code points in lowercase hex joined by `-`, the file
//! names of Twemoji (`1f44d-1f3fd` for 👍🏽). A code the set has no image for (an emoji newer
//! than the set) has none here, and is drawn as text where it is shown.

use std::collections::HashMap;
use std::io::Read;
use std::sync::OnceLock;

mod data {
    include!(concat!(env!("OUT_DIR"), "/emoji_data.rs"));
}

/// Every image, each a gzip member, at the offsets `data::IMAGES` gives.
static IMAGE_DATA: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/emoji_images.bin"));

/// Longest search query read; the rest is ignored.
pub const MAX_QUERY_CHARS: usize = 100;
/// Most words of a search query read; the rest are ignored.
pub const MAX_QUERY_WORDS: usize = 8;

/// The version of the embedded Twemoji set, e.g. `16.0.1`; empty when the build has none.
pub fn images_version() -> &'static str {
    data::IMAGES_VERSION
}

/// The gzipped SVG of the emoji with this code, if the set has it. Twemoji names a few
/// sequences without their U+FE0F (`1f441-200d-1f5e8` for 👁️‍🗨️): those are found too.
pub fn image_gzip(code: &str) -> Option<&'static [u8]> {
    let find = |code: &str| data::IMAGES.binary_search_by(|(name, _, _)| (*name).cmp(code)).ok();
    let at = find(code).or_else(|| {
        let without: Vec<&str> = code.split('-').filter(|point| *point != "fe0f").collect();
        (without.len() < code.split('-').count()).then(|| find(&without.join("-"))).flatten()
    })?;
    let (_, start, end) = data::IMAGES[at];
    IMAGE_DATA.get(start as usize..end as usize)
}

/// The SVG of the emoji with this code, if the set has it.
pub fn image_svg(code: &str) -> Option<String> {
    let mut svg = String::new();
    flate2::read::GzDecoder::new(image_gzip(code)?).read_to_string(&mut svg).ok()?;
    Some(svg)
}

/// The code of an emoji: its code points in lowercase hex joined by `-`, without U+FE0F unless
/// the sequence has a zero-width joiner (the Twemoji file names).
pub fn code_of(emoji: &str) -> String {
    let keep_fe0f = emoji.contains('\u{200D}');
    emoji
        .chars()
        .filter(|&c| keep_fe0f || c != '\u{FE0F}')
        .map(|c| format!("{:x}", c as u32))
        .collect::<Vec<_>>()
        .join("-")
}

/// Every emoji of the Unicode set (skin-tone variants after their base), in Unicode order: the
/// tab icons a blog can have.
pub fn all() -> impl Iterator<Item = &'static emojis::Emoji> {
    emojis::iter().flat_map(|base| match base.skin_tones() {
        Some(tones) => tones.collect(),
        None => vec![base],
    })
}

/// The emoji with this code, if it is one of [`all`].
pub fn by_code(code: &str) -> Option<&'static str> {
    static BY_CODE: OnceLock<HashMap<String, &'static str>> = OnceLock::new();
    BY_CODE.get_or_init(|| all().map(|emoji| (code_of(emoji.as_str()), emoji.as_str())).collect()).get(code).copied()
}

/// An SVG that draws `emoji` as text, with the fonts of whoever looks at it: for an emoji the
/// image set has no picture of.
pub fn text_svg(emoji: &str) -> String {
    let escaped: String = emoji.chars().filter(|c| !matches!(c, '<' | '>' | '&' | '"' | '\'')).collect();
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 100 100\"><text x=\"50\" y=\".9em\" font-size=\"85\" text-anchor=\"middle\">{escaped}</text></svg>"
    )
}

/// The picture of the emoji with this code: its image, or the emoji as text when the set has
/// none of it; `None` when the code is no emoji of [`all`].
pub fn svg(code: &str) -> Option<String> {
    image_svg(code).or_else(|| by_code(code).map(text_svg))
}

/// An icon search: the words of a query, lowercased; each must begin a word of an emoji's
/// name or keywords.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Search {
    words: Vec<String>,
}

/// How well an emoji matches a search, best first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Match {
    /// Every query word is a whole word of the name (`cat` for "grinning cat").
    Name,
    /// Every query word begins a word of the name (`gri` for "grinning face").
    NameStart,
    /// Every query word is a whole word of the name or the keywords (`hello` for "waving hand").
    Keyword,
    /// Every query word begins a word of the name or the keywords (`hel` for "waving hand").
    KeywordStart,
}

impl Search {
    /// The search a query asks for, or `None` when it has no word (then nothing is filtered).
    /// Only the first [`MAX_QUERY_CHARS`] characters and [`MAX_QUERY_WORDS`] words are read.
    pub fn parse(query: &str) -> Option<Search> {
        let query: String = query.chars().take(MAX_QUERY_CHARS).collect();
        let words: Vec<String> = words(&query).take(MAX_QUERY_WORDS).collect();
        (!words.is_empty()).then_some(Search { words })
    }

    /// The search in the `query` parameter of a URL's query string, if it has words.
    pub fn from_url_query(raw: Option<&str>) -> Option<Search> {
        let params: Vec<(String, String)> = serde_urlencoded::from_str(raw.unwrap_or("")).ok()?;
        let (_, query) = params.iter().find(|(name, _)| name == "query")?;
        Search::parse(query)
    }

    /// The emoji of `items` that match, best matches first, each kind of match in the order
    /// given. `code_and_name` tells an item's code and name.
    pub fn filter<T>(&self, items: Vec<T>, code_and_name: impl Fn(&T) -> (&str, &str)) -> Vec<T> {
        let mut found: Vec<(Match, T)> = items
            .into_iter()
            .filter_map(|item| {
                let (code, name) = code_and_name(&item);
                Some((self.matches(code, name)?, item))
            })
            .collect();
        found.sort_by_key(|(how, _)| *how);
        found.into_iter().map(|(_, item)| item).collect()
    }

    /// How the emoji with this code and name matches, or `None` when it does not.
    pub fn matches(&self, code: &str, name: &str) -> Option<Match> {
        let name: Vec<String> = words(name).collect();
        if self.words.iter().all(|word| name.contains(word)) {
            return Some(Match::Name);
        }
        let begins = |words: &[String], query: &String| words.iter().any(|word| word.starts_with(query.as_str()));
        if self.words.iter().all(|word| begins(&name, word)) {
            return Some(Match::NameStart);
        }
        let keywords: Vec<String> = words(keywords(code)).collect();
        if self.words.iter().all(|word| name.contains(word) || keywords.contains(word)) {
            return Some(Match::Keyword);
        }
        self.words.iter().all(|word| begins(&name, word) || begins(&keywords, word)).then_some(Match::KeywordStart)
    }
}

/// The lowercase words of a text: runs of letters and digits.
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric()).filter(|word| !word.is_empty()).map(str::to_lowercase)
}

/// The English name and keywords of the emoji with this code (U+FE0F left out on both sides),
/// space-separated; empty when there are none.
fn keywords(code: &str) -> &'static str {
    let key: Vec<&str> = code.split('-').filter(|point| *point != "fe0f").collect();
    let key = key.join("-");
    data::KEYWORDS.binary_search_by(|(name, _)| (*name).cmp(key.as_str())).map(|at| data::KEYWORDS[at].1).unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_are_svgs_by_code() {
        assert!(data::IMAGES.len() > 3000, "the Twemoji set has thousands of images");
        let svg = image_svg("1f600").expect("😀 is in the set");
        assert!(svg.starts_with("<svg") && svg.contains("<path"), "{svg}");
        assert!(image_svg("1f3f3-fe0f-200d-1f308").is_some(), "🏳️‍🌈 keeps U+FE0F in its code");
        assert_eq!(image_svg("zz"), None);
        assert_eq!(image_svg(""), None);
        assert_eq!(images_version(), "16.0.1");
    }

    #[test]
    fn emoji_up_to_unicode_16_have_images_and_newer_ones_none() {
        // 🐦‍🔥 (phoenix) came with Emoji 15.1, 🫩 (face with bags under eyes) with Emoji 16.0.
        assert!(image_gzip("1f426-200d-1f525").is_some());
        assert!(image_gzip("1fae9").is_some());
        // 🫪 (distorted face) came with Emoji 17.0, after Twemoji 16.0.
        assert_eq!(image_gzip("1faea"), None);
    }

    #[test]
    fn codes_follow_twemoji_file_names() {
        assert_eq!(code_of("😀"), "1f600");
        assert_eq!(code_of("❤️"), "2764");
        assert_eq!(code_of("👍🏽"), "1f44d-1f3fd");
        assert_eq!(code_of("🏳️‍🌈"), "1f3f3-fe0f-200d-1f308");
        assert_eq!(by_code("1f44d-1f3fd"), Some("👍🏽"));
        assert_eq!(by_code("1f600-1f600"), None);
    }

    #[test]
    fn an_emoji_without_an_image_is_drawn_as_text_and_a_code_of_no_emoji_not_at_all() {
        let distorted = svg("1faea").expect("🫪 is an emoji");
        assert!(distorted.contains("<text") && distorted.contains('\u{1faea}'), "{distorted}");
        assert_eq!(svg("1f600"), image_svg("1f600"));
        assert_eq!(svg("zz"), None);
        assert_eq!(text_svg("<a>&\"'"), text_svg("a"));
    }

    #[test]
    fn nearly_every_emoji_has_an_image() {
        let missing: Vec<&str> =
            all().map(|emoji| emoji.as_str()).filter(|emoji| image_gzip(&code_of(emoji)).is_none()).collect();
        // Twemoji 16.0 has no image of the emoji of Unicode 17.0 (about 5 % of them, mostly
        // skin tones of new sequences).
        assert!(
            missing.len() * 20 < all().count(),
            "{} of {} without an image: {missing:?}",
            missing.len(),
            all().count()
        );
        assert!(image_gzip(&code_of("👁️‍🗨️")).is_some(), "named without U+FE0F by Twemoji");
    }

    #[test]
    fn a_query_without_words_filters_nothing() {
        assert_eq!(Search::parse(""), None);
        assert_eq!(Search::parse("  -- !? "), None);
    }

    #[test]
    fn whole_name_words_come_before_word_starts_and_keywords() {
        let cat = Search::parse("Cat").unwrap();
        assert_eq!(cat.matches("1f431", "cat face"), Some(Match::Name));
        assert_eq!(cat.matches("1f63a", "grinning cat"), Some(Match::Name));
        assert_eq!(cat.matches("1f408", "cat"), Some(Match::Name));
        assert_eq!(Search::parse("gri ca").unwrap().matches("1f63a", "grinning cat"), Some(Match::NameStart));
        assert_eq!(cat.matches("1f436", "dog face"), None);
        // 👋: "hello" is one of its keywords, not a word of its name.
        assert_eq!(Search::parse("hello").unwrap().matches("1f44b", "waving hand"), Some(Match::Keyword));
        // Skin-tone variants have their base's keywords.
        assert_eq!(
            Search::parse("hello").unwrap().matches("1f44b-1f3fd", "waving hand: medium skin tone"),
            Some(Match::Keyword)
        );
        // Keywords are found with U+FE0F in the code or not.
        assert_eq!(
            Search::parse("burn").unwrap().matches("2764-fe0f-200d-1f525", "heart on fire"),
            Some(Match::Keyword)
        );
        assert_eq!(Search::parse("hel").unwrap().matches("1f44b", "waving hand"), Some(Match::KeywordStart));
        assert_eq!(Search::parse("nothing-like-this").unwrap().matches("1f600", "grinning face"), None);
    }

    #[test]
    fn filtering_puts_name_matches_first_and_keeps_the_order_within_each_kind() {
        let emoji = [
            ("1f63a", "grinning cat"),
            ("1f600", "grinning face"),
            ("1f431", "cat face"),
            ("1f408", "cat"),
            ("1f43e", "paw prints"),
        ];
        let found = Search::parse("cat").unwrap().filter(emoji.to_vec(), |&(code, name)| (code, name));
        let codes: Vec<&str> = found.iter().map(|(code, _)| *code).collect();
        assert_eq!(codes[..3], ["1f63a", "1f431", "1f408"]);
        assert!(!codes.contains(&"1f600"));
    }

    #[test]
    fn the_search_is_the_query_parameter() {
        assert_eq!(Search::from_url_query(Some("page=2&query=Cat+face")), Search::parse("cat face"));
        assert_eq!(Search::from_url_query(Some("page=2")), None);
        assert_eq!(Search::from_url_query(Some("query=")), None);
        assert_eq!(Search::from_url_query(None), None);
        assert_eq!(Search::from_url_query(Some("query=%FF")), None);
    }

    #[test]
    fn long_queries_are_cut() {
        let long = "cat ".repeat(100);
        assert_eq!(Search::parse(&long).unwrap().words.len(), MAX_QUERY_WORDS);
        let one_long_word = "a".repeat(1000);
        assert_eq!(Search::parse(&one_long_word).unwrap().words[0].len(), MAX_QUERY_CHARS);
    }
}
