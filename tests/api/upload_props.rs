//! Property test of `POST /api/images` over real HTTP: multipart bodies of any shape (odd
//! boundaries, broken framing, missing or doubled parts, wrong content types, random bytes)
//! from a signed-in owner are answered with a status from the API's list and the JSON error
//! shape, never a 500.

use proptest::prelude::*;
use reqwest::header::{CONTENT_TYPE, HeaderValue};
use serde_json::Value;

use crate::helpers::TestApp;

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\xcf\xc0\xf0\x1f\x00\x05\x00\x01\xff\x89\x99=\x1d\x00\x00\x00\x00IEND\xaeB`\x82";

/// One request: its Content-Type header (if any) and its body.
#[derive(Debug, Clone)]
struct Upload {
    content_type: Option<String>,
    body: Vec<u8>,
}

/// One part of a multipart body.
#[derive(Debug, Clone)]
struct Part {
    disposition: Option<String>,
    content_type: Option<&'static str>,
    content: Vec<u8>,
}

fn boundary() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[A-Za-z0-9'()+_,./:=?-]{1,70}",
        1 => Just(String::new()),
        1 => "[ -~]{0,100}",
        1 => "[a-z]{200,300}",
        1 => any::<String>(),
    ]
}

fn content_type(boundary: String) -> impl Strategy<Value = Option<String>> {
    let b = boundary.clone();
    prop_oneof![
        6 => Just(Some(format!("multipart/form-data; boundary={boundary}"))),
        1 => Just(Some(format!("multipart/form-data; boundary=\"{b}\""))),
        1 => Just(Some(format!("MULTIPART/FORM-DATA; BOUNDARY={b}"))),
        1 => Just(Some("multipart/form-data".to_owned())),
        1 => Just(Some(format!("multipart/form-data; boundary={b}; boundary=other"))),
        1 => Just(Some(format!("multipart/mixed; boundary={b}"))),
        1 => prop::sample::select(vec!["application/json", "text/plain", "image/png", "multipart/form-data; boundary="])
            .prop_map(|t| Some(t.to_owned())),
        1 => Just(None),
    ]
}

fn content() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        3 => prop::collection::vec(any::<u8>(), 0..64).prop_map(|tail| [PNG, &tail].concat()),
        1 => prop::collection::vec(any::<u8>(), 0..64).prop_map(|tail| [b"GIF89a".as_slice(), &tail].concat()),
        1 => prop::collection::vec(any::<u8>(), 0..64).prop_map(|tail| [[0xFF, 0xD8, 0xFF].as_slice(), &tail].concat()),
        1 => Just(Vec::new()),
        2 => prop::collection::vec(any::<u8>(), 0..2000),
        1 => (1usize..40_000).prop_map(|n| [PNG, &vec![b'-'; n]].concat()),
    ]
}

fn part() -> impl Strategy<Value = Part> {
    let name = prop_oneof![
        4 => Just("image".to_owned()),
        1 => Just("type".to_owned()),
        1 => Just("IMAGE".to_owned()),
        1 => "[ -~]{0,20}",
        1 => any::<String>(),
    ];
    let disposition = (name, prop::option::of("[ -~]{0,30}"), 0..6u8).prop_map(|(name, file, shape)| match shape {
        0 => None,
        1 => Some(format!("form-data; name={name}")),
        2 => Some(format!("attachment; name=\"{name}\"")),
        3 => Some("form-data".to_owned()),
        _ => Some(match file {
            Some(file) => format!("form-data; name=\"{name}\"; filename=\"{file}\""),
            None => format!("form-data; name=\"{name}\""),
        }),
    });
    let content_type =
        prop::option::of(prop::sample::select(vec!["image/png", "text/html", "", "multipart/mixed; boundary=x"]));
    (disposition, content_type, content()).prop_map(|(disposition, content_type, content)| Part {
        disposition,
        content_type,
        content,
    })
}

/// A multipart body around `parts`, framed well or not.
fn framed(boundary: String) -> impl Strategy<Value = Vec<u8>> {
    let delimiter = prop_oneof![4 => Just(boundary.clone()), 1 => boundary_of_another()];
    (
        prop::collection::vec(part(), 0..4),
        delimiter,
        prop::sample::select(vec!["\r\n", "\n"]),
        prop::collection::vec(any::<u8>(), 0..20),
        any::<bool>(),
        prop::option::of(any::<prop::sample::Index>()),
    )
        .prop_map(|(parts, delimiter, eol, preamble, closed, cut)| {
            let mut body = preamble;
            body.extend_from_slice(eol.as_bytes());
            for part in parts {
                body.extend_from_slice(format!("--{delimiter}{eol}").as_bytes());
                if let Some(disposition) = part.disposition {
                    body.extend_from_slice(format!("Content-Disposition: {disposition}{eol}").as_bytes());
                }
                if let Some(content_type) = part.content_type {
                    body.extend_from_slice(format!("Content-Type: {content_type}{eol}").as_bytes());
                }
                body.extend_from_slice(eol.as_bytes());
                body.extend_from_slice(&part.content);
                body.extend_from_slice(eol.as_bytes());
            }
            if closed {
                body.extend_from_slice(format!("--{delimiter}--{eol}").as_bytes());
            }
            if let Some(cut) = cut {
                body.truncate(cut.index(body.len() + 1));
            }
            body
        })
}

fn boundary_of_another() -> impl Strategy<Value = String> {
    "[A-Za-z0-9]{1,20}"
}

fn upload() -> impl Strategy<Value = Upload> {
    let odd = boundary().prop_flat_map(|boundary| {
        let body = prop_oneof![4 => framed(boundary.clone()), 1 => prop::collection::vec(any::<u8>(), 0..3000)];
        (content_type(boundary), body).prop_map(|(content_type, body)| Upload { content_type, body })
    });
    prop_oneof![3 => odd, 1 => well_formed()]
}

/// What the owner app sends: a `type` field and the `image` file, with some image's bytes.
fn well_formed() -> impl Strategy<Value = Upload> {
    ("[A-Za-z0-9]{1,40}", content()).prop_map(|(boundary, content)| {
        let mut body = format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"type\"\r\n\r\nfile\r\n\
             --{boundary}\r\nContent-Disposition: form-data; name=\"image\"; filename=\"a.png\"\r\n\
             Content-Type: image/png\r\n\r\n"
        )
        .into_bytes();
        body.extend_from_slice(&content);
        body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
        Upload { content_type: Some(format!("multipart/form-data; boundary={boundary}")), body }
    })
}

#[test]
fn uploads_of_any_shape_are_answered_without_a_server_error() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let app = runtime.block_on(async {
        let app = TestApp::spawn().await;
        app.browser.sign_up("alice@example.com").await;
        app
    });
    let csrf = app.browser.cookie("csrf_token").expect("csrf cookie");
    let config = ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() };
    let stored = std::cell::Cell::new(0);
    proptest!(config, |(upload in upload())| {
        let header = upload.content_type.as_deref().map(HeaderValue::from_str);
        prop_assume!(!matches!(header, Some(Err(_))), "not a value a client can send");
        let mut request = app.client.post(format!("{}/api/images", app.url)).header("CSRF-Token", &csrf).body(upload.body.clone());
        if let Some(Ok(header)) = header {
            request = request.header(CONTENT_TYPE, header);
        }
        let (status, body) = runtime.block_on(async {
            let resp = request.send().await.expect("the server answers");
            (resp.status().as_u16(), resp.bytes().await.expect("a whole answer"))
        });
        prop_assert!([200, 400, 413, 422].contains(&status), "status {}: {}", status, String::from_utf8_lossy(&body));
        let json: Value = serde_json::from_slice(&body).expect("a JSON answer");
        if status == 200 {
            let media = format!("{}/media/", app.url);
            prop_assert!(json["data"]["link"].as_str().is_some_and(|link| link.starts_with(&media)), "{}", json);
            stored.set(stored.get() + 1);
        } else {
            let errors = json["errors"].as_array().expect("the error shape");
            prop_assert!(!errors.is_empty() && errors.iter().all(|e| e.as_object().is_some_and(|e| e.len() == 1)));
        }
    });
    assert!(stored.get() > 0, "some uploads are well-formed, so the storing path was exercised too");
    let health = runtime.block_on(async { app.get("/healthz").await.status() });
    assert_eq!(health, 200, "the server still serves");
}
