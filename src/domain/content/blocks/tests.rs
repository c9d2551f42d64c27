//! Tests of a post's body: parsing blocks and the rules each block follows.

use super::*;
use serde_json::json;

fn rules() -> Rules {
    Rules { image_prefix: "http://localhost:8080/media/".into() }
}

fn errors_of(children: Value) -> Vec<(String, String)> {
    Body::parse(&json!({ "type": "root", "children": children }), &rules()).unwrap_err().0
}

/// One case of `tests/fixtures/block_rules.json`, shared with the owner app's tests.
#[derive(Deserialize)]
struct Case {
    name: String,
    children: Vec<Value>,
    errors: std::collections::BTreeMap<String, String>,
    /// Appends `count` copies of `char` to one field of one child before checking.
    repeat: Option<Repeat>,
    /// Makes the body this many copies of the children, in order.
    #[serde(rename = "repeatChildren")]
    repeat_children: Option<usize>,
}

#[derive(Deserialize)]
struct Repeat {
    index: usize,
    field: String,
    char: String,
    count: usize,
}

#[test]
fn the_shared_fixture_cases_give_their_messages() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/block_rules.json");
    let fixture: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("the shared fixture")).unwrap();
    let rules = Rules { image_prefix: fixture["rules"]["imagePrefix"].as_str().unwrap().to_owned() };
    assert_eq!(client_rules(&rules), fixture["rules"], "the fixture's rules are the ones the server sends");
    let cases: Vec<Case> = serde_json::from_value(fixture["cases"].clone()).unwrap();
    assert!(cases.len() >= 10, "the fixture holds the rule cases");
    for mut case in cases {
        if let Some(repeat) = &case.repeat {
            let field = &mut case.children[repeat.index]["value"][&repeat.field];
            *field = Value::String(format!("{}{}", field.as_str().unwrap_or(""), repeat.char.repeat(repeat.count)));
        }
        if let Some(count) = case.repeat_children {
            case.children = case.children.iter().cycle().take(case.children.len() * count).cloned().collect();
        }
        let got = match Body::parse(&json!({ "type": "root", "children": case.children }), &rules) {
            Ok(_) => std::collections::BTreeMap::new(),
            Err(messages) => messages.0.into_iter().collect(),
        };
        assert_eq!(got, case.errors, "case {:?}", case.name);
    }
}

#[test]
fn a_body_of_every_block_type_parses_and_round_trips() {
    let value = json!({ "type": "root", "children": [
        { "type": "heading", "value": { "text": "Hello" } },
        { "type": "paragraph", "value": { "text": "Line one\nLine two" } },
        { "type": "link", "value": { "url": "https://example.com", "title": "Example" } },
        { "type": "image", "value": { "url": "http://localhost:8080/media/abc.png", "alt": "A cat", "caption": "Ours" } },
        { "type": "spotify", "value": { "url": "https://open.spotify.com/track/1" } },
        { "type": "tweet", "value": { "url": "https://x.com/a/status/1" } },
    ]});
    let body = Body::parse(&value, &rules()).unwrap();
    assert_eq!(serde_json::to_value(&body).unwrap(), value);
    assert_eq!(body.title(), "Hello");
}

#[test]
fn images_stored_as_a_url_alone_still_read_and_are_written_in_the_new_shape() {
    let body = Body::from_json(
        r#"{"type":"root","children":[{"type":"image","value":{"url":"http://localhost:8080/media/a.png"}}]}"#,
    )
    .unwrap();
    assert_eq!(
        body.children[0],
        Block::Image { url: "http://localhost:8080/media/a.png".into(), alt: String::new(), caption: String::new() }
    );
    assert_eq!(
        serde_json::to_value(&body).unwrap()["children"][0]["value"],
        json!({ "url": "http://localhost:8080/media/a.png", "alt": "", "caption": "" })
    );
}

#[test]
fn alt_texts_and_captions_have_limits() {
    let image = |alt: usize, caption: usize| json!({ "type": "image", "value": { "url": "http://localhost:8080/media/a.png", "alt": "a".repeat(alt), "caption": "c".repeat(caption) } });
    let errors = errors_of(json!([image(1_001, 0), image(0, 2_001), image(1_000, 2_000)]));
    assert_eq!(
        errors,
        vec![
            ("children.0".into(), "The alt text should be at most 1000 characters".into()),
            ("children.1".into(), "The caption should be at most 2000 characters".into()),
        ]
    );
}

#[test]
fn search_text_has_no_markdown_and_includes_image_descriptions() {
    let body = Body::from_blocks(vec![
        Block::Paragraph { text: "Some **bold** and a [link](https://e.com/secret-url)".into() },
        Block::Image { url: "x".into(), alt: "A red kite".into(), caption: "Over the hill".into() },
    ]);
    assert_eq!(body.text(), "Some bold and a link\nA red kite\nOver the hill\n");
}

#[test]
fn each_rule_reports_its_message_at_the_blocks_index() {
    let errors = errors_of(json!([
        { "type": "heading", "value": { "text": "  " } },
        { "type": "paragraph", "value": { "text": "fine" } },
        { "type": "link", "value": { "url": "ftp://x", "title": "" } },
        { "type": "image", "value": { "url": "https://evil.example/x.png" } },
        { "type": "spotify", "value": { "url": "" } },
        { "type": "tweet", "value": { "url": "https://facebook.com/x" } },
        { "type": "video", "value": { "url": "https://x" } },
        { "type": "link", "value": { "url": "javascript:alert(1)" } },
    ]));
    assert_eq!(
        errors,
        vec![
            ("children.0".into(), "Can't be blank".into()),
            ("children.2".into(), "Should start with http:// or https://".into()),
            ("children.3".into(), "Should start with http://localhost:8080/media/".into()),
            ("children.4".into(), "Can't be blank".into()),
            ("children.5".into(), "Should start with https://twitter.com/ or https://x.com/".into()),
            ("children.6".into(), "Should be a block of type heading, paragraph, link, image, spotify, tweet".into()),
            ("children.7".into(), "Should start with http:// or https://".into()),
        ]
    );
}

#[test]
fn the_body_itself_must_be_a_non_empty_root_of_bounded_size() {
    for bad in [json!([]), json!({ "type": "doc", "children": [] }), json!({ "type": "root" }), json!("root")] {
        assert_eq!(Body::parse(&bad, &rules()).unwrap_err().0[0].0, "body");
    }
    let empty = Body::parse(&json!({ "type": "root", "children": [] }), &rules()).unwrap_err();
    assert_eq!(empty.0[0].1, "A post needs at least one block");
    let many: Vec<Value> = (0..10_000).map(|_| json!({ "type": "paragraph", "value": { "text": "x" } })).collect();
    let err = Body::parse(&json!({ "type": "root", "children": many }), &rules()).unwrap_err();
    assert_eq!(err.0[0].1, "A post can have at most 500 blocks");
}

#[test]
fn overlong_text_and_urls_with_quotes_are_refused() {
    let errors = errors_of(json!([
        { "type": "heading", "value": { "text": "h".repeat(301) } },
        { "type": "link", "value": { "url": "https://e.com/\"onmouseover=x", "title": "t" } },
    ]));
    assert_eq!(errors[0].1, "Should be at most 300 characters");
    assert_eq!(errors[1].1, "Should be a URL without spaces or quotes");
}

#[test]
fn titles_fall_back_to_the_first_paragraph_then_untitled() {
    let body = Body::from_blocks(vec![Block::Paragraph { text: "First line\nsecond".into() }]);
    assert_eq!(body.title(), "First line");
    let body = Body::from_blocks(vec![Block::Image { url: "x".into(), alt: String::new(), caption: String::new() }]);
    assert_eq!(body.title(), "Untitled");
    let body = Body::from_blocks(vec![Block::Paragraph { text: "A **bold** [start](https://e.com)\nmore".into() }]);
    assert_eq!(body.title(), "A bold start");
    let body = Body::from_blocks(vec![Block::Image { url: "x".into(), alt: String::new(), caption: String::new() }]);
    assert_eq!(body.title(), "Untitled");
}
