//! Writing Markdown from HTML's text: white space collapsed, every Markdown character that
//! would be syntax escaped, code spans and fences, link destinations, list items and the
//! chunks a paragraph block is joined from.

use markup5ever_rcdom::Handle;

use super::dom::{attr, find, text_of};

/// HTML's white space collapsed to single spaces, trimmed.
pub(super) fn collapse(text: &str) -> String {
    text.split_ascii_whitespace().collect::<Vec<_>>().join(" ")
}

/// Appends text as it reads in HTML: runs of white space as one space, Markdown escaped.
pub(super) fn push_text(out: &mut String, text: &str) {
    let mut words = text.split(|c: char| c.is_ascii_whitespace()).peekable();
    while let Some(word) = words.next() {
        if !word.is_empty() {
            push_escaped(out, word);
        }
        if words.peek().is_some() && !out.ends_with([' ', '\n']) {
            out.push(' ');
        }
    }
}

/// Appends Markdown already written, without doubling a space.
pub(super) fn push_raw(out: &mut String, markdown: &str) {
    let markdown =
        if out.ends_with([' ', '\n']) || out.is_empty() { markdown.trim_start_matches(' ') } else { markdown };
    out.push_str(markdown);
}

pub(crate) fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    push_escaped(&mut out, text);
    out
}

/// Appends `text` so that, read as CommonMark, it shows these very characters: what would
/// be syntax is escaped (inline markers anywhere, block markers at the start of a line).
pub(crate) fn push_escaped(out: &mut String, text: &str) {
    for (at, c) in text.char_indices() {
        let escape = match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' => true,
            '&' => starts_entity(&text[at + 1..]),
            '#' | '>' | '-' | '+' | '=' | '~' | '|' => {
                let before = out.trim_end_matches(' ');
                before.is_empty() || before.ends_with('\n')
            }
            '.' | ')' => {
                let before = out.trim_end_matches(|c: char| c.is_ascii_digit());
                let digits = out.len() - before.len();
                (1..=9).contains(&digits) && (before.is_empty() || before.ends_with('\n'))
            }
            _ => false,
        };
        if escape {
            out.push('\\');
        }
        out.push(c);
    }
}

pub(super) fn starts_entity(rest: &str) -> bool {
    let name = rest.strip_prefix('#').unwrap_or(rest);
    let len = name.bytes().take_while(u8::is_ascii_alphanumeric).count();
    len > 0 && name[len..].starts_with(';')
}

/// Inline code, fenced with more backticks than it holds in a row.
pub(super) fn code_span(text: &str) -> String {
    let text = text.replace(['\n', '\r'], " ");
    if text.trim().is_empty() {
        return String::new();
    }
    let fence = "`".repeat(longest_run(&text, '`') + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') || (text.starts_with(' ') && text.ends_with(' ')) {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{text}{pad}{fence}")
}

/// A fenced code block of a `pre`'s text, with the language its class names.
pub(super) fn code_block(node: &Handle) -> Option<String> {
    let text = text_of(node).replace("\r\n", "\n");
    let text = text.trim_end_matches(['\n', ' ', '\t']).trim_start_matches('\n');
    if text.trim().is_empty() {
        return None;
    }
    let class = attr(node, "class")
        .into_iter()
        .chain(find(node, "code").and_then(|code| attr(&code, "class")))
        .collect::<Vec<_>>()
        .join(" ");
    let language = class
        .split(|c: char| c.is_whitespace() || c == ';')
        .find_map(|part| part.strip_prefix("language-").or_else(|| part.strip_prefix("lang-")))
        .or_else(|| class.split("brush:").nth(1).and_then(|rest| rest.split_whitespace().next()))
        .unwrap_or("")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '+' | '.' | '#'))
        .take(30)
        .collect::<String>();
    let fence = "`".repeat(longest_run(text, '`').max(2) + 1);
    Some(format!("{fence}{language}\n{text}\n{fence}"))
}

pub(super) fn longest_run(text: &str, c: char) -> usize {
    let (mut longest, mut current) = (0, 0);
    for ch in text.chars() {
        current = if ch == c { current + 1 } else { 0 };
        longest = longest.max(current);
    }
    longest
}

/// A link destination, in angle brackets when it holds parentheses.
pub(super) fn destination(url: &str) -> String {
    if url.contains(['(', ')', ' ']) { format!("<{url}>") } else { url.to_owned() }
}

/// Paragraph Markdown of an inline run: each line trimmed (leading spaces would start code),
/// blank lines at either end dropped.
pub(super) fn tidy(markdown: &str) -> String {
    let lines: Vec<&str> = markdown.split('\n').map(|line| line.trim_matches(' ')).collect();
    let first = lines.iter().position(|l| !l.is_empty()).unwrap_or(lines.len());
    let last = lines.iter().rposition(|l| !l.is_empty()).map_or(first, |i| i + 1);
    lines[first..last.max(first)].join("\n")
}

/// Chunks of Markdown separated by blank lines, except that a list right after a line of
/// text follows it directly (a tight item with a nested list stays tight).
pub(super) fn join_chunks(chunks: &[String]) -> String {
    let mut out = String::new();
    for (i, chunk) in chunks.iter().enumerate() {
        if i > 0 {
            let starts_list = ["- ", "* ", "1. ", "1) "].iter().any(|marker| chunk.starts_with(marker));
            let after_text = !chunks[i - 1].contains('\n') && !chunks[i - 1].starts_with(['>', '`', '-', '*']);
            out.push_str(if starts_list && after_text { "\n" } else { "\n\n" });
        }
        out.push_str(chunk);
    }
    out
}

pub(super) fn push_chunk(chunks: &mut Vec<String>, markdown: &str) {
    if !markdown.trim().is_empty() {
        chunks.push(markdown.trim_matches('\n').to_owned());
    }
}

/// A list item: its marker, then its content with every further line indented under it.
pub(super) fn item(marker: &str, content: &str) -> String {
    let pad = " ".repeat(marker.len() + 1);
    let mut out = format!("{marker} ");
    for (i, line) in content.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
            if !line.is_empty() {
                out.push_str(&pad);
            }
        }
        out.push_str(line);
    }
    out
}

pub(super) fn prefix_lines(content: &str, prefix: &str, blank: &str) -> String {
    content
        .split('\n')
        .map(|line| if line.is_empty() { blank.to_owned() } else { format!("{prefix}{line}") })
        .collect::<Vec<_>>()
        .join("\n")
}
