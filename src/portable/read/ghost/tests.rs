use serde_json::json;
use time::macros::datetime;
use url::Url;

use super::*;
use crate::domain::content::blocks::Block;
use crate::domain::limits::ImportLimits;
use crate::portable::Problem;
use crate::portable::model::{Kind, Post, State};

fn lexical(children: Value) -> String {
    json!({ "root": { "children": children, "direction": "ltr", "format": "", "indent": 0, "type": "root", "version": 1 } }).to_string()
}

fn text(t: &str, format: u64) -> Value {
    json!({ "detail": 0, "format": format, "mode": "normal", "style": "", "text": t, "type": "extended-text", "version": 1 })
}

/// A Ghost 5 export, shaped as Settings → Labs → Export writes it.
fn export(posts: Value) -> Vec<u8> {
    json!({ "db": [{
        "meta": { "exported_on": 1_700_000_000_000u64, "version": "5.75.0" },
        "data": {
            "posts": posts,
            "tags": [
                { "id": "t1", "name": "Travel", "slug": "travel", "visibility": "public" },
                { "id": "t2", "name": "#hidden", "slug": "hash-hidden", "visibility": "internal" },
            ],
            "posts_tags": [
                { "id": "pt1", "post_id": "p1", "tag_id": "t2", "sort_order": 1 },
                { "id": "pt2", "post_id": "p1", "tag_id": "t1", "sort_order": 0 },
            ],
            "posts_meta": [{ "id": "m1", "post_id": "p1", "feature_image_alt": "Sea", "feature_image_caption": "<em>Blue</em>" }],
            "settings": [{ "key": "title", "value": "Ghostly" }, { "key": "timezone", "value": "Europe/Paris" }],
            "members": [{ "id": "a" }, { "id": "b" }],
            "users": [],
        }
    }]})
    .to_string()
    .into_bytes()
}

fn post(id: &str, status: &str, body: Value) -> Value {
    let mut post = json!({
        "id": id, "uuid": "u", "title": "Hello", "slug": "hello", "mobiledoc": null, "lexical": null, "html": "<p>html</p>",
        "feature_image": null, "type": "post", "status": status, "visibility": "public",
        "created_at": "2023-01-01T10:00:00.000Z", "updated_at": "2023-01-03T10:00:00.000Z", "published_at": "2023-01-02T10:00:00.000Z",
    });
    for (k, v) in body.as_object().unwrap() {
        post[k] = v.clone();
    }
    post
}

fn read_all(bytes: Vec<u8>, site: Option<&str>) -> (Read, Vec<Post>) {
    let options = Options { site_url: site.map(|s| Url::parse(s).unwrap()), ..Options::default() };
    let export = read(std::io::Cursor::new(bytes), &options).unwrap();
    (export.read, export.items.map(Result::unwrap).collect())
}

#[test]
fn a_lexical_post_keeps_its_text_cards_feature_image_tags_and_dates() {
    let body = lexical(json!([
        { "type": "heading", "tag": "h2", "children": [text("Section", 0)] },
        { "type": "paragraph", "children": [text("Bold", 1), text(" and ", 0), { "type": "link", "url": "https://e.com", "children": [text("link", 2)] }] },
        { "type": "image", "src": "__GHOST_URL__/content/images/2023/01/a.jpg", "alt": "A", "caption": "Cap" },
        { "type": "embed", "url": "https://twitter.com/jack/status/20", "embedType": "twitter", "html": "<blockquote>..</blockquote>" },
        { "type": "bookmark", "url": "https://example.com/article", "metadata": { "title": "An article" } },
        { "type": "list", "listType": "number", "start": 1, "children": [{ "type": "listitem", "children": [text("one", 0)] }] },
        { "type": "codeblock", "code": "let x = 1;", "language": "rust" },
        { "type": "signup", "header": "Subscribe" },
    ]));
    let (read, posts) = read_all(
        export(json!([post(
            "p1",
            "published",
            json!({ "lexical": body, "feature_image": "__GHOST_URL__/content/images/f.jpg" })
        )])),
        Some("https://ghost.example.com/"),
    );
    assert_eq!(read.format, Format::Ghost);
    assert_eq!(read.settings.name.as_deref(), Some("Ghostly"));
    assert_eq!(read.settings.time_zone.as_deref(), Some("Europe/Paris"));
    assert_eq!(read.notes, ["2 members (subscribers) not imported"]);
    let post = &posts[0];
    assert_eq!(
        post.blocks,
        [
            Block::Image {
                url: "https://ghost.example.com/content/images/f.jpg".into(),
                alt: "Sea".into(),
                caption: "Blue".into()
            },
            Block::Heading { text: "Section".into() },
            Block::Paragraph { text: "**Bold** and [*link*](https://e.com/)".into() },
            Block::Image {
                url: "https://ghost.example.com/content/images/2023/01/a.jpg".into(),
                alt: "A".into(),
                caption: "Cap".into()
            },
            Block::Tweet { url: "https://twitter.com/jack/status/20".into() },
            Block::Link { url: "https://example.com/article".into(), title: "An article".into() },
            Block::Paragraph { text: "1. one\n\n```rust\nlet x = 1;\n```".into() },
        ]
    );
    assert_eq!(post.notes, ["A Ghost signup card was not imported", "Its internal tag #hidden was not kept"]);
    assert_eq!(post.tags, ["Travel"]);
    assert_eq!((post.state, post.kind), (State::Published, Kind::Post));
    assert_eq!(post.published_at, Some(datetime!(2023-01-02 10:00 UTC)));
    assert_eq!(post.created_at, Some(datetime!(2023-01-01 10:00 UTC)));
    assert_eq!(post.old_paths, ["/hello/"]);
}

#[test]
fn mobiledoc_and_html_bodies_are_read_too() {
    let mobiledoc = json!({
        "version": "0.3.1",
        "atoms": [["soft-return", "", {}]],
        "cards": [["markdown", { "markdown": "Some *md*" }], ["hr", {}]],
        "markups": [["a", ["href", "https://e.com"]], ["strong"]],
        "sections": [[1, "p", [[0, [1], 1, "Hi "], [0, [0], 1, "there"], [1, [], 0, 0], [0, [], 0, "next"]]], [10, 0], [10, 1], [3, "ul", [[[0, [], 0, "item"]]]]],
    })
    .to_string();
    let (_, posts) = read_all(
        export(json!([
            post("p1", "draft", json!({ "mobiledoc": mobiledoc, "html": null })),
            post("p2", "scheduled", json!({ "type": "page" })),
            post("p3", "published", json!({ "visibility": "paid" })),
            post("p4", "sent", json!({})),
        ])),
        None,
    );
    assert_eq!(
        posts[0].blocks,
        [Block::Paragraph { text: "**Hi** [there](https://e.com/)\nnext\n\nSome *md*\n\n---\n\n- item".into() }]
    );
    assert_eq!((posts[0].state, posts[0].published_at), (State::Draft, None));
    assert_eq!((posts[1].state, posts[1].kind), (State::Scheduled, Kind::Page));
    assert_eq!(posts[2].state, State::Draft);
    assert_eq!(posts[2].notes, ["It was for paid only in Ghost: imported as a draft"]);
    assert_eq!(posts[3].notes, ["It was sent by email only: imported as a draft"]);
}

#[test]
fn other_json_broken_json_and_a_bad_body_get_clear_messages() {
    let err = read(
        std::io::Cursor::new(br#"{"name":"my-app","version":"1.0.0","dependencies":{}}"#.to_vec()),
        &Options::default(),
    )
    .err()
    .unwrap();
    assert!(err.0.starts_with("This JSON file is not a Ghost export"), "{err}");
    let whole = export(json!([post("p1", "published", json!({}))]));
    let err = read(std::io::Cursor::new(whole[..whole.len() / 2].to_vec()), &Options::default()).err().unwrap();
    assert!(err.0.starts_with("This Ghost export is cut off"), "{err}");
    let export = read(
        std::io::Cursor::new(export(json!([post("p1", "published", json!({ "lexical": "{not json" }))]))),
        &Options::default(),
    )
    .unwrap();
    let items: Vec<_> = export.items.collect();
    assert!(matches!(&items[0], Err(Problem::Item { message, .. }) if message.contains("not valid JSON")));
}

#[test]
fn without_the_sites_address_relative_images_are_reported() {
    let (read, posts) = read_all(
        export(json!([post(
            "p1",
            "published",
            json!({ "html": "<p>x</p><img src=\"__GHOST_URL__/content/images/a.jpg\">" })
        )])),
        None,
    );
    assert!(read.notes.iter().any(|n| n.starts_with("Ghost names its images")), "{:?}", read.notes);
    assert_eq!(posts[0].blocks, [Block::Paragraph { text: "x".into() }]);
    assert_eq!(posts[0].notes[0], "An image at /content/images/a.jpg could not be located");
}

fn read_with(bytes: Vec<u8>, limits: ImportLimits) -> Result<Export, Unreadable> {
    read(std::io::Cursor::new(bytes), &Options { limits, ..Options::default() })
}

#[test]
fn a_post_over_the_item_cap_is_skipped_and_reported_and_the_others_are_read() {
    let big = "x".repeat(3000);
    let limits = ImportLimits { max_items: 10, max_item_bytes: 2000, ..ImportLimits::default() };
    let export = read_with(
        export(json!([
            post("p1", "published", json!({})),
            post("p2", "published", json!({ "html": big })),
            post("p3", "published", json!({})),
        ])),
        limits,
    )
    .unwrap();
    assert_eq!(export.read.expected_items, Some(3));
    let items: Vec<_> = export.items.collect();
    assert_eq!(items.len(), 3);
    assert!(items[0].is_ok() && items[2].is_ok());
    assert_eq!(
        items[1].as_ref().unwrap_err().to_string(),
        "The post or page at position 2 is larger than 1 MB: not imported"
    );
}

#[test]
fn an_export_past_the_item_count_or_a_table_row_past_the_item_cap_is_refused() {
    let limits = ImportLimits { max_items: 2, max_item_bytes: 2000, ..ImportLimits::default() };
    let three =
        export(json!([post("p1", "draft", json!({})), post("p2", "draft", json!({})), post("p3", "draft", json!({}))]));
    let err = read_with(three, limits).err().unwrap();
    assert_eq!(err.0, limits.too_many_items("This Ghost export"));
    let mut file: Value = serde_json::from_slice(&export(json!([]))).unwrap();
    file["db"][0]["data"]["tags"][0]["name"] = Value::String("t".repeat(5000));
    let err = read_with(file.to_string().into_bytes(), limits).err().unwrap();
    assert_eq!(err.0, "A tag in this Ghost export is larger than 1 MB: Quire does not read it");
    file["db"][0]["data"]["tags"] = json!((0..9).map(|i| json!({ "id": i, "name": "t" })).collect::<Vec<_>>());
    let err = read_with(file.to_string().into_bytes(), limits).err().unwrap();
    assert!(err.0.starts_with("This Ghost export holds more than 8 rows of tags"), "{err}");
}

/// Found by fuzzing (scripts/fuzz.sh ghost_export): a file may repeat the `posts` key, and
/// each list was counted and positioned from zero, so two lists under the cap passed it
/// together and a large post of the second list could be read whole.
#[test]
fn posts_in_repeated_lists_count_together_against_the_cap_and_keep_their_own_positions() {
    let limits = ImportLimits { max_items: 3, max_item_bytes: 2000, ..ImportLimits::default() };
    let list = |ids: &[&str], big: Option<&str>| {
        let posts: Vec<Value> = ids
            .iter()
            .map(|id| match Some(*id) == big {
                true => post(id, "published", json!({ "html": "x".repeat(3000) })),
                false => post(id, "published", json!({})),
            })
            .collect();
        Value::Array(posts).to_string()
    };
    let file = |first: String, second: String| {
        format!(r#"{{"db":[{{"meta":{{"version":"5.75.0"}},"data":{{"posts":{first},"posts":{second}}}}}]}}"#)
            .into_bytes()
    };
    let err = read_with(file(list(&["p1", "p2"], None), list(&["p3", "p4"], None)), limits).err().unwrap();
    assert_eq!(err.0, limits.too_many_items("This Ghost export"));

    // p2 (first list) is small, p4 (second list, second element) is large: only p4 is skipped.
    let export = read_with(file(list(&["p1", "p2"], None), list(&["p3"], Some("p3"))), limits).unwrap();
    assert_eq!(export.read.expected_items, Some(3));
    let items: Vec<_> = export.items.collect();
    assert_eq!(items.len(), 3);
    assert!(items[0].is_ok() && items[1].is_ok(), "the first list's posts are read");
    assert_eq!(
        items[2].as_ref().unwrap_err().to_string(),
        "The post or page at position 3 is larger than 1 MB: not imported"
    );
}

#[test]
fn a_post_that_is_not_shaped_like_a_ghost_post_is_reported_alone() {
    let export = read_with(
        export(json!([post("p1", "published", json!({ "title": 5 })), post("p2", "published", json!({}))])),
        ImportLimits::default(),
    )
    .unwrap();
    let items: Vec<_> = export.items.collect();
    let message = items[0].as_ref().unwrap_err().to_string();
    assert!(message.starts_with("p1: The post or page at position 1 is not shaped like a Ghost post"), "{message}");
    assert!(items[1].is_ok());
    let err = read_with(br#"{"db":[{"data":{"posts":[1]}}]}"#.to_vec(), ImportLimits::default()).err().unwrap();
    assert!(err.0.starts_with("This file is not valid JSON (invalid type: integer"), "{err}");
}
