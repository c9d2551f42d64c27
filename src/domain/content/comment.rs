//! A reader's comment as the form sends it (issue 31, docs/responses.md): a name, an optional
//! website (http or https only) and Markdown text shown through the one renderer
//! ([`super::markdown::to_html`]: links `rel="nofollow ugc"`, raw HTML shown as text). Checked
//! here before anything is stored; what a spammer writes is then judged by the blog's blocked
//! words ([`mentions_blocked_word`]).

use crate::domain::content::markdown;
use crate::domain::messages::Messages;

/// The longest name, in characters.
pub const MAX_NAME: usize = 80;
/// The longest website address, in characters.
pub const MAX_WEBSITE: usize = 500;
/// The longest text, in characters.
pub const MAX_TEXT: usize = 5_000;

/// A comment that passed the checks, its strings cleaned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comment {
    /// The commenter's name, one line.
    pub name: String,
    /// Their website, an http or https URL, or ''.
    pub website: String,
    /// The text, Markdown.
    pub text: String,
}

/// Characters that reorder what follows them (a name written right to left over the text
/// after it) or hide: left out of names and texts.
fn is_hidden_control(c: char) -> bool {
    matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}')
}

/// `raw` without hidden controls and, but for line breaks and tabs in a text, control characters.
fn cleaned(raw: &str, multiline: bool) -> String {
    let text: String = raw.replace("\r\n", "\n").chars().filter(|c| !is_hidden_control(*c)).collect();
    let text: String = text
        .chars()
        .filter(|&c| !c.is_control() || (multiline && (c == '\n' || c == '\t')))
        .map(|c| if !multiline && c.is_whitespace() { ' ' } else { c })
        .collect();
    text.trim().to_owned()
}

/// How many links `text` carries: Markdown links and bare web addresses alike.
pub fn link_count(text: &str) -> usize {
    let linked = markdown::link_urls(text).len();
    let lower = text.to_ascii_lowercase();
    let bare = lower.matches("http://").count() + lower.matches("https://").count() + lower.matches("www.").count();
    linked.max(bare)
}

/// Checks and cleans a comment as sent; `max_links` is the blog's limit on links in one.
/// Every problem is named against its field (`name`, `website`, `text`).
pub fn check(name: &str, website: &str, text: &str, max_links: usize) -> Result<Comment, Messages> {
    let mut errors = Messages::default();
    let name = cleaned(name, false);
    if name.is_empty() {
        errors.push("name", "Enter your name.");
    } else if name.chars().count() > MAX_NAME {
        errors.push("name", format!("A name is at most {MAX_NAME} characters."));
    }
    let mut website = cleaned(website, false);
    if let Some(problem) = website_problem(&website).filter(|_| !website.is_empty()) {
        errors.push("website", problem);
    } else if let Ok(url) = url::Url::parse(&website) {
        // Stored as the URL parser writes it: `https:host/x` becomes `https://host/x`.
        website = url.to_string();
    }
    let text = cleaned(text, true);
    if text.is_empty() {
        errors.push("text", "Write your comment.");
    } else if text.chars().count() > MAX_TEXT {
        errors.push("text", format!("A comment is at most {MAX_TEXT} characters."));
    } else if link_count(&text) > max_links {
        errors.push("text", format!("A comment may hold at most {max_links} links."));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Comment { name, website, text })
}

fn website_problem(website: &str) -> Option<String> {
    if website.chars().count() > MAX_WEBSITE {
        return Some(format!("A website address is at most {MAX_WEBSITE} characters."));
    }
    let bad = || Some("Give your website as an address starting with https:// or http://.".to_owned());
    let Ok(url) = url::Url::parse(website) else { return bad() };
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none_or(str::is_empty) {
        return bad();
    }
    if !url.username().is_empty() || url.password().is_some() {
        return bad();
    }
    None
}

/// Whether any of `words` (lowercase, as the owner listed them) appears in the comment's name,
/// website or text, case left aside: such a comment goes to Spam.
pub fn mentions_blocked_word(comment: &Comment, words: &[String]) -> bool {
    let haystack = format!("{}\n{}\n{}", comment.name, comment.website, comment.text).to_lowercase();
    words.iter().any(|word| !word.is_empty() && haystack.contains(word.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(name: &str, website: &str, text: &str) -> Vec<(String, String)> {
        match check(name, website, text, 3) {
            Ok(_) => Vec::new(),
            Err(messages) => messages.0,
        }
    }

    #[test]
    fn a_plain_comment_is_cleaned_and_kept() {
        let comment =
            check("  Ann\u{202e}  Lee\n", "https://ann.example/", "Nice post!\r\n\r\nSee *this*.\u{0}", 3).unwrap();
        assert_eq!(comment.name, "Ann  Lee");
        assert_eq!(comment.website, "https://ann.example/");
        assert_eq!(comment.text, "Nice post!\n\nSee *this*.");
    }

    #[test]
    fn bad_fields_are_named() {
        assert_eq!(problems("", "", "")[0], ("name".into(), "Enter your name.".into()));
        assert_eq!(problems("", "", "")[1], ("text".into(), "Write your comment.".into()));
        assert_eq!(problems(&"n".repeat(81), "", "x")[0].0, "name");
        for website in ["javascript:alert(1)", "ftp://x.example", "https://user:pw@x.example", "not a url", "https://"]
        {
            assert_eq!(problems("Ann", website, "x")[0].0, "website", "{website}");
        }
        assert_eq!(problems("Ann", "", &"x".repeat(5_001))[0].0, "text");
        assert!(problems("Ann", "", &"x".repeat(5_000)).is_empty());
    }

    #[test]
    fn a_website_is_kept_as_the_url_parser_writes_it() {
        // Found by the fuzz target: a special scheme without its slashes is still that URL.
        let comment = check("Ann", "https:ann.example/x y", "Hi", 3).unwrap();
        assert_eq!(comment.website, "https://ann.example/x%20y");
    }

    #[test]
    fn links_are_counted_linked_or_bare() {
        assert_eq!(link_count("[a](https://a.example) <https://b.example> c"), 2);
        assert_eq!(link_count("see http://a.example and www.b.example and https://c.example"), 3);
        let many = "https://spam.example ".repeat(200);
        assert_eq!(problems("Ann", "", &many)[0], ("text".into(), "A comment may hold at most 3 links.".into()));
    }

    #[test]
    fn blocked_words_match_without_regard_to_case() {
        let comment = check("Ann", "https://cheap-PILLS.example", "Hello", 3).unwrap();
        assert!(mentions_blocked_word(&comment, &["pills".to_owned()]));
        assert!(!mentions_blocked_word(&comment, &["casino".to_owned(), String::new()]));
    }

    #[test]
    fn script_is_text_when_shown() {
        let comment =
            check("<script>alert(1)</script>", "", "<img src=x onerror=alert(1)> [x](javascript:alert(1))", 3).unwrap();
        let html = markdown::to_html(&comment.text);
        assert!(!html.contains("<img") && !html.contains("href=\"javascript"), "{html}");
        assert!(html.contains("&lt;img"), "{html}");
    }
}
