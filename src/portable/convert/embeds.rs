//! Embedded media as blocks: a Spotify player becomes a Spotify block, a tweet a tweet
//! block, and everything else (YouTube, Vimeo, SoundCloud, ...) a link block to the page the
//! player showed, since Quire embeds no other players.

use url::Url;

use crate::domain::content::blocks::{Block, SPOTIFY_PREFIX};
use crate::domain::content::reader_view::spotify_embed;

/// Hosts whose page URLs WordPress (and others) turn into players when they stand alone on a
/// line; such a URL becomes a block of its own rather than a line of text.
const EMBED_HOSTS: &[&str] = &[
    "youtube.com",
    "youtu.be",
    "vimeo.com",
    "soundcloud.com",
    "instagram.com",
    "tiktok.com",
    "flickr.com",
    "flic.kr",
    "codepen.io",
    "gist.github.com",
    "reddit.com",
    "tumblr.com",
    "dailymotion.com",
    "ted.com",
    "mixcloud.com",
    "bandcamp.com",
    "imgur.com",
    "wordpress.tv",
    "facebook.com",
    "slideshare.net",
    "speakerdeck.com",
    "kickstarter.com",
    "scribd.com",
    "issuu.com",
    "pinterest.com",
    "twitch.tv",
    "mastodon.social",
    "bsky.app",
    "threads.net",
    "loom.com",
    "wistia.com",
    "giphy.com",
];

/// The block a page URL standing alone on a line becomes, when it is a known player's page:
/// a Spotify or tweet block, or a link block for other players (with a note saying the
/// player was not kept). `None` for other URLs, which stay text.
pub(crate) fn lone_url(url: &str) -> Option<(Block, Option<String>)> {
    let block = from_url(url, "")?;
    let note = match &block {
        Block::Link { url, .. } => {
            let host = Url::parse(url).ok()?.host_str().unwrap_or("").trim_start_matches("www.").to_owned();
            Some(format!("A player from {host} was kept as a link to it"))
        }
        _ => None,
    };
    Some((block, note))
}

/// The block a page URL becomes when it is a known player's page: a Spotify or tweet
/// block, or a link block for other players. `None` for other URLs.
pub(crate) fn from_url(url: &str, title: &str) -> Option<Block> {
    let parsed = Url::parse(url.trim()).ok()?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return None;
    }
    if let Some(block) = spotify(&parsed).or_else(|| tweet(&parsed)) {
        return Some(block);
    }
    let host = parsed.host_str()?.trim_start_matches("www.").trim_start_matches("m.");
    if EMBED_HOSTS.iter().any(|known| host == *known || host.ends_with(&format!(".{known}"))) {
        return Some(link(&page_url(&parsed).unwrap_or(parsed), title));
    }
    None
}

/// The block a player frame (`<iframe src>`, `<embed>`, a Ghost embed card) becomes: a known
/// player as [`from_url`] says, any other frame a link block to its address. The note says
/// what was not kept (the player itself), `None` for Spotify and tweets.
pub(crate) fn from_frame(src: &str, title: &str) -> Option<(Block, Option<String>)> {
    let parsed = Url::parse(src.trim()).ok()?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return None;
    }
    let page = page_url(&parsed).unwrap_or_else(|| parsed.clone());
    match from_url(page.as_str(), title) {
        Some(block @ (Block::Spotify { .. } | Block::Tweet { .. })) => Some((block, None)),
        Some(block) => {
            let host = page.host_str().unwrap_or("").trim_start_matches("www.").to_owned();
            Some((block, Some(format!("A player from {host} was kept as a link to it"))))
        }
        None => {
            let host = parsed.host_str().unwrap_or("").to_owned();
            Some((link(&parsed, title), Some(format!("An embedded frame from {host} was kept as a link to it"))))
        }
    }
}

/// The page URL of a player's frame URL: `youtube.com/embed/ID` → `youtube.com/watch?v=ID`,
/// `player.vimeo.com/video/ID` → `vimeo.com/ID`, `open.spotify.com/embed/track/ID` →
/// `open.spotify.com/track/ID`, a tweet frame → the tweet.
fn page_url(url: &Url) -> Option<Url> {
    let host = url.host_str()?.trim_start_matches("www.");
    let segments: Vec<&str> = url.path_segments().map(|s| s.filter(|p| !p.is_empty()).collect()).unwrap_or_default();
    let page = match (host, segments.as_slice()) {
        ("youtube.com" | "youtube-nocookie.com", ["embed", id, ..]) => format!("https://www.youtube.com/watch?v={id}"),
        ("youtu.be", [id, ..]) => format!("https://www.youtube.com/watch?v={id}"),
        ("player.vimeo.com", ["video", id, ..]) => format!("https://vimeo.com/{id}"),
        ("open.spotify.com", [embed, rest @ ..]) if embed.starts_with("embed") && !rest.is_empty() => {
            format!("{SPOTIFY_PREFIX}{}", rest.join("/"))
        }
        ("platform.twitter.com", _) => {
            let id = url.query_pairs().find(|(k, _)| k == "id")?.1.into_owned();
            format!("https://twitter.com/i/status/{id}")
        }
        _ => return None,
    };
    Url::parse(&page).ok()
}

/// A Spotify block for an open.spotify.com page the public page can play (or a
/// `spotify:track:ID` URI).
fn spotify(url: &Url) -> Option<Block> {
    if url.host_str()? != "open.spotify.com" {
        return None;
    }
    let page = page_url(url).unwrap_or_else(|| url.clone());
    let clean = format!("{SPOTIFY_PREFIX}{}", page.path().trim_start_matches('/'));
    spotify_embed(&clean).map(|_| Block::Spotify { url: clean })
}

/// A Spotify URI (`spotify:track:ID`) as the page URL it names.
pub(crate) fn spotify_uri(uri: &str) -> Option<Block> {
    let rest = uri.trim().strip_prefix("spotify:")?;
    let (kind, id) = rest.split_once(':')?;
    let url = format!("{SPOTIFY_PREFIX}{kind}/{id}");
    spotify_embed(&url).map(|_| Block::Spotify { url })
}

/// A tweet block for a status URL on twitter.com or x.com (any subdomain, http or https),
/// written as `https://twitter.com/{user}/status/{id}` or `https://x.com/...` without query.
fn tweet(url: &Url) -> Option<Block> {
    let host = url.host_str()?.trim_start_matches("www.").trim_start_matches("mobile.");
    if host != "twitter.com" && host != "x.com" {
        return None;
    }
    let segments: Vec<&str> = url.path_segments()?.filter(|p| !p.is_empty()).collect();
    match segments.as_slice() {
        [user, "status" | "statuses", id, ..]
            if id.bytes().all(|b| b.is_ascii_digit())
                && !id.is_empty()
                && user.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') =>
        {
            Some(Block::Tweet { url: format!("https://{host}/{user}/status/{id}") })
        }
        _ => None,
    }
}

fn link(url: &Url, title: &str) -> Block {
    let title = title.split_whitespace().collect::<Vec<_>>().join(" ");
    Block::Link { url: url.to_string(), title: if title.is_empty() { url.to_string() } else { title } }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spotify_and_tweets_get_their_blocks() {
        assert_eq!(
            from_url("https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC?si=abc", ""),
            Some(Block::Spotify { url: "https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC".into() })
        );
        assert_eq!(
            from_frame("https://open.spotify.com/embed/album/1DFixLWuPkv3KT3TnV35m3?utm_source=generator", ""),
            Some((Block::Spotify { url: "https://open.spotify.com/album/1DFixLWuPkv3KT3TnV35m3".into() }, None))
        );
        assert_eq!(
            from_url("http://mobile.twitter.com/jack/status/20?s=21", ""),
            Some(Block::Tweet { url: "https://twitter.com/jack/status/20".into() })
        );
        assert_eq!(
            from_url("https://x.com/jack/status/20", ""),
            Some(Block::Tweet { url: "https://x.com/jack/status/20".into() })
        );
        assert_eq!(
            spotify_uri("spotify:track:4uLU6hMCjMI75M1A2tKUQC"),
            Some(Block::Spotify { url: "https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC".into() })
        );
        assert_eq!(from_url("https://twitter.com/jack", ""), None, "a profile is not an embed");
        assert_eq!(from_url("https://open.spotify.com/user/x", ""), None, "nothing the page can play");
    }

    #[test]
    fn other_players_become_links_to_their_pages() {
        let (block, note) = from_frame("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?rel=0", "Never").unwrap();
        assert_eq!(
            block,
            Block::Link { url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ".into(), title: "Never".into() }
        );
        assert_eq!(note.as_deref(), Some("A player from youtube.com was kept as a link to it"));
        let (block, _) = from_frame("https://player.vimeo.com/video/76979871", "").unwrap();
        assert_eq!(
            block,
            Block::Link { url: "https://vimeo.com/76979871".into(), title: "https://vimeo.com/76979871".into() }
        );
        let (block, note) = from_frame("https://maps.example.com/embed?x=1", "Map").unwrap();
        assert_eq!(block, Block::Link { url: "https://maps.example.com/embed?x=1".into(), title: "Map".into() });
        assert_eq!(note.as_deref(), Some("An embedded frame from maps.example.com was kept as a link to it"));
        assert_eq!(from_frame("javascript:alert(1)", ""), None);
        assert_eq!(from_url("https://example.com/a-post/", ""), None, "an ordinary page stays text");
        assert!(matches!(from_url("https://youtu.be/dQw4w9WgXcQ", ""), Some(Block::Link { .. })));
    }
}
