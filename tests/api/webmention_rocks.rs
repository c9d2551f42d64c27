//! The W3C Webmention Rocks cases (webmention.rocks) rewritten against the real server (issue
//! 31, docs/responses.md "Webmentions"): its 23 discovery tests, each page served by a small
//! HTTP peer on 127.0.0.1 (the debug-only loopback allowance lets the guarded fetcher reach it)
//! that advertises its endpoint the way that test does and records every POST; and its receiver
//! update and delete tests: a source that changes, answers 410 or 404, stops linking, or is
//! reached through redirects (within the fetcher's cap, never to a private address).

mod peer;
mod receiving;

use std::time::{Duration, Instant};

use peer::{Hit, Page, Peer};

use crate::helpers::{TestApp, simple_body};

pub(super) async fn spawn() -> TestApp {
    TestApp::spawn_with(|config| {
        config.fetch_allow_loopback = true;
        config.fetch_deadline = Duration::from_secs(5);
    })
    .await
}

/// Polls `done` every 50 ms for at most 30 seconds; fails with `what` past that.
pub(super) async fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting until {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The 23 discovery tests: each page's path, how it is served, and the endpoint (a path on the
/// peer) that alone must be told.
fn discovery_pages(peer: &Peer) -> Vec<(String, String)> {
    let b = &peer.base;
    let html = |n: u32, headers: &[(&str, &str)], head: &str, body: &str| {
        peer.set(&format!("/test/{n}"), Page::html(headers, head, body));
    };
    let a = |href: &str| format!("<p>Its <a rel=\"webmention\" href=\"{href}\">endpoint</a>.</p>");
    let link = |rel: &str, href: &str| format!("<link rel=\"{rel}\" href=\"{href}\">");
    // 1, 2: a Link header, unquoted rel, relative then absolute.
    html(1, &[("Link", "</test/1/webmention>; rel=webmention")], "", "");
    html(2, &[("Link", &format!("<{b}/test/2/webmention>; rel=webmention"))], "", "");
    // 3, 4: a <link>, relative then absolute (href before rel).
    html(3, &[], &link("webmention", "/test/3/webmention"), "");
    html(4, &[], &format!("<link href=\"{b}/test/4/webmention\" rel=\"webmention\">"), "");
    // 5, 6: an <a> in the body, relative then absolute.
    html(5, &[], "", &a("/test/5/webmention"));
    html(6, &[], "", &format!("<a href=\"{b}/test/6/webmention\" rel=\"webmention\">endpoint</a>"));
    // 7: the header's name in odd casing; 8: the rel quoted.
    html(7, &[("LinK", &format!("<{b}/test/7/webmention>; rel=webmention"))], "", "");
    html(8, &[("Link", &format!("<{b}/test/8/webmention>; rel=\"webmention\""))], "", "");
    // 9, 10: several rel values, on a <link> then in the header.
    html(9, &[], &link("webmention somethingelse", &format!("{b}/test/9/webmention")), "");
    html(10, &[("Link", &format!("<{b}/test/10/webmention>; rel=\"webmention somethingelse\""))], "", "");
    // 11: the header, a <link> and an <a>: the header wins.
    let error11 = a("/test/11/webmention/error");
    html(
        11,
        &[("Link", "</test/11/webmention>; rel=\"webmention\"")],
        &link("webmention", "/test/11/webmention/error"),
        &error11,
    );
    // 12: rel="not-webmention" is not it.
    html(12, &[], &link("not-webmention", "/test/12/webmention/error"), &a("/test/12/webmention"));
    // 13: one inside an HTML comment; 14: one in escaped HTML.
    let commented =
        format!("<!-- <a href=\"/test/13/webmention/error\" rel=\"webmention\"></a> -->{}", a("/test/13/webmention"));
    html(13, &[], "", &commented);
    let escaped = format!(
        "<code>&lt;a href=\"/test/14/webmention/error\" rel=\"webmention\"&gt;&lt;/a&gt;</code>{}",
        a("/test/14/webmention")
    );
    html(14, &[], "", &escaped);
    // 15: an empty href: the page is its own endpoint.
    html(15, &[], &link("webmention", ""), "");
    // 16, 17: an <a> and a <link> in the body: the first in document order.
    html(16, &[], "", &format!("{}{}", a("/test/16/webmention"), link("webmention", "/test/16/webmention/error")));
    html(17, &[], "", &format!("{}{}", link("webmention", "/test/17/webmention"), a("/test/17/webmention/error")));
    // 18: two Link headers, the first another rel; 19: one header, two values.
    let other18 = format!("<{b}/test/18/webmention/error>; rel=\"other\"");
    let right18 = format!("<{b}/test/18/webmention>; rel=\"webmention\"");
    html(18, &[("Link", &other18), ("Link", &right18)], "", "");
    let both19 = format!("<{b}/test/19/webmention/error>; rel=\"other\", <{b}/test/19/webmention>; rel=\"webmention\"");
    html(19, &[("Link", &both19)], "", "");
    // 20: a <link> with no href is skipped for the <a> after it.
    html(20, &[], "", &format!("<link rel=\"webmention\">{}", a("/test/20/webmention")));
    // 21: the endpoint's query is kept; 22: relative to the page's path.
    html(21, &[], &link("webmention", "/test/21/webmention?query=yes"), "");
    html(22, &[], &link("webmention", "22/webmention"), "");
    // 23: the page redirects, and its endpoint is relative to where it lands.
    peer.set("/test/23/page", Page::redirect(302, "/test/23/page/x7kq"));
    peer.set("/test/23/page/x7kq", Page::html(&[("Link", "<webmention-endpoint/x7kq>; rel=webmention")], "", ""));
    let mut cases: Vec<(String, String)> =
        (1..=22).map(|n| (format!("/test/{n}"), format!("/test/{n}/webmention"))).collect();
    cases[14].1 = "/test/15".into();
    cases[20].1 = "/test/21/webmention?query=yes".into();
    cases.push(("/test/23/page".into(), "/test/23/page/webmention-endpoint/x7kq".into()));
    cases
}

#[tokio::test]
async fn a_published_post_tells_each_webmention_rocks_discovery_page_at_its_one_right_endpoint() {
    let app = spawn().await;
    let peer = Peer::start().await;
    let cases = discovery_pages(&peer);
    assert_eq!(cases.len(), 23);
    let alice = app.browser.clone();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let links: Vec<String> =
        cases.iter().enumerate().map(|(i, (page, _))| format!("[Test {}]({})", i + 1, peer.url(page))).collect();
    let post = alice.create_post(blog, simple_body("Webmention Rocks", &links.join(", ")), false).await;
    let source = post["permalink"].as_str().unwrap().to_owned();

    let settled = || {
        let waiting: i64 = app
            .db()
            .query_row("SELECT count(*) FROM outgoing_webmentions WHERE state <> 'sent'", [], |r| r.get(0))
            .unwrap();
        waiting == 0 && peer.posts().len() >= cases.len()
    };
    wait_until("every page was told", settled).await;

    let posts = peer.posts();
    for (page, endpoint) in &cases {
        let target = peer.url(page);
        let told: Vec<&Hit> = posts.iter().filter(|hit| &hit.path == endpoint).collect();
        assert_eq!(told.len(), 1, "{page}: its endpoint {endpoint} was told once: {posts:#?}");
        let hit = told[0];
        assert_eq!(hit.content_type, "application/x-www-form-urlencoded", "{page}");
        let form = [("source".to_owned(), source.clone()), ("target".to_owned(), target)];
        assert_eq!(hit.form, form, "{page}: source and target only, nothing else in the body");
    }
    let wrong: Vec<&Hit> = posts.iter().filter(|hit| !cases.iter().any(|(_, e)| e == &hit.path)).collect();
    assert!(wrong.is_empty(), "no decoy or other address was told: {wrong:#?}");
    assert_eq!(posts.len(), cases.len());
}
