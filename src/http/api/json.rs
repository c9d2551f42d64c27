//! `JsonBody<T>`: a request body parsed as JSON, with errors in Quire's shape.

use poem::web::RequestBody;
use poem::{FromRequest, Request};
use serde::de::DeserializeOwned;

use crate::error::Error;

/// A JSON request body (snake_case keys; unknown keys are ignored by the target types).
pub struct JsonBody<T>(pub T);

impl<'a, T: DeserializeOwned> FromRequest<'a> for JsonBody<T> {
    async fn from_request(_req: &'a Request, body: &mut RequestBody) -> poem::Result<Self> {
        let bytes = body
            .take()
            .map_err(|_| Error::bad_request("body", "The request body could not be read"))?
            .into_vec()
            .await
            .map_err(|_| Error::bad_request("body", "The request body could not be read"))?;
        // An empty body stands for `{}` (DELETE-like calls send none).
        let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) { b"{}" } else { &bytes };
        parse(bytes).map(JsonBody).map_err(Into::into)
    }
}

/// Syntax first (so truncated JSON is reported as such), then the shape.
fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Error> {
    serde_json::from_slice::<serde::de::IgnoredAny>(bytes)
        .map_err(|_| Error::bad_request("body", "The request body is not valid JSON"))?;
    serde_json::from_slice(bytes).map_err(|err| json_error(&err))
}

/// Maps a serde error to a message a client developer can act on.
fn json_error(err: &serde_json::Error) -> Error {
    use serde_json::error::Category;
    let text = err.to_string();
    match err.classify() {
        Category::Syntax | Category::Eof | Category::Io => {
            Error::bad_request("body", "The request body is not valid JSON")
        }
        Category::Data => {
            if let Some(field) = between(&text, "missing field `", "`") {
                return Error::bad_request(field, "Is required");
            }
            let detail = text.split(" at line ").next().unwrap_or(&text);
            Error::bad_request("body", format!("The request body has a wrong value: {detail}"))
        }
    }
}

fn between<'t>(text: &'t str, start: &str, end: &str) -> Option<&'t str> {
    let rest = &text[text.find(start)? + start.len()..];
    Some(&rest[..rest.find(end)?])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Body {
        subdomain: String,
    }

    fn field_of(input: &str) -> (String, String) {
        match parse::<Body>(input.as_bytes()).unwrap_err() {
            Error::BadRequest(m) => m.0[0].clone(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn missing_fields_wrong_types_and_broken_json_are_told_apart() {
        assert_eq!(field_of("{}"), ("subdomain".into(), "Is required".into()));
        assert_eq!(field_of("{\"subdomain\": 5}").0, "body");
        assert!(field_of("{\"subdomain\": 5}").1.contains("invalid type"));
        assert_eq!(field_of("{\"subdomain\": ").1, "The request body is not valid JSON");
        assert_eq!(field_of("[1,2").1, "The request body is not valid JSON");
    }
}
