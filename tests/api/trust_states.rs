//! Issue 29's trust states through the real server: what a suspended blog answers on every
//! public surface (and back after unsuspending), what a suspended owner may still do, and what
//! `new` and `silenced` change on the pages, the sitemap, custom domains and federation.
//! States are changed as an admin changes them: through `Blogs::moderate`.

use quire::domain::blog::trust_state::Moderation;
use reqwest::Method;
use reqwest::multipart::{Form, Part};
use serde_json::{Value, json};

use crate::helpers::{Browser, TestApp, body, error_field};

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\xcf\xc0\xf0\x1f\x00\x05\x00\x01\xff\x89\x99=\x1d\x00\x00\x00\x00IEND\xaeB`\x82";

/// Uploads `bytes` as an image; answers the response.
pub(crate) async fn upload(browser: &Browser, bytes: Vec<u8>) -> reqwest::Response {
    browser.open_app().await;
    let form = Form::new().part("image", Part::bytes(bytes).file_name("a.png")).text("type", "file");
    browser
        .client
        .post(format!("{}/api/images", browser.url()))
        .header("CSRF-Token", browser.cookie("csrf_token").unwrap_or_default())
        .multipart(form)
        .send()
        .await
        .unwrap()
}

pub(crate) async fn moderate(app: &TestApp, action: Moderation, reason: &str) {
    app.state.blogs.moderate("alice", action, reason, "ops@example.com").await.expect("moderated");
}

/// The path of a post's permalink.
fn path_of(post: &Value) -> String {
    let permalink = post["permalink"].as_str().expect("a permalink");
    format!("/{}", permalink.splitn(4, '/').nth(3).expect("a path"))
}

/// A GET as a signed-out reader on `host`, redirects not followed, with `accept`.
async fn get_on(app: &TestApp, host: &str, path: &str, accept: &str) -> reqwest::Response {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
        .get(format!("http://127.0.0.1:{}{path}", app.port))
        .header("host", host)
        .header("accept", accept)
        .send()
        .await
        .unwrap()
}

/// Every public surface of alice's blog, as (host, path, accept).
fn surfaces(
    app: &TestApp,
    post_path: &str,
    short_id: &str,
    preview: &str,
    media: &str,
) -> Vec<(String, String, String)> {
    let (blog, custom, apex) = (
        format!("alice.localhost:{}", app.port),
        format!("blog.alice.test:{}", app.port),
        format!("localhost:{}", app.port),
    );
    let html = "text/html";
    let ap = "application/activity+json";
    let on = |host: &str, path: &str, accept: &str| (host.to_owned(), path.to_owned(), accept.to_owned());
    vec![
        on(&custom, "/", html),
        on(&custom, post_path, html),
        on(&custom, "/feed.xml", html),
        on(&custom, "/rss.xml", html),
        on(&custom, "/sitemap.xml", html),
        on(&custom, "/robots.txt", html),
        on(&custom, "/favicon.svg", html),
        on(&custom, "/search?q=hello", html),
        on(&custom, "/tags/news", html),
        on(&custom, "/tags/news/feed.xml", html),
        on(&custom, &format!("/preview/{preview}"), html),
        on(&custom, "/?p=123", html),
        on(&custom, "/2019/01/old-post/", html),
        on(&blog, "/", html),
        on(&blog, "/_quire/ap/actor", ap),
        on(&blog, "/_quire/ap/outbox", ap),
        on(&blog, "/_quire/ap/followers", ap),
        on(&blog, &format!("/_quire/ap/posts/{short_id}"), ap),
        on(&blog, "/.well-known/webfinger?resource=acct:alice@alice.localhost", "application/jrd+json"),
        on(&apex, "/.well-known/webfinger?resource=acct:alice@localhost", "application/jrd+json"),
        on(&custom, "/.well-known/webfinger?resource=acct:alice@blog.alice.test", "application/jrd+json"),
        on(&apex, &format!("/media/{media}"), "image/*"),
    ]
}

#[tokio::test]
async fn every_public_surface_of_a_suspended_blog_answers_410_and_unsuspending_restores_it() {
    let app = TestApp::spawn().await;
    let alice = app.browser.clone();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let resp = alice.send(Method::PUT, &format!("/api/my/blogs/{blog}"), json!({ "name": "Secret Garden" })).await;
    assert_eq!(resp.status(), 200);
    let uploaded: Value = upload(&alice, PNG.to_vec()).await.json().await.unwrap();
    let image_url = uploaded["data"]["link"].as_str().unwrap().to_owned();
    let media = image_url.rsplit('/').next().unwrap().to_owned();
    let post = alice
        .create_post(
            blog,
            body(&[
                ("heading", json!({ "text": "Hello garden" })),
                ("paragraph", json!({ "text": "Roses everywhere. #news" })),
                ("image", json!({ "url": image_url })),
            ]),
            false,
        )
        .await;
    let (post_path, short_id) = (path_of(&post), post["shortId"].as_str().unwrap().to_owned());
    let draft = alice.create_post(blog, body(&[("heading", json!({ "text": "Draft" }))]), true).await;
    let link = alice
        .post(&format!("/api/my/blogs/{blog}/posts/{}/preview_link", draft["shortId"].as_str().unwrap()), json!({}))
        .await;
    let link: Value = link.json().await.unwrap();
    let preview = link["previewLink"]["url"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    let install = alice.post(&format!("/api/my/blogs/{blog}/addons/7/installation"), json!({})).await;
    assert_eq!(install.status(), 200, "the search box");
    // Its old WordPress addresses and a verified custom domain, as an import and a DNS check leave them.
    let db = app.db();
    db.execute(
        "INSERT INTO redirects (blog_id, path, post_id) SELECT 1, '/?p=123', id FROM posts WHERE short_id = ?1",
        [&short_id],
    )
    .unwrap();
    db.execute("INSERT INTO redirects (blog_id, path, post_id) SELECT 1, '/2019/01/old-post', id FROM posts WHERE short_id = ?1", [&short_id]).unwrap();
    db.execute("INSERT INTO custom_domains (blog_id, name, token, state, verified_at) VALUES (1, 'blog.alice.test', 't', 'verified', '2026-01-01T00:00:00.000Z')", []).unwrap();
    drop(db);
    let app = app.restart().await;
    let surfaces = surfaces(&app, &post_path, &short_id, &preview, &media);

    let mut before = Vec::new();
    for (host, path, accept) in &surfaces {
        let resp = get_on(&app, host, path, accept).await;
        assert_ne!(resp.status(), 410, "{host}{path} before the suspension");
        before.push(resp.status().as_u16());
    }
    assert_eq!(before[1], 200, "the post is served");
    assert_eq!((before[11], before[12]), (301, 301), "the old addresses redirect");
    assert_eq!((before[0], before[7], before[10]), (200, 200, 200), "home, search, preview");
    for (i, surface) in [
        (14, "actor"),
        (15, "outbox"),
        (17, "post object"),
        (18, "webfinger"),
        (19, "webfinger on the app host"),
        (20, "webfinger on the custom domain"),
    ] {
        assert_eq!(before[i], 200, "{surface}");
    }
    assert_eq!(before[21], 200, "the image is served");

    moderate(&app, Moderation::Suspend, "Phishing pages").await;
    for (host, path, accept) in &surfaces {
        let resp = get_on(&app, host, path, accept).await;
        assert_eq!(resp.status(), 410, "{host}{path} of a suspended blog");
        let is_html = resp.headers().get("content-type").is_some_and(|t| t.to_str().unwrap().starts_with("text/html"));
        let text = resp.text().await.unwrap();
        assert!(
            !text.contains("Secret Garden") && !text.contains("Roses") && !text.contains("Hello garden"),
            "{host}{path}: {text}"
        );
        if is_html {
            assert!(text.contains("This blog has been suspended."), "{host}{path}: {text}");
        } else {
            assert!(text.is_empty(), "{host}{path} answers JSON requests with no content: {text}");
        }
    }
    // Its inbox takes nothing (unsigned or not: the blog is gone while suspended).
    let inbox = reqwest::Client::new()
        .post(format!("http://127.0.0.1:{}/_quire/ap/inbox", app.port))
        .header("host", format!("alice.localhost:{}", app.port))
        .header("content-type", "application/activity+json")
        .body(r#"{"type":"Follow"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(inbox.status(), 410);
    assert!(inbox.text().await.unwrap().is_empty());

    moderate(&app, Moderation::Unsuspend, "Appeal accepted").await;
    for ((host, path, accept), status) in surfaces.iter().zip(&before) {
        assert_eq!(
            get_on(&app, host, path, accept).await.status().as_u16(),
            *status,
            "{host}{path} after unsuspending"
        );
    }
    let page =
        get_on(&app, &format!("blog.alice.test:{}", app.port), &post_path, "text/html").await.text().await.unwrap();
    assert!(page.contains("Roses everywhere."), "everything is as it was");
}

/// Every write route of the API (src/http/api/mod.rs), with a body each would accept.
fn writes(blog: i64, short_id: &str) -> Vec<(Method, String, Value)> {
    let b = format!("/api/my/blogs/{blog}");
    let p = format!("{b}/posts/{short_id}");
    vec![
        (Method::POST, "/api/my/blogs".into(), json!({ "subdomain": "alice2" })),
        (Method::PUT, b.clone(), json!({ "name": "Renamed" })),
        (Method::PUT, format!("{b}/theme"), json!({ "themeId": 2 })),
        (Method::PUT, format!("{b}/favicon"), json!({ "faviconId": 2 })),
        (Method::PUT, format!("{b}/time_zone"), json!({ "timeZone": "Europe/Paris" })),
        (Method::PUT, format!("{b}/domain"), json!({ "name": "blog.alice.test" })),
        (Method::DELETE, format!("{b}/domain"), json!({})),
        (Method::POST, format!("{b}/domain/check"), json!({})),
        (Method::PUT, format!("{b}/fediverse"), json!({ "approveFollowers": true })),
        (Method::DELETE, format!("{b}/fediverse/followers/1"), json!({})),
        (Method::POST, format!("{b}/fediverse/followers/1/approve"), json!({})),
        (Method::POST, format!("{b}/fediverse/blocked_domains"), json!({ "domain": "spam.example" })),
        (Method::DELETE, format!("{b}/fediverse/blocked_domains/spam.example"), json!({})),
        (Method::DELETE, format!("{b}/replies/1"), json!({})),
        (Method::POST, format!("{b}/replies/1/approve"), json!({})),
        (Method::POST, format!("{b}/addons/2/installation"), json!({})),
        (Method::DELETE, format!("{b}/addons/2/installation"), json!({})),
        (Method::POST, format!("{b}/imports"), json!({})),
        (Method::DELETE, format!("{b}/imports/1"), json!({})),
        (Method::POST, "/api/my/social_accounts".into(), json!({ "idToken": "x" })),
        (
            Method::POST,
            format!("{b}/posts"),
            json!({ "body": body(&[("heading", json!({ "text": "New" }))]), "draft": false }),
        ),
        (Method::PUT, format!("{b}/pages"), json!({ "order": [] })),
        (Method::PUT, p.clone(), json!({ "body": body(&[("heading", json!({ "text": "Edited" }))]), "draft": false })),
        (Method::DELETE, p.clone(), json!({})),
        (Method::POST, format!("{p}/preview_link"), json!({})),
        (Method::DELETE, format!("{p}/preview_link"), json!({})),
    ]
}

#[tokio::test]
async fn a_suspended_owner_sees_the_reason_can_export_and_delete_and_every_other_write_is_refused() {
    let app = TestApp::spawn().await;
    let alice = app.browser.clone();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let post = alice.create_post(blog, body(&[("heading", json!({ "text": "Kept" }))]), false).await;
    let short_id = post["shortId"].as_str().unwrap().to_owned();
    moderate(&app, Moderation::Suspend, "Spam links").await;

    // Signing in still works, and the blog says why it is suspended.
    let again = app.new_browser();
    assert_eq!(again.sign_in_as("alice@example.com", false).await.status(), 200);
    let shown: Value = again.get(&format!("/api/my/blogs/{blog}")).await.json().await.unwrap();
    assert_eq!(
        (shown["blog"]["state"].as_str(), shown["blog"]["stateReason"].as_str()),
        (Some("suspended"), Some("Spam links"))
    );

    for (method, path, body) in writes(blog, &short_id) {
        let resp = alice.send(method.clone(), &path, body).await;
        assert_eq!(
            error_field(resp, 403).await,
            ("blog".to_owned(), "This blog is suspended: Spam links".to_owned()),
            "{method} {path}"
        );
    }
    assert_eq!(error_field(upload(&alice, PNG.to_vec()).await, 403).await.1, "This blog is suspended: Spam links");
    // Nothing changed.
    let posts: Value = alice.get(&format!("/api/my/blogs/{blog}/posts")).await.json().await.unwrap();
    assert_eq!(posts["posts"].as_array().map(Vec::len), Some(1), "{posts}");
    assert_eq!(app.count("images"), 0);

    // Reads that are POSTs, exporting and deleting stay open.
    let search = alice.post(&format!("/api/my/blogs/{blog}/posts/search"), json!({ "query": "kept" })).await;
    assert_eq!(search.status(), 200);
    let export = alice.post(&format!("/api/my/blogs/{blog}/exports"), json!({ "format": "archive" })).await;
    assert!(export.status().is_success(), "export: {}", export.status());
    let deleted = alice.send(Method::DELETE, &format!("/api/my/blogs/{blog}"), json!({})).await;
    assert!(deleted.status().is_success(), "delete: {} {}", deleted.status(), deleted.text().await.unwrap());
    assert_eq!(app.count("blogs"), 0);
}

#[tokio::test]
async fn a_new_or_silenced_blog_is_served_noindex_out_of_its_sitemap_with_nofollow_links_and_no_custom_domain() {
    let app = TestApp::spawn_with(|config| config.public.review_new_blogs = true).await;
    let alice = app.browser.clone();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let shown: Value = alice.get(&format!("/api/my/blogs/{blog}")).await.json().await.unwrap();
    assert_eq!(shown["blog"]["state"], "new");
    let post = alice
        .create_post(
            blog,
            body(&[
                ("heading", json!({ "text": "Buy now" })),
                ("paragraph", json!({ "text": "See [the shop](https://shop.example/a)." })),
                ("link", json!({ "url": "https://shop.example/b", "title": "Shop" })),
            ]),
            false,
        )
        .await;
    let post_path = path_of(&post);
    let host = format!("alice.localhost:{}", app.port);

    let check_unlisted = |label: &'static str| {
        let (app, host, post_path) = (&app, host.clone(), post_path.clone());
        async move {
            for path in ["/", post_path.as_str(), "/feed.xml", "/tags/x"] {
                let resp = get_on(app, &host, path, "text/html").await;
                assert_eq!(
                    resp.headers().get("x-robots-tag").map(|v| v.to_str().unwrap()),
                    Some("noindex"),
                    "{label} {path}"
                );
            }
            for path in ["/", post_path.as_str()] {
                let html = get_on(app, &host, path, "text/html").await.text().await.unwrap();
                assert!(html.contains(r#"<meta name="robots" content="noindex">"#), "{label} {path}");
            }
            let html = get_on(app, &host, &post_path, "text/html").await.text().await.unwrap();
            let links: Vec<&str> = html.split("<a ").skip(1).filter(|a| a.contains("shop.example")).collect();
            assert_eq!(links.len(), 2, "{label}: {html}");
            assert!(links.iter().all(|a| a.contains(r#"rel="nofollow ugc"#)), "{label}: {links:?}");
            let sitemap = get_on(app, &host, "/sitemap.xml", "*/*").await.text().await.unwrap();
            assert!(!sitemap.contains("<url>"), "{label}: {sitemap}");
            let robots = get_on(app, &host, "/robots.txt", "*/*").await.text().await.unwrap();
            assert!(!robots.contains("Sitemap"), "{label}: {robots}");
        }
    };
    check_unlisted("new").await;
    let refused =
        alice.send(Method::PUT, &format!("/api/my/blogs/{blog}/domain"), json!({ "name": "blog.alice.test" })).await;
    assert_eq!(error_field(refused, 403).await.1, "A blog waiting for review cannot use a custom domain yet.");

    // Approved: listed, indexed, its sitemap lists the post (the cached pages were invalidated).
    moderate(&app, Moderation::Approve, "").await;
    let resp = get_on(&app, &host, "/", "text/html").await;
    assert!(resp.headers().get("x-robots-tag").is_none());
    assert!(!resp.text().await.unwrap().contains(r#"content="noindex""#));
    assert!(get_on(&app, &host, "/sitemap.xml", "*/*").await.text().await.unwrap().contains(&post_path));

    moderate(&app, Moderation::Silence, "Too many links").await;
    check_unlisted("silenced").await;
    let refused =
        alice.send(Method::PUT, &format!("/api/my/blogs/{blog}/domain"), json!({ "name": "blog.alice.test" })).await;
    assert_eq!(error_field(refused, 403).await.1, "A silenced blog cannot use a custom domain.");
    let shown: Value = alice.get(&format!("/api/my/blogs/{blog}")).await.json().await.unwrap();
    assert_eq!(
        (shown["blog"]["state"].as_str(), shown["blog"]["stateReason"].as_str()),
        (Some("silenced"), Some("Too many links"))
    );
}
