//! The emoji images carried in the binary: blogs' tab icons, the image route and the icon search.

use std::io::Read;

use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{Browser, TestApp, errors_of};

/// Where the owner app is told the images are (`emojiImages` in its config), e.g. `/emoji/16.0.1/`.
async fn images_prefix(app: &TestApp) -> String {
    let html = app.get("/").await.text().await.unwrap();
    let start = html.find(r#"<script id="quire-config" type="application/json">"#).expect("config script") + 50;
    let config: Value = serde_json::from_str(&html[start..start + html[start..].find("</script>").unwrap()]).unwrap();
    config["emojiImages"].as_str().expect("emojiImages is set").to_owned()
}

async fn alice_blog() -> (TestApp, Browser, i64) {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    (app, alice, blog)
}

async fn tab_icon(app: &TestApp) -> reqwest::Response {
    app.get_with_host(&format!("alice.localhost:{}", app.port), "/favicon.svg").await
}

fn favicon_id(app: &TestApp, code: &str) -> i64 {
    app.db().query_row("SELECT id FROM favicons WHERE code = ?1", [code], |row| row.get(0)).expect("the favicon exists")
}

#[tokio::test]
async fn a_blogs_tab_icon_is_the_embedded_image_of_its_emoji_not_text() {
    let (app, alice, blog) = alice_blog().await;
    let icon = tab_icon(&app).await;
    assert_eq!(icon.status(), 200);
    assert_eq!(icon.headers()["content-type"], "image/svg+xml");
    let svg = icon.text().await.unwrap();
    let image = app.get(&format!("{}1f4dd.svg", images_prefix(&app).await)).await.text().await.unwrap();
    assert_eq!(svg, image, "📝 drawn by the embedded image set");
    assert!(svg.starts_with("<svg") && svg.contains("<path"), "{svg}");
    assert!(!svg.contains("<text") && !svg.contains('📝'), "no glyph left to the reader's fonts: {svg}");

    alice
        .send(Method::PUT, &format!("/api/my/blogs/{blog}/favicon"), json!({ "favicon_id": favicon_id(&app, "1f431") }))
        .await;
    let cat = tab_icon(&app).await.text().await.unwrap();
    assert_eq!(cat, app.get(&format!("{}1f431.svg", images_prefix(&app).await)).await.text().await.unwrap());

    // Emoji of Unicode 15.1 and 16.0 are images too: 🐦‍🔥 (phoenix) and 🫩 (face with bags under eyes).
    for code in ["1f426-200d-1f525", "1fae9"] {
        alice
            .send(
                Method::PUT,
                &format!("/api/my/blogs/{blog}/favicon"),
                json!({ "favicon_id": favicon_id(&app, code) }),
            )
            .await;
        let svg = tab_icon(&app).await.text().await.unwrap();
        assert!(svg.contains("<path") && !svg.contains("<text"), "{code}: {svg}");
    }
}

#[tokio::test]
async fn an_emoji_newer_than_the_image_set_is_drawn_as_text() {
    let (app, alice, blog) = alice_blog().await;
    // 🫪 (distorted face, Emoji 17.0) is a favicon, but Twemoji 16.0 has no image of it.
    let distorted = "1faea";
    let resp = alice
        .send(
            Method::PUT,
            &format!("/api/my/blogs/{blog}/favicon"),
            json!({ "favicon_id": favicon_id(&app, distorted) }),
        )
        .await;
    assert_eq!(resp.status(), 200);
    let icon = tab_icon(&app).await;
    assert_eq!(icon.status(), 200);
    let svg = icon.text().await.unwrap();
    assert!(svg.contains("<text") && svg.contains('\u{1faea}'), "{svg}");
    // The picker's image of it is the same text, so it shows without a failed request.
    let image = app.get(&format!("{}{distorted}.svg", images_prefix(&app).await)).await;
    assert_eq!(image.status(), 200);
    assert_eq!(image.headers()["content-type"], "image/svg+xml");
    assert_eq!(image.text().await.unwrap(), svg);
}

#[tokio::test]
async fn emoji_images_are_svg_cached_for_a_year_and_gzipped_when_asked() {
    let app = TestApp::spawn().await;
    let prefix = images_prefix(&app).await;
    assert!(prefix.starts_with("/emoji/") && prefix.ends_with('/'), "{prefix}");
    let url = format!("{}{prefix}1f600.svg", app.url);
    let client = reqwest::Client::new();

    let plain = client.get(&url).send().await.unwrap();
    assert_eq!(plain.status(), 200);
    assert_eq!(plain.headers()["content-type"], "image/svg+xml");
    assert_eq!(plain.headers()["cache-control"], "public, max-age=31536000, immutable");
    assert!(plain.headers().get("content-encoding").is_none());
    let svg = plain.text().await.unwrap();
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\"") && svg.contains("<path"), "{svg}");

    let zipped = client.get(&url).header("accept-encoding", "gzip, br").send().await.unwrap();
    assert_eq!(zipped.headers()["content-encoding"], "gzip");
    assert_eq!(zipped.headers()["vary"], "Accept-Encoding");
    let mut unzipped = String::new();
    flate2::read::GzDecoder::new(&zipped.bytes().await.unwrap()[..]).read_to_string(&mut unzipped).unwrap();
    assert_eq!(unzipped, svg);

    for missing in ["zz.svg", "1f600", "1f600.png", "..%2F1f600.svg", "1F600.svg", "1f600-1f600.svg", "41.svg"] {
        assert_eq!(app.get(&format!("{prefix}{missing}")).await.status(), 404, "{missing}");
    }
    assert_eq!(app.get("/emoji/1.0.0/1f600.svg").await.status(), 404, "another set's version");
}

async fn search(app: &TestApp, query: &str) -> (u64, Vec<String>) {
    let resp = app.get(&format!("/api/favicons?page_size=500&{query}")).await;
    assert_eq!(resp.status(), 200, "{query}");
    let total = resp.headers()["total"].to_str().unwrap().parse().unwrap();
    let body: Value = resp.json().await.unwrap();
    let codes = body["favicons"].as_array().unwrap().iter().map(|f| f["code"].as_str().unwrap().to_owned()).collect();
    (total, codes)
}

#[tokio::test]
async fn the_icon_list_is_searched_by_name_and_keyword_best_matches_first() {
    let app = TestApp::spawn().await;
    let (all, _) = search(&app, "").await;
    assert!(all > 3000);
    assert_eq!(search(&app, "query=").await.0, all, "an empty query filters nothing");

    let (total, cats) = search(&app, "query=Cat").await;
    assert_eq!(total as usize, cats.len());
    assert!(total < 100, "{total}");
    for code in ["1f431", "1f408", "1f63a"] {
        assert!(cats.contains(&code.to_owned()), "{code} in {cats:?}");
    }
    assert_eq!(cats[0], "1f63a", "😺 grinning cat: whole name words first, in Unicode order");

    // 👋 by one of its keywords, and every skin tone of it.
    let (_, hello) = search(&app, "query=hello").await;
    assert!(hello.contains(&"1f44b".to_owned()) && hello.contains(&"1f44b-1f3fd".to_owned()), "{hello:?}");

    let (total, none) = search(&app, "query=heron").await;
    assert_eq!((total, none.len()), (0, 0), "no emoji is a heron");

    // Searched lists are paged like the whole one.
    let resp = app.get("/api/favicons?query=face&page=2&page_size=10").await;
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["pageNumber"], "2");
    let errors = errors_of(app.get("/api/favicons?query=cat&page=50").await).await;
    assert_eq!(errors[0].0, "page");
}
