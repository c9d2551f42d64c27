//! WordPress's paragraph rule for classic posts (wpautop): blank lines split paragraphs,
//! single newlines are line breaks, except inside `pre`, `script` and `style` and next to
//! block-level tags.

/// Block-level tags: a chunk starting with one is not wrapped in `<p>`, and a newline next
/// to one is not a line break (WordPress's `$allblocks`).
pub(super) const BLOCK_TAGS: &[&str] = &[
    "table",
    "thead",
    "tfoot",
    "caption",
    "col",
    "colgroup",
    "tbody",
    "tr",
    "td",
    "th",
    "div",
    "dl",
    "dd",
    "dt",
    "ul",
    "ol",
    "li",
    "pre",
    "form",
    "map",
    "area",
    "blockquote",
    "address",
    "math",
    "style",
    "p",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "fieldset",
    "legend",
    "section",
    "article",
    "aside",
    "hgroup",
    "header",
    "footer",
    "nav",
    "figure",
    "figcaption",
    "details",
    "menu",
    "summary",
    "iframe",
    "script",
    "noscript",
    "video",
    "audio",
    "object",
    "embed",
];

/// WordPress's paragraph rule for classic posts: blank lines split paragraphs, single
/// newlines are line breaks, except inside `pre`, `script` and `style` and next to blocks.
pub(super) fn autop(content: &str) -> String {
    let content = content.replace("\r\n", "\n").replace('\r', "\n");
    let mut out = String::with_capacity(content.len() + content.len() / 8);
    let mut rest = content.as_str();
    loop {
        let lower = rest.to_ascii_lowercase();
        let protected = ["<pre", "<script", "<style"].iter().filter_map(|t| lower.find(t).map(|i| (i, *t))).min();
        let Some((start, tag)) = protected else {
            out.push_str(&paragraphs(rest));
            break;
        };
        out.push_str(&paragraphs(&rest[..start]));
        let closing = format!("</{}>", &tag[1..]);
        let end = lower[start..].find(&closing).map_or(rest.len(), |i| start + i + closing.len());
        out.push_str(&rest[start..end]);
        rest = &rest[end..];
    }
    out
}

pub(super) fn paragraphs(text: &str) -> String {
    let mut out = String::new();
    let normalized: Vec<&str> = text.split('\n').map(|l| if l.trim().is_empty() { "" } else { l }).collect();
    for chunk in normalized.join("\n").split("\n\n") {
        let chunk = chunk.trim();
        if chunk.is_empty() {
            continue;
        }
        let lines: Vec<&str> = chunk.split('\n').collect();
        let mut joined = String::new();
        for (i, line) in lines.iter().enumerate() {
            joined.push_str(line);
            if let Some(next) = lines.get(i + 1) {
                let after_block = ends_with_block_tag(line);
                let before_block = starts_with_block_tag(next);
                joined.push_str(if after_block || before_block { "\n" } else { "<br>\n" });
            }
        }
        if starts_with_block_tag(chunk) {
            out.push_str(&joined);
        } else {
            out.push_str("<p>");
            out.push_str(&joined);
            out.push_str("</p>");
        }
        out.push('\n');
    }
    out
}

pub(super) fn starts_with_block_tag(text: &str) -> bool {
    let text = text.trim_start();
    let Some(rest) = text.strip_prefix('<') else { return false };
    if rest.starts_with("!--") {
        return true;
    }
    let rest = rest.trim_start_matches('/');
    let name: String = rest.chars().take_while(char::is_ascii_alphanumeric).collect::<String>().to_ascii_lowercase();
    BLOCK_TAGS.contains(&name.as_str())
}

pub(super) fn ends_with_block_tag(text: &str) -> bool {
    let text = text.trim_end();
    if !text.ends_with('>') {
        return false;
    }
    if text.ends_with("-->") {
        return true;
    }
    text.rfind('<').is_some_and(|at| starts_with_block_tag(&text[at..]))
}
