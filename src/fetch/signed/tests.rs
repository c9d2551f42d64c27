use std::time::{Duration, SystemTime};

use http::{HeaderMap, HeaderName, HeaderValue};

use rsa::pkcs8::DecodePublicKey;

use super::*;
use crate::domain::federation::ap_signature::check_request;

/// Fedify 2.3.6's signed POST and GET (see `domain/ap_signature/tests.rs`).
const FEDIFY: &str = include_str!("../../domain/federation/ap_signature/fedify-2.3.6.json");

/// A 2048-bit key made by OpenSSL, its SPKI PEM, and OpenSSL's signature of a Mastodon-shaped
/// signing string with it (`openssl dgst -sha256 -sign`). Test-only.
const OPENSSL: &str = include_str!("openssl-2048.json");

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap()
}

fn header_map(headers: impl IntoIterator<Item = (String, String)>) -> HeaderMap {
    let mut map = HeaderMap::new();
    for (name, value) in headers {
        map.append(HeaderName::from_bytes(name.as_bytes()).unwrap(), HeaderValue::from_str(&value).unwrap());
    }
    map
}

fn signed_map(headers: &[(&'static str, String)]) -> HeaderMap {
    header_map(headers.iter().map(|(n, v)| ((*n).to_owned(), v.clone())))
}

fn fedify_request(v: &serde_json::Value, which: &str) -> HeaderMap {
    header_map(v[which].as_object().unwrap().iter().map(|(n, v)| (n.clone(), v.as_str().unwrap().to_owned())))
}

#[test]
fn signatures_made_by_fedify_verify_and_fail_when_anything_changes() {
    let v = json(FEDIFY);
    let pem = v["public_pem"].as_str().unwrap();
    let now = httpdate::parse_http_date("Tue, 24 Nov 2026 10:06:33 GMT").unwrap() + Duration::from_secs(1);
    let body = v["body"].as_str().unwrap().as_bytes();
    let post = check_request("POST", "/_quire/ap/inbox", &fedify_request(&v, "post"), body, now).unwrap();
    verify(&post.signing_string, &post.signature.signature, pem).unwrap();
    verify_checked(&post, pem).unwrap();
    // Fedify signs a GET's (request-target) without its query (draft-cavage includes it).
    let get = check_request("GET", "/_quire/ap/actor?page=1", &fedify_request(&v, "get"), b"", now).unwrap();
    assert_eq!(verify(&get.signing_string, &get.signature.signature, pem), Err(Refusal::BadSignature));
    verify(get.without_query.as_deref().unwrap(), &get.signature.signature, pem).unwrap();
    verify_checked(&get, pem).unwrap();
    let other_page = check_request("GET", "/_quire/ap/outbox?page=1", &fedify_request(&v, "get"), b"", now).unwrap();
    assert_eq!(verify_checked(&other_page, pem), Err(Refusal::BadSignature));
    // Another target, another key, a flipped bit.
    let moved = check_request("POST", "/inbox", &fedify_request(&v, "post"), body, now).unwrap();
    assert_eq!(verify_checked(&moved, pem), Err(Refusal::BadSignature));
    let other = generate_key().unwrap();
    assert_eq!(verify(&post.signing_string, &post.signature.signature, other.public_pem()), Err(Refusal::BadSignature));
    let mut flipped = post.signature.signature.clone();
    flipped[100] ^= 1;
    assert_eq!(verify(&post.signing_string, &flipped, pem), Err(Refusal::BadSignature));
}

#[test]
fn an_openssl_key_loads_signs_exactly_as_openssl_does_and_verifies() {
    let v = json(OPENSSL);
    let der = B64.decode(v["private_pkcs8_base64"].as_str().unwrap()).unwrap();
    let key = SigningKey::from_pkcs8(&der).unwrap();
    assert_eq!(key.public_pem().trim(), v["public_pem"].as_str().unwrap().trim(), "the same SPKI PEM as openssl's");
    let text = v["signing_string"].as_str().unwrap();
    let openssl = B64.decode(v["signature"].as_str().unwrap()).unwrap();
    // PKCS#1 v1.5 is deterministic: ring's signature is byte for byte OpenSSL's.
    assert_eq!(key.sign_bytes(text.as_bytes()).unwrap(), openssl);
    verify(text, &openssl, v["public_pem"].as_str().unwrap()).unwrap();
    assert_eq!(verify(&text.replace("post", "get"), &openssl, key.public_pem()), Err(Refusal::BadSignature));
}

#[test]
fn a_generated_key_round_trips_through_pkcs8_and_signs_requests_that_verify() {
    let key = generate_key().unwrap();
    assert!(key.public_pem().starts_with("-----BEGIN PUBLIC KEY-----\n"), "{}", key.public_pem());
    let again = SigningKey::from_pkcs8(key.pkcs8_der()).unwrap();
    assert_eq!(again.public_pem(), key.public_pem());
    let url = url::Url::parse("http://127.0.0.1:40901/users/bob/inbox").unwrap();
    let now = SystemTime::now();
    let body = br#"{"type":"Accept"}"#;
    let key_id = "https://alice.example.com/_quire/ap/actor#main-key";
    let headers = again.sign(key_id, "POST", &url, Some((body, "application/activity+json")), now).unwrap();
    assert_eq!(headers.last().unwrap().0, "signature");
    let checked = check_request("POST", "/users/bob/inbox", &signed_map(&headers), body, now).unwrap();
    assert_eq!(checked.signature.key_id, key_id);
    assert_eq!(checked.signature.signature.len(), KEY_BITS / 8);
    verify(&checked.signing_string, &checked.signature.signature, key.public_pem()).unwrap();
    // A changed header the signature covers fails verification.
    let mut tampered = signed_map(&headers);
    tampered.insert("content-type", HeaderValue::from_static("application/json"));
    let checked = check_request("POST", "/users/bob/inbox", &tampered, body, now).unwrap();
    assert_eq!(verify_checked(&checked, key.public_pem()), Err(Refusal::BadSignature));
    // A signed GET.
    let headers =
        key.sign(key_id, "GET", &url::Url::parse("https://remote.example/users/bob").unwrap(), None, now).unwrap();
    let checked = check_request("GET", "/users/bob", &signed_map(&headers), b"", now).unwrap();
    verify(&checked.signing_string, &checked.signature.signature, key.public_pem()).unwrap();
}

#[test]
fn keys_that_are_not_rsa_public_keys_are_refused_as_such() {
    let key = generate_key().unwrap();
    let sig = key.sign_bytes(b"x").unwrap();
    let ec = "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEeA07DTykZl96gIZJnQcdyE+jb+Mb\n1HBZy+thVMfQEtmcgEdOIWV6k81pVqje+URUQmJGd/sNQ5BnyovetoaCig==\n-----END PUBLIC KEY-----\n";
    for pem in ["", "not a key", "-----BEGIN PUBLIC KEY-----\n!!\n-----END PUBLIC KEY-----", ec] {
        assert_eq!(verify("x", &sig, pem), Err(Refusal::BadKey), "{pem:?}");
    }
    assert_eq!(Refusal::BadKey.to_string(), "the key the signature names is not an RSA public key");
    // A PEM with CRLF lines and a PKCS#1 `RSA PUBLIC KEY` both load.
    verify("x", &sig, &key.public_pem().replace('\n', "\r\n")).unwrap();
    let pkcs1 = rsa::pkcs1::EncodeRsaPublicKey::to_pkcs1_pem(
        &rsa::RsaPublicKey::from_public_key_pem(key.public_pem()).unwrap(),
        LineEnding::LF,
    )
    .unwrap();
    verify("x", &sig, &pkcs1).unwrap();
    assert!(SigningKey::from_pkcs8(b"not a key").is_err());
}
