//! Tags and pages: the rules over HTTP, the owner's lists, and what readers see (tag pages and
//! feeds, the sitemap, the navigation), with drafts never shown.

use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{Browser, TestApp, errors_of, simple_body};

async fn alice_blog() -> (TestApp, Browser, i64) {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    (app, alice, blog)
}

async fn page(app: &TestApp, path: &str) -> reqwest::Response {
    app.get_with_host(&format!("alice.localhost:{}", app.port), path).await
}

async fn html(app: &TestApp, path: &str) -> String {
    let resp = page(app, path).await;
    assert_eq!(resp.status(), 200, "{path}");
    resp.text().await.unwrap()
}

/// Saves a post with these fields added to `{body, draft}`; returns the response.
async fn save(alice: &Browser, blog: i64, title: &str, draft: bool, extra: Value) -> reqwest::Response {
    let mut input = json!({ "body": simple_body(title, &format!("Text of {title}")), "draft": draft });
    for (key, value) in extra.as_object().unwrap() {
        input[key] = value.clone();
    }
    alice.post(&format!("/api/my/blogs/{blog}/posts"), input).await
}

async fn created(alice: &Browser, blog: i64, title: &str, draft: bool, extra: Value) -> Value {
    let resp = save(alice, blog, title, draft, extra).await;
    assert_eq!(resp.status(), 201, "{title}");
    resp.json::<Value>().await.unwrap()["post"].clone()
}

fn path_of(post: &Value) -> String {
    let permalink = post["permalink"].as_str().unwrap();
    format!("/{}", permalink.splitn(4, '/').nth(3).unwrap())
}

#[tokio::test]
async fn tags_are_normalized_stored_and_sent_back() {
    let (app, alice, blog) = alice_blog().await;
    let post = created(&alice, blog, "Tagged", false, json!({ "tags": [" Rust ", "road-trip", "rust"] })).await;
    assert_eq!(post["tags"], json!(["rust", "road-trip"]));
    let short = post["shortId"].as_str().unwrap();
    let shown: Value = alice.get(&format!("/api/my/blogs/{blog}/posts/{short}")).await.json().await.unwrap();
    assert_eq!(shown["post"]["tags"], json!(["rust", "road-trip"]));
    // An update replaces them; no tags at all is fine.
    let resp = alice
        .send(
            Method::PUT,
            &format!("/api/my/blogs/{blog}/posts/{short}"),
            json!({ "body": simple_body("Tagged", "x"), "tags": ["go"] }),
        )
        .await;
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.json::<Value>().await.unwrap()["post"]["tags"], json!(["go"]));
    let untagged = created(&alice, blog, "Untagged", false, json!({})).await;
    assert_eq!(untagged["tags"], json!([]));
    assert_eq!(app.count("post_tags"), 1);
}

#[tokio::test]
async fn hostile_tags_get_a_422_keyed_by_the_tag() {
    let (app, alice, blog) = alice_blog().await;
    let cases = [
        (json!(["road trip"]), "tags.0", "Should have no spaces: join words with hyphens, as in road-trip"),
        (json!(["ok", "jаva"]), "tags.1", "Should use only the letters a to z, digits and hyphens"),
        (json!(["\u{ff52}ust"]), "tags.0", "Should use only the letters a to z, digits and hyphens"),
        (json!(["<script>"]), "tags.0", "Should use only the letters a to z, digits and hyphens"),
        (json!([""]), "tags.0", "Can't be blank"),
        (json!(["a".repeat(41)]), "tags.0", "Should be at most 40 characters"),
        (json!((0..11).map(|n| format!("t{n}")).collect::<Vec<_>>()), "tags", "A post can have at most 10 tags"),
        (json!((0..1000).map(|n| format!("t{n}")).collect::<Vec<_>>()), "tags", "A post can have at most 10 tags"),
        (json!((0..1000).map(|_| "bad tag").collect::<Vec<_>>()), "tags", "A post can have at most 10 tags"),
    ];
    for (tags, field, message) in cases {
        let resp = save(&alice, blog, "Hostile", false, json!({ "tags": tags })).await;
        assert_eq!(resp.status(), 422, "{tags}");
        assert_eq!(errors_of(resp).await, vec![(field.to_owned(), message.to_owned())], "{tags}");
    }
    // Not a list of strings: the body does not decode.
    for tags in [json!("rust"), json!([1, 2]), json!({ "a": 1 })] {
        let resp = save(&alice, blog, "Hostile", false, json!({ "tags": tags })).await;
        assert_eq!(resp.status(), 400, "{tags}");
    }
    assert_eq!(app.count("posts"), 0, "nothing was stored");
}

#[tokio::test]
async fn the_blogs_tags_and_the_tag_filter_of_the_post_list() {
    let (_app, alice, blog) = alice_blog().await;
    created(&alice, blog, "One", false, json!({ "tags": ["rust", "web"] })).await;
    created(&alice, blog, "Two", true, json!({ "tags": ["rust"] })).await;
    created(&alice, blog, "Three", false, json!({})).await;
    let tags: Value = alice.get(&format!("/api/my/blogs/{blog}/tags")).await.json().await.unwrap();
    assert_eq!(tags, json!({ "tags": [{ "name": "rust", "posts": 2 }, { "name": "web", "posts": 1 }] }));
    let resp = alice.get(&format!("/api/my/blogs/{blog}/posts?tag=Rust")).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["total"], "2");
    let list: Value = resp.json().await.unwrap();
    let titles: Vec<&str> = list["posts"].as_array().unwrap().iter().map(|p| p["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["Two", "One"], "drafts included for the owner, newest first");
    let resp = alice.get(&format!("/api/my/blogs/{blog}/posts?tag=no%20such")).await;
    assert_eq!(resp.status(), 400);
    assert_eq!(errors_of(resp).await[0].0, "tag");
    // Another owner sees none of it.
    let bob = _app.new_browser();
    bob.sign_up_with_blog("bob@example.com", "bob").await;
    assert_eq!(bob.get(&format!("/api/my/blogs/{blog}/tags")).await.status(), 404);
    assert_eq!(bob.get(&format!("/api/my/blogs/{blog}/posts?tag=rust")).await.status(), 404);
}

#[tokio::test]
async fn tag_pages_and_feeds_list_published_posts_only() {
    let (app, alice, blog) = alice_blog().await;
    created(&alice, blog, "Rusty post", false, json!({ "tags": ["rust", "road-trip"] })).await;
    created(&alice, blog, "Secret rusty draft", true, json!({ "tags": ["rust"] })).await;
    created(&alice, blog, "Rusty page", false, json!({ "tags": ["rust"], "page": true })).await;
    created(&alice, blog, "Draft only", true, json!({ "tags": ["hidden"] })).await;

    let index = html(&app, "/").await;
    assert!(index.contains(r#"<a href="/tags/rust" rel="tag">rust</a>"#), "tags under each post");
    let tagged = html(&app, "/tags/rust").await;
    assert!(tagged.contains("Rusty post"));
    assert!(!tagged.contains("Secret rusty draft") && !tagged.contains("Text of Rusty page"), "no drafts, no pages");
    assert!(tagged.contains(r#"href="/tags/rust/feed.xml""#));
    let post_page =
        html(&app, &path_of(&created(&alice, blog, "Another", false, json!({ "tags": ["road-trip"] })).await)).await;
    assert!(post_page.contains(r#"<a href="/tags/road-trip" rel="tag">road-trip</a>"#), "tags under the post");

    let feed = page(&app, "/tags/rust/feed.xml").await;
    assert_eq!(feed.status(), 200);
    assert!(feed.headers()["content-type"].to_str().unwrap().starts_with("application/atom+xml"));
    let feed = feed.text().await.unwrap();
    assert!(feed.contains("Rusty post") && !feed.contains("Secret") && !feed.contains("Rusty page"));
    assert!(feed.contains("/tags/rust/feed.xml\"/>"), "its own self link");

    for missing in [
        "/tags/hidden",
        "/tags/hidden/feed.xml",
        "/tags/nothing",
        "/tags/Rust",
        "/tags/a%20b",
        "/tags/",
        "/tags/rust/x",
        "/tags/rust?page=2",
        "/tags/rust?page=x",
    ] {
        assert_eq!(page(&app, missing).await.status(), 404, "{missing}");
    }
    let sitemap = html(&app, "/sitemap.xml").await;
    assert!(sitemap.contains("/tags/rust</loc>") && sitemap.contains("/tags/road-trip</loc>"));
    assert!(!sitemap.contains("/tags/hidden"), "a tag of drafts only has no page");
}

#[tokio::test]
async fn tag_pages_are_paged_like_the_index() {
    let (app, alice, blog) = alice_blog().await;
    for n in 0..12 {
        created(&alice, blog, &format!("Post {n:02}"), false, json!({ "tags": ["many"] })).await;
    }
    let first = html(&app, "/tags/many").await;
    assert!(first.contains("Post 11") && !first.contains("Post 01"));
    assert!(first.contains(r#"href="/tags/many?page=2" rel="next""#));
    let second = html(&app, "/tags/many?page=2").await;
    assert!(second.contains("Post 01") && second.contains(r#"href="/tags/many" rel="prev""#));
    assert_eq!(page(&app, "/tags/many?page=3").await.status(), 404);
}

#[tokio::test]
async fn search_can_be_narrowed_to_a_tag() {
    let (app, alice, blog) = alice_blog().await;
    alice.post(&format!("/api/my/blogs/{blog}/addons/7/installation"), json!({})).await;
    created(&alice, blog, "Pancakes in Rust", false, json!({ "tags": ["rust"] })).await;
    created(&alice, blog, "Pancakes in Go", false, json!({ "tags": ["go"] })).await;
    created(&alice, blog, "Draft pancakes", true, json!({ "tags": ["rust"] })).await;
    let find = |tag: Value| {
        let alice = &alice;
        async move {
            let resp = alice
                .post(&format!("/api/my/blogs/{blog}/posts/search"), json!({ "query": "pancakes", "tag": tag }))
                .await;
            let status = resp.status().as_u16();
            let body: Value = resp.json().await.unwrap();
            let titles: Vec<String> = body["posts"]
                .as_array()
                .map(|a| a.iter().map(|p| p["title"].as_str().unwrap().to_owned()).collect())
                .unwrap_or_default();
            (status, titles)
        }
    };
    let (status, mut titles) = find(json!("rust")).await;
    titles.sort();
    assert_eq!((status, titles), (200, vec!["Draft pancakes".to_owned(), "Pancakes in Rust".to_owned()]));
    assert_eq!(find(json!("Go")).await, (200, vec!["Pancakes in Go".to_owned()]));
    assert_eq!(find(json!(null)).await.1.len(), 3);
    assert_eq!(find(json!("not a tag")).await.0, 422);

    let public = html(&app, "/search?q=pancakes&tag=rust").await;
    assert!(
        public.contains("Pancakes in Rust") && !public.contains("Pancakes in Go") && !public.contains("Draft pancakes")
    );
    assert!(public.contains(r#"<input type="hidden" name="tag" value="rust">"#), "the form keeps the tag");
    let bad = html(&app, "/search?q=pancakes&tag=%D0%B0").await;
    assert!(bad.contains("0 posts match"));
}

#[tokio::test]
async fn the_index_is_rebuilt_with_tags_when_its_schema_is_older() {
    let (app, alice, blog) = alice_blog().await;
    created(&alice, blog, "Waffles", false, json!({ "tags": ["breakfast"] })).await;
    let port = app.port;
    let dir = app.stop().await;
    // The index as Quire wrote it before tags, at the database's sequence: the server sees
    // another schema, starts a new index and fills it from the database.
    let index = dir.path().join("index");
    std::fs::remove_dir_all(&index).unwrap();
    std::fs::create_dir_all(&index).unwrap();
    let mut old = tantivy::schema::Schema::builder();
    old.add_u64_field("post_id", tantivy::schema::INDEXED | tantivy::schema::FAST);
    old.add_u64_field("blog_id", tantivy::schema::INDEXED);
    old.add_u64_field("published", tantivy::schema::INDEXED);
    old.add_text_field("title", tantivy::schema::TEXT);
    old.add_text_field("body", tantivy::schema::TEXT);
    let old = tantivy::Index::create_in_dir(&index, old.build()).unwrap();
    let mut writer: tantivy::IndexWriter = old.writer_with_num_threads(1, 15_000_000).unwrap();
    let mut prepared = writer.prepare_commit().unwrap();
    prepared.set_payload("1");
    prepared.commit().unwrap();
    drop(writer);
    let app = TestApp::spawn_at(dir, port, |_| {}).await;
    let alice = app.new_browser();
    alice.sign_in_as("alice@example.com", false).await;
    let resp = alice
        .post(&format!("/api/my/blogs/{blog}/posts/search"), json!({ "query": "waffles", "tag": "breakfast" }))
        .await;
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["posts"][0]["title"], "Waffles", "{body}");
}

#[tokio::test]
async fn a_page_has_its_own_address_and_is_in_the_navigation_not_the_index_or_feeds() {
    let (app, alice, blog) = alice_blog().await;
    let about = created(&alice, blog, "About", false, json!({ "page": true })).await;
    assert_eq!(about["page"], true);
    assert!(about["permalink"].as_str().unwrap().ends_with("/about"), "{}", about["permalink"]);
    created(&alice, blog, "A post", false, json!({})).await;
    created(&alice, blog, "Secret page", true, json!({ "page": true })).await;

    let about_html = html(&app, "/about").await;
    assert!(about_html.contains("<h1>About</h1>") && about_html.contains("Text of About"));
    assert!(!about_html.contains("<time"), "a page has no date");
    let index = html(&app, "/").await;
    assert!(
        index.contains(r#"<nav class="pages" aria-label="Pages"><ul><li><a href="/about">About</a></li></ul></nav>"#),
        "{index}"
    );
    assert!(!index.contains("Text of About") && index.contains("A post"), "pages are not in the index");
    assert!(about_html.contains(r#"<a href="/about" aria-current="page">About</a>"#));
    for feed in ["/feed.xml", "/rss.xml"] {
        let xml = html(&app, feed).await;
        assert!(xml.contains("A post") && !xml.contains("Text of About"), "{feed}");
    }
    let sitemap = html(&app, "/sitemap.xml").await;
    assert!(sitemap.contains("/about</loc>"), "pages are in the sitemap");
    // Its short-id address leads to its page address; a draft page is nowhere.
    let old = page(&app, &format!("/about-{}", about["shortId"].as_str().unwrap())).await;
    assert_eq!(old.status(), 301);
    assert_eq!(old.headers()["location"], "/about");
    assert_eq!(page(&app, "/secret-page").await.status(), 404);
    assert!(!index.contains("Secret page") && !sitemap.contains("secret-page"));
    // A page turned back into a post leaves the navigation.
    let short = about["shortId"].as_str().unwrap();
    let resp = alice
        .send(Method::PUT, &format!("/api/my/blogs/{blog}/posts/{short}"), json!({ "body": simple_body("About", "x") }))
        .await;
    assert_eq!(resp.json::<Value>().await.unwrap()["post"]["page"], false);
    assert!(!html(&app, "/").await.contains(r#"class="pages""#));
    assert_eq!(page(&app, "/about").await.status(), 404);
}

#[tokio::test]
async fn page_addresses_cannot_collide() {
    let (app, alice, blog) = alice_blog().await;
    for reserved in ["Search", "Tags", "Media", "Theme", "Theme dark", "API", "Assets"] {
        let resp = save(&alice, blog, reserved, false, json!({ "page": true })).await;
        assert_eq!(resp.status(), 422, "{reserved}");
        let errors = errors_of(resp).await;
        assert_eq!(errors[0].0, "page");
        assert!(errors[0].1.contains("belongs to the blog itself"), "{errors:?}");
    }
    // A post may have such a title: its address carries its short id.
    created(&alice, blog, "Search", false, json!({})).await;
    created(&alice, blog, "About", false, json!({ "page": true })).await;
    let resp = save(&alice, blog, "About", true, json!({ "page": true })).await;
    assert_eq!(
        errors_of(resp).await,
        vec![(
            "page".to_owned(),
            "Another page already has the address /about: give this one another title".to_owned()
        )]
    );
    assert_eq!(app.count("post_pages"), 1);
    for n in 1..20 {
        created(&alice, blog, &format!("Page {n}"), true, json!({ "page": true })).await;
    }
    let resp = save(&alice, blog, "One too many", true, json!({ "page": true })).await;
    assert_eq!(errors_of(resp).await, vec![("page".to_owned(), "A blog can have at most 20 pages".to_owned())]);
}

#[tokio::test]
async fn the_owner_orders_pages() {
    let (app, alice, blog) = alice_blog().await;
    let about = created(&alice, blog, "About", false, json!({ "page": true })).await;
    let now = created(&alice, blog, "Now", false, json!({ "page": true })).await;
    let contact = created(&alice, blog, "Contact", true, json!({ "page": true })).await;
    let ids = |p: &[&Value]| p.iter().map(|v| v["shortId"].clone()).collect::<Vec<_>>();
    let list: Value = alice.get(&format!("/api/my/blogs/{blog}/pages")).await.json().await.unwrap();
    assert_eq!(
        list["pages"].as_array().unwrap().iter().map(|p| p["shortId"].clone()).collect::<Vec<_>>(),
        ids(&[&about, &now, &contact])
    );
    assert_eq!(
        list["pages"][2],
        json!({ "shortId": contact["shortId"], "title": "Contact", "path": "/contact", "published": false })
    );

    let order = json!({ "pages": ids(&[&now, &contact, &about]) });
    let resp = alice.send(Method::PUT, &format!("/api/my/blogs/{blog}/pages"), order).await;
    assert_eq!(resp.status(), 200);
    let index = html(&app, "/").await;
    assert!(
        index.contains(r#"<li><a href="/now">Now</a></li><li><a href="/about">About</a></li></ul>"#),
        "new order, no draft: {index}"
    );

    for bad in [
        json!({ "pages": ids(&[&now, &about]) }),
        json!({ "pages": ids(&[&now, &now, &about]) }),
        json!({ "pages": ["nosuchid", "x", "y"] }),
    ] {
        let resp = alice.send(Method::PUT, &format!("/api/my/blogs/{blog}/pages"), bad.clone()).await;
        assert_eq!(resp.status(), 422, "{bad}");
        assert_eq!(errors_of(resp).await[0].0, "pages");
    }
    let bob = app.new_browser();
    bob.sign_up_with_blog("bob@example.com", "bob").await;
    let resp = bob
        .send(Method::PUT, &format!("/api/my/blogs/{blog}/pages"), json!({ "pages": ids(&[&about, &now, &contact]) }))
        .await;
    assert_eq!(resp.status(), 404, "another owner's blog");
    assert_eq!(bob.get(&format!("/api/my/blogs/{blog}/pages")).await.status(), 404);
    // Bob cannot make alice's post his page either.
    let short = about["shortId"].as_str().unwrap();
    let bob_blog = bob.get("/api/my/session").await.json::<Value>().await.unwrap();
    let _ = bob_blog;
    let resp = bob
        .send(
            Method::PUT,
            &format!("/api/my/blogs/{blog}/posts/{short}"),
            json!({ "body": simple_body("Mine", "x"), "page": false }),
        )
        .await;
    assert_eq!(resp.status(), 404);
}
