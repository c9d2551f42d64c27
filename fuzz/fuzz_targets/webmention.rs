//! Another site's page as Webmention reads it (issue 31): any bytes as a page's Link header and
//! HTML find an endpoint or none, and as a source find a mention or none, never a panic; an
//! endpoint found is an http(s) URL, and what a mention keeps is plain text within its limits.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quire::domain::federation::webmention::{MAX_EXCERPT, MAX_NAME, endpoint, read_source};
use url::Url;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (header, html) = text.split_once('\n').unwrap_or(("", &text));
    let base = Url::parse("https://peer.example/notes/1").unwrap();
    if let Some(found) = endpoint(&base, &[header], html) {
        assert!(matches!(found.scheme(), "http" | "https"), "{found}");
    }
    let target = Url::parse("https://alice.example/hello-abcdefgh").unwrap();
    if let Some(mention) = read_source(html, &base, &target) {
        assert!(mention.title.chars().count() <= MAX_NAME + 1);
        assert!(mention.author_name.chars().count() <= MAX_NAME + 1);
        assert!(mention.excerpt.chars().count() <= MAX_EXCERPT + 1);
        assert!(mention.author_url.is_empty() || mention.author_url.starts_with("http"));
    }
});
