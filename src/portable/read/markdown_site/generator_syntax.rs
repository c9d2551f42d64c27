//! The generators' own syntax in a body, written as the Markdown it shows: Hugo shortcodes
//! (`figure`, `youtube`, `vimeo`, `tweet`, `instagram`, `gist`), Jekyll's Liquid tags
//! (`highlight`) and Obsidian's `![[image]]` and `[[Note|text]]` links; others are removed and
//! noted. Lines inside fenced code are left alone.

use std::collections::HashMap;

use crate::portable::convert::notes::Notes;

/// The body with Hugo shortcodes, Jekyll Liquid tags and Obsidian links written as the
/// Markdown they show. Lines inside fenced code are left alone.
pub(super) fn rewrite(body: &str, notes: &mut Notes) -> String {
    let mut out = String::with_capacity(body.len());
    let mut fence: Option<String> = None;
    for line in body.split_inclusive('\n') {
        let trimmed = line.trim();
        if let Some(open) = &fence {
            if open == "{%" && trimmed.starts_with("{%") && trimmed.contains("endhighlight") {
                fence = None;
                out.push_str("```\n");
                continue;
            }
            if trimmed.starts_with(open.as_str()) {
                fence = None;
            }
            out.push_str(line);
            continue;
        }
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = Some(trimmed[..3].to_owned());
            out.push_str(line);
            continue;
        }
        if let Some(replaced) = hugo_shortcode(trimmed, notes).or_else(|| liquid(trimmed, notes)) {
            out.push_str(&replaced);
            out.push('\n');
            if replaced.starts_with("```") && replaced != "```" {
                fence = Some("{%".to_owned());
            }
            continue;
        }
        out.push_str(&wikilinks(line));
    }
    out
}

/// A line that is a Hugo shortcode (`{{< youtube ID >}}`) as the Markdown it shows.
pub(super) fn hugo_shortcode(line: &str, notes: &mut Notes) -> Option<String> {
    let inner = line
        .strip_prefix("{{<")
        .and_then(|l| l.strip_suffix(">}}"))
        .or_else(|| line.strip_prefix("{{%").and_then(|l| l.strip_suffix("%}}")))?
        .trim();
    let (name, args) = inner.split_once(char::is_whitespace).unwrap_or((inner, ""));
    let (named, positional) = shortcode_args(args);
    let arg =
        |key: &str, at: usize| named.get(key).cloned().or_else(|| positional.get(at).cloned()).unwrap_or_default();
    Some(match name {
        "figure" | "img" | "image" => {
            let caption = named.get("caption").or_else(|| named.get("title")).cloned().unwrap_or_default();
            format!(
                "![{}](<{}> \"{}\")",
                named.get("alt").cloned().unwrap_or_default(),
                arg("src", 0),
                caption.replace('"', "'")
            )
        }
        "youtube" => format!("https://www.youtube.com/watch?v={}", arg("id", 0)),
        "vimeo" => format!("https://vimeo.com/{}", arg("id", 0)),
        "tweet" | "x" | "twitter" => {
            let user = named.get("user").cloned().unwrap_or_else(|| "i".to_owned());
            let id = named.get("id").cloned().unwrap_or_else(|| positional.last().cloned().unwrap_or_default());
            format!("https://twitter.com/{user}/status/{id}")
        }
        "instagram" => format!("https://www.instagram.com/p/{}/", arg("id", 0)),
        "gist" => format!("<https://gist.github.com/{}/{}>", arg("user", 0), arg("id", 1)),
        closing if closing.starts_with('/') => String::new(),
        other => {
            notes.add(format!("A Hugo shortcode ({other}) was removed"));
            String::new()
        }
    })
}

/// A line that is a Liquid tag (`{% highlight ruby %}`) as the Markdown it shows.
pub(super) fn liquid(line: &str, notes: &mut Notes) -> Option<String> {
    let inner = line.strip_prefix("{%")?.strip_suffix("%}")?.trim().trim_matches('-').trim();
    let (name, args) = inner.split_once(char::is_whitespace).unwrap_or((inner, ""));
    Some(match name {
        "highlight" => format!("```{}", args.split_whitespace().next().unwrap_or("")),
        "endhighlight" => "```".to_owned(),
        "raw" | "endraw" | "comment" | "endcomment" => String::new(),
        other => {
            notes.add(format!("A Liquid tag ({other}) was removed"));
            String::new()
        }
    })
}

pub(super) fn shortcode_args(args: &str) -> (HashMap<String, String>, Vec<String>) {
    let mut named = HashMap::new();
    let mut positional = Vec::new();
    let mut rest = args.trim();
    while !rest.is_empty() {
        let key_len = rest.find(|c: char| c == '=' || c.is_whitespace()).unwrap_or(rest.len());
        let (key, after) = rest.split_at(key_len);
        let (value, remaining, is_named) = if let Some(value) = after.strip_prefix('=') {
            let (v, r) = quoted(value);
            (v, r, true)
        } else {
            let (v, r) = quoted(rest);
            (v, r, false)
        };
        if is_named {
            named.insert(key.to_ascii_lowercase(), value);
        } else {
            positional.push(value);
        }
        if remaining.len() >= rest.len() {
            break;
        }
        rest = remaining.trim_start();
    }
    (named, positional)
}

/// A value at the start of `text` (quoted or up to white space) and what follows.
pub(super) fn quoted(text: &str) -> (String, &str) {
    match text.chars().next() {
        Some(q @ ('"' | '\'' | '`')) => match text[1..].find(q) {
            Some(end) => (text[1..1 + end].to_owned(), &text[2 + end..]),
            None => (text[1..].to_owned(), ""),
        },
        _ => {
            let end = text.find(char::is_whitespace).unwrap_or(text.len());
            (text[..end].to_owned(), &text[end..])
        }
    }
}

/// Hugo's `urlize`: lowercased, spaces to hyphens, punctuation other than `-`, `_` and `.`
/// dropped (letters of every script kept).
pub(super) fn urlize(text: &str) -> String {
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') => Some(c),
            _ => None,
        })
        .collect()
}

/// Obsidian's links: `![[image.png|300]]` → an image, `[[Note|text]]` → `text`.
pub(super) fn wikilinks(line: &str) -> String {
    if !line.contains("[[") {
        return line.to_owned();
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(open) = rest.find("[[") {
        let Some(close) = rest[open..].find("]]").map(|i| open + i) else { break };
        let embed = open > 0 && rest.as_bytes()[open - 1] == b'!';
        out.push_str(&rest[..if embed { open - 1 } else { open }]);
        let inner = &rest[open + 2..close];
        let (target, label) = inner.split_once('|').unwrap_or((inner, ""));
        if embed {
            // `![[image.png|300]]` gives a width, `![[image.png|text]]` its description.
            let alt = if label.trim().bytes().all(|b| b.is_ascii_digit() || b == b'x') { "" } else { label.trim() };
            out.push_str(&format!(
                "![{}](<{}>)",
                crate::portable::convert::html::escaped(alt),
                target.trim().replace(['<', '>'], "")
            ));
        } else {
            let text = if label.is_empty() { target.split('#').next().unwrap_or(target) } else { label };
            out.push_str(&crate::portable::convert::html::escaped(text.trim()));
        }
        rest = &rest[close + 2..];
    }
    out.push_str(rest);
    out
}
