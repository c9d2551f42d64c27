//! A post's body: a root holding typed blocks, and the rules every block must follow.
//! Errors are keyed `children.{index}` so they land on their block. The owner app's editor
//! applies the same rules with the same messages, from the limits [`client_rules`] sends it;
//! `tests/fixtures/block_rules.json` holds the cases both sides are tested against.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use strum::VariantNames;
use ts_rs::TS;

use crate::domain::content::image::{ImageType, MAX_IMAGE_BYTES};
use crate::domain::content::markdown;
use crate::domain::messages::Messages;

/// Most blocks in one post.
pub const MAX_BLOCKS: usize = 500;
/// Longest heading, in characters.
pub const MAX_HEADING: usize = 300;
/// Longest paragraph, in characters.
pub const MAX_PARAGRAPH: usize = 20_000;
/// Longest URL or link text, in characters.
pub const MAX_URL: usize = 2_048;

/// What link block URLs start with.
pub const LINK_PREFIXES: [&str; 2] = ["http://", "https://"];
/// What URLs of links inside paragraphs (Markdown) start with.
pub const MARKDOWN_LINK_PREFIXES: [&str; 3] = ["http://", "https://", "mailto:"];
/// Longest image alt text, in characters.
pub const MAX_ALT: usize = 1_000;
/// Longest image caption, in characters.
pub const MAX_CAPTION: usize = 2_000;
/// The Spotify prefix rule.
pub const SPOTIFY_PREFIX: &str = "https://open.spotify.com/";
/// The tweet prefix rule (either host).
pub const TWEET_PREFIXES: [&str; 2] = ["https://twitter.com/", "https://x.com/"];

/// One block of a post. Its type names (`Block::VARIANTS`) are its serde tags.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, VariantNames, TS)]
#[serde(tag = "type", content = "value", rename_all = "lowercase")]
#[ts(export_to = "posts.ts")]
#[strum(serialize_all = "lowercase")]
pub enum Block {
    /// A section title.
    Heading {
        /// Its text.
        text: String,
    },
    /// Running text in CommonMark (see `domain::markdown`); line breaks are kept.
    Paragraph {
        /// Its text.
        text: String,
    },
    /// A link with its text.
    Link {
        /// Target, http(s) only.
        url: String,
        /// Link text ('Link Text' in the editor); the URL is shown when empty.
        #[serde(default)]
        title: String,
    },
    /// An uploaded image. Stored before alt texts and captions existed, its value was only
    /// `{url}`: both default to empty.
    Image {
        /// Its URL on the image host.
        url: String,
        /// What it shows, for readers who can't see it (empty: not described).
        #[serde(default)]
        #[ts(as = "Option<String>", optional)]
        alt: String,
        /// Shown under it (empty: none).
        #[serde(default)]
        #[ts(as = "Option<String>", optional)]
        caption: String,
    },
    /// A Spotify track, album, playlist or episode.
    Spotify {
        /// Its open.spotify.com URL.
        url: String,
    },
    /// A tweet.
    Tweet {
        /// Its status URL.
        url: String,
    },
}

/// A valid body: `{"type": "root", "children": [...]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[ts(export_to = "posts.ts", rename = "PostBody")]
pub struct Body {
    #[serde(rename = "type")]
    #[ts(type = "'root'")]
    kind: &'static str,
    /// The blocks, in order.
    pub children: Vec<Block>,
}

/// What block rules depend on.
#[derive(Debug, Clone)]
pub struct Rules {
    /// The image-prefix rule: uploaded images must start with it.
    pub image_prefix: String,
}

impl Body {
    /// A body from blocks already valid.
    pub fn from_blocks(children: Vec<Block>) -> Body {
        Body { kind: "root", children }
    }

    /// Reads a body as stored (it was validated when written).
    pub fn from_json(json: &str) -> anyhow::Result<Body> {
        #[derive(Deserialize)]
        struct Stored {
            children: Vec<Block>,
        }
        let stored: Stored = serde_json::from_str(json)?;
        Ok(Body::from_blocks(stored.children))
    }

    /// Parses and checks a body sent by a client. Every failing block gets one message
    /// under `children.{index}`; problems with the whole body go under `body`.
    pub fn parse(value: &Value, rules: &Rules) -> Result<Body, Messages> {
        let children = match (value.get("type").and_then(Value::as_str), value.get("children")) {
            (Some("root"), Some(Value::Array(children))) => children,
            _ => return Err(Messages::one("body", "Should be a root with a list of children")),
        };
        if children.is_empty() {
            return Err(Messages::one("body", "A post needs at least one block"));
        }
        if children.len() > MAX_BLOCKS {
            return Err(Messages::one("body", format!("A post can have at most {MAX_BLOCKS} blocks")));
        }
        let mut errors = Messages::default();
        let mut blocks = Vec::with_capacity(children.len());
        for (index, child) in children.iter().enumerate() {
            match serde_json::from_value::<Block>(child.clone()) {
                Ok(block) => {
                    if let Some(message) = block.problem(rules) {
                        errors.push(format!("children.{index}"), message);
                    }
                    blocks.push(block);
                }
                Err(_) => errors.push(format!("children.{index}"), shape_problem(child)),
            }
        }
        if errors.is_empty() { Ok(Body::from_blocks(blocks)) } else { Err(errors) }
    }

    /// The post's title: its first heading, else the start of its first paragraph.
    pub fn title(&self) -> String {
        let heading = self.children.iter().find_map(|block| match block {
            Block::Heading { text } => Some(text.trim()),
            _ => None,
        });
        let paragraph;
        let title = match heading.filter(|t| !t.is_empty()) {
            Some(heading) => heading,
            None => {
                paragraph = self.children.iter().find_map(|block| match block {
                    Block::Paragraph { text } => Some(markdown::plain_text(text)),
                    _ => None,
                });
                paragraph.as_deref().unwrap_or("").trim()
            }
        };
        let title: String = title.lines().next().unwrap_or("").chars().take(120).collect();
        if title.is_empty() { "Untitled".to_owned() } else { title }
    }

    /// All searchable text (headings, paragraphs without their Markdown, link texts, image
    /// alt texts and captions), one block a line.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for block in &self.children {
            let text = match block {
                Block::Heading { text } => text.clone(),
                Block::Paragraph { text } => markdown::plain_text(text),
                Block::Link { title, .. } => title.clone(),
                Block::Image { alt, caption, .. } if !alt.is_empty() || !caption.is_empty() => {
                    format!("{alt}\n{caption}")
                }
                _ => continue,
            };
            out.push_str(text.trim());
            out.push('\n');
        }
        out
    }
}

impl Block {
    /// The first rule this block breaks, as the message the editor shows.
    pub fn problem(&self, rules: &Rules) -> Option<String> {
        match self {
            Block::Heading { text } => text_problem(text, MAX_HEADING),
            Block::Paragraph { text } => text_problem(text, MAX_PARAGRAPH),
            Block::Link { url, title } => url_problem(url, &LINK_PREFIXES, &LINK_PREFIXES.join(" or "))
                .or_else(|| (title.chars().count() > MAX_URL).then(|| too_long(MAX_URL))),
            Block::Image { url, alt, caption } => url_problem(url, &[rules.image_prefix.as_str()], &rules.image_prefix)
                .or_else(|| {
                    (alt.chars().count() > MAX_ALT)
                        .then(|| format!("The alt text should be at most {MAX_ALT} characters"))
                })
                .or_else(|| {
                    (caption.chars().count() > MAX_CAPTION)
                        .then(|| format!("The caption should be at most {MAX_CAPTION} characters"))
                }),
            Block::Spotify { url } => url_problem(url, &[SPOTIFY_PREFIX], SPOTIFY_PREFIX),
            Block::Tweet { url } => url_problem(url, &TWEET_PREFIXES, &TWEET_PREFIXES.join(" or ")),
        }
    }
}

fn text_problem(text: &str, max: usize) -> Option<String> {
    if text.trim().is_empty() {
        Some("Can't be blank".to_owned())
    } else if text.chars().count() > max {
        Some(too_long(max))
    } else {
        None
    }
}

fn url_problem(url: &str, prefixes: &[&str], described: &str) -> Option<String> {
    if url.trim().is_empty() {
        return Some("Can't be blank".to_owned());
    }
    if !prefixes.iter().any(|prefix| url.starts_with(prefix)) {
        return Some(format!("Should start with {described}"));
    }
    if url.chars().count() > MAX_URL {
        return Some(too_long(MAX_URL));
    }
    if url.chars().any(|c| c.is_whitespace() || c.is_control() || matches!(c, '"' | '<' | '>' | '\\' | '`')) {
        return Some("Should be a URL without spaces or quotes".to_owned());
    }
    None
}

/// Whether a link inside a paragraph may point at `url`: `http:`, `https:` or `mailto:`, with
/// the link block's rules on length and characters.
pub fn markdown_url_allowed(url: &str) -> bool {
    url_problem(url, &MARKDOWN_LINK_PREFIXES, "").is_none()
}

fn too_long(max: usize) -> String {
    format!("Should be at most {max} characters")
}

fn shape_problem(child: &Value) -> String {
    match child.get("type").and_then(Value::as_str) {
        Some(kind) if Block::VARIANTS.contains(&kind) => format!("A {kind} block needs its value"),
        Some(_) | None => format!("Should be a block of type {}", Block::VARIANTS.join(", ")),
    }
}

/// The block rules as the owner app's page config carries them (`blockRules`), so the editor
/// checks posts with the server's own limits, prefixes and types.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "app-settings.ts")]
pub struct BlockRules {
    /// Most blocks in one post.
    max_blocks: usize,
    /// Longest heading.
    max_heading: usize,
    /// Longest paragraph.
    max_paragraph: usize,
    /// Longest URL or link text.
    max_url: usize,
    /// Longest alt text of an image.
    max_alt: usize,
    /// Longest caption of an image.
    max_caption: usize,
    /// Every block type the server takes, in the order the add-block dialog offers them.
    block_types: &'static [&'static str],
    /// What link URLs start with (any of them).
    link_prefixes: &'static [&'static str],
    /// What spotify block URLs start with.
    spotify_prefix: &'static str,
    /// What tweet block URLs start with (any of them).
    tweet_prefixes: &'static [&'static str],
    /// What image block URLs start with: the image host's, or this server's `/media/`.
    image_prefix: String,
    /// The MIME types an image upload may have.
    image_types: Vec<&'static str>,
    /// Largest image upload, in bytes.
    max_image_bytes: usize,
}

impl BlockRules {
    /// The rules of `rules`'s server, for its page config.
    pub fn new(rules: &Rules) -> BlockRules {
        BlockRules {
            max_blocks: MAX_BLOCKS,
            max_heading: MAX_HEADING,
            max_paragraph: MAX_PARAGRAPH,
            max_url: MAX_URL,
            max_alt: MAX_ALT,
            max_caption: MAX_CAPTION,
            block_types: Block::VARIANTS,
            link_prefixes: &LINK_PREFIXES,
            spotify_prefix: SPOTIFY_PREFIX,
            tweet_prefixes: &TWEET_PREFIXES,
            image_prefix: rules.image_prefix.clone(),
            image_types: ImageType::ALL.iter().map(|t| t.mime()).collect(),
            max_image_bytes: MAX_IMAGE_BYTES,
        }
    }
}

/// The rules as the owner app's page config carries them (`blockRules`), as JSON.
pub fn client_rules(rules: &Rules) -> Value {
    serde_json::to_value(BlockRules::new(rules)).expect("block rules are JSON")
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod proptests;
