//! The comments and webmentions a Quire archive carries (`responses.json`, docs/archive.md),
//! each checked as the server checks what it stores: a known kind and state, a post the
//! archive holds, a comment's name, website and text as the comment form takes them, a
//! webmention's http(s) source, lengths within Quire's, a readable time. An entry that fails
//! is left out and named in the report; a file that is not JSON refuses the archive.

use std::collections::HashSet;

use serde::Deserialize;
use serde_json::Value;
use url::Url;

use super::dates;
use crate::domain::content::comment;
use crate::domain::content::schedule::stored;
use crate::domain::federation::webmention;
use crate::portable::Unreadable;
use crate::portable::model::MovedResponse;

/// Largest `responses.json` read.
pub const MAX_RESPONSES_BYTES: u64 = 64 * 1024 * 1024;
/// The longest owner's reply kept, in characters.
const MAX_REPLY: usize = comment::MAX_TEXT;

/// `responses.json` as found: each entry read on its own, so one bad entry leaves only itself out.
#[derive(Deserialize)]
struct Found {
    responses: Vec<Value>,
}

/// The entries of `bytes` (a `responses.json`) whose post is among `posts` (the archive's short
/// ids) and that pass the checks, and a note for each that does not.
pub fn read(bytes: &[u8], posts: &HashSet<String>) -> Result<(Vec<MovedResponse>, Vec<String>), Unreadable> {
    let found: Found = serde_json::from_slice(bytes).map_err(|err| {
        Unreadable::new(format!("This archive's responses.json is not a list of responses Quire can read ({err})"))
    })?;
    let mut notes = Vec::new();
    let mut kept = Vec::with_capacity(found.responses.len());
    for (index, entry) in found.responses.into_iter().enumerate() {
        let checked = serde_json::from_value::<MovedResponse>(entry)
            .map_err(|err| format!("it is not a response Quire can read ({err})"))
            .and_then(|response| checked(response, posts));
        match checked {
            Ok(response) => kept.push(response),
            Err(why) => notes.push(format!("response {} of responses.json was left out: {why}", index + 1)),
        }
    }
    Ok((kept, notes))
}

/// `response` cleaned as Quire stores it, or why it is not taken.
fn checked(mut response: MovedResponse, posts: &HashSet<String>) -> Result<MovedResponse, String> {
    if !posts.contains(&response.post) {
        return Err(format!("its post {:?} is not in this archive", response.post));
    }
    if !matches!(response.state.as_str(), "held" | "approved" | "spam") {
        return Err(format!("its state {:?} is not held, approved or spam", response.state));
    }
    let at = dates::parse(&response.received_at).ok_or("its time is not a date Quire can read")?;
    response.received_at = stored(at);
    if response.owner_reply.chars().count() > MAX_REPLY {
        return Err(format!("its owner's reply is longer than {MAX_REPLY} characters"));
    }
    match response.kind.as_str() {
        "comment" => {
            let comment = comment::check(&response.author_name, &response.author_url, &response.text, usize::MAX)
                .map_err(|messages| {
                    messages.0.iter().map(|(_, message)| message.as_str()).collect::<Vec<_>>().join(" ")
                })?;
            (response.author_name, response.author_url, response.text) = (comment.name, comment.website, comment.text);
            (response.source_url, response.title) = (None, String::new());
        }
        "webmention" => {
            let source = response.source_url.as_deref().ok_or("a webmention needs its source page")?;
            if !is_web_address(source) {
                return Err("its source is not an http or https address".to_owned());
            }
            if !response.author_url.is_empty() && !is_web_address(&response.author_url) {
                return Err("its author's address is not an http or https address".to_owned());
            }
            let long = |text: &str, most: usize| text.chars().count() > most;
            if long(&response.author_name, webmention::MAX_NAME) || long(&response.title, webmention::MAX_NAME) {
                return Err(format!("its author's name or title is longer than {} characters", webmention::MAX_NAME));
            }
            if long(&response.text, webmention::MAX_EXCERPT) {
                return Err(format!("its excerpt is longer than {} characters", webmention::MAX_EXCERPT));
            }
        }
        other => return Err(format!("its kind {other:?} is not comment or webmention")),
    }
    Ok(response)
}

/// Whether `raw` is an absolute http(s) address with a host.
fn is_web_address(raw: &str) -> bool {
    Url::parse(raw).is_ok_and(|url| matches!(url.scheme(), "http" | "https") && url.host_str().is_some())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn good_entries_are_kept_cleaned_and_bad_ones_named_one_by_one() {
        let posts: HashSet<String> = ["abc12345".to_owned()].into();
        let good = json!({"post": "abc12345", "kind": "comment", "state": "approved", "authorName": " Ann\u{202e} ",
                          "authorUrl": "https://ann.example", "text": "Nice <b>post</b>", "receivedAt": "2026-11-20T08:00:00Z"});
        let mention = json!({"post": "abc12345", "kind": "webmention", "state": "held", "authorName": "bob.example",
                             "sourceUrl": "https://bob.example/a", "title": "A", "text": "An excerpt",
                             "receivedAt": "2026-11-20T08:00:00.000Z"});
        let bytes = json!({"responses": [
            good, mention, 12, {"post": "zzz", "kind": "comment", "state": "held", "authorName": "A", "text": "t", "receivedAt": "2026-11-20T08:00:00Z"},
            {"post": "abc12345", "kind": "reaction", "state": "held", "authorName": "A", "text": "t", "receivedAt": "2026-11-20T08:00:00Z"},
            {"post": "abc12345", "kind": "comment", "state": "shown", "authorName": "A", "text": "t", "receivedAt": "2026-11-20T08:00:00Z"},
            {"post": "abc12345", "kind": "comment", "state": "held", "authorName": "A", "text": "t", "receivedAt": "yesterday"},
            {"post": "abc12345", "kind": "comment", "state": "held", "authorName": "A", "authorUrl": "javascript:alert(1)", "text": "t", "receivedAt": "2026-11-20T08:00:00Z"},
            {"post": "abc12345", "kind": "comment", "state": "held", "authorName": "A", "text": "x".repeat(5001), "receivedAt": "2026-11-20T08:00:00Z"},
            {"post": "abc12345", "kind": "webmention", "state": "held", "authorName": "A", "sourceUrl": "file:///etc/passwd", "text": "t", "receivedAt": "2026-11-20T08:00:00Z"},
            {"post": "abc12345", "kind": "webmention", "state": "held", "authorName": "A", "text": "t", "receivedAt": "2026-11-20T08:00:00Z"},
        ]})
        .to_string();
        let (kept, notes) = read(bytes.as_bytes(), &posts).unwrap();
        assert_eq!(kept.len(), 2, "{notes:?}");
        assert_eq!((kept[0].author_name.as_str(), kept[0].author_url.as_str()), ("Ann", "https://ann.example/"));
        assert_eq!(kept[0].received_at, "2026-11-20T08:00:00.000Z");
        assert_eq!(kept[1].source_url.as_deref(), Some("https://bob.example/a"));
        assert_eq!(notes.len(), 9, "{notes:?}");
        for (note, says) in notes.iter().zip([
            "not a response Quire can read",
            "is not in this archive",
            "is not comment or webmention",
            "is not held, approved or spam",
            "not a date",
            "https://",
            "at most 5000",
            "not an http or https address",
            "needs its source page",
        ]) {
            assert!(note.contains(says), "{note} / {says}");
        }
        assert!(read(b"{\"responses\": 3}", &posts).is_err(), "a file of another shape refuses the archive");
        assert!(read(b"not json", &posts).is_err());
    }
}
