//! Property tests of the signature header parser and the request checks: whatever a remote
//! server sends, they answer (a parse or a [`Refusal`]) and never panic, and what we send
//! passes our own checks with the same signing string.

use std::time::{Duration, SystemTime};

use http::{HeaderMap, HeaderValue};
use proptest::prelude::*;

use super::*;

fn config() -> ProptestConfig {
    ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() }
}

/// Header text a sender could write: anything, and near-misses of the real shape.
fn signature_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[a-zA-Z=\", ]{0,80}",
        r#"(keyId|algorithm|headers|signature|x)="[a-zA-Z0-9+/=()\- ]{0,40}"?(, ?|,,)?"#,
        r#"keyId="[^"]{0,20}",headers="[a-z() \-]{0,40}",signature="[A-Za-z0-9+/]{0,12}={0,2}""#,
    ]
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn the_parser_answers_any_text(raw in signature_text()) {
        if let Ok(parsed) = parse_signature(&raw) {
            prop_assert!(!parsed.key_id.is_empty() && !parsed.signature.is_empty());
            prop_assert!(parsed.headers.iter().all(|h| !h.is_empty() && *h == h.to_ascii_lowercase()));
        }
    }

    #[test]
    fn the_checks_answer_any_header_values(
        signature in signature_text(),
        date in prop_oneof![any::<String>(), Just("Tue, 24 Nov 2026 10:06:33 GMT".to_owned())],
        digest in any::<String>(),
        method in prop::sample::select(vec!["GET", "POST", "post", "DELETE"]),
        target in any::<String>(),
        body in prop::collection::vec(any::<u8>(), 0..64),
    ) {
        let mut headers = HeaderMap::new();
        for (name, value) in [("signature", signature), ("date", date), ("digest", digest)] {
            if let Ok(value) = HeaderValue::from_str(&value) {
                headers.insert(name, value);
            }
        }
        let now = httpdate::parse_http_date("Tue, 24 Nov 2026 10:06:33 GMT").unwrap();
        let _ = check_request(method, &target, &headers, &body, now);
    }

    #[test]
    fn what_we_send_passes_our_checks_with_the_same_signing_string(
        path in "(/[a-zA-Z0-9_~-]{1,12}){1,4}",
        query in proptest::option::of("[a-z]{1,5}=[a-z0-9]{1,5}"),
        port in proptest::option::of(1024u16..65535),
        body in proptest::option::of(prop::collection::vec(any::<u8>(), 0..256)),
        seconds in 0u64..4_000_000_000,
    ) {
        let port = port.map(|p| format!(":{p}")).unwrap_or_default();
        let query = query.map(|q| format!("?{q}")).unwrap_or_default();
        let url = url::Url::parse(&format!("https://remote.example{port}{path}{query}")).unwrap();
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(seconds);
        let method = if body.is_some() { "POST" } else { "GET" };
        let out = outgoing(method, &url, body.as_deref().map(|b| (b, "application/activity+json")), now);
        let mut headers = HeaderMap::new();
        for (name, value) in &out.headers {
            headers.insert(*name, HeaderValue::from_str(value).unwrap());
        }
        let header = signature_header("https://blog.example/_quire/ap/actor#main-key", &out.signed_names, &[1; 256]);
        headers.insert("signature", HeaderValue::from_str(&header).unwrap());
        let target = format!("{path}{query}");
        let checked = check_request(method, &target, &headers, body.as_deref().unwrap_or_default(), now).unwrap();
        prop_assert_eq!(checked.signing_string, out.signing_string);
    }
}
