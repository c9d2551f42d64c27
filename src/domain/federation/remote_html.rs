//! A remote Note's HTML turned into plain text (issue 16): replies are stored and shown as text
//! only, so no remote HTML is ever served. html5ever parses it as a browser would (entities
//! decoded, broken markup mended); the tree is then walked without recursion, so nesting depth
//! costs nothing.
//!
//! Paragraphs and other blocks end with a blank line, `<br>` is a newline, links keep their
//! text (Mastodon's mentions `@bob` and hashtags `#tag`, and its links' hidden `https://`
//! parts, which makes the whole URL), white space is collapsed, and `script`, `style` and
//! other non-text elements are dropped with what they hold.

use html5ever::tendril::TendrilSink;
use html5ever::tree_builder::TreeBuilderOpts;
use html5ever::{ParseOpts, parse_document};
use markup5ever_rcdom::{Handle, NodeData, RcDom};

/// The longest text kept from one Note, in characters; longer is cut with `…`.
pub const MAX_CHARS: usize = 5000;

/// Elements dropped with everything inside them.
const DROPPED: [&str; 14] = [
    "script", "style", "template", "noscript", "iframe", "object", "embed", "svg", "math", "head", "title", "button",
    "select", "textarea",
];

/// Elements that stand as their own paragraph.
const BLOCKS: [&str; 22] = [
    "p",
    "div",
    "blockquote",
    "pre",
    "ul",
    "ol",
    "li",
    "dl",
    "dt",
    "dd",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "section",
    "article",
    "header",
    "footer",
    "table",
    "tr",
];

/// The text of a Note's `html`, at most `max_chars` characters.
pub fn to_text(html: &str, max_chars: usize) -> String {
    let opts = ParseOpts {
        tree_builder: TreeBuilderOpts { scripting_enabled: false, ..TreeBuilderOpts::default() },
        ..ParseOpts::default()
    };
    let dom = parse_document(RcDom::default(), opts).one(html);
    node_text(&dom.document, max_chars)
}

/// The text of the parsed node `root` and what it holds, at most `max_chars` characters.
pub fn node_text(root: &Handle, max_chars: usize) -> String {
    let mut text = Text::default();
    // Each entry: a node to enter, or (`None`) the end of a block.
    let mut stack: Vec<Option<Handle>> = vec![Some(root.clone())];
    while let Some(entry) = stack.pop() {
        if text.chars > max_chars {
            break;
        }
        let Some(node) = entry else {
            text.paragraph();
            continue;
        };
        match &node.data {
            NodeData::Text { contents } => text.push(&contents.borrow()),
            NodeData::Element { name, .. } => {
                let local: &str = &name.local;
                let tag = local.to_ascii_lowercase();
                if DROPPED.contains(&tag.as_str()) {
                    continue;
                }
                if tag == "br" {
                    text.line();
                    continue;
                }
                if BLOCKS.contains(&tag.as_str()) {
                    text.paragraph();
                    stack.push(None);
                }
                stack.extend(node.children.borrow().iter().rev().cloned().map(Some));
            }
            NodeData::Document => stack.extend(node.children.borrow().iter().rev().cloned().map(Some)),
            _ => {}
        }
    }
    text.finish(max_chars)
}

/// The text being built: white space collapsed as it comes.
#[derive(Default)]
struct Text {
    out: String,
    chars: usize,
    space: bool,
}

impl Text {
    fn push(&mut self, text: &str) {
        for c in text.chars() {
            if c.is_whitespace() {
                self.space = true;
                continue;
            }
            if self.space && !self.out.is_empty() && !self.out.ends_with('\n') {
                self.out.push(' ');
                self.chars += 1;
            }
            self.space = false;
            self.out.push(c);
            self.chars += 1;
        }
    }

    fn line(&mut self) {
        self.trim_spaces();
        self.out.push('\n');
        self.chars += 1;
    }

    fn paragraph(&mut self) {
        self.trim_spaces();
        if self.out.is_empty() {
            return;
        }
        while !self.out.ends_with("\n\n") {
            self.out.push('\n');
            self.chars += 1;
        }
    }

    fn trim_spaces(&mut self) {
        while self.out.ends_with(' ') {
            self.out.pop();
            self.chars -= 1;
        }
        self.space = false;
    }

    fn finish(self, max_chars: usize) -> String {
        // Lines of spaces only become empty; three newlines or more become one blank line.
        let mut text = String::with_capacity(self.out.len());
        let mut newlines = 0;
        for line in self.out.split('\n') {
            let line = line.trim();
            if line.is_empty() {
                newlines += 1;
                continue;
            }
            if !text.is_empty() {
                text.push_str(if newlines > 1 { "\n\n" } else { "\n" });
            }
            newlines = 1;
            text.push_str(line);
        }
        if text.chars().count() > max_chars {
            let cut: String = text.chars().take(max_chars.saturating_sub(1)).collect();
            return format!("{}…", cut.trim_end());
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraphs_become_blank_line_separated_and_breaks_newlines() {
        assert_eq!(to_text("<p>One</p><p>Two<br>lines<br/>here</p>", MAX_CHARS), "One\n\nTwo\nlines\nhere");
        assert_eq!(to_text("Plain   text\n with  spaces", MAX_CHARS), "Plain text with spaces");
        assert_eq!(to_text("", MAX_CHARS), "");
    }

    #[test]
    fn scripts_styles_and_tags_go_their_text_and_entities_stay() {
        let html = "<p>Hi <script>alert('x')</script><style>p{}</style><b>there</b> &amp; &lt;friends&gt; &#x1F600;</p>\
                    <iframe src=x>frame</iframe><img src=x onerror=alert(1)>";
        assert_eq!(to_text(html, MAX_CHARS), "Hi there & <friends> 😀");
    }

    #[test]
    fn mastodon_mentions_hashtags_and_links_read_as_they_look() {
        let html = r#"<p><span class="h-card" translate="no"><a href="http://alice.localhost/_quire/ap/actor" class="u-url mention">@<span>alice</span></a></span> nice post! <a href="https://x.example/tags/rust" class="mention hashtag" rel="tag">#<span>rust</span></a></p><p>See <a href="https://example.com/a/long/path" rel="nofollow noopener" target="_blank"><span class="invisible">https://</span><span class="ellipsis">example.com/a/lo</span><span class="invisible">ng/path</span></a></p>"#;
        assert_eq!(to_text(html, MAX_CHARS), "@alice nice post! #rust\n\nSee https://example.com/a/long/path");
    }

    #[test]
    fn nested_markup_and_lists_keep_their_text_in_order() {
        let html = "<div><blockquote><p>Quoted <em>well</em></p></blockquote><ul><li>one</li><li>two <a href=x>link</a></li></ul></div>";
        assert_eq!(to_text(html, MAX_CHARS), "Quoted well\n\none\n\ntwo link");
    }

    #[test]
    fn long_text_is_cut_and_deep_nesting_is_harmless() {
        let long = format!("<p>{}</p>", "word ".repeat(3000));
        let text = to_text(&long, 100);
        assert_eq!(text.chars().count(), 100);
        assert!(text.ends_with('…'));
        let deep = format!("{}deep{}", "<div><span>".repeat(20_000), "</span></div>".repeat(20_000));
        assert_eq!(to_text(&deep, MAX_CHARS), "deep");
    }
}
