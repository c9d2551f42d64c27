//! A post as an email (issue 30, docs/email.md "Each new post"): the plain-text part and the HTML
//! part, from the post's blocks. Paragraphs go through the one Markdown renderer
//! (`markdown::to_html`), which escapes what it does not turn into markup; every other string is
//! escaped here. Mail readers block remote images and scripts and strip styles, so images travel
//! as links with their alt text and embeds as links, and nothing is loaded from anywhere.

use super::blocks::{Block, Body};
use super::html::escape;
use super::markdown;

/// What an email of a post shows besides its body.
#[derive(Debug, Clone)]
pub struct PostMail<'a> {
    /// The blog's name.
    pub blog_name: &'a str,
    /// The post's title.
    pub title: &'a str,
    /// The post's permalink (absolute).
    pub url: &'a str,
}

/// The (text, HTML) parts of the email of `body`. The first heading is the title, shown once
/// at the top, as on the post page. The unsubscribe footer is added by the sender, per recipient.
pub fn parts(mail: &PostMail<'_>, body: &Body) -> (String, String) {
    let mut text = format!("{}\n{}\n\n", mail.title, "=".repeat(mail.title.chars().count().clamp(3, 72)));
    let mut html = format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>{title}</title></head><body>\
         <h1><a href=\"{url}\">{title}</a></h1>",
        title = escape(mail.title),
        url = escape(mail.url),
    );
    let mut skipped_title = false;
    for block in &body.children {
        match block {
            Block::Heading { .. } if !skipped_title => skipped_title = true,
            Block::Heading { text: heading } => {
                text.push_str(&format!("{heading}\n{}\n\n", "-".repeat(heading.chars().count().clamp(3, 72))));
                html.push_str(&format!("<h2>{}</h2>", escape(heading)));
            }
            Block::Paragraph { text: paragraph } => {
                text.push_str(&format!("{}\n\n", paragraph.trim_end()));
                html.push_str(&markdown::to_html(paragraph));
            }
            Block::Link { url, title } => {
                let shown = if title.trim().is_empty() { url } else { title };
                text.push_str(&format!("{shown}: {url}\n\n"));
                html.push_str(&format!("<p><a href=\"{}\">{}</a></p>", escape(url), escape(shown)));
            }
            Block::Image { url, alt, caption } => {
                let described = if alt.trim().is_empty() { "an image" } else { alt.trim() };
                text.push_str(&format!("[Image: {described}] {url}\n"));
                html.push_str(&format!("<p><a href=\"{}\">Image: {}</a></p>", escape(url), escape(described)));
                if !caption.trim().is_empty() {
                    text.push_str(&format!("{}\n", caption.trim()));
                    html.push_str(&format!("<p><em>{}</em></p>", escape(caption.trim())));
                }
                text.push('\n');
            }
            Block::Spotify { url } | Block::Tweet { url } => {
                text.push_str(&format!("{url}\n\n"));
                html.push_str(&format!("<p><a href=\"{0}\">{0}</a></p>", escape(url)));
            }
        }
    }
    text.push_str(&format!("Read it on {}: {}\n", mail.blog_name, mail.url));
    html.push_str(&format!(
        "<p><a href=\"{}\">Read it on {}</a></p></body></html>",
        escape(mail.url),
        escape(mail.blog_name)
    ));
    (text, html)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(blocks: Vec<Block>) -> Body {
        Body::from_blocks(blocks)
    }

    #[test]
    fn every_block_has_a_text_and_an_html_form_and_hostile_strings_are_escaped() {
        let mail = PostMail { blog_name: "A <b>blog</b>", title: "Hi <script>", url: "https://a.example/hi-1" };
        let (text, html) = parts(
            &mail,
            &body(vec![
                Block::Heading { text: "Hi <script>".into() },
                Block::Paragraph { text: "Some *words* and <img src=x onerror=alert(1)>".into() },
                Block::Heading { text: "Part <two>".into() },
                Block::Link { url: "https://b.example/?a=1&b=2".into(), title: "B's \"page\"".into() },
                Block::Image {
                    url: "https://a.example/media/x.png".into(),
                    alt: "A cat".into(),
                    caption: "Ours".into(),
                },
                Block::Image {
                    url: "https://a.example/media/y.png".into(),
                    alt: String::new(),
                    caption: String::new(),
                },
                Block::Tweet { url: "https://twitter.com/a/status/1".into() },
            ]),
        );
        assert!(text.starts_with("Hi <script>\n==========="), "{text}");
        assert!(text.contains("Some *words* and <img src=x onerror=alert(1)>\n\n"), "the Markdown as written: {text}");
        assert!(text.contains("B's \"page\": https://b.example/?a=1&b=2"));
        assert!(text.contains("[Image: A cat] https://a.example/media/x.png\nOurs\n"));
        assert!(text.contains("[Image: an image] https://a.example/media/y.png"));
        assert!(text.ends_with("Read it on A <b>blog</b>: https://a.example/hi-1\n"));
        assert!(html.contains("<h1><a href=\"https://a.example/hi-1\">Hi &lt;script&gt;</a></h1>"), "{html}");
        assert!(html.contains("<em>words</em>"));
        assert!(!html.contains("<img") && !html.contains("<script") && !html.contains("<b>blog"), "{html}");
        assert!(html.contains("<h2>Part &lt;two&gt;</h2>"));
        assert!(html.contains("<a href=\"https://a.example/media/x.png\">Image: A cat</a>"));
        assert!(html.contains("<a href=\"https://twitter.com/a/status/1\">"));
        assert_eq!(html.matches("Hi &lt;script&gt;").count(), 2, "the title once in the body, once in <title>");
    }
}
