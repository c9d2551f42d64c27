//! How blocks appear to readers: Spotify embeds, tweet cards, heading anchors, excerpts, reading time.

use std::collections::HashSet;

/// Where a Spotify block's player is framed from.
pub const SPOTIFY_ORIGIN: &str = "https://open.spotify.com";
/// Where the Rich tweet embeds addon's script and frames come from.
pub const TWITTER_WIDGETS_ORIGIN: &str = "https://platform.twitter.com";

/// The origins a public page may frame for its embeds: Spotify's players, and with the Rich
/// tweet embeds addon (`rich_tweets`) X's. The owner app allows the same in its frames (with the
/// blogs' own hosts, for its previews), from this one list.
pub fn frame_origins(rich_tweets: bool) -> Vec<&'static str> {
    let mut origins = vec![SPOTIFY_ORIGIN];
    if rich_tweets {
        origins.push(TWITTER_WIDGETS_ORIGIN);
    }
    origins
}

/// Words read per minute for the reading-time estimate.
const WORDS_PER_MINUTE: usize = 200;

/// The official embed URL of an open.spotify.com link (track, album, playlist, episode, show
/// or artist); `None` when the link is not one of those.
pub fn spotify_embed(url: &str) -> Option<String> {
    let path = url.strip_prefix(SPOTIFY_ORIGIN)?.strip_prefix('/')?;
    let path = path.split(['?', '#']).next()?;
    let mut parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    if parts.first().is_some_and(|p| p.starts_with("intl-")) {
        parts.remove(0);
    }
    match parts.as_slice() {
        [kind, id]
            if matches!(*kind, "track" | "album" | "playlist" | "episode" | "show" | "artist")
                && (10..=40).contains(&id.len())
                && id.bytes().all(|b| b.is_ascii_alphanumeric()) =>
        {
            Some(format!("{SPOTIFY_ORIGIN}/embed/{kind}/{id}"))
        }
        _ => None,
    }
}

/// The account a post on X is by, from its link (`https://x.com/jack/status/20` → `jack`);
/// `None` for links that name none (`/i/web/status/...`) or not a post.
pub fn tweet_author(url: &str) -> Option<&str> {
    let path = crate::domain::content::blocks::TWEET_PREFIXES.iter().find_map(|prefix| url.strip_prefix(prefix))?;
    let mut parts = path.split(['?', '#']).next()?.split('/');
    let (user, status) = (parts.next()?, parts.next()?);
    let handle = (1..=15).contains(&user.len()) && user.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    (handle && status == "status" && !matches!(user, "i" | "intent" | "home" | "share")).then_some(user)
}

/// A unique `id` for a heading.
pub fn anchor(text: &str, used: &mut HashSet<String>) -> String {
    let base = match slug::slugify(text) {
        s if s.is_empty() => "section".to_owned(),
        s => s.chars().take(60).collect(),
    };
    let mut candidate = base.clone();
    let mut n = 2;
    while !used.insert(candidate.clone()) {
        candidate = format!("{base}-{n}");
        n += 1;
    }
    candidate
}

/// Minutes to read `text`, at least one.
pub fn reading_minutes(text: &str) -> u32 {
    let words = text.split_whitespace().count();
    words.div_ceil(WORDS_PER_MINUTE).max(1) as u32
}

/// The first `max` characters of `text` on one line, cut at a word, with an ellipsis when cut.
pub fn excerpt(text: &str, max: usize) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max {
        return flat;
    }
    let cut: String = flat.chars().take(max).collect();
    let cut = cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head);
    format!("{}…", cut.trim_end_matches([',', '.', ';', ':']))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_posts_author_is_read_from_its_link_when_it_names_one() {
        assert_eq!(tweet_author("https://x.com/jack/status/20"), Some("jack"));
        assert_eq!(tweet_author("https://twitter.com/Quire_Blog/status/20?s=20"), Some("Quire_Blog"));
        assert_eq!(tweet_author("https://x.com/i/web/status/20"), None);
        assert_eq!(tweet_author("https://x.com/jack"), None);
        assert_eq!(tweet_author("https://x.com/<script>/status/1"), None);
        assert_eq!(tweet_author("https://x.com/waytoolongforahandle/status/1"), None);
        assert_eq!(tweet_author("https://example.com/jack/status/1"), None);
    }

    #[test]
    fn spotify_links_become_official_embeds() {
        assert_eq!(
            spotify_embed("https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC?si=abc").as_deref(),
            Some("https://open.spotify.com/embed/track/4uLU6hMCjMI75M1A2tKUQC")
        );
        assert_eq!(
            spotify_embed("https://open.spotify.com/intl-de/album/1DFixLWuPkv3KT3TnV35m3").as_deref(),
            Some("https://open.spotify.com/embed/album/1DFixLWuPkv3KT3TnV35m3")
        );
        assert_eq!(spotify_embed("https://open.spotify.com/user/x"), None);
        assert_eq!(spotify_embed("https://open.spotify.com/track/\"><script>"), None);
    }

    #[test]
    fn anchors_are_unique_slugs() {
        let mut used = HashSet::new();
        assert_eq!(anchor("Hello World", &mut used), "hello-world");
        assert_eq!(anchor("Hello, world!", &mut used), "hello-world-2");
        assert_eq!(anchor("!!!", &mut used), "section");
    }

    #[test]
    fn excerpts_and_reading_time() {
        assert_eq!(excerpt("one two three", 50), "one two three");
        assert_eq!(excerpt("alpha beta gamma delta", 12), "alpha beta…");
        assert_eq!(reading_minutes("word"), 1);
        assert_eq!(reading_minutes(&"word ".repeat(450)), 3);
    }
}
