//! One message as it goes to the relay (docs/email.md, "The mail queue"): built from its
//! stored content, its queue row and `--mail-from`, refusing any header that would carry a line
//! break rather than passing it on.

use lettre::Message;
use lettre::message::header::{ContentType, Header, HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart};

use crate::config::Dkim;
use crate::domain::content::html::escape;

/// A stored message (`mail_contents`), as the sender reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Content {
    /// Its subject.
    pub subject: String,
    /// The plain-text part.
    pub text: String,
    /// The HTML part ('' for text only).
    pub html: String,
    /// The sender's display name ('' for `--mail-from` as given).
    pub from_name: String,
    /// `Reply-To` ('' for none).
    pub reply_to: String,
}

/// Why a message cannot be built; it can never be sent, so its row is given up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadMessage {
    /// A header's value holds a carriage return or line feed.
    #[error("the {0} holds a line break")]
    LineBreak(&'static str),
    /// An address lettre cannot read.
    #[error("the {0} is not an email address")]
    Address(&'static str),
    /// lettre refused the message.
    #[error("the message cannot be built: {0}")]
    Build(String),
}

/// `List-Unsubscribe: <URL>` (RFC 2369).
#[derive(Debug, Clone)]
struct ListUnsubscribe(String);

impl Header for ListUnsubscribe {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe")
    }

    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribe(s.to_owned()))
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), format!("<{}>", self.0))
    }
}

/// `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058).
#[derive(Debug, Clone)]
struct ListUnsubscribePost;

impl Header for ListUnsubscribePost {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe-Post")
    }

    fn parse(_: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribePost)
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "List-Unsubscribe=One-Click".to_owned())
    }
}

/// Refuses `value` when it holds CR or LF.
fn one_line<'a>(value: &'a str, what: &'static str) -> Result<&'a str, BadMessage> {
    if value.contains(['\r', '\n']) { Err(BadMessage::LineBreak(what)) } else { Ok(value) }
}

/// The message of `content` to `to`, from `from`'s address (with the content's display name,
/// or `from` as given when it has none); with `unsubscribe_url` non-empty, the list headers and
/// a visible unsubscribe footer in each part. `message_id` is the local part of its
/// `Message-ID`, on `from`'s domain. Signed with `dkim` when given.
pub fn build(
    content: &Content,
    to: &str,
    unsubscribe_url: &str,
    from: &Mailbox,
    message_id: &str,
    dkim: Option<&Dkim>,
) -> Result<Message, BadMessage> {
    let subject = one_line(&content.subject, "subject")?;
    let to: Mailbox = one_line(to, "recipient")?.parse().map_err(|_| BadMessage::Address("recipient"))?;
    let name = one_line(&content.from_name, "sender's name")?.trim();
    let from = if name.is_empty() { from.clone() } else { Mailbox::new(Some(name.to_owned()), from.email.clone()) };
    let unsubscribe_url = one_line(unsubscribe_url, "unsubscribe link")?;
    let mut builder = Message::builder()
        .from(from.clone())
        .to(to)
        .subject(subject)
        .date_now()
        .message_id(Some(format!("<{}@{}>", one_line(message_id, "message id")?, from.email.domain())));
    let reply_to = one_line(&content.reply_to, "reply-to")?.trim();
    if !reply_to.is_empty() {
        builder = builder.reply_to(reply_to.parse().map_err(|_| BadMessage::Address("reply-to"))?);
    }
    let (mut text, mut html) = (content.text.clone(), content.html.clone());
    if !unsubscribe_url.is_empty() {
        builder = builder.header(ListUnsubscribe(unsubscribe_url.to_owned())).header(ListUnsubscribePost);
        text = with_text_footer(&text, unsubscribe_url);
        if !html.is_empty() {
            html = with_html_footer(&html, unsubscribe_url);
        }
    }
    let built = if html.is_empty() {
        builder.header(ContentType::TEXT_PLAIN).body(text)
    } else {
        builder.multipart(MultiPart::alternative_plain_html(text, html))
    };
    let mut message = built.map_err(|err| BadMessage::Build(err.to_string()))?;
    if let Some(dkim) = dkim {
        message.sign(&dkim.config);
    }
    Ok(message)
}

/// The plain text with its unsubscribe line.
fn with_text_footer(text: &str, url: &str) -> String {
    format!("{}\n\n--\nUnsubscribe: {url}\n", text.trim_end())
}

/// The HTML with its unsubscribe link, before the last `</body>` (or at the end).
fn with_html_footer(html: &str, url: &str) -> String {
    let footer = format!("<p><a href=\"{}\">Unsubscribe</a></p>", escape(url));
    match html.to_ascii_lowercase().rfind("</body>") {
        Some(at) => format!("{}{footer}{}", &html[..at], &html[at..]),
        None => format!("{html}{footer}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from() -> Mailbox {
        "Quire <noreply@example.com>".parse().unwrap()
    }

    fn content(html: &str) -> Content {
        Content {
            subject: "Héllo <world>".into(),
            text: "Plain body".into(),
            html: html.into(),
            from_name: "Ann's \"blog\" <x@evil>".into(),
            reply_to: "owner@example.org".into(),
        }
    }

    fn formatted(message: &Message) -> String {
        String::from_utf8(message.formatted()).unwrap()
    }

    #[test]
    fn a_list_message_has_both_parts_the_list_headers_and_the_footer() {
        let message = build(
            &content("<html><body><p>Hi</p></BODY></html>"),
            "reader@example.net",
            "https://ann.example.com/unsubscribe?t=a&b=<c>",
            &from(),
            "m1",
            None,
        )
        .unwrap();
        let raw = formatted(&message);
        assert!(raw.contains("List-Unsubscribe: <https://ann.example.com/unsubscribe?t=a&b=<c>>"), "{raw}");
        assert!(raw.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"), "{raw}");
        assert!(raw.contains("Message-ID: <m1@example.com>"), "{raw}");
        assert!(raw.contains("Reply-To: owner@example.org"), "{raw}");
        assert!(raw.contains("multipart/alternative"), "{raw}");
        assert!(raw.contains("<noreply@example.com>"), "{raw}");
        assert!(!raw.contains("x@evil>"), "the display name is quoted or encoded, never an address: {raw}");
        assert!(raw.contains("Date: "), "{raw}");
        let html = with_html_footer("<html><body><p>Hi</p></BODY></html>", "https://x/u?a=1&b=\"2\"");
        assert_eq!(
            html,
            "<html><body><p>Hi</p><p><a href=\"https://x/u?a=1&amp;b=&quot;2&quot;\">Unsubscribe</a></p></BODY></html>"
        );
        assert_eq!(with_html_footer("<p>Hi</p>", "u"), "<p>Hi</p><p><a href=\"u\">Unsubscribe</a></p>");
        assert_eq!(with_text_footer("Body\n\n", "https://u"), "Body\n\n--\nUnsubscribe: https://u\n");
    }

    #[test]
    fn a_plain_message_without_a_list_has_no_list_headers() {
        let mut plain = content("");
        plain.from_name = String::new();
        plain.reply_to = String::new();
        let raw = formatted(&build(&plain, "reader@example.net", "", &from(), "m2", None).unwrap());
        assert!(raw.contains("From: Quire <noreply@example.com>"), "{raw}");
        assert!(raw.contains("text/plain; charset=utf-8"), "{raw}");
        assert!(
            !raw.contains("List-Unsubscribe") && !raw.contains("Reply-To") && !raw.contains("Unsubscribe:"),
            "{raw}"
        );
    }

    #[test]
    fn a_line_break_in_any_header_refuses_the_message() {
        let mut bad = content("");
        bad.subject = "Hi\r\nBcc: victim@example.org".into();
        assert_eq!(build(&bad, "a@example.net", "", &from(), "m", None).unwrap_err(), BadMessage::LineBreak("subject"));
        let mut bad = content("");
        bad.from_name = "Ann\nBcc: x@y".into();
        assert_eq!(
            build(&bad, "a@example.net", "", &from(), "m", None).unwrap_err(),
            BadMessage::LineBreak("sender's name")
        );
        assert_eq!(
            build(&content(""), "a@example.net", "https://u\r\nBcc: x@y", &from(), "m", None).unwrap_err(),
            BadMessage::LineBreak("unsubscribe link")
        );
        assert_eq!(
            build(&content(""), "a@example.net\n", "", &from(), "m", None).unwrap_err(),
            BadMessage::LineBreak("recipient")
        );
        assert_eq!(
            build(&content(""), "not an address", "", &from(), "m", None).unwrap_err(),
            BadMessage::Address("recipient")
        );
    }

    #[test]
    fn a_message_is_signed_with_the_dkim_key_given() {
        let dir = tempfile::tempdir().unwrap();
        let key = dir.path().join("dkim.pem");
        std::fs::write(
            &key,
            "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEINTuctv5E1hK1bbY8fdp+K06/nwoy/HU++CXqI9EdVhC\n-----END PRIVATE KEY-----\n",
        )
        .unwrap();
        let dkim = crate::config::dkim_signer(Some(&key), Some("quire"), "example.com").unwrap();
        let raw =
            formatted(&build(&content(""), "reader@example.net", "https://u", &from(), "m", dkim.as_ref()).unwrap());
        assert!(raw.contains("DKIM-Signature: v=1; a=ed25519-sha256; d=example.com; s=quire;"), "{raw}");
        assert!(
            raw.contains("h=from:to:subject:date:message-id:reply-to:list-unsubscribe:list-unsubscribe-post:"),
            "{raw}"
        );
    }
}
