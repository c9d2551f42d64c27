//! A reader's comment as the form sends it (issue 31): any bytes, split into name, website and
//! text, are checked and cleaned or refused by field, never a panic; what is accepted holds no
//! control or hidden character in its name, a website that is http(s), and text within its
//! limits whose HTML (the one renderer) carries no raw tag and no script URL.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quire::domain::content::comment::{MAX_NAME, MAX_TEXT, check, link_count};
use quire::domain::content::markdown;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut parts = text.splitn(3, '\u{1}');
    let (name, website, body) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let Ok(comment) = check(name, website, body, 3) else { return };
    assert!(!comment.name.is_empty() && comment.name.chars().count() <= MAX_NAME);
    assert!(
        !comment.name.chars().any(|c| c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'))
    );
    assert!(
        comment.website.is_empty() || comment.website.starts_with("http://") || comment.website.starts_with("https://")
    );
    assert!(!comment.text.is_empty() && comment.text.chars().count() <= MAX_TEXT);
    assert!(link_count(&comment.text) <= 3);
    let html = markdown::to_html(&comment.text);
    let lower = html.to_ascii_lowercase();
    assert!(!lower.contains("<script") && !lower.contains("<img") && !lower.contains("href=\"javascript:"), "{html}");
});
