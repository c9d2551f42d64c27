//! A post body from any JSON: `Body::parse` answers, keys errors by the body or an existing
//! block, and an accepted body round-trips through its stored form.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quire::domain::content::blocks::{Body, Rules};
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<Value>(data) else { return };
    let rules = Rules { image_prefix: "http://localhost:8080/media/".to_owned() };
    let children = value.get("children").and_then(Value::as_array).map_or(0, Vec::len);
    match Body::parse(&value, &rules) {
        Ok(body) => {
            assert_eq!(body.children.len(), children, "one block per child");
            let stored = serde_json::to_value(&body).expect("a body serializes");
            assert_eq!(Body::parse(&stored, &rules).as_ref(), Ok(&body), "the stored form parses to the same body");
            let _ = (body.title(), body.text());
        }
        Err(messages) => {
            assert!(!messages.is_empty(), "an error says what is wrong");
            for (field, _) in &messages.0 {
                let block = field.strip_prefix("children.").and_then(|n| n.parse::<usize>().ok());
                assert!(
                    field == "body" || block.is_some_and(|n| n < children),
                    "error key {field:?} for {children} children"
                );
            }
        }
    }
});
