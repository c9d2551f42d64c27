//! Webmention (W3C Recommendation) read from other sites' pages (issue 31, docs/responses.md):
//! where a page says its webmention endpoint is ([`endpoint`]: the `Link` header first, then the
//! first `<link>` or `<a>` with `rel="webmention"`, relative addresses resolved against the
//! page), and what a source page that mentions one of our posts says ([`read_source`]: whether
//! it links to the post at all, and its author, title and excerpt from microformats2 `h-entry`
//! and `h-card`, or the page's `<title>`). Everything kept is plain text; nothing of the page's
//! HTML is ever served. The tree is walked without recursion.

use html5ever::tendril::TendrilSink;
use html5ever::tree_builder::TreeBuilderOpts;
use html5ever::{ParseOpts, parse_document};
use markup5ever_rcdom::{Handle, NodeData, RcDom};
use url::Url;

use super::remote_html::node_text;

/// The longest excerpt kept, in characters.
pub const MAX_EXCERPT: usize = 500;
/// The longest author name or title kept, in characters.
pub const MAX_NAME: usize = 120;

/// What a source page says about itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceMention {
    /// Its author's name ('' when it names none).
    pub author_name: String,
    /// Its author's page (an http(s) URL, '' for none).
    pub author_url: String,
    /// Its title ('' for none).
    pub title: String,
    /// Its text, plain, cut at [`MAX_EXCERPT`] characters.
    pub excerpt: String,
}

fn parse(html: &str) -> RcDom {
    let opts = ParseOpts {
        tree_builder: TreeBuilderOpts { scripting_enabled: false, ..TreeBuilderOpts::default() },
        ..ParseOpts::default()
    };
    parse_document(RcDom::default(), opts).one(html)
}

/// Every element under `root`, in document order.
fn elements(root: &Handle) -> Vec<Handle> {
    let mut out = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(node) = stack.pop() {
        if matches!(node.data, NodeData::Element { .. }) {
            out.push(node.clone());
        }
        stack.extend(node.children.borrow().iter().rev().cloned());
    }
    out
}

fn tag(node: &Handle) -> String {
    match &node.data {
        NodeData::Element { name, .. } => name.local.to_string().to_ascii_lowercase(),
        _ => String::new(),
    }
}

fn attr(node: &Handle, wanted: &str) -> Option<String> {
    let NodeData::Element { attrs, .. } = &node.data else { return None };
    attrs
        .borrow()
        .iter()
        .find(|a| {
            let local: &str = &a.name.local;
            local.eq_ignore_ascii_case(wanted)
        })
        .map(|a| a.value.to_string())
}

fn has_token(node: &Handle, attribute: &str, token: &str) -> bool {
    attr(node, attribute).is_some_and(|value| value.split_ascii_whitespace().any(|t| t.eq_ignore_ascii_case(token)))
}

/// The text of a `<title>` (which [`node_text`] leaves out with the head), white space
/// collapsed, at most [`MAX_NAME`] characters.
fn title_text(node: &Handle) -> String {
    let mut raw = String::new();
    for child in node.children.borrow().iter() {
        if let NodeData::Text { contents } = &child.data {
            raw.push_str(&contents.borrow());
        }
    }
    raw.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(MAX_NAME).collect()
}

/// `href` resolved against `base`, if it makes an http(s) URL.
fn resolve(base: &Url, href: &str) -> Option<Url> {
    base.join(href.trim()).ok().filter(|url| matches!(url.scheme(), "http" | "https"))
}

/// Splits `text` at each `separator` outside `<...>` and double quotes (a comma may sit in a
/// URL or a quoted value of a `Link` header, RFC 8288).
fn split_outside(text: &str, separator: char) -> Vec<&str> {
    let (mut parts, mut start, mut in_uri, mut in_quotes) = (Vec::new(), 0, false, false);
    for (at, c) in text.char_indices() {
        match c {
            '"' if !in_uri => in_quotes = !in_quotes,
            '<' if !in_quotes => in_uri = true,
            '>' if !in_quotes => in_uri = false,
            c if c == separator && !in_uri && !in_quotes => {
                parts.push(&text[start..at]);
                start = at + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// The target of one `Link` header value when its `rel` (the first, its name in any case,
/// quoted or not) has the token `webmention`.
fn rel_link<'a>(link: &'a str, wanted: &str) -> Option<&'a str> {
    let mut parts = split_outside(link, ';').into_iter();
    let target = parts.next()?.trim().strip_prefix('<')?.strip_suffix('>')?;
    let (_, rel) = parts.filter_map(|p| p.split_once('=')).find(|(k, _)| k.trim().eq_ignore_ascii_case("rel"))?;
    rel.trim().trim_matches('"').split_ascii_whitespace().any(|t| t.eq_ignore_ascii_case(wanted)).then_some(target)
}

/// The webmention endpoint of the page at `base` (after redirects), from its `Link` headers'
/// values and its HTML; None when it names none.
pub fn endpoint(base: &Url, link_headers: &[&str], html: &str) -> Option<Url> {
    rel_links(base, link_headers, html, "webmention").into_iter().next()
}

/// Every address the page at `base` links to with `rel` (a token of its `rel`), the `Link`
/// headers' first, then its `<link>` and `<a>` elements', in order, each resolved against the
/// page; only http(s) addresses. IndieAuth reads a client's `rel="redirect_uri"` with it.
pub fn rel_links(base: &Url, link_headers: &[&str], html: &str, rel: &str) -> Vec<Url> {
    let mut found: Vec<Url> = link_headers
        .iter()
        .flat_map(|header| split_outside(header, ','))
        .filter_map(|link| rel_link(link, rel))
        .filter_map(|target| resolve(base, target))
        .collect();
    let dom = parse(html);
    found.extend(
        elements(&dom.document)
            .into_iter()
            .filter(|node| matches!(tag(node).as_str(), "link" | "a") && has_token(node, "rel", rel))
            .filter_map(|node| resolve(base, &attr(&node, "href")?)),
    );
    found
}

/// The page's `<title>`, white space collapsed (empty when it has none).
pub fn page_title(html: &str) -> String {
    let dom = parse(html);
    elements(&dom.document)
        .into_iter()
        .find(|node| tag(node) == "title")
        .map(|node| title_text(&node))
        .unwrap_or_default()
}

/// A URL as two links to it compare: no fragment, and the scheme and host lowercase (the
/// parser does those).
fn comparable(url: &Url) -> String {
    let mut url = url.clone();
    url.set_fragment(None);
    url.to_string()
}

/// What the page `html` at `source` says, if it links to `target` (an `href` or `src` naming
/// it, relative or not); None when it does not, which removes a mention already kept.
pub fn read_source(html: &str, source: &Url, target: &Url) -> Option<SourceMention> {
    let dom = parse(html);
    let all = elements(&dom.document);
    let wanted = comparable(target);
    let links = all.iter().any(|node| {
        ["href", "src"]
            .iter()
            .any(|a| attr(node, a).and_then(|href| resolve(source, &href)).is_some_and(|u| comparable(&u) == wanted))
    });
    if !links {
        return None;
    }
    let text = |node: &Handle, max: usize| node_text(node, max).split_whitespace().collect::<Vec<_>>().join(" ");
    let entry = all.iter().find(|node| has_token(node, "class", "h-entry"));
    let within = |root: &Handle, class: &str| elements(root).into_iter().skip(1).find(|n| has_token(n, "class", class));
    let page_title = all.iter().find(|node| tag(node) == "title").map(title_text).unwrap_or_default();
    let Some(entry) = entry else {
        return Some(SourceMention {
            author_name: String::new(),
            author_url: String::new(),
            title: page_title,
            excerpt: String::new(),
        });
    };
    let content = within(entry, "e-content").or_else(|| within(entry, "p-summary"));
    let excerpt = content.map(|c| text(&c, MAX_EXCERPT)).unwrap_or_default();
    let title = within(entry, "p-name")
        .map(|n| text(&n, MAX_NAME))
        .filter(|t| !excerpt.starts_with(t.as_str()) || excerpt.is_empty());
    let author = within(entry, "p-author").or_else(|| all.iter().find(|n| has_token(n, "class", "h-card")).cloned());
    let (author_name, author_url) = match author {
        None => (String::new(), String::new()),
        Some(card) => {
            let name = within(&card, "p-name").map(|n| text(&n, MAX_NAME)).unwrap_or_else(|| text(&card, MAX_NAME));
            let url = std::iter::once(card.clone())
                .chain(within(&card, "u-url"))
                .filter(|n| has_token(n, "class", "u-url") || tag(n) == "a")
                .find_map(|n| attr(&n, "href"))
                .and_then(|href| resolve(source, &href))
                .map(|u| u.to_string())
                .unwrap_or_default();
            (name, url)
        }
    };
    Some(SourceMention { author_name, author_url, title: title.unwrap_or(page_title), excerpt })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    #[test]
    fn the_endpoint_is_found_where_webmention_rocks_puts_it() {
        let base = url("https://peer.example/test/1");
        // A Link header, absolute or relative, quoted rel among others.
        assert_eq!(
            endpoint(&base, &["<https://peer.example/wm>; rel=webmention"], ""),
            Some(url("https://peer.example/wm"))
        );
        assert_eq!(endpoint(&base, &["</wm?a=1>; rel=\"webmention\""], ""), Some(url("https://peer.example/wm?a=1")));
        assert_eq!(
            endpoint(&base, &["<https://a.example/>; rel=\"other\", <wm>; rel=\"webmention somethingelse\""], ""),
            Some(url("https://peer.example/test/wm"))
        );
        // The HTML: the first <link> or <a>, in document order; an empty href is the page itself.
        let html = r#"<html><head><link rel="stylesheet" href="/s.css"></head><body>
            <a rel="webmention" href="/first">x</a><link rel="webmention" href="/second"></body></html>"#;
        assert_eq!(endpoint(&base, &[], html), Some(url("https://peer.example/first")));
        assert_eq!(endpoint(&base, &[], r#"<link rel="webmention" href="">"#), Some(base.clone()));
        // The header wins over the HTML; nothing at all is None; a javascript: href is none.
        assert_eq!(endpoint(&base, &["</h>; rel=webmention"], html), Some(url("https://peer.example/h")));
        assert_eq!(endpoint(&base, &[], "<p>nothing</p>"), None);
        assert_eq!(endpoint(&base, &[], r#"<a rel="webmention" href="javascript:alert(1)">x</a>"#), None);
        // A rel that only contains the word is not it.
        assert_eq!(endpoint(&base, &[], r#"<a rel="not-webmention" href="/x">x</a>"#), None);
    }

    #[test]
    fn a_link_header_is_split_only_between_values_and_its_parameter_names_have_any_case() {
        let base = url("https://peer.example/post");
        // A comma inside the URL or inside a quoted parameter does not end the value.
        let commas = r#"<https://peer.example/wm?ids=1,2>; rel="webmention""#;
        assert_eq!(endpoint(&base, &[commas], ""), Some(url("https://peer.example/wm?ids=1,2")));
        let quoted = r#"</a>; title="one, two"; rel="other", </wm>; rel="webmention""#;
        assert_eq!(endpoint(&base, &[quoted], ""), Some(url("https://peer.example/wm")));
        // RFC 8288: parameter names are case-insensitive; only the first rel counts.
        assert_eq!(endpoint(&base, &["</wm>; REL=webmention"], ""), Some(url("https://peer.example/wm")));
        assert_eq!(endpoint(&base, &["</wm>; rel=other; rel=webmention"], ""), None);
        // A rel name that merely ends in rel is not one; a value without <...> is not a link.
        assert_eq!(endpoint(&base, &["</wm>; norel=webmention", "/wm; rel=webmention"], ""), None);
    }

    #[test]
    fn a_source_counts_only_when_it_links_to_the_target() {
        let source = url("https://bob.example/notes/7");
        let target = url("https://alice.example/hello-abcdefgh");
        assert!(read_source("<p>no link</p>", &source, &target).is_none());
        assert!(read_source(r#"<a href="https://alice.example/other">x</a>"#, &source, &target).is_none());
        let plain = read_source(
            r#"<title>Bob's notes</title><p>See <a href="https://alice.example/hello-abcdefgh#top">this</a></p>"#,
            &source,
            &target,
        )
        .unwrap();
        assert_eq!(plain.title, "Bob's notes");
        assert_eq!(plain.author_name, "");
    }

    #[test]
    fn an_h_entry_gives_author_title_and_excerpt_as_plain_text() {
        let source = url("https://bob.example/notes/7");
        let target = url("https://alice.example/hello-abcdefgh");
        let html = r#"<html><head><title>Page title</title><script>alert(1)</script></head><body>
            <article class="h-entry">
              <h1 class="p-name">A reply <b>to</b> Alice</h1>
              <a class="p-author h-card" href="/about"><img src="/me.jpg" alt=""> <span class="p-name">Bob <i>B.</i></span></a>
              <div class="e-content"><p>I agree with <a href="/hello-abcdefgh">your post</a>.</p><script>evil()</script>
              <p>Second paragraph.</p></div>
            </article></body></html>"#;
        let bob = url("https://alice.example/notes/7");
        let mention = read_source(html, &bob, &target).expect("links to the target, relatively");
        assert_eq!(mention.title, "A reply to Alice");
        assert_eq!(mention.author_name, "Bob B.");
        assert_eq!(mention.author_url, "https://alice.example/about");
        assert_eq!(mention.excerpt, "I agree with your post. Second paragraph.");
        assert!(!mention.excerpt.contains("evil"));
        // From another host, the same relative link names another page: not a mention.
        assert!(read_source(html, &source, &target).is_none());
    }
}
