//! The comments, webmentions and fediverse replies a Quire archive carries (`responses.json`,
//! docs/archive.md), each checked as the server checks what it stores: a known kind and state, a
//! post the archive holds, a comment's name, website and text as the comment form takes them, a
//! webmention's http(s) source, a reply's http(s) Note and author, lengths within Quire's, a
//! readable time. An entry that fails
//! is left out and named in the report; a file that is not JSON refuses the archive.

use std::collections::HashSet;

use serde::Deserialize;
use serde_json::Value;
use url::Url;

use super::dates;
use crate::domain::content::comment;
use crate::domain::content::schedule::stored;
use crate::domain::federation::{remote_html, webmention};
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
        "reply" => {
            let web = |raw: Option<&str>| raw.is_some_and(is_web_address);
            if !web(response.note_id.as_deref()) || !web(response.actor_id.as_deref()) {
                return Err("a fediverse reply needs its Note's and its author's http or https addresses".to_owned());
            }
            let optional_web = |raw: &str| raw.is_empty() || is_web_address(raw);
            if !optional_web(&response.author_url) || !optional_web(response.source_url.as_deref().unwrap_or_default())
            {
                return Err("its author's or its own page is not an http or https address".to_owned());
            }
            let long = |text: &str, most: usize| text.chars().count() > most;
            let handle = response.author_handle.get_or_insert_default();
            if long(&response.author_name, webmention::MAX_NAME) || long(handle, webmention::MAX_NAME) {
                return Err(format!("its author's name or handle is longer than {} characters", webmention::MAX_NAME));
            }
            if long(&response.text, remote_html::MAX_CHARS) {
                return Err(format!("its text is longer than {} characters", remote_html::MAX_CHARS));
            }
            let published = response.published_at.as_deref().map_or(Some(at), dates::parse);
            response.published_at = Some(stored(published.ok_or("its date is not a date Quire can read")?));
            (response.title, response.owner_reply) = (String::new(), String::new());
        }
        other => return Err(format!("its kind {other:?} is not comment, webmention or reply")),
    }
    if response.kind != "reply" {
        (response.author_handle, response.note_id, response.actor_id, response.published_at) = (None, None, None, None);
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
        let reply = json!({"post": "abc12345", "kind": "reply", "state": "spam", "authorName": "Bob",
                           "authorUrl": "https://peer.example/@bob", "sourceUrl": "https://peer.example/@bob/1",
                           "text": "A reply", "receivedAt": "2026-11-20T08:00:00Z", "authorHandle": "@bob@peer.example",
                           "noteId": "https://peer.example/notes/1", "actorId": "https://peer.example/users/bob",
                           "ownerReply": "dropped"});
        let bytes = json!({"responses": [
            good, mention, reply,
            {"post": "abc12345", "kind": "reply", "state": "held", "authorName": "Bob", "text": "t", "receivedAt": "2026-11-20T08:00:00Z",
             "noteId": "javascript:alert(1)", "actorId": "https://peer.example/users/bob"},
            12, {"post": "zzz", "kind": "comment", "state": "held", "authorName": "A", "text": "t", "receivedAt": "2026-11-20T08:00:00Z"},
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
        assert_eq!(kept.len(), 3, "{notes:?}");
        assert_eq!(
            (kept[2].note_id.as_deref(), kept[2].owner_reply.as_str()),
            (Some("https://peer.example/notes/1"), "")
        );
        assert_eq!(
            kept[2].published_at.as_deref(),
            Some("2026-11-20T08:00:00.000Z"),
            "written when it came, if unsaid"
        );
        assert_eq!((kept[0].author_name.as_str(), kept[0].author_url.as_str()), ("Ann", "https://ann.example/"));
        assert_eq!(kept[0].received_at, "2026-11-20T08:00:00.000Z");
        assert_eq!(kept[1].source_url.as_deref(), Some("https://bob.example/a"));
        assert_eq!(notes.len(), 10, "{notes:?}");
        for (note, says) in notes.iter().zip([
            "needs its Note's and its author's http or https addresses",
            "not a response Quire can read",
            "is not in this archive",
            "is not comment, webmention or reply",
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
