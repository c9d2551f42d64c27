//! Whatever JSON a remote server sends, the activity and document readers answer (a value or a
//! refusal) and never panic.

use proptest::prelude::*;
use serde_json::{Map, Value};

use super::*;

fn config() -> ProptestConfig {
    ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() }
}

/// Any JSON, nested a few levels, with strings often the ones the readers look for.
fn json() -> impl Strategy<Value = Value> {
    let word = prop_oneof![
        Just("Follow".to_owned()),
        Just("Undo".to_owned()),
        Just("Create".to_owned()),
        Just("Note".to_owned()),
        Just("Update".to_owned()),
        Just("Person".to_owned()),
        Just("https://peer.example/users/bob".to_owned()),
        Just("http://alice.localhost:8080/_quire/ap/actor".to_owned()),
        any::<String>(),
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        word.clone().prop_map(Value::String),
    ];
    let key = prop_oneof![
        Just("type".to_owned()),
        Just("id".to_owned()),
        Just("actor".to_owned()),
        Just("object".to_owned()),
        Just("content".to_owned()),
        Just("contentMap".to_owned()),
        Just("inReplyTo".to_owned()),
        Just("attributedTo".to_owned()),
        Just("url".to_owned()),
        Just("published".to_owned()),
        Just("publicKey".to_owned()),
        Just("publicKeyPem".to_owned()),
        Just("owner".to_owned()),
        Just("inbox".to_owned()),
        Just("endpoints".to_owned()),
        any::<String>(),
    ];
    leaf.prop_recursive(5, 64, 8, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::vec((key.clone(), inner), 0..8)
                .prop_map(|pairs| Value::Object(pairs.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn any_json_gets_an_answer(value in json()) {
        let _ = parse(&value);
        let _ = actor(&value);
        let _ = key_document(&value, "https://peer.example/users/bob#main-key");
    }

    #[test]
    fn any_text_as_an_id_gets_an_answer(id in any::<String>()) {
        let _ = ours(&id, "http", "localhost:8080", |_| None);
        let _ = host_of(&id);
        let _ = authority_of(&id);
        let _ = parse(&serde_json::json!({"type": "Like", "id": id, "actor": id, "object": id}));
    }
}
