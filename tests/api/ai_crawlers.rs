//! A blog's answer to AI crawlers (issue 35): allowed by default; asked away in Settings, the
//! blog's robots.txt names their published user agents with `Disallow: /` before the group for
//! everyone else, and every page says `noai, noimageai` in its robots meta and `X-Robots-Tag`;
//! `--ai-crawlers disallow` makes that the default of new blogs. Bad values, another owner and a
//! write without its CSRF token are refused, changing nothing.

use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{Browser, TestApp, error_field, simple_body};

const NOAI_META: &str = r#"<meta name="robots" content="noai, noimageai">"#;

fn path(blog: i64) -> String {
    format!("/api/my/blogs/{blog}/ai-crawlers")
}

async fn set(browser: &Browser, blog: i64, value: &str) -> reqwest::Response {
    browser.send(Method::PUT, &path(blog), json!({ "ai_crawlers": value })).await
}

/// The page's robots header (None when absent) and its body.
async fn page(app: &TestApp, path: &str) -> (Option<String>, String) {
    let resp = app.get_with_host(&format!("alice.localhost:{}", app.port), path).await;
    assert_eq!(resp.status(), 200, "{path}");
    let header = resp.headers().get("x-robots-tag").map(|value| value.to_str().unwrap().to_owned());
    (header, resp.text().await.unwrap())
}

#[tokio::test]
async fn asked_away_the_blog_names_the_ai_crawlers_in_robots_txt_and_every_page_says_noai() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let post = alice.create_post(blog, simple_body("Hello", "First words."), false).await;
    let post_path = format!("/{}", post["permalink"].as_str().unwrap().rsplit('/').next().unwrap());
    let shown: Value = alice.get(&format!("/api/my/blogs/{blog}")).await.json().await.unwrap();
    assert_eq!(shown["blog"]["aiCrawlers"], "allow", "allowed by default");
    let (_, robots) = page(&app, "/robots.txt").await;
    assert!(!robots.contains("GPTBot"), "{robots}");
    for path in ["/", post_path.as_str(), "/feed.xml"] {
        let (header, body) = page(&app, path).await;
        assert_eq!(header, None, "{path}");
        assert!(!body.contains("noai"), "{path}");
    }

    let changed: Value = set(&alice, blog, "disallow").await.json().await.unwrap();
    assert_eq!(changed["blog"]["aiCrawlers"], "disallow");
    // The cached robots.txt and pages changed with it.
    let (_, robots) = page(&app, "/robots.txt").await;
    let (ai_group, everyone) = robots.split_once("User-agent: *\n").expect("a group for everyone else");
    for agent in ["GPTBot", "ClaudeBot", "Google-Extended", "CCBot", "Applebot-Extended", "PerplexityBot"] {
        assert!(ai_group.contains(&format!("User-agent: {agent}\n")), "{agent}: {robots}");
    }
    assert!(ai_group.ends_with("Disallow: /\n\n") && ai_group.matches("Disallow").count() == 1, "{robots}");
    assert!(everyone.starts_with("Allow: /\n") && everyone.contains("Sitemap: "), "{robots}");
    assert!(!robots.contains("Googlebot") && !robots.contains("Bingbot"), "search engines are not asked");
    for path in ["/", post_path.as_str()] {
        let (header, body) = page(&app, path).await;
        assert_eq!(header.as_deref(), Some("noai, noimageai"), "{path}");
        assert!(body.contains(NOAI_META), "{path}");
    }
    let (header, _) = page(&app, "/feed.xml").await;
    assert_eq!(header.as_deref(), Some("noai, noimageai"));

    assert_eq!(set(&alice, blog, "allow").await.status(), 200);
    let (header, body) = page(&app, "/").await;
    assert_eq!(header, None);
    assert!(!body.contains("noai"));
    assert!(!page(&app, "/robots.txt").await.1.contains("GPTBot"));
}

#[tokio::test]
async fn bad_values_another_owner_and_a_write_without_csrf_change_nothing() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    for bad in [json!({ "ai_crawlers": "deny" }), json!({ "ai_crawlers": "" }), json!({ "ai_crawlers": "Disallow" })] {
        let resp = alice.send(Method::PUT, &path(blog), bad.clone()).await;
        assert_eq!(error_field(resp, 422).await, ("aiCrawlers".to_owned(), "Choose allow or disallow".to_owned()));
    }
    for bad in [json!({}), json!({ "ai_crawlers": true }), json!([1])] {
        let status = alice.send(Method::PUT, &path(blog), bad.clone()).await.status();
        assert!(status == 400 || status == 422, "{bad}: {status}");
    }
    let mallory = app.new_browser();
    mallory.sign_up_with_blog("mallory@example.com", "mallory").await;
    assert_eq!(error_field(set(&mallory, blog, "disallow").await, 404).await.0, "blog");
    let no_csrf = alice
        .client
        .put(format!("{}{}", app.url, path(blog)))
        .json(&json!({ "ai_crawlers": "disallow" }))
        .send()
        .await
        .unwrap();
    assert_eq!(no_csrf.status(), 403);
    let shown: Value = alice.get(&format!("/api/my/blogs/{blog}")).await.json().await.unwrap();
    assert_eq!(shown["blog"]["aiCrawlers"], "allow", "nothing changed");
    assert!(!page(&app, "/robots.txt").await.1.contains("GPTBot"));
}

#[tokio::test]
async fn with_ai_crawlers_disallow_new_blogs_ask_them_away_and_their_owners_may_allow_them() {
    let app = TestApp::spawn_with(|config| config.public.new_blogs_disallow_ai = true).await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let shown: Value = alice.get(&format!("/api/my/blogs/{blog}")).await.json().await.unwrap();
    assert_eq!(shown["blog"]["aiCrawlers"], "disallow");
    assert!(page(&app, "/robots.txt").await.1.contains("User-agent: GPTBot\n"));
    assert!(page(&app, "/").await.1.contains(NOAI_META));
    assert_eq!(set(&alice, blog, "allow").await.status(), 200);
    assert!(!page(&app, "/robots.txt").await.1.contains("GPTBot"));
}
