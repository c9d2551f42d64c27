//! Images and players in HTML: `img`, `picture`, `figure`, `iframe`, `video`, `audio` and the
//! rest become image, Spotify, tweet or link blocks (a player's address is read by
//! [`embeds`](super::super::embeds)); a paragraph holding only a player's URL becomes its block;
//! scripts and forms are dropped, with a note when a reader would have seen something.

use markup5ever_rcdom::Handle;

use super::Converter;
use super::MAX_DEPTH;
use super::dom::{attr, children, find, has_class, tag, tag_is, text_of};
use super::escape::collapse;
use crate::domain::content::blocks::Block;
use crate::portable::convert::embeds;

impl Converter<'_> {
    /// Images and players inside an element that keeps only its text (a heading).
    pub(super) fn lift_media_inside(&mut self, node: &Handle, depth: usize) {
        for child in children(node) {
            match tag(&child).as_deref() {
                Some(
                    tag @ ("img" | "picture" | "iframe" | "embed" | "object" | "video" | "audio" | "svg" | "canvas"),
                ) => {
                    if let Some(block) = self.media(&child, tag) {
                        self.out.lifted.push(block);
                    }
                }
                Some(_) if depth < MAX_DEPTH => self.lift_media_inside(&child, depth + 1),
                _ => {}
            }
        }
    }

    /// The block an image or player element becomes, with notes on what was not kept.
    pub(super) fn media(&mut self, node: &Handle, tag: &str) -> Option<Block> {
        match tag {
            "img" => self.image(node),
            "picture" => {
                let img = find(node, "img")?;
                self.image(&img)
            }
            "iframe" | "embed" | "object" => {
                let src = attr(node, "src").or_else(|| attr(node, "data-src")).or_else(|| attr(node, "data"));
                let title = attr(node, "title").unwrap_or_default();
                let resolved = src.as_deref().and_then(|src| self.base.absolute(src.trim()));
                match resolved.and_then(|url| embeds::from_frame(url.as_str(), &title)) {
                    Some((block, note)) => {
                        if let Some(note) = note {
                            self.out.notes.add(note);
                        }
                        Some(block)
                    }
                    None => {
                        self.out.notes.add("An embedded frame without a web address was removed");
                        None
                    }
                }
            }
            "video" | "audio" => {
                let src = attr(node, "src").or_else(|| {
                    children(node).iter().find(|c| tag_is(c, "source")).and_then(|source| attr(source, "src"))
                });
                let what = if tag == "video" { "A video" } else { "An audio player" };
                match src.as_deref().and_then(|src| self.base.link(src)).filter(|url| url.starts_with("http")) {
                    Some(url) => {
                        self.out.notes.add(format!("{what} was kept as a link to its file"));
                        let title = attr(node, "title")
                            .map(|t| collapse(&t))
                            .filter(|t| !t.is_empty())
                            .unwrap_or_else(|| url.clone());
                        Some(Block::Link { url, title })
                    }
                    None => {
                        self.out.notes.add(format!("{what} whose file could not be located was removed"));
                        None
                    }
                }
            }
            "svg" => {
                self.out.notes.add("A drawing (SVG) inside the text was not kept");
                None
            }
            _ => {
                self.out.notes.add("A canvas (drawn by a script) was not kept");
                None
            }
        }
    }

    pub(super) fn image(&mut self, node: &Handle) -> Option<Block> {
        if attr(node, "width").as_deref() == Some("1") && attr(node, "height").as_deref() == Some("1") {
            return None; // a tracking pixel
        }
        let candidates = ["src", "data-src", "data-lazy-src", "data-orig-file", "data-original"];
        let mut sources: Vec<String> = candidates.iter().filter_map(|name| attr(node, name)).collect();
        if let Some(srcset) = attr(node, "srcset").or_else(|| attr(node, "data-srcset")) {
            sources.extend(srcset.split(',').filter_map(|part| part.split_whitespace().next()).map(str::to_owned));
        }
        let alt = collapse(&attr(node, "alt").unwrap_or_default());
        match sources.iter().find_map(|src| self.base.image(src)) {
            Some(url) => Some(Block::Image { url, alt, caption: String::new() }),
            None => {
                match sources.first().map(|s| s.trim()) {
                    Some(src) if src.starts_with("data:") => {
                        self.out.notes.add("An image written into the HTML itself (a data: address) was not kept")
                    }
                    Some(src) if !src.is_empty() => {
                        self.out.notes.add(format!("An image at {} could not be located", shorten(src)))
                    }
                    _ => self.out.notes.add("An image without an address was removed"),
                }
                None
            }
        }
    }

    pub(super) fn dropped(&mut self, node: &Handle, tag: &str) {
        match tag {
            "script" => {
                let src = attr(node, "src").unwrap_or_default();
                if let Some(gist) = gist(&src) {
                    self.out.lifted.push(gist);
                    self.out.notes.add("A GitHub gist was kept as a link to it");
                } else if !is_embed_loader(&src) {
                    self.out.notes.add("A script was removed: Quire posts run no scripts");
                }
            }
            "form" | "input" | "button" | "select" | "textarea"
                if (tag != "input" || attr(node, "type").is_none_or(|t| !t.eq_ignore_ascii_case("hidden"))) =>
            {
                self.out.notes.add("A form was removed: Quire posts have no forms");
            }
            _ => {}
        }
    }
}

/// The URL an element holds and nothing else (a WordPress oEmbed line), if it does.
pub(super) fn lone_url(node: &Handle) -> Option<String> {
    let mut stack = children(node);
    while let Some(current) = stack.pop() {
        match tag(&current).as_deref() {
            None => {}
            Some("a" | "span" | "br" | "p" | "div" | "strong" | "em" | "b" | "i") => stack.extend(children(&current)),
            Some(_) => return None,
        }
    }
    let text = collapse(&text_of(node));
    let lower = text.to_ascii_lowercase();
    (!text.contains(' ') && (lower.starts_with("https://") || lower.starts_with("http://"))).then_some(text)
}

/// A tweet block for Twitter's embed markup (`blockquote.twitter-tweet` with the status link).
pub(super) fn tweet_quote(node: &Handle) -> Option<Block> {
    if !has_class(node, "twitter-tweet") && !has_class(node, "twitter-video") {
        return None;
    }
    let mut links = Vec::new();
    let mut stack = vec![node.clone()];
    while let Some(current) = stack.pop() {
        if tag_is(&current, "a") {
            links.extend(attr(&current, "href"));
        }
        stack.extend(children(&current));
    }
    links.iter().find_map(|href| match embeds::from_url(href, "") {
        Some(block @ Block::Tweet { .. }) => Some(block),
        _ => None,
    })
}

/// The widget scripts that only turn markup already read (a tweet's quote) into a player.
pub(super) fn is_embed_loader(src: &str) -> bool {
    const LOADERS: [&str; 7] = [
        "platform.twitter.com/widgets.js",
        "instagram.com/embed.js",
        "tiktok.com/embed.js",
        "embedr.flickr.com",
        "s.imgur.com/min/embed.js",
        "connect.facebook.net",
        "embed.bsky.app",
    ];
    !src.is_empty() && LOADERS.iter().any(|loader| src.contains(loader))
}

/// A link block to a GitHub gist embedded with its script.
pub(super) fn gist(src: &str) -> Option<Block> {
    let url = url::Url::parse(src.trim()).ok()?;
    if url.host_str()? != "gist.github.com" {
        return None;
    }
    let path = url.path().trim_end_matches(".js");
    let page = format!("https://gist.github.com{path}");
    Some(Block::Link { url: page.clone(), title: page })
}

pub(super) fn points_at_image(href: &str) -> bool {
    let path = href.split(['?', '#']).next().unwrap_or("").to_ascii_lowercase();
    [".jpg", ".jpeg", ".png", ".gif", ".webp", ".avif", ".bmp", ".svg", ".heic"].iter().any(|ext| path.ends_with(ext))
}

pub(super) fn shorten(text: &str) -> String {
    if text.chars().count() <= 120 {
        text.to_owned()
    } else {
        format!("{}…", text.chars().take(120).collect::<String>())
    }
}
