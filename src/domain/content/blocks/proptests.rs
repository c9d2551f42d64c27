//! Property tests of [`Body::parse`], the parser every post write goes through: on any JSON
//! value it answers (never panics), keys its errors by the body or by a block that exists,
//! and a body it accepts survives a round trip through its stored form.

use proptest::prelude::*;
use serde_json::{Map, Value, json};

use super::*;

const IMAGE_PREFIX: &str = "http://localhost:8080/media/";

fn rules() -> Rules {
    Rules { image_prefix: IMAGE_PREFIX.to_owned() }
}

fn config() -> ProptestConfig {
    ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() }
}

/// Any JSON value, a few levels deep.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        any::<String>().prop_map(Value::String),
        block_type().prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..6).prop_map(|pairs| Value::Object(pairs.into_iter().collect())),
        ]
    })
}

/// Object keys: the ones the parser looks for, and any other.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec!["type", "children", "value", "text", "url", "title"]).prop_map(str::to_owned),
        any::<String>(),
    ]
}

/// A block type: mostly real ones, sometimes not.
fn block_type() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(Block::VARIANTS.to_vec()).prop_map(str::to_owned),
        1 => prop::sample::select(vec!["root", "Heading", "video", "", " heading"]).prop_map(str::to_owned),
        1 => any::<String>(),
    ]
}

/// Text near the rules' edges: blank, plain, long, with control characters and quotes.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        "[ \t\n]{1,3}",
        "[a-zA-Z0-9 .,!?]{1,40}",
        any::<String>(),
        (prop::sample::select(vec![MAX_HEADING, MAX_URL, MAX_PARAGRAPH]), -1i64..=1)
            .prop_map(|(max, delta)| "é".repeat((max as i64 + delta) as usize)),
    ]
}

/// URLs that start with a prefix some rule wants (or not), followed by anything.
fn url() -> impl Strategy<Value = String> {
    let prefixes = vec![
        "",
        "http://",
        "https://",
        "ftp://",
        "javascript:",
        IMAGE_PREFIX,
        SPOTIFY_PREFIX,
        TWEET_PREFIXES[0],
        TWEET_PREFIXES[1],
        "HTTPS://",
        " https://",
    ];
    (prop::sample::select(prefixes), text()).prop_map(|(prefix, rest)| format!("{prefix}{rest}"))
}

/// A field value: usually a string, sometimes another JSON type.
fn field() -> impl Strategy<Value = Value> {
    prop_oneof![8 => prop_oneof![text(), url()].prop_map(Value::String), 1 => any_json()]
}

/// A block that is valid, or one or two steps away from valid.
fn near_block() -> impl Strategy<Value = Value> {
    let fields = prop::collection::vec((prop::sample::select(vec!["text", "url", "title", "extra"]), field()), 0..4);
    (block_type(), fields, 0..10u8).prop_map(|(kind, fields, shape)| {
        let value: Map<String, Value> = fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
        match shape {
            0 => json!({ "type": kind }),
            1 => json!({ "type": kind, "value": "not an object" }),
            2 => json!({ "value": value }),
            3 => Value::String(kind),
            _ => json!({ "type": kind, "value": value }),
        }
    })
}

/// A root of near-valid blocks: few of them, or as many as the limit allows and one more.
fn near_body() -> impl Strategy<Value = Value> {
    let few = prop::collection::vec(near_block(), 0..8);
    let many = (near_block(), (MAX_BLOCKS - 1)..=(MAX_BLOCKS + 1)).prop_map(|(block, n)| vec![block; n]);
    let children = prop_oneof![6 => few, 1 => many];
    (children, prop_oneof![6 => Just("root".to_owned()), 1 => block_type()])
        .prop_map(|(children, kind)| json!({ "type": kind, "children": children }))
}

/// A body built only from blocks that follow every rule.
fn valid_body() -> impl Strategy<Value = Value> {
    let words = "[a-zA-Z0-9][a-zA-Z0-9 ]{0,30}";
    let path = "[a-zA-Z0-9/._~-]{0,30}";
    let block = prop_oneof![
        words.prop_map(|text| json!({ "type": "heading", "value": { "text": text } })),
        (words, prop::bool::ANY).prop_map(|(text, breaks)| {
            let text = if breaks { format!("{text}\nsecond line") } else { text };
            json!({ "type": "paragraph", "value": { "text": text } })
        }),
        (path, "[a-zA-Z0-9 ]{0,30}").prop_map(|(path, title)| {
            json!({ "type": "link", "value": { "url": format!("https://e.com/{path}"), "title": title } })
        }),
        (path, "[a-zA-Z0-9 ]{0,30}", "[a-zA-Z0-9 ]{0,30}").prop_map(|(path, alt, caption)| {
            json!({ "type": "image", "value": { "url": format!("{IMAGE_PREFIX}{path}"), "alt": alt, "caption": caption } })
        }),
        path.prop_map(|path| json!({ "type": "spotify", "value": { "url": format!("{SPOTIFY_PREFIX}{path}") } })),
        path.prop_map(|path| json!({ "type": "tweet", "value": { "url": format!("{}{path}", TWEET_PREFIXES[1]) } })),
    ];
    prop::collection::vec(block, 1..12).prop_map(|children| json!({ "type": "root", "children": children }))
}

/// The number of children the parser saw, when the value has a list of them.
fn child_count(value: &Value) -> Option<usize> {
    value.get("children").and_then(Value::as_array).map(Vec::len)
}

/// The properties every answer of the parser keeps.
fn check(value: &Value) -> Result<(), TestCaseError> {
    match Body::parse(value, &rules()) {
        Ok(body) => {
            prop_assert_eq!(Some(body.children.len()), child_count(value), "one block per child");
            prop_assert!(body.children.iter().all(|block| block.problem(&rules()).is_none()));
            let stored = serde_json::to_value(&body).expect("a body serializes");
            let again = Body::parse(&stored, &rules());
            prop_assert_eq!(again.as_ref(), Ok(&body), "the stored form parses to the same body");
            let read_back = Body::from_json(&stored.to_string()).ok();
            prop_assert_eq!(read_back.as_ref(), Some(&body), "and reads back as stored");
            let _ = (body.title(), body.text());
        }
        Err(messages) => {
            prop_assert!(!messages.is_empty(), "an error says what is wrong");
            let children = child_count(value).unwrap_or(0);
            for (field, message) in &messages.0 {
                prop_assert!(!message.is_empty());
                let in_range = field
                    .strip_prefix("children.")
                    .and_then(|index| index.parse::<usize>().ok())
                    .is_some_and(|index| index < children && field == &format!("children.{index}"));
                prop_assert!(field == "body" || in_range, "error key {:?} for {} children", field, children);
            }
            if messages.0.iter().any(|(field, _)| field == "body") {
                prop_assert_eq!(messages.0.len(), 1, "a body-wide problem is the only message");
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn any_json_value_is_answered_with_keyed_errors_or_a_body(value in any_json()) {
        check(&value)?;
        check(&json!({ "type": "root", "children": [value] }))?;
    }

    #[test]
    fn near_valid_bodies_are_answered_with_keyed_errors_or_a_body(value in near_body()) {
        check(&value)?;
    }

    #[test]
    fn valid_bodies_are_accepted_and_round_trip(value in valid_body()) {
        let body = Body::parse(&value, &rules());
        prop_assert!(body.is_ok(), "{:?}", body);
        prop_assert_eq!(serde_json::to_value(body.unwrap()).unwrap(), value.clone(), "stored as sent");
        check(&value)?;
    }
}
