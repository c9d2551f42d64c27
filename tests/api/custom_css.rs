//! A blog's custom CSS (issue 32): each hostile stylesheet of the issue refused with a 422 on
//! `css` naming its line and nothing stored; a good one stored as written, served on the blog's
//! host only, linked from every page after the theme's, gone when cleared; owner and CSRF checks.

use reqwest::Method;
use reqwest::multipart::{Form, Part};
use serde_json::{Value, json};

use crate::helpers::{Browser, TestApp, error_field, simple_body};

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\xcf\xc0\xf0\x1f\x00\x05\x00\x01\xff\x89\x99=\x1d\x00\x00\x00\x00IEND\xaeB`\x82";

async fn blog_get(app: &TestApp, path: &str) -> reqwest::Response {
    app.get_with_host(&format!("alice.localhost:{}", app.port), path).await
}

fn stored(app: &TestApp) -> String {
    app.db().query_row("SELECT custom_css FROM blogs WHERE subdomain = 'alice'", [], |r| r.get(0)).unwrap()
}

async fn put_css(alice: &Browser, blog: i64, css: &str) -> reqwest::Response {
    alice.send(Method::PUT, &format!("/api/my/blogs/{blog}/css"), json!({ "css": css })).await
}

/// The stylesheet links of a page, in order.
pub(crate) fn stylesheets(html: &str) -> Vec<String> {
    html.split("<link rel=\"stylesheet\" href=\"")
        .skip(1)
        .map(|rest| rest[..rest.find('"').unwrap()].to_owned())
        .collect()
}

#[tokio::test]
async fn each_hostile_stylesheet_is_refused_naming_its_line_and_nothing_is_stored() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let big = "a { color: red; }\n".repeat(1_000_000 / 18);
    let cases: [(&str, &str, &str); 9] = [
        ("tracker", "a { color: red }\nb { background: url(https://tracker.example/pixel) }", "Line 2:"),
        ("@import", "a {}\n\n@import url(https://tracker.example/x.css);", "Line 3:"),
        ("escape", "a {}\nb { background: \\75 rl(https://tracker.example/pixel) }", "Line 2:"),
        ("comment", "a {}\nb { width: exp/**/ression(alert(1)) }", "Line 2:"),
        ("</style", "a {}\n</style><script>alert(1)</script>", "Line 2:"),
        ("expression", "b { width: expression(alert(1)) }", "Line 1:"),
        ("-moz-binding", "a{}\nb { -moz-binding: url(https://tracker.example/x.xml#x) }", "Line 2:"),
        ("unclosed", "a {}\nb { color: red;\n", "Line 3:"),
        ("1 MB", &big, "Line 911:"),
    ];
    for (name, css, line) in cases {
        for path in [format!("/api/my/blogs/{blog}/css"), format!("/api/my/blogs/{blog}/css/check")] {
            let method = if path.ends_with("check") { Method::POST } else { Method::PUT };
            let (field, message) = error_field(alice.send(method, &path, json!({ "css": css })).await, 422).await;
            assert_eq!(field, "css", "{name}");
            assert!(message.starts_with(line), "{name}: {message}");
        }
        assert_eq!(stored(&app), "", "{name}: nothing stored");
    }

    // Invalid UTF-8 can only come as raw bytes in the body: a 422 on `css` too, with its line.
    let mut body = b"{\"css\": \"a {}\\nb { content: '".to_vec();
    body.extend_from_slice(b"\xff\xfe' }\"}");
    let resp = alice
        .client
        .put(format!("{}/api/my/blogs/{blog}/css", app.url))
        .header("CSRF-Token", alice.cookie("csrf_token").unwrap())
        .header("Content-Type", "application/json")
        .body(body)
        .send()
        .await
        .unwrap();
    let (field, message) = error_field(resp, 422).await;
    assert_eq!((field.as_str(), message.starts_with("Line 2:")), ("css", true), "{message}");
    assert_eq!(stored(&app), "");
    let home = blog_get(&app, "/").await.text().await.unwrap();
    assert_eq!(stylesheets(&home).len(), 1, "only the theme's");
}

#[tokio::test]
async fn a_good_stylesheet_is_stored_as_written_served_on_the_blog_host_and_linked_until_cleared() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    alice.open_app().await;
    let form = Form::new().part("image", Part::bytes(PNG.to_vec()).file_name("dot.png")).text("type", "file");
    let uploaded: Value = alice
        .client
        .post(format!("{}/api/images", app.url))
        .header("CSRF-Token", alice.cookie("csrf_token").unwrap())
        .multipart(form)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let image = uploaded["data"]["link"].as_str().unwrap().to_owned();
    let css = format!("/* mine */\nbody {{ color: #123; }}\n.hero {{ background: url(\"{image}\"); }}\n");
    let before = blog_get(&app, "/").await.text().await.unwrap();

    let check = alice.post(&format!("/api/my/blogs/{blog}/css/check"), json!({ "css": css })).await;
    assert_eq!(check.status(), 200);
    assert_eq!(stored(&app), "", "a check stores nothing");
    let resp = put_css(&alice, blog, &css).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.json::<Value>().await.unwrap()["css"], css);
    assert_eq!(stored(&app), css, "stored exactly as given");
    let shown: Value = alice.get(&format!("/api/my/blogs/{blog}/css")).await.json().await.unwrap();
    assert_eq!(shown["css"], css);

    // Every page links it after the theme's (the cached home page too: the write invalidated it).
    let home = blog_get(&app, "/").await;
    let csp = home.headers()["content-security-policy"].to_str().unwrap().to_owned();
    assert!(csp.contains("style-src 'self'") && csp.contains("default-src 'none'"), "{csp}");
    let links = stylesheets(&home.text().await.unwrap());
    assert_eq!(links.len(), 2, "{links:?}");
    assert_eq!(links[0], stylesheets(&before)[0], "the theme's first");
    let path = links[1].clone();
    assert!(path.starts_with("/custom-") && path.ends_with(".css"), "{path}");
    let not_found = blog_get(&app, "/no-such-page").await.text().await.unwrap();
    assert!(stylesheets(&not_found).contains(&path), "the 404 page too");
    // A post whose slug starts like the stylesheet's path is still the post, styled.
    let post = alice.create_post(blog, simple_body("Custom look", "Words."), false).await;
    let permalink = post["permalink"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
    assert!(permalink.starts_with("custom-look-"), "{permalink}");
    let page = blog_get(&app, &format!("/{permalink}")).await;
    assert_eq!(page.status(), 200);
    let links = stylesheets(&page.text().await.unwrap());
    assert_eq!(links.last(), Some(&path));

    let served = blog_get(&app, &path).await;
    assert_eq!(served.status(), 200);
    assert_eq!(served.headers()["content-type"], "text/css; charset=utf-8");
    assert_eq!(served.headers()["cache-control"], "public, max-age=31536000, immutable");
    assert_eq!(served.text().await.unwrap(), css, "served exactly as given");
    assert_eq!(app.get(&path).await.status(), 404, "never on the app host");
    assert_eq!(blog_get(&app, "/custom-0123456789abcdef.css").await.status(), 404, "another hash is nothing");

    // A new stylesheet gets a new address; the old one is gone.
    let newer = format!("{css}h1 {{ font-size: 3rem; }}\n");
    assert_eq!(put_css(&alice, blog, &newer).await.status(), 200);
    let links = stylesheets(&blog_get(&app, "/").await.text().await.unwrap());
    assert_ne!(links[1], path);
    assert_eq!(blog_get(&app, &path).await.status(), 404);

    // Cleared: no link, no stylesheet.
    assert_eq!(put_css(&alice, blog, "").await.status(), 200);
    assert_eq!(stored(&app), "");
    let home = blog_get(&app, "/").await.text().await.unwrap();
    assert_eq!(stylesheets(&home).len(), 1, "{home}");
    assert_eq!(blog_get(&app, &links[1]).await.status(), 404);
}

#[tokio::test]
async fn an_image_of_another_account_is_refused() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let name = format!("{}.png", "ab".repeat(32));
    let css = format!("a {{}}\nb {{ background: url({}/media/{name}) }}", app.url);
    let (field, message) = error_field(put_css(&alice, blog, &css).await, 422).await;
    assert_eq!(field, "css");
    assert!(message.starts_with("Line 2:") && message.contains("not one of your uploads"), "{message}");
}

#[tokio::test]
async fn another_owners_blog_is_not_found_and_a_write_without_csrf_is_refused() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let bob = app.new_browser();
    bob.sign_up_with_blog("bob@example.com", "bob").await;
    let path = format!("/api/my/blogs/{blog}/css");
    assert_eq!(bob.get(&path).await.status(), 404);
    assert_eq!(bob.send(Method::PUT, &path, json!({ "css": "a{}" })).await.status(), 404);
    assert_eq!(bob.post(&format!("{path}/check"), json!({ "css": "a{}" })).await.status(), 404);

    let forged =
        alice.client.put(format!("{}{path}", app.url)).json(&json!({ "css": "a { color: red }" })).send().await;
    assert_eq!(forged.unwrap().status(), 403);
    assert_eq!(stored(&app), "");
    assert_eq!(app.new_browser().get(&path).await.status(), 401);
}

#[tokio::test]
async fn the_operator_chooses_the_size_limit() {
    let app = TestApp::spawn_with(|config| config.max_custom_css_bytes = 1024).await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let css = "a { color: red; }\n".repeat(100);
    let (field, message) = error_field(put_css(&alice, blog, &css).await, 422).await;
    assert_eq!(field, "css");
    assert!(message.starts_with("Line 57:") && message.contains("1 KB (1024 bytes)"), "{message}");
    assert_eq!(put_css(&alice, blog, &css[..1008]).await.status(), 200, "56 lines fit");
}

#[tokio::test]
async fn a_checked_stylesheet_is_previewed_on_the_blogs_home_page_framable_by_the_app_only() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let bob = app.new_browser();
    bob.sign_up_with_blog("bob@example.com", "bob").await;
    alice.create_post(blog, simple_body("Previewed", "Words."), false).await;
    assert_eq!(put_css(&alice, blog, "body { color: #111; }").await.status(), 200);

    let unsaved = "body { background: rgb(1, 2, 3); }";
    let resp = alice.send(Method::POST, &format!("/api/my/blogs/{blog}/css/check"), json!({ "css": unsaved })).await;
    assert_eq!(resp.status(), 200);
    let preview = resp.json::<Value>().await.unwrap()["preview"].as_str().unwrap().to_owned();
    let origin = format!("http://alice.localhost:{}", app.port);
    let path = preview.strip_prefix(&origin).unwrap_or_else(|| panic!("{preview}")).to_owned();
    assert!(path.starts_with("/css-preview/"), "{path}");

    // The blog's real home page, with the unsaved CSS linked in place of the saved one.
    let page = blog_get(&app, &path).await;
    assert_eq!(page.status(), 200);
    assert_eq!(page.headers()["cache-control"], "no-store");
    assert_eq!(page.headers()["x-robots-tag"], "noindex");
    let csp = page.headers()["content-security-policy"].to_str().unwrap().to_owned();
    assert!(csp.contains(&format!("frame-ancestors http://localhost:{}", app.port)), "{csp}");
    assert!(page.headers().get("x-frame-options").is_none(), "it would deny the app's frame");
    assert!(csp.contains("default-src 'none'") && csp.contains("script-src 'none'"), "{csp}");
    let html = page.text().await.unwrap();
    assert!(html.contains("Previewed"), "the blog's posts");
    let links = stylesheets(&html);
    assert_eq!(links.len(), 2, "{links:?}");
    assert_eq!(links[1], format!("{path}.css"), "the held CSS, not the saved one");
    let css = blog_get(&app, &links[1]).await;
    assert_eq!(css.status(), 200);
    assert_eq!(css.headers()["cache-control"], "no-store");
    assert_eq!(css.text().await.unwrap(), unsaved);

    // Nothing saved: the blog's own pages keep the saved stylesheet; its pages may not be framed.
    assert_eq!(stored(&app), "body { color: #111; }");
    let home = blog_get(&app, "/").await;
    assert!(home.headers()["content-security-policy"].to_str().unwrap().contains("frame-ancestors 'none'"));
    assert_eq!(home.headers()["x-frame-options"], "DENY");
    let saved = stylesheets(&home.text().await.unwrap())[1].clone();
    assert_ne!(saved, links[1]);
    assert_eq!(blog_get(&app, &saved).await.text().await.unwrap(), "body { color: #111; }");

    // The owner app may frame the blogs' pages and the embeds their pages frame, nothing else.
    let app_csp = app.get("/").await.headers()["content-security-policy"].to_str().unwrap().to_owned();
    let frames =
        format!("frame-src http://*.localhost:{} https://open.spotify.com https://platform.twitter.com;", app.port);
    assert!(app_csp.contains(&frames), "{app_csp}");

    // Another blog's host, a guess, a refused stylesheet: nothing.
    let token = path.strip_prefix("/css-preview/").unwrap();
    let elsewhere = app.get_with_host(&format!("bob.localhost:{}", app.port), &path).await;
    assert_eq!(elsewhere.status(), 404);
    assert_eq!(blog_get(&app, "/css-preview/0123456789abcdef0123456789abcdef").await.status(), 404);
    assert_eq!(blog_get(&app, &format!("/css-preview/{token}x")).await.status(), 404);
    let refused =
        alice.send(Method::POST, &format!("/api/my/blogs/{blog}/css/check"), json!({ "css": "@import x;" })).await;
    assert_eq!(refused.status(), 422);
    assert_eq!(blog_get(&app, &path).await.status(), 200, "a refusal keeps the last preview");

    // A newer check replaces the older preview.
    let resp = alice.send(Method::POST, &format!("/api/my/blogs/{blog}/css/check"), json!({ "css": "" })).await;
    let newer = resp.json::<Value>().await.unwrap()["preview"].as_str().unwrap().to_owned();
    assert_ne!(newer, preview);
    assert_eq!(blog_get(&app, &path).await.status(), 404);
    let bare = blog_get(&app, newer.strip_prefix(&origin).unwrap()).await.text().await.unwrap();
    assert_eq!(stylesheets(&bare).len(), 1, "the theme alone");
}
