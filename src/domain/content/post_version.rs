//! A post's version (issue 32, docs/edit-conflicts.md): the number every change of what the
//! editor shows raises by one, its strong ETag (`"N"`), and the version an update says it was
//! based on, from its `If-Match` header or its `version` field. An update that names one is
//! refused when the post moved on (409); one that names none is saved as before.

use serde_json::Value;

use crate::domain::messages::Messages;

/// The largest version taken: the largest integer JavaScript holds exactly.
pub const MAX_VERSION: i64 = (1 << 53) - 1;

/// The message of a 409: the post changed since the client read it.
pub const STALE: &str = "This post was changed in another tab or device since you opened it.";

/// The field the refusals are keyed by.
const FIELD: &str = "version";

/// The strong ETag of version `n`: `"n"`.
pub fn etag(version: i64) -> String {
    format!("\"{version}\"")
}

/// The version an update was based on: from `if_match` (the raw `If-Match` header) and/or
/// `field` (the body's `version`), `None` when neither is sent. A malformed one, or two that
/// disagree, is refused (422 on `version`).
pub fn expected(if_match: Option<&str>, field: Option<&Value>) -> Result<Option<i64>, Messages> {
    let header = if_match.map(from_header).transpose()?.flatten();
    let field = field.filter(|value| !value.is_null()).map(from_field).transpose()?;
    match (header, field) {
        (Some(h), Some(f)) if h != f => {
            Err(refused("The If-Match header and the version field name different versions"))
        }
        (header, field) => Ok(header.or(field)),
    }
}

/// `"N"` as the `If-Match` header sends it; `*` (any version) checks nothing.
fn from_header(raw: &str) -> Result<Option<i64>, Messages> {
    let raw = raw.trim();
    if raw == "*" {
        return Ok(None);
    }
    if raw.starts_with("W/") {
        return Err(refused("If-Match takes the post's strong ETag (\"N\"), not a weak one"));
    }
    if raw.contains(',') {
        return Err(refused("If-Match takes one ETag, not a list"));
    }
    let digits = raw.strip_prefix('"').and_then(|rest| rest.strip_suffix('"'));
    let Some(digits) = digits.filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())) else {
        return Err(refused("If-Match takes the post's ETag, a version number in quotes (\"3\")"));
    };
    // At most 16 digits: MAX_VERSION has 16, and a longer run is refused before it is parsed.
    let version = if digits.len() <= 16 { digits.parse::<i64>().ok() } else { None };
    in_range(version).map(Some)
}

/// The body's `version`: a whole number.
fn from_field(value: &Value) -> Result<i64, Messages> {
    match value {
        Value::Number(n) => in_range(n.as_i64()),
        _ => Err(refused("The version is a whole number")),
    }
}

fn in_range(version: Option<i64>) -> Result<i64, Messages> {
    match version {
        Some(n) if (1..=MAX_VERSION).contains(&n) => Ok(n),
        _ => Err(refused(format!("The version is a whole number from 1 to {MAX_VERSION}"))),
    }
}

fn refused(message: impl Into<String>) -> Messages {
    Messages::one(FIELD, message)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_quoted_number_or_a_whole_number_field_names_the_version() {
        assert_eq!(expected(Some("\"3\""), None), Ok(Some(3)));
        assert_eq!(expected(Some(" \"12\" "), None), Ok(Some(12)));
        assert_eq!(expected(None, Some(&json!(7))), Ok(Some(7)));
        assert_eq!(expected(Some("\"7\""), Some(&json!(7))), Ok(Some(7)));
        assert_eq!(expected(None, Some(&json!(MAX_VERSION))), Ok(Some(MAX_VERSION)));
        assert_eq!(etag(4), "\"4\"");
    }

    #[test]
    fn nothing_sent_or_a_star_checks_nothing() {
        assert_eq!(expected(None, None), Ok(None));
        assert_eq!(expected(None, Some(&Value::Null)), Ok(None));
        assert_eq!(expected(Some("*"), None), Ok(None));
    }

    #[test]
    fn malformed_versions_are_refused_on_the_version_field() {
        let headers = [
            "3",
            "\"\"",
            "\"-1\"",
            "\"0\"",
            "\"1.5\"",
            "\"abc\"",
            "W/\"3\"",
            "\"3\", \"4\"",
            "\"99999999999999999999\"",
            "\"9007199254740992\"",
            "\"+3\"",
            "\"3",
        ];
        for header in headers {
            let refused = expected(Some(header), None).expect_err(header);
            assert_eq!(refused.0[0].0, "version", "{header}");
        }
        for field in [json!("3"), json!(-1), json!(0), json!(1.5), json!(1e300), json!(MAX_VERSION + 1), json!([3])] {
            assert!(expected(None, Some(&field)).is_err(), "{field}");
        }
    }

    #[test]
    fn a_header_and_a_field_that_disagree_are_refused() {
        let refused = expected(Some("\"3\""), Some(&json!(4))).unwrap_err();
        assert!(refused.0[0].1.contains("different versions"));
    }
}
