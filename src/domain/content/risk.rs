//! A blog's risk score for the review queue (issue 29, docs/public-instance.md "Admins and the
//! review queue"): how much its published posts look like link spam, as a number from 0 to 100
//! and a sentence saying why ("41 links to 3 hosts in 2 posts; 'casino' ×3"). It orders the
//! queue; it never acts alone. Pure: the write path (blogs/review.rs) feeds it the posts.

use std::collections::BTreeMap;

use crate::domain::content::blocks::{Block, Body};
use crate::domain::content::markdown;

/// The newest published posts a score looks at (an imported blog of thousands is judged by these).
pub const MAX_POSTS_SCORED: usize = 200;
/// Most link hosts kept per blog (the queue shows the first few).
pub const MAX_HOSTS_KEPT: usize = 100;
/// A post with at least this many links...
const MOSTLY_LINKS_MIN_LINKS: usize = 3;
/// ...and fewer words than this per link is "mostly links".
const MOSTLY_LINKS_WORDS_PER_LINK: usize = 10;
/// Days after its creation during which a blog is rescored on every post write whatever its state.
pub const RECHECK_DAYS: i64 = 30;
/// An approved blog in its first [`RECHECK_DAYS`] whose posts link to this many hosts it did not
/// link to when it was approved goes back to the review queue (flagged, still served).
pub const NEW_HOSTS_TO_FLAG: usize = 5;

/// What the score needs of one post.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PostFacts {
    /// Its words (headings, paragraphs, link texts, captions).
    pub words: usize,
    /// The host of each of its outbound links (one entry a link).
    pub link_hosts: Vec<String>,
    /// How often each operator term occurs in it (terms that do not occur are absent).
    pub terms: BTreeMap<String, u32>,
}

impl PostFacts {
    /// The facts of a post's `body`; `terms` are the operator's (`--review-terms`, lowercase),
    /// each matched as whole words.
    pub fn of(body: &Body, terms: &[String]) -> PostFacts {
        let mut urls = Vec::new();
        for block in &body.children {
            match block {
                Block::Link { url, .. } => urls.push(url.clone()),
                Block::Paragraph { text } => urls.extend(markdown::link_urls(text)),
                _ => {}
            }
        }
        let words = words_of(&body.text());
        let mut found = BTreeMap::new();
        for term in terms {
            let needle = words_of(term);
            if needle.is_empty() || needle.len() > words.len() {
                continue;
            }
            let hits = words.windows(needle.len()).filter(|window| *window == needle.as_slice()).count();
            if hits > 0 {
                *found.entry(term.clone()).or_insert(0) += hits as u32;
            }
        }
        PostFacts {
            words: words.len(),
            link_hosts: urls.iter().filter_map(|url| link_host(url)).collect(),
            terms: found,
        }
    }

    fn is_mostly_links(&self) -> bool {
        let links = self.link_hosts.len();
        links >= MOSTLY_LINKS_MIN_LINKS && self.words < links * MOSTLY_LINKS_WORDS_PER_LINK
    }
}

/// A blog's score and what it is made of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Risk {
    /// 0 (nothing like spam) to 100.
    pub score: u32,
    /// One line an admin reads: "41 links to 3 hosts in 2 posts; 2 of 2 posts mostly links; 'casino' ×3".
    pub explanation: String,
    /// The outbound link hosts with their link counts, most frequent first (at most [`MAX_HOSTS_KEPT`]).
    pub hosts: Vec<(String, u32)>,
}

/// Scores a blog's published posts. Points: links per word (up to 30: one link every 10 words
/// or more), the share of posts that are mostly links (up to 25), many links to few hosts (up
/// to 20: from 5 links, 4 a link per host beyond the first), operator terms (5 an occurrence,
/// up to 25).
pub fn assess(posts: &[PostFacts]) -> Risk {
    if posts.is_empty() {
        return Risk { score: 0, explanation: "No published posts yet".to_owned(), hosts: Vec::new() };
    }
    let mut hosts: BTreeMap<&str, u32> = BTreeMap::new();
    let mut terms: BTreeMap<&str, u32> = BTreeMap::new();
    for post in posts {
        for host in &post.link_hosts {
            *hosts.entry(host).or_insert(0) += 1;
        }
        for (term, hits) in &post.terms {
            *terms.entry(term).or_insert(0) += hits;
        }
    }
    let links: usize = posts.iter().map(|post| post.link_hosts.len()).sum();
    let words: usize = posts.iter().map(|post| post.words).sum();
    let mostly = posts.iter().filter(|post| post.is_mostly_links()).count();
    let term_hits: u32 = terms.values().sum();

    let density = (links * 300 / words.max(1)).min(30) as u32;
    let mostly_points = (mostly * 25 / posts.len()) as u32;
    let concentration = match links >= 5 {
        true => ((links / hosts.len().max(1)).saturating_sub(1) * 4).min(20) as u32,
        false => 0,
    };
    let term_points = (term_hits.saturating_mul(5)).min(25);
    let score = (density + mostly_points + concentration + term_points).min(100);

    let mut parts =
        vec![format!("{} to {} in {}", count(links, "link"), count(hosts.len(), "host"), count(posts.len(), "post"))];
    if mostly > 0 {
        parts.push(format!("{mostly} of {} mostly links", count(posts.len(), "post")));
    }
    let mut terms: Vec<(&str, u32)> = terms.into_iter().collect();
    terms.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    if !terms.is_empty() {
        parts.push(terms.iter().map(|(term, hits)| format!("'{term}' ×{hits}")).collect::<Vec<_>>().join(", "));
    }
    let mut hosts: Vec<(String, u32)> = hosts.into_iter().map(|(host, n)| (host.to_owned(), n)).collect();
    hosts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    hosts.truncate(MAX_HOSTS_KEPT);
    Risk { score, explanation: parts.join("; "), hosts }
}

/// How many of the hosts in `now` are not in `baseline` (the hosts at the last approval).
pub fn new_hosts(now: &[(String, u32)], baseline: &[(String, u32)]) -> usize {
    now.iter().filter(|(host, _)| !baseline.iter().any(|(known, _)| known == host)).count()
}

/// Whether an approved blog whose hosts went from `baseline` to `now` goes back to the queue.
pub fn flags_approved(now: &[(String, u32)], baseline: &[(String, u32)]) -> bool {
    new_hosts(now, baseline) >= NEW_HOSTS_TO_FLAG
}

/// The host of an outbound http(s) link, lowercase, without a leading `www.`; None for
/// anything else (mailto:, a relative link).
pub fn link_host(url: &str) -> Option<String> {
    let parsed = url::Url::parse(url.trim()).ok()?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return None;
    }
    let host = parsed.host_str()?.trim_end_matches('.').to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host);
    (!host.is_empty()).then(|| host.to_owned())
}

/// The lowercase words of `text` (runs of letters and digits).
fn words_of(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric()).filter(|word| !word.is_empty()).map(str::to_lowercase).collect()
}

fn count(n: usize, noun: &str) -> String {
    match n {
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    }
}

#[cfg(test)]
#[path = "risk/tests.rs"]
mod tests;
