//! WordPress's shortcodes: `[caption]`, `[gallery]`, `[embed]`, `[audio]`, `[video]` and
//! Jetpack's `[youtube]`, `[tweet]`, `[spotify]` become the HTML they stood for; others are
//! removed (their enclosed text kept) and noted.

use std::collections::HashMap;

use super::scan::Attachment;
use crate::domain::content::blocks::Block;
use crate::portable::convert::embeds;
use crate::portable::convert::notes::Notes;

/// Shortcodes WordPress core and common plugins register: removed (with a note) even
/// without attributes. Any other `[name attr="..."]` or `[name]...[/name]` counts too;
/// a bare `[word]` is left as text, as WordPress leaves unknown ones.
pub(super) const KNOWN_SHORTCODES: &[&str] = &[
    "playlist",
    "contact-form",
    "contact-form-7",
    "wpforms",
    "gravityform",
    "ninja_form",
    "mc4wp_form",
    "toc",
    "ez-toc",
    "sitemap",
    "archives",
    "recent-posts",
    "wp_caption",
];

/// The body with its shortcodes replaced by the HTML they stood for.
pub(super) fn shortcodes(
    content: &str,
    id: &str,
    attachments: &HashMap<String, Attachment>,
    notes: &mut Notes,
) -> String {
    let mut out = String::with_capacity(content.len());
    let mut rest = content;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        rest = &rest[open..];
        if let Some(escaped) = rest.strip_prefix("[[") {
            // `[[name]]` is WordPress's way to write a shortcode as text.
            if let Some(end) = escaped.find("]]") {
                out.push('[');
                out.push_str(&escaped[..end]);
                out.push(']');
                rest = &escaped[end + 2..];
                continue;
            }
        }
        let Some((name, attrs, tag_len)) = shortcode_tag(rest) else {
            out.push('[');
            rest = &rest[1..];
            continue;
        };
        let closing = format!("[/{name}]");
        let after = &rest[tag_len..];
        let enclosed = after.find(&closing).filter(|_| !attrs.trim_end().ends_with('/'));
        let known = KNOWN_SHORTCODES.contains(&name.as_str())
            || matches!(
                name.as_str(),
                "caption" | "embed" | "gallery" | "audio" | "video" | "youtube" | "vimeo" | "tweet" | "spotify"
            );
        if !known && enclosed.is_none() && !attrs.contains('=') {
            out.push('[');
            rest = &rest[1..];
            continue;
        }
        let (inner, consumed) = match enclosed {
            Some(end) => (&after[..end], tag_len + end + closing.len()),
            None => ("", tag_len),
        };
        out.push_str(&shortcode(&name, &attrs, inner, id, attachments, notes));
        rest = &rest[consumed..];
    }
    out.push_str(rest);
    out
}

/// `[name attrs]` at the start of `text`: its name, attributes and length.
pub(super) fn shortcode_tag(text: &str) -> Option<(String, String, usize)> {
    let body = text.strip_prefix('[')?;
    let name_len = body.bytes().take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-')).count();
    if name_len == 0 || !body.as_bytes()[0].is_ascii_alphabetic() {
        return None;
    }
    let after_name = &body[name_len..];
    if !after_name.starts_with([' ', ']', '=', '/']) {
        return None;
    }
    let close = after_name.find(']')?;
    if after_name[..close].contains(['[', '\n']) && !after_name[..close].contains('"') {
        return None;
    }
    Some((body[..name_len].to_ascii_lowercase(), after_name[..close].to_owned(), 1 + name_len + close + 1))
}

/// `key="value"` pairs of a shortcode, and its first bare value (`[youtube URL]`).
pub(super) fn shortcode_attrs(attrs: &str) -> (HashMap<String, String>, String) {
    let mut map = HashMap::new();
    let mut bare = String::new();
    let mut rest = attrs.trim().trim_start_matches('=').trim_end_matches('/');
    while !rest.trim().is_empty() {
        rest = rest.trim_start();
        let key_len = rest.bytes().take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-')).count();
        let (key, after) = rest.split_at(key_len);
        if key_len > 0 && after.starts_with('=') {
            let after = &after[1..];
            let (value, remaining) = match after.chars().next() {
                Some(q @ ('"' | '\'')) => {
                    let end = after[1..].find(q).map_or(after.len(), |i| i + 1);
                    (&after[1..end], after.get(end + 1..).unwrap_or(""))
                }
                _ => after.split_once(' ').unwrap_or((after, "")),
            };
            map.insert(key.to_ascii_lowercase(), value.to_owned());
            rest = remaining;
        } else {
            let (value, remaining) = rest.split_once(' ').unwrap_or((rest, ""));
            if bare.is_empty() {
                bare = value.trim_matches(['"', '\'']).to_owned();
            }
            rest = remaining;
        }
    }
    (map, bare)
}

pub(super) fn shortcode(
    name: &str,
    attrs: &str,
    inner: &str,
    id: &str,
    attachments: &HashMap<String, Attachment>,
    notes: &mut Notes,
) -> String {
    let (map, bare) = shortcode_attrs(attrs);
    let attr = |key: &str| map.get(key).cloned().unwrap_or_default();
    let escape = crate::domain::content::html::escape;
    match name {
        "caption" | "wp_caption" => {
            // `[caption]<a><img></a> The caption[/caption]`, or the caption as an attribute.
            let trimmed = inner.trim_start();
            let lower = trimmed.to_ascii_lowercase();
            let split = if lower.starts_with("<a") {
                lower.find("</a>").map_or(0, |i| i + 4)
            } else if lower.starts_with("<img") {
                lower.find('>').map_or(0, |i| i + 1)
            } else {
                0
            };
            let (media, text) = trimmed.split_at(split);
            let caption = if text.trim().is_empty() { attr("caption") } else { text.to_owned() };
            format!("<figure>{media}<figcaption>{caption}</figcaption></figure>")
        }
        "embed" => format!("\n\n<p>{}</p>\n\n", escape(inner.trim())),
        "youtube" | "vimeo" | "tweet" => {
            let url = if bare.is_empty() { attr("url") } else { bare.clone() };
            let url = match (name, url.bytes().all(|b| b.is_ascii_digit())) {
                ("tweet", true) => format!("https://twitter.com/i/status/{url}"),
                ("vimeo", true) => format!("https://vimeo.com/{url}"),
                _ => url,
            };
            format!("\n\n<p>{}</p>\n\n", escape(url.trim()))
        }
        "spotify" => {
            let uri = if bare.is_empty() { attr("id") } else { bare.clone() };
            match embeds::spotify_uri(&uri) {
                Some(Block::Spotify { url }) => format!("\n\n<p>{}</p>\n\n", escape(&url)),
                _ => format!("\n\n<p>{}</p>\n\n", escape(uri.trim())),
            }
        }
        "audio" | "video" => {
            let src = ["src", "mp3", "m4a", "ogg", "wav", "mp4", "m4v", "webm", "ogv", "flv"]
                .iter()
                .map(|k| attr(k))
                .find(|v| !v.is_empty())
                .unwrap_or_else(|| inner.trim().to_owned());
            format!("<{name} src=\"{}\"></{name}>", escape(&src))
        }
        "gallery" => {
            let ids: Vec<String> =
                attr("ids").split(',').map(|s| s.trim().to_owned()).filter(|s| !s.is_empty()).collect();
            let mut images: Vec<&Attachment> = ids.iter().filter_map(|id| attachments.get(id)).collect();
            if ids.is_empty() {
                let mut attached: Vec<(&String, &Attachment)> =
                    attachments.iter().filter(|(_, a)| a.parent == id).collect();
                attached.sort_by_key(|(key, _)| key.parse::<u64>().unwrap_or(0));
                images = attached.into_iter().map(|(_, a)| a).collect();
            }
            if images.len() < ids.len() {
                notes.add("A gallery names images that are not in the export: those were not imported");
            }
            images
                .iter()
                .map(|a| {
                    format!(
                        "<figure><img src=\"{}\" alt=\"{}\"><figcaption>{}</figcaption></figure>",
                        escape(&a.url),
                        escape(&a.alt),
                        escape(&a.caption)
                    )
                })
                .collect()
        }
        _ => {
            notes.add(format!("A WordPress shortcode [{name}] was removed (it needs a WordPress plugin)"));
            inner.to_owned()
        }
    }
}
