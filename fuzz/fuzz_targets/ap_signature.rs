//! A remote server's `Signature` header and the headers around it (issue 16): the parser and the
//! inbox's checks answer any bytes with a parse or a refusal, and what they accept is the shape
//! documented in `domain::ap_signature`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quire::domain::federation::ap_signature::{Refusal, check_request, parse_signature};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(parsed) = parse_signature(&text) {
        assert!(!parsed.key_id.is_empty() && !parsed.signature.is_empty(), "{text:?}");
        assert!(parsed.headers.iter().all(|h| !h.is_empty() && *h == h.to_ascii_lowercase()), "{text:?}");
    }
    // The same bytes as a POST's Signature, Date and Digest headers, split at the first two newlines.
    let mut parts = data.splitn(3, |b| *b == b'\n');
    let mut headers = http::HeaderMap::new();
    for name in ["signature", "date", "digest"] {
        if let Some(value) = parts.next().and_then(|v| http::HeaderValue::from_bytes(v).ok()) {
            headers.insert(name, value);
        }
    }
    let now = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_795_000_000);
    match check_request("POST", "/_quire/ap/inbox", &headers, data, now) {
        Ok(checked) => assert!(checked.signing_string.contains("(request-target): post /_quire/ap/inbox"), "{text:?}"),
        Err(Refusal::BadKey | Refusal::BadSignature | Refusal::Replayed) => {
            panic!("the checks never verify or track replays")
        }
        Err(_) => {}
    }
});
