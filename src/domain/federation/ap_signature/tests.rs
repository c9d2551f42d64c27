use std::time::{Duration, SystemTime};

use http::{HeaderMap, HeaderName, HeaderValue};

use super::*;

/// Two requests signed by Fedify 2.3.6's `signRequest(…, {spec: "draft-cavage-http-signatures-12"})`
/// with a 4096-bit `generateCryptoKeyPair("RSASSA-PKCS1-v1_5")` key, run with the spike's peer
/// (/work/fed-spike/peer): a POST of a Like to the shared inbox and a GET of an actor page.
pub(crate) const FEDIFY: &str = include_str!("fedify-2.3.6.json");

/// The vectors' `Date`, and a clock 5 s later.
fn fedify_now() -> SystemTime {
    httpdate::parse_http_date("Tue, 24 Nov 2026 10:06:33 GMT").unwrap() + Duration::from_secs(5)
}

pub(crate) fn headers_of(object: &serde_json::Value) -> HeaderMap {
    let mut map = HeaderMap::new();
    for (name, value) in object.as_object().unwrap() {
        let value = HeaderValue::from_str(value.as_str().unwrap()).unwrap();
        map.append(HeaderName::from_bytes(name.as_bytes()).unwrap(), value);
    }
    map
}

fn fedify() -> serde_json::Value {
    serde_json::from_str(FEDIFY).unwrap()
}

#[test]
fn fedify_post_passes_the_checks_with_its_exact_signing_string() {
    let v = fedify();
    let body = v["body"].as_str().unwrap().as_bytes();
    let checked = check_request("POST", "/_quire/ap/inbox", &headers_of(&v["post"]), body, fedify_now()).unwrap();
    assert_eq!(checked.signature.key_id, "http://127.0.0.1:40901/users/bob#main-key");
    assert_eq!(checked.signature.algorithm.as_deref(), Some("rsa-sha256"));
    assert_eq!(checked.signature.headers, ["(request-target)", "content-type", "date", "digest", "host"]);
    assert_eq!(checked.signature.signature.len(), 512, "a 4096-bit key");
    assert_eq!(
        checked.signing_string,
        "(request-target): post /_quire/ap/inbox\n\
         content-type: application/activity+json\n\
         date: Tue, 24 Nov 2026 10:06:33 GMT\n\
         digest: SHA-256=Qtt6xMWO6zcnPubW1qqzg9WdTKkh5o0S8Oe01DPfcP4=\n\
         host: localhost:18301"
    );
    assert_eq!(digest_header(body), "SHA-256=Qtt6xMWO6zcnPubW1qqzg9WdTKkh5o0S8Oe01DPfcP4=");
}

#[test]
fn fedify_get_passes_the_checks_with_its_query_in_the_target() {
    let v = fedify();
    let checked = check_request("GET", "/_quire/ap/actor?page=1", &headers_of(&v["get"]), b"", fedify_now()).unwrap();
    assert_eq!(
        checked.signing_string,
        "(request-target): get /_quire/ap/actor?page=1\n\
         accept: application/activity+json\n\
         date: Tue, 24 Nov 2026 10:06:33 GMT\n\
         host: alice.localhost:18301"
    );
    assert_eq!(
        checked.without_query.as_deref(),
        Some(checked.signing_string.replace("actor?page=1", "actor").as_str()),
        "Fedify signs the path alone"
    );
    assert_eq!(checked.signing_strings().count(), 2);
}

#[test]
fn a_changed_body_a_missing_digest_and_a_foreign_digest_are_refused() {
    let v = fedify();
    let mut headers = headers_of(&v["post"]);
    let changed = v["body"].as_str().unwrap().replace("Like", "Announce");
    let refusal = check_request("POST", "/_quire/ap/inbox", &headers, changed.as_bytes(), fedify_now()).unwrap_err();
    assert_eq!(refusal, Refusal::Digest);
    assert_eq!(refusal.to_string(), "the Digest header does not match the body");
    headers.insert("digest", HeaderValue::from_static("SHA-512=abc"));
    let refusal = check_request("POST", "/_quire/ap/inbox", &headers, b"", fedify_now()).unwrap_err();
    assert_eq!(refusal, Refusal::NoSha256Digest);
    headers.remove("digest");
    let refusal = check_request("POST", "/_quire/ap/inbox", &headers, b"", fedify_now()).unwrap_err();
    assert_eq!(refusal.to_string(), "the signed header digest is missing from the request");
}

#[test]
fn the_date_window_is_an_hour_either_way() {
    let v = fedify();
    let get = headers_of(&v["get"]);
    let date = httpdate::parse_http_date("Tue, 24 Nov 2026 10:06:33 GMT").unwrap();
    for now in [date + DATE_WINDOW, date - DATE_WINDOW] {
        assert!(check_request("GET", "/_quire/ap/actor?page=1", &get, b"", now).is_ok());
    }
    for now in [date + DATE_WINDOW + Duration::from_secs(1), date - DATE_WINDOW - Duration::from_secs(1)] {
        let refusal = check_request("GET", "/_quire/ap/actor?page=1", &get, b"", now).unwrap_err();
        assert_eq!(refusal, Refusal::Stale);
        assert_eq!(refusal.to_string(), "the Date header is more than an hour away from the server's clock");
    }
    let mut bad = get.clone();
    bad.insert("date", HeaderValue::from_static("yesterday"));
    assert_eq!(check_request("GET", "/x", &bad, b"", date).unwrap_err(), Refusal::BadDate);
}

#[test]
fn unsigned_and_rfc9421_requests_are_refused_with_what_to_send() {
    let v = fedify();
    let mut headers = headers_of(&v["post"]);
    headers.insert("signature-input", HeaderValue::from_static("sig1=(\"@method\");keyid=\"k\""));
    let refusal = check_request("POST", "/_quire/ap/inbox", &headers, b"", fedify_now()).unwrap_err();
    assert_eq!(refusal, Refusal::Rfc9421Only);
    assert!(refusal.to_string().contains("draft-cavage"), "{refusal}");
    let refusal = check_request("POST", "/_quire/ap/inbox", &HeaderMap::new(), b"", fedify_now()).unwrap_err();
    assert_eq!(refusal, Refusal::Unsigned);
    assert_eq!(refusal.to_string(), "the request is not signed: send a draft-cavage Signature header (rsa-sha256)");
}

fn with_signature(signature: &str) -> HeaderMap {
    let mut headers = headers_of(&fedify()["post"]);
    headers.insert("signature", HeaderValue::from_str(signature).unwrap());
    headers
}

#[test]
fn the_required_headers_must_be_signed_for_post_and_get() {
    let sig = B64.encode([7u8; 256]);
    for (method, listed, missing) in [
        ("POST", "(request-target) host date", "digest"),
        ("POST", "host date digest", "(request-target)"),
        ("GET", "(request-target) date", "host"),
        ("GET", "(request-target) host", "date"),
    ] {
        let headers =
            with_signature(&format!(r#"keyId="k",algorithm="rsa-sha256",headers="{listed}",signature="{sig}""#));
        let refusal = check_request(method, "/_quire/ap/inbox", &headers, b"", fedify_now()).unwrap_err();
        assert_eq!(refusal, Refusal::NotSigned(REQUIRED_POST.iter().find(|n| **n == missing).unwrap()));
        assert_eq!(refusal.to_string(), format!("the signature must cover {missing}"));
    }
    // No `headers` parameter means `date` only.
    let headers = with_signature(&format!(r#"keyId="k",signature="{sig}""#));
    let refusal = check_request("GET", "/", &headers, b"", fedify_now()).unwrap_err();
    assert_eq!(refusal, Refusal::NotSigned("(request-target)"));
}

#[test]
fn a_listed_header_the_request_lacks_is_refused() {
    let sig = B64.encode([7u8; 256]);
    let listed = "(request-target) host date x-extra";
    let headers = with_signature(&format!(r#"keyId="k",headers="{listed}",signature="{sig}""#));
    let refusal = check_request("GET", "/", &headers, b"", fedify_now()).unwrap_err();
    assert_eq!(refusal.to_string(), "the signed header x-extra is missing from the request");
}

#[test]
fn only_rsa_sha256_and_hs2019_are_accepted() {
    let sig = B64.encode([7u8; 256]);
    for (algorithm, ok) in [("rsa-sha256", true), ("RSA-SHA256", true), ("hs2019", true), ("hmac-sha256", false)] {
        let headers = with_signature(&format!(
            r#"keyId="k",algorithm="{algorithm}",headers="(request-target) host date",signature="{sig}""#
        ));
        let result = check_request("GET", "/", &headers, b"", fedify_now());
        assert_eq!(result.is_ok(), ok, "{algorithm}: {result:?}");
        if !ok {
            assert_eq!(
                result.unwrap_err().to_string(),
                r#"the signature algorithm "hmac-sha256" is not supported: use rsa-sha256"#
            );
        }
    }
}

#[test]
fn mastodon_shaped_headers_parse() {
    // Mastodon's outgoing form (algorithm given, content-type signed last) and its documentation's
    // example form (no algorithm), with spaces after the commas as some servers send.
    let sig = B64.encode([1u8; 256]);
    let sent = format!(
        r#"keyId="https://mastodon.example/users/alice#main-key",algorithm="rsa-sha256",headers="(request-target) host date digest content-type",signature="{sig}""#
    );
    let parsed = parse_signature(&sent).unwrap();
    assert_eq!(parsed.key_id, "https://mastodon.example/users/alice#main-key");
    assert_eq!(parsed.headers, ["(request-target)", "host", "date", "digest", "content-type"]);
    assert_eq!(parsed.signature, [1u8; 256]);
    let docs = format!(
        r#"keyId="https://my.example.com/actor#main-key", headers="(request-target) host date digest", signature="{sig}""#
    );
    let parsed = parse_signature(&docs).unwrap();
    assert_eq!(parsed.algorithm, None);
    assert_eq!(parsed.headers, ["(request-target)", "host", "date", "digest"]);
}

#[test]
fn malformed_headers_are_refused_with_the_reason() {
    let sig = B64.encode([1u8; 8]);
    for (raw, reason) in [
        ("garbage".to_owned(), "a parameter has no value"),
        (r#"keyId=k"#.to_owned(), "a value is not quoted"),
        (r#"keyId="k"#.to_owned(), "a quoted value is not closed"),
        (format!(r#"keyId="k" signature="{sig}""#), "parameters are not separated by commas"),
        (format!(r#"keyId="a",keyId="b",signature="{sig}""#), "a parameter is repeated"),
        (r#"keyId="k",signature="not base64!""#.to_owned(), "the signature is not base64"),
        (format!(r#"signature="{sig}""#), "it has no keyId"),
        (format!(r#"keyId="",signature="{sig}""#), "it has no keyId"),
        (r#"keyId="k""#.to_owned(), "it has no signature"),
        (format!(r#"keyId="{}",signature="{sig}""#, "k".repeat(MAX_SIGNATURE_HEADER)), "it is too long"),
    ] {
        let refusal = parse_signature(&raw).unwrap_err();
        assert_eq!(refusal, Refusal::Malformed(reason), "{raw}");
        assert_eq!(refusal.to_string(), format!("the Signature header is malformed: {reason}"));
    }
}

#[test]
fn outgoing_requests_carry_host_with_a_port_date_digest_and_pass_our_own_checks() {
    let url = url::Url::parse("http://127.0.0.1:40901/users/bob/inbox?x=1").unwrap();
    let now = fedify_now();
    let body = br#"{"type":"Accept"}"#;
    let out = outgoing("POST", &url, Some((body, "application/activity+json")), now);
    assert_eq!(out.signed_names, "(request-target) host date digest content-type");
    assert_eq!(
        out.signing_string,
        format!(
            "(request-target): post /users/bob/inbox?x=1\nhost: 127.0.0.1:40901\ndate: {}\ndigest: {}\n\
             content-type: application/activity+json",
            httpdate::fmt_http_date(now),
            digest_header(body)
        )
    );
    let header = signature_header("https://alice.example.com/_quire/ap/actor#main-key", &out.signed_names, &[9; 256]);
    let mut headers = HeaderMap::new();
    for (name, value) in &out.headers {
        headers.insert(*name, HeaderValue::from_str(value).unwrap());
    }
    headers.insert("signature", HeaderValue::from_str(&header).unwrap());
    let checked = check_request("POST", "/users/bob/inbox?x=1", &headers, body, now).unwrap();
    assert_eq!(checked.signing_string, out.signing_string);
    assert_eq!(checked.signature.signature, [9; 256]);
    // A default port is not written; a GET signs no digest.
    let get = outgoing("GET", &url::Url::parse("https://mastodon.example/users/bob").unwrap(), None, now);
    assert_eq!(get.signed_names, "(request-target) host date");
    assert!(get.signing_string.starts_with("(request-target): get /users/bob\nhost: mastodon.example\n"));
}

#[test]
fn repeated_headers_are_joined_and_a_digest_list_may_hold_other_algorithms() {
    let v = fedify();
    let body = v["body"].as_str().unwrap().as_bytes();
    let mut headers = headers_of(&v["post"]);
    headers.insert("digest", HeaderValue::from_str(&format!("SHA-512=xyz, {}", digest_header(body))).unwrap());
    let checked = check_request("POST", "/_quire/ap/inbox", &headers, body, fedify_now()).unwrap();
    assert!(checked.signing_string.contains("\ndigest: SHA-512=xyz, SHA-256="), "{}", checked.signing_string);
    headers.append("content-type", HeaderValue::from_static("text/plain"));
    let checked = check_request("POST", "/_quire/ap/inbox", &headers, body, fedify_now()).unwrap();
    assert!(checked.signing_string.contains("\ncontent-type: application/activity+json, text/plain\n"));
}
