//! A blog's answer to AI crawlers (issue 35, docs/public-instance.md "Crawlers"): allowed, as
//! every other crawler, or asked not to use the blog. Asking is all a blog can do: its
//! `robots.txt` names the user agents AI companies publish for their crawlers with
//! `Disallow: /`, and its pages carry the `noai, noimageai` directives (a `<meta name="robots">`
//! and the `X-Robots-Tag` header). Search engines' own crawlers are not among them: a blog that
//! refuses AI training stays in search results.

/// The user agents AI companies publish for the crawlers that gather training data or answer
/// their assistants' questions (each company's crawler documentation), as `robots.txt` names them.
pub const AGENTS: &[&str] = &[
    "GPTBot",
    "ChatGPT-User",
    "OAI-SearchBot",
    "ClaudeBot",
    "Claude-User",
    "Claude-SearchBot",
    "Claude-Web",
    "anthropic-ai",
    "Google-Extended",
    "Applebot-Extended",
    "CCBot",
    "PerplexityBot",
    "Perplexity-User",
    "Bytespider",
    "Amazonbot",
    "meta-externalagent",
    "meta-externalfetcher",
    "FacebookBot",
    "cohere-ai",
    "cohere-training-data-crawler",
    "Diffbot",
    "ImagesiftBot",
    "Omgilibot",
    "Timpibot",
    "YouBot",
    "AI2Bot",
    "Ai2Bot-Dolma",
    "DuckAssistBot",
    "MistralAI-User",
    "PanguBot",
    "Webzio-Extended",
    "img2dataset",
];

/// The directives that ask not to use a page for AI: in `<meta name="robots">` and `X-Robots-Tag`.
pub const NOAI: &str = "noai, noimageai";

/// The robots directives of a page (its `<meta name="robots">` and `X-Robots-Tag`): `noindex`
/// (a blog not listed, an unlisted post), `noai, noimageai` (a blog that asks AI crawlers not to
/// use it), both, or none.
pub fn robots_directives(noindex: bool, noai: bool) -> Option<&'static str> {
    match (noindex, noai) {
        (true, true) => Some("noindex, noai, noimageai"),
        (true, false) => Some("noindex"),
        (false, true) => Some(NOAI),
        (false, false) => None,
    }
}

/// Whether AI crawlers are allowed or asked to stay away.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AiCrawlers {
    /// Treated as any other crawler (the default).
    #[default]
    Allow,
    /// Asked not to use the blog.
    Disallow,
}

impl AiCrawlers {
    /// `allow` or `disallow`, as the API, the flag and the database write it.
    pub fn as_str(self) -> &'static str {
        match self {
            AiCrawlers::Allow => "allow",
            AiCrawlers::Disallow => "disallow",
        }
    }

    /// The value of `allow` or `disallow`; None for anything else.
    pub fn parse(text: &str) -> Option<AiCrawlers> {
        match text {
            "allow" => Some(AiCrawlers::Allow),
            "disallow" => Some(AiCrawlers::Disallow),
            _ => None,
        }
    }

    /// The stored value (the database's `ai_crawlers` column; anything unknown allows).
    pub fn from_stored(text: &str) -> AiCrawlers {
        AiCrawlers::parse(text).unwrap_or_default()
    }

    /// Whether the blog asks AI crawlers to stay away.
    pub fn disallowed(self) -> bool {
        self == AiCrawlers::Disallow
    }

    /// The `robots.txt` group that asks them (empty when they are allowed): every agent in one
    /// group (RFC 9309, 2.1), before the group for every other crawler.
    pub fn robots_group(self) -> String {
        if !self.disallowed() {
            return String::new();
        }
        let mut group: String = AGENTS.iter().map(|agent| format!("User-agent: {agent}\n")).collect();
        group.push_str("Disallow: /\n\n");
        group
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_two_values_round_trip_and_nothing_else_parses() {
        for value in [AiCrawlers::Allow, AiCrawlers::Disallow] {
            assert_eq!(AiCrawlers::parse(value.as_str()), Some(value));
        }
        for bad in ["", "Allow", "deny", "disallow ", "yes"] {
            assert_eq!(AiCrawlers::parse(bad), None, "{bad:?}");
        }
        assert_eq!(AiCrawlers::from_stored("garbage"), AiCrawlers::Allow);
    }

    #[test]
    fn a_page_says_each_directive_it_needs_and_nothing_when_it_needs_none() {
        assert_eq!(robots_directives(false, false), None);
        assert_eq!(robots_directives(true, false), Some("noindex"));
        assert_eq!(robots_directives(false, true), Some("noai, noimageai"));
        assert_eq!(robots_directives(true, true), Some("noindex, noai, noimageai"));
    }

    #[test]
    fn a_disallowing_blog_has_one_group_naming_every_agent_and_search_engines_are_not_named() {
        assert_eq!(AiCrawlers::Allow.robots_group(), "");
        let group = AiCrawlers::Disallow.robots_group();
        assert_eq!(group.matches("User-agent: ").count(), AGENTS.len());
        assert!(group.contains("User-agent: GPTBot\n") && group.contains("User-agent: Google-Extended\n"));
        assert!(group.ends_with("Disallow: /\n\n"));
        assert_eq!(group.matches("Disallow").count(), 1, "one group: {group}");
        for search_engine in ["Googlebot", "Bingbot", "DuckDuckBot", "Applebot\n"] {
            assert!(!group.contains(&format!("User-agent: {search_engine}")), "{search_engine}");
        }
    }
}
