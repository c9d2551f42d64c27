//! A post's version on the wire (issue 32, docs/edit-conflicts.md): the strong `ETag: "N"` of
//! a post's read and write answers, the raw `If-Match` header an update sends back, and the 409
//! answer of an update based on an older version, which carries the post as it is now so the
//! editor can show both sides. The rules are `domain::content::post_version`.

use poem::http::{HeaderValue, StatusCode, header};
use poem::web::Json;
use poem::{IntoResponse, Request, Response};
use serde::Serialize;
use ts_rs::TS;

use super::posts::PostJson;
use crate::domain::content::post_version::{STALE, etag};

/// The one message of a 409, under `version`: the API's error shape (`{errors: [{version}]}`).
#[derive(Serialize, TS)]
#[ts(export_to = "posts.ts")]
pub struct VersionRefusal {
    version: &'static str,
}

/// A 409: the update was based on an older version; nothing was saved. `post` is the post as
/// it is now, with its version, which a save sends back to replace it.
#[derive(Serialize, TS)]
#[ts(export_to = "posts.ts")]
pub struct StalePost<'a> {
    errors: Vec<VersionRefusal>,
    post: PostJson<'a>,
}

/// The `If-Match` header as sent (several lines joined as a list, refused as one; bytes that
/// are not text give an empty value, refused as malformed); `None` when absent.
pub fn if_match(req: &Request) -> Option<String> {
    let values: Vec<&str> =
        req.headers().get_all(header::IF_MATCH).iter().map(|value| value.to_str().unwrap_or("")).collect();
    (!values.is_empty()).then(|| values.join(", "))
}

/// `answer` with the strong ETag of `version`.
pub fn tagged(answer: impl IntoResponse, version: i64) -> Response {
    let mut response = answer.into_response();
    if let Ok(value) = HeaderValue::from_str(&etag(version)) {
        response.headers_mut().insert(header::ETAG, value);
    }
    response
}

/// The 409 for an update based on an older version than `post`'s, tagged with its version.
pub fn stale(post: PostJson<'_>, version: i64) -> Response {
    let answer = Json(StalePost { errors: vec![VersionRefusal { version: STALE }], post });
    tagged(answer.with_status(StatusCode::CONFLICT), version)
}
