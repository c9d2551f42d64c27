//! Paragraphs in Markdown and images that describe themselves: public pages, feeds, the
//! editor's preview call, search, hostile input and migrated old paragraphs.

use reqwest::multipart::{Form, Part};
use serde_json::{Value, json};

use crate::helpers::{Browser, TestApp, body, errors_of};

/// A 3×2 PNG.
const PNG_3X2: &[u8] = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x03\x00\x00\x00\x02\x08\x06\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00IEND\xaeB`\x82";

async fn alice_blog() -> (TestApp, Browser, i64) {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    (app, alice, blog)
}

async fn public(app: &TestApp, path: &str) -> (u16, String) {
    let resp = app.get_with_host(&format!("alice.localhost:{}", app.port), path).await;
    (resp.status().as_u16(), resp.text().await.unwrap())
}

fn path_of(post: &Value) -> String {
    format!("/{}", post["permalink"].as_str().unwrap().rsplit('/').next().unwrap())
}

async fn upload(alice: &Browser, app: &TestApp, bytes: &[u8]) -> String {
    alice.open_app().await;
    let form = Form::new().part("image", Part::bytes(bytes.to_vec()).file_name("pic.png")).text("type", "file");
    let resp = alice
        .client
        .post(format!("{}/api/images", app.url))
        .header("CSRF-Token", alice.cookie("csrf_token").unwrap_or_default())
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    resp.json::<Value>().await.unwrap()["data"]["link"].as_str().unwrap().to_owned()
}

const FORMATTED: &str = "A **bold** word and [a link](https://example.com/docs) in a sentence.\n\n- one\n- two\n\n> a quote\n\n```\nlet x = 1 < 2;\n```";

#[tokio::test]
async fn a_post_page_shows_formatted_paragraphs_and_described_images_with_their_size() {
    let (app, alice, blog) = alice_blog().await;
    let url = upload(&alice, &app, PNG_3X2).await;
    let post = alice
        .create_post(
            blog,
            body(&[
                ("heading", json!({ "text": "Formatted" })),
                ("paragraph", json!({ "text": FORMATTED })),
                ("image", json!({ "url": url, "alt": "Three \"red\" pixels", "caption": "Small <but> ours" })),
            ]),
            false,
        )
        .await;
    let (status, html) = public(&app, &path_of(&post)).await;
    assert_eq!(status, 200);
    assert!(html.contains("<p>A <strong>bold</strong> word and <a href=\"https://example.com/docs\" rel=\"nofollow ugc noopener\">a link</a> in a sentence.</p>"), "{html}");
    assert!(html.contains("<ul><li>one</li><li>two</li></ul>"));
    assert!(html.contains("<blockquote><p>a quote</p>"));
    assert!(html.contains("<pre><code>let x = 1 &lt; 2;\n</code></pre>"));
    assert!(
        html.contains(&format!(
            "<figure><img src=\"{url}\" alt=\"Three &#34;red&#34; pixels\" width=\"3\" height=\"2\" loading=\"lazy\" decoding=\"async\"><figcaption>Small &#60;but&#62; ours</figcaption></figure>"
        )),
        "{html}"
    );
    // The page's description is the paragraph's text, not its syntax.
    assert!(html.contains("<meta name=\"description\" content=\"A bold word and a link in a sentence. one two a quote let x = 1 &#60; 2;\">"), "{html}");
}

#[tokio::test]
async fn an_image_elsewhere_or_unreadable_has_no_size_and_an_old_url_only_image_still_renders() {
    let (app, alice, blog) = alice_blog().await;
    let unknown = format!("{}/media/{}.png", app.url, "b".repeat(64));
    let post = alice
        .create_post(blog, body(&[("heading", json!({ "text": "Pic" })), ("image", json!({ "url": unknown }))]), false)
        .await;
    assert_eq!(
        post["body"]["children"][1]["value"],
        json!({ "url": unknown, "alt": "", "caption": "" }),
        "the new shape is written"
    );
    let (_, html) = public(&app, &path_of(&post)).await;
    assert!(
        html.contains(&format!(
            "<figure><img src=\"{unknown}\" alt=\"\" loading=\"lazy\" decoding=\"async\"></figure>"
        )),
        "{html}"
    );
}

#[tokio::test]
async fn feeds_carry_the_rendered_paragraphs_and_images() {
    let (app, alice, blog) = alice_blog().await;
    let url = upload(&alice, &app, PNG_3X2).await;
    alice
        .create_post(
            blog,
            body(&[
                ("heading", json!({ "text": "Fed" })),
                ("paragraph", json!({ "text": FORMATTED })),
                ("image", json!({ "url": url, "alt": "Pixels", "caption": "Ours" })),
            ]),
            false,
        )
        .await;
    let (_, atom) = public(&app, "/feed.xml").await;
    let atom = roxmltree::Document::parse(&atom).unwrap();
    let content = atom.descendants().find(|n| n.has_tag_name("content")).unwrap().text().unwrap().to_owned();
    assert!(content.contains("<strong>bold</strong>"), "{content}");
    assert!(content.contains("<a href=\"https://example.com/docs\""), "{content}");
    assert!(content.contains("<figcaption>Ours</figcaption>"), "{content}");
    assert!(content.contains("alt=\"Pixels\""), "{content}");
    let (_, rss) = public(&app, "/rss.xml").await;
    let rss = roxmltree::Document::parse(&rss).unwrap();
    let description = rss
        .descendants()
        .find(|n| n.has_tag_name("description") && n.parent().is_some_and(|p| p.has_tag_name("item")))
        .unwrap();
    assert!(description.text().unwrap().contains("<ul><li>one</li><li>two</li></ul>"));
}

#[tokio::test]
async fn hostile_markdown_renders_safely_and_too_long_text_is_a_422() {
    let (app, alice, blog) = alice_blog().await;
    let hostile = [
        "<script>alert(1)</script>",
        "[x](javascript:alert(1))",
        "[x](java&#x73;cript:alert(1))",
        "[x](JAVASCRIPT:alert(1)) ![y](data:text/html,<script>alert(1)</script>)",
        "<img src=x onerror=alert(1)>",
        &"> ".repeat(9_000),
        &format!("{}deep", "- ".repeat(9_000)),
        &format!("{}x", "[".repeat(19_000)),
        "```\nunterminated <script>alert(1)</script>",
    ];
    for text in hostile {
        let post = alice
            .create_post(
                blog,
                body(&[("heading", json!({ "text": "Hostile" })), ("paragraph", json!({ "text": text }))]),
                false,
            )
            .await;
        let (status, html) = public(&app, &path_of(&post)).await;
        assert_eq!(status, 200, "{text:.40}");
        let article = &html[html.find("<article").unwrap()..html.find("</article>").unwrap()];
        assert!(!article.contains("<script"), "{text:.40}: {article:.400}");
        assert!(!article.contains("<img src=x"), "{text:.40}");
        assert!(
            !article.to_lowercase().contains("href=\"javascript") && !article.contains("href=\"data:"),
            "{text:.40}"
        );
        assert!(
            article.matches("<blockquote>").count() <= 16 && article.matches("<ul>").count() <= 16,
            "nesting capped"
        );
    }
    let long = alice
        .post(
            &format!("/api/my/blogs/{blog}/posts"),
            json!({ "body": body(&[("paragraph", json!({ "text": "*".repeat(100_000) }))]), "draft": false }),
        )
        .await;
    assert_eq!(long.status(), 422);
    assert_eq!(errors_of(long).await, vec![("children.0".to_owned(), "Should be at most 20000 characters".to_owned())]);
}

#[tokio::test]
async fn the_preview_call_renders_blocks_as_the_public_page_does_and_stores_nothing() {
    let (app, alice, blog) = alice_blog().await;
    let url = upload(&alice, &app, PNG_3X2).await;
    let blocks = body(&[
        ("heading", json!({ "text": "Not saved" })),
        ("paragraph", json!({ "text": FORMATTED })),
        ("image", json!({ "url": url, "alt": "Pixels", "caption": "Ours" })),
        ("paragraph", json!({ "text": "Hi <script>alert(1)</script> [x](java&#x73;cript:alert(1))" })),
    ]);
    let resp = alice.post(&format!("/api/my/blogs/{blog}/preview"), json!({ "body": blocks })).await;
    assert_eq!(resp.status(), 200);
    let preview: Value = resp.json().await.unwrap();
    assert_eq!(preview["title"], "Not saved");
    let html = preview["html"].as_str().unwrap();
    assert!(html.contains("<strong>bold</strong>"));
    assert!(html.contains("width=\"3\" height=\"2\""), "{html}");
    assert!(html.contains("<p>Hi &lt;script&gt;alert(1)&lt;/script&gt; x</p>"), "{html}");
    assert_eq!(app.count("posts"), 0, "nothing stored");

    // The page a reader gets shows the same HTML for the same blocks.
    let post = alice.create_post(blog, blocks, false).await;
    let (_, page) = public(&app, &path_of(&post)).await;
    assert!(page.contains(html.trim()), "one renderer");

    let invalid = alice
        .post(
            &format!("/api/my/blogs/{blog}/preview"),
            json!({ "body": body(&[("image", json!({ "url": "javascript:x" }))]) }),
        )
        .await;
    assert_eq!(invalid.status(), 422);
    assert_eq!(errors_of(invalid).await[0].0, "children.0");
    let bob = app.new_browser();
    bob.sign_up_with_blog("bob@example.com", "bob").await;
    assert_eq!(
        bob.post(
            &format!("/api/my/blogs/{blog}/preview"),
            json!({ "body": body(&[("paragraph", json!({ "text": "x" }))]) })
        )
        .await
        .status(),
        404
    );
    let stranger = app.new_browser();
    stranger.open_app().await;
    let anonymous = stranger
        .post(
            &format!("/api/my/blogs/{blog}/preview"),
            json!({ "body": body(&[("paragraph", json!({ "text": "x" }))]) }),
        )
        .await;
    assert_eq!(anonymous.status(), 401);
    let no_csrf = alice
        .client
        .post(format!("{}/api/my/blogs/{blog}/preview", app.url))
        .json(&json!({ "body": {} }))
        .send()
        .await
        .unwrap();
    assert_eq!(no_csrf.status(), 403, "a write-shaped call needs the CSRF token");
}

#[tokio::test]
async fn search_finds_the_words_not_the_markdown() {
    let (_app, alice, blog) = alice_blog().await;
    let text = "Some **emphatic** words and [a label](https://example.com/zebracorn) `inline_code_word`";
    alice
        .create_post(
            blog,
            body(&[("heading", json!({ "text": "Found" })), ("paragraph", json!({ "text": text }))]),
            false,
        )
        .await;
    alice
        .create_post(
            blog,
            body(&[("heading", json!({ "text": "Pictured" })), ("image", json!({ "url": format!("{}/media/{}.png", _app.url, "c".repeat(64)), "alt": "a lighthouse", "caption": "at dusk" }))]),
            false,
        )
        .await;
    assert_eq!(alice.search_titles(blog, "emphatic").await, ["Found"]);
    assert_eq!(alice.search_titles(blog, "label").await, ["Found"]);
    assert!(alice.search_titles(blog, "zebracorn").await.is_empty(), "link targets are not text");
    assert_eq!(alice.search_titles(blog, "lighthouse").await, ["Pictured"], "alt texts are searchable");
    assert_eq!(alice.search_titles(blog, "dusk").await, ["Pictured"], "captions are searchable");
}

#[tokio::test]
async fn a_title_from_a_paragraph_has_no_markdown() {
    let (_app, alice, blog) = alice_blog().await;
    let post = alice
        .create_post(
            blog,
            body(&[("paragraph", json!({ "text": "**Big** news from [us](https://e.com)\nmore" }))]),
            false,
        )
        .await;
    assert_eq!(post["title"], "Big news from us");
}

#[tokio::test]
async fn images_uploaded_before_sizes_were_recorded_get_them_at_the_next_start() {
    let (app, alice, blog) = alice_blog().await;
    let url = upload(&alice, &app, PNG_3X2).await;
    let post = alice
        .create_post(blog, body(&[("heading", json!({ "text": "Old pic" })), ("image", json!({ "url": url }))]), false)
        .await;
    app.db().execute("UPDATE images SET width = NULL, height = NULL", []).unwrap();
    let app = app.restart().await;
    let (_, html) = public(&app, &path_of(&post)).await;
    assert!(html.contains("width=\"3\" height=\"2\""), "{html}");
    let sizes: (i64, i64) =
        app.db().query_row("SELECT width, height FROM images", [], |r| Ok((r.get(0)?, r.get(1)?))).unwrap();
    assert_eq!(sizes, (3, 2));
}
