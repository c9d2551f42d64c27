//! `POST /api/my/blogs/{id}/convert` (issue 33): a paste into the editor's paragraph made blocks
//! by the import's converter: Markdown with a heading, a list, a quote, code and images; HTML;
//! hostile HTML; a paste over the body cap; another owner's blog, no session, no CSRF token.

use serde_json::{Value, json};

use crate::helpers::{TestApp, error_field};

const MARKDOWN: &str =
    "## Morning\n\nFirst.\n\n- a\n- b\n\n> Quoted\n\n```\nx < 1\n```\n\n![A boat](https://elsewhere.example/boat.png)";

/// The blocks of an answer as `(type, value)` pairs.
fn blocks(answer: &Value) -> Vec<(String, Value)> {
    crate::helpers::block_pairs(&answer["blocks"])
}

#[tokio::test]
async fn pasted_markdown_becomes_the_blocks_an_import_makes_and_a_remote_image_a_link() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let resp = alice.post(&format!("/api/my/blogs/{blog}/convert"), json!({ "markdown": MARKDOWN })).await;
    assert_eq!(resp.status(), 200);
    let answer: Value = resp.json().await.unwrap();
    let got = blocks(&answer);
    assert_eq!(got[0], ("heading".to_owned(), json!({ "text": "Morning" })), "{answer}");
    let text: String =
        got.iter().filter(|(kind, _)| kind == "paragraph").map(|(_, v)| v["text"].as_str().unwrap()).collect();
    for part in ["First.", "- a\n- b", "> Quoted", "```\nx < 1\n```"] {
        assert!(text.contains(part), "{part:?} in {answer}");
    }
    let link = got.iter().find(|(kind, _)| kind == "link").expect("the remote image as a link");
    assert_eq!(link.1, json!({ "url": "https://elsewhere.example/boat.png", "title": "A boat" }));
    assert!(answer["notes"][0].as_str().unwrap().contains("kept as a link"), "{answer}");
    assert_eq!(app.count("posts"), 0, "nothing stored");
    assert_eq!(app.count("images"), 0, "nothing fetched");
}

#[tokio::test]
async fn pasted_html_and_hostile_html_become_safe_blocks_and_nothing_is_a_500() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let url = format!("/api/my/blogs/{blog}/convert");
    let html = "<h2>Evening</h2><p>One <b>bold</b> word.</p><ul><li>x</li><li>y</li></ul><blockquote>Said</blockquote>";
    let answer: Value = alice.post(&url, json!({ "html": html })).await.json().await.unwrap();
    let got = blocks(&answer);
    assert_eq!(got[0], ("heading".to_owned(), json!({ "text": "Evening" })), "{answer}");
    assert!(got[1].1["text"].as_str().unwrap().contains("**bold**"), "{answer}");

    let hostile = "<h2 onclick=alert(1)>Night</h2><script>alert(2)</script><p>Safe<img src=x onerror=alert(3)></p>\
                   <a href=javascript:alert(4)>link</a><iframe src=javascript:alert(5)></iframe>";
    let resp = alice.post(&url, json!({ "html": hostile })).await;
    assert_eq!(resp.status(), 200);
    let answer: Value = resp.json().await.unwrap();
    assert!(!answer["blocks"].to_string().contains("alert"), "{answer}");
    assert_eq!(blocks(&answer)[0].1["text"], "Night");

    // Nested past what the converter walks: its text only, as an import keeps it.
    let deep = format!("{}<p>Deep</p><script>x()</script>", "<div>".repeat(20_000));
    let resp = alice.post(&url, json!({ "html": deep })).await;
    assert_eq!(resp.status(), 200);
    let answer: Value = resp.json().await.unwrap();
    assert!(!answer.to_string().contains('<'), "{answer}");
    assert!(answer["notes"][0].as_str().unwrap().contains("nested too deeply"), "{answer}");

    let nothing = alice.post(&url, json!({ "html": "<script>alert(1)</script>" })).await;
    assert_eq!(error_field(nothing, 422).await, ("html".to_owned(), "Nothing in it makes a block".to_owned()));
    let both = alice.post(&url, json!({ "html": "<p>a</p>", "markdown": "a" })).await;
    assert_eq!(error_field(both, 422).await.0, "body");
    assert_eq!(error_field(alice.post(&url, json!({})).await, 422).await.0, "body");
}

#[tokio::test]
async fn a_paste_over_the_body_cap_another_owners_blog_and_a_missing_csrf_token_are_refused() {
    let app = TestApp::spawn().await;
    let alice = app.new_browser();
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let bob = app.new_browser();
    bob.sign_up_with_blog("bob@example.com", "bob").await;
    let url = format!("/api/my/blogs/{blog}/convert");

    let big = "word ".repeat(300_000);
    assert_eq!(alice.post(&url, json!({ "markdown": big })).await.status(), 413);
    assert_eq!(error_field(bob.post(&url, json!({ "markdown": MARKDOWN })).await, 404).await.0, "blog");
    assert_eq!(app.new_browser().post(&url, json!({ "markdown": MARKDOWN })).await.status(), 401);
    let no_csrf =
        alice.client.post(format!("{}{url}", app.url)).json(&json!({ "markdown": MARKDOWN })).send().await.unwrap();
    assert_eq!(error_field(no_csrf, 403).await.0, "csrf");
}
