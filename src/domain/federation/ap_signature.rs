//! draft-cavage HTTP signatures (`rsa-sha256`), the form Mastodon and Fedify send and check
//! (issue 16): the `Signature` header's parser, the signing string, the `Digest` header, and the
//! checks an inbox makes before any key is fetched (which headers are signed, the date window,
//! the digest). No keys and no I/O here: `fetch::signed` signs and verifies with ring.
//!
//! A POST must sign `(request-target) host date digest`, a GET `(request-target) host date`;
//! anything else listed (Mastodon adds `content-type`, Fedify signs every header it sends) is
//! put in the signing string in the order the sender listed it.
//!
//! The `Date` must be within [`DATE_WINDOW`] (an hour) of the clock and the `Digest`'s SHA-256
//! must match the body; a request signed only the RFC 9421 way is refused (a 401 makes Fedify
//! retry with draft-cavage). Fedify signs a target's path without its query, so
//! `fetch::signed::verify_checked` tries both. Each [`Refusal`] displays as a sentence the sender
//! can act on.

use std::time::{Duration, SystemTime};

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use http::HeaderMap;
use sha2::{Digest, Sha256};

/// How far a request's `Date` may be from our clock, either way.
pub const DATE_WINDOW: Duration = Duration::from_secs(3600);

/// The longest `Signature` header parsed (a 4096-bit signature is 684 base64 characters).
pub const MAX_SIGNATURE_HEADER: usize = 8192;

/// The headers a signed POST must cover.
pub const REQUIRED_POST: &[&str] = &["(request-target)", "host", "date", "digest"];

/// The headers a signed GET must cover.
pub const REQUIRED_GET: &[&str] = &["(request-target)", "host", "date"];

/// Why a signed request is refused; each is a 401 with this text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// No `Signature` header.
    #[error("the request is not signed: send a draft-cavage Signature header (rsa-sha256)")]
    Unsigned,
    /// Only an RFC 9421 signature (`Signature-Input`); a 401 makes Fedify retry with draft-cavage.
    #[error("RFC 9421 signatures are not accepted yet: sign with draft-cavage-http-signatures (rsa-sha256)")]
    Rfc9421Only,
    /// The `Signature` header does not parse.
    #[error("the Signature header is malformed: {0}")]
    Malformed(&'static str),
    /// An algorithm other than `rsa-sha256` (or `hs2019` with an RSA key).
    #[error("the signature algorithm {0:?} is not supported: use rsa-sha256")]
    Algorithm(String),
    /// A header that must be signed is not in the `headers` list.
    #[error("the signature must cover {0}")]
    NotSigned(&'static str),
    /// A header the signature lists is not in the request.
    #[error("the signed header {0} is missing from the request")]
    MissingHeader(String),
    /// The `Date` header is not an HTTP date.
    #[error("the Date header is not an HTTP date")]
    BadDate,
    /// The `Date` header is more than [`DATE_WINDOW`] from our clock.
    #[error("the Date header is more than an hour away from the server's clock")]
    Stale,
    /// The `Digest` header has no `SHA-256=` value.
    #[error("the Digest header has no SHA-256 value")]
    NoSha256Digest,
    /// The `Digest` header's SHA-256 is not the body's.
    #[error("the Digest header does not match the body")]
    Digest,
    /// The key the signature names is not an RSA public key in PEM (SPKI or PKCS#1).
    #[error("the key the signature names is not an RSA public key")]
    BadKey,
    /// The signature does not verify with the key it names.
    #[error("the signature does not verify with the key it names")]
    BadSignature,
    /// The same signature was seen within the replay window.
    #[error("this signature was already used")]
    Replayed,
}

/// A parsed `Signature` header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureHeader {
    /// The key's URL (`https://example.com/users/bob#main-key`).
    pub key_id: String,
    /// The algorithm, lowercased, if given.
    pub algorithm: Option<String>,
    /// The signed header names, lowercased, in the sender's order.
    pub headers: Vec<String>,
    /// The signature's bytes.
    pub signature: Vec<u8>,
}

/// Parses a `Signature` header: comma-separated `name="value"` parameters (values hold no `"`),
/// unknown parameters ignored, a repeated one refused. An absent `headers` means `date` only,
/// which [`check_request`] then refuses.
pub fn parse_signature(value: &str) -> Result<SignatureHeader, Refusal> {
    if value.len() > MAX_SIGNATURE_HEADER {
        return Err(Refusal::Malformed("it is too long"));
    }
    let (mut key_id, mut algorithm, mut headers, mut signature) = (None, None, None, None);
    let mut rest = value.trim();
    while !rest.is_empty() {
        let eq = rest.find('=').ok_or(Refusal::Malformed("a parameter has no value"))?;
        let name = rest[..eq].trim().to_ascii_lowercase();
        let after = rest[eq + 1..].trim_start();
        let after = after.strip_prefix('"').ok_or(Refusal::Malformed("a value is not quoted"))?;
        let end = after.find('"').ok_or(Refusal::Malformed("a quoted value is not closed"))?;
        let value = &after[..end];
        let slot_was_empty = match name.as_str() {
            "keyid" => key_id.replace(value.to_owned()).is_none(),
            "algorithm" => algorithm.replace(value.to_ascii_lowercase()).is_none(),
            "headers" => headers
                .replace(value.split_ascii_whitespace().map(str::to_ascii_lowercase).collect::<Vec<_>>())
                .is_none(),
            "signature" => signature
                .replace(B64.decode(value).map_err(|_| Refusal::Malformed("the signature is not base64"))?)
                .is_none(),
            _ => true,
        };
        if !slot_was_empty {
            return Err(Refusal::Malformed("a parameter is repeated"));
        }
        rest = after[end + 1..].trim_start();
        if !rest.is_empty() {
            rest = rest.strip_prefix(',').ok_or(Refusal::Malformed("parameters are not separated by commas"))?;
            rest = rest.trim_start();
        }
    }
    let key_id = key_id.filter(|k| !k.is_empty()).ok_or(Refusal::Malformed("it has no keyId"))?;
    let signature = signature.filter(|s| !s.is_empty()).ok_or(Refusal::Malformed("it has no signature"))?;
    Ok(SignatureHeader { key_id, algorithm, headers: headers.unwrap_or_else(|| vec!["date".to_owned()]), signature })
}

/// The `Digest` header of a body: `SHA-256=<base64>`.
pub fn digest_header(body: &[u8]) -> String {
    format!("SHA-256={}", B64.encode(Sha256::digest(body)))
}

/// The `(request-target)` value: the lowercased method, a space, the path and query.
pub fn request_target(method: &str, path_and_query: &str) -> String {
    format!("{} {path_and_query}", method.to_ascii_lowercase())
}

/// The signing string: one `name: value` line per listed header, in the listed order, joined by
/// `\n`. `value_of` answers a header's value as sent (several values already joined by `, `).
pub fn signing_string(
    names: &[String],
    target: &str,
    value_of: impl Fn(&str) -> Option<String>,
) -> Result<String, Refusal> {
    let mut lines = Vec::with_capacity(names.len());
    for name in names {
        if name == "(request-target)" {
            lines.push(format!("(request-target): {target}"));
        } else {
            let value = value_of(name).ok_or_else(|| Refusal::MissingHeader(name.clone()))?;
            lines.push(format!("{name}: {}", value.trim()));
        }
    }
    Ok(lines.join("\n"))
}

/// A header's values in the request, joined by `, ` as draft-cavage says; `None` when absent or
/// not visible ASCII.
fn header_value(headers: &HeaderMap, name: &str) -> Option<String> {
    let values: Option<Vec<&str>> = headers.get_all(name).iter().map(|v| v.to_str().ok().map(str::trim)).collect();
    values.filter(|v| !v.is_empty()).map(|v| v.join(", "))
}

/// An incoming request whose signature passed every check but the cryptographic one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// The parsed `Signature` header (its `key_id` names the key to verify with).
    pub signature: SignatureHeader,
    /// What the signature must verify over.
    pub signing_string: String,
    /// For a target with a query, the signing string without it: Fedify (2.3.6) signs and checks
    /// `(request-target)` as the path alone, against draft-cavage, so a signature that does not
    /// verify over [`Checked::signing_string`] is tried over this one.
    pub without_query: Option<String>,
}

impl Checked {
    /// The signing strings to try, in order.
    pub fn signing_strings(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.signing_string.as_str()).chain(self.without_query.as_deref())
    }
}

/// Checks a signed request before any key is fetched: a draft-cavage signature (an RFC 9421 one
/// alone is refused), a supported algorithm, the required headers signed (POST: `(request-target)
/// host date digest`; GET and the rest: `(request-target) host date`), the `Date` within
/// [`DATE_WINDOW`] of `now`, and for a POST the `Digest`'s SHA-256 matching `body`.
pub fn check_request(
    method: &str,
    path_and_query: &str,
    headers: &HeaderMap,
    body: &[u8],
    now: SystemTime,
) -> Result<Checked, Refusal> {
    if headers.contains_key("signature-input") {
        return Err(Refusal::Rfc9421Only);
    }
    let raw = headers.get("signature").ok_or(Refusal::Unsigned)?;
    let raw = raw.to_str().map_err(|_| Refusal::Malformed("it is not visible ASCII"))?;
    let parsed = parse_signature(raw)?;
    if let Some(algorithm) = &parsed.algorithm {
        // Mastodon also accepts hs2019 ("the key says"); the keys we verify with are RSA.
        if algorithm != "rsa-sha256" && algorithm != "hs2019" {
            return Err(Refusal::Algorithm(algorithm.clone()));
        }
    }
    let post = method.eq_ignore_ascii_case("POST");
    for name in if post { REQUIRED_POST } else { REQUIRED_GET } {
        if !parsed.headers.iter().any(|h| h == name) {
            return Err(Refusal::NotSigned(name));
        }
    }
    let date = header_value(headers, "date").ok_or_else(|| Refusal::MissingHeader("date".to_owned()))?;
    let date = httpdate::parse_http_date(&date).map_err(|_| Refusal::BadDate)?;
    let skew = now.duration_since(date).unwrap_or_else(|ahead| ahead.duration());
    if skew > DATE_WINDOW {
        return Err(Refusal::Stale);
    }
    if post {
        let digest = header_value(headers, "digest").ok_or_else(|| Refusal::MissingHeader("digest".to_owned()))?;
        check_digest(&digest, body)?;
    }
    let value_of = |name: &str| header_value(headers, name);
    let full = signing_string(&parsed.headers, &request_target(method, path_and_query), value_of)?;
    let without_query = match path_and_query.split_once('?') {
        Some((path, _)) => Some(signing_string(&parsed.headers, &request_target(method, path), value_of)?),
        None => None,
    };
    Ok(Checked { signature: parsed, signing_string: full, without_query })
}

/// The `Digest` header (possibly several `alg=value`, comma-separated) must carry the body's SHA-256.
fn check_digest(digest: &str, body: &[u8]) -> Result<(), Refusal> {
    let mut sha256 = digest
        .split(',')
        .filter_map(|d| d.trim().split_once('='))
        .filter(|(alg, _)| alg.trim().eq_ignore_ascii_case("sha-256"))
        .map(|(_, value)| value.trim())
        .peekable();
    if sha256.peek().is_none() {
        return Err(Refusal::NoSha256Digest);
    }
    let ours = B64.encode(Sha256::digest(body));
    if sha256.any(|value| value == ours) { Ok(()) } else { Err(Refusal::Digest) }
}

/// What an outgoing request must carry before its signature: its headers (`host`, `date`, and for
/// a body `digest` and `content-type`), the names to list, and the string to sign.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outgoing {
    /// The headers to send besides `Signature`, as (name, value).
    pub headers: Vec<(&'static str, String)>,
    /// The `headers` parameter of the signature: `(request-target) host date [digest content-type]`.
    pub signed_names: String,
    /// The string to sign.
    pub signing_string: String,
}

/// The signed headers of a request to `url` at `now`: a GET without a body, a POST with one
/// (sent as `content_type`). `host` carries the port when it is not the scheme's default, as
/// reqwest's own Host header does.
pub fn outgoing(method: &str, url: &url::Url, body: Option<(&[u8], &str)>, now: SystemTime) -> Outgoing {
    let host = match url.port() {
        Some(port) => format!("{}:{port}", url.host_str().unwrap_or_default()),
        None => url.host_str().unwrap_or_default().to_owned(),
    };
    let path_and_query = match url.query() {
        Some(query) => format!("{}?{query}", url.path()),
        None => url.path().to_owned(),
    };
    let mut headers = vec![("host", host), ("date", httpdate::fmt_http_date(now))];
    if let Some((body, content_type)) = body {
        headers.push(("digest", digest_header(body)));
        headers.push(("content-type", content_type.to_owned()));
    }
    let mut names = vec!["(request-target)"];
    let mut lines = vec![format!("(request-target): {}", request_target(method, &path_and_query))];
    for (name, value) in &headers {
        names.push(name);
        lines.push(format!("{name}: {value}"));
    }
    Outgoing { signed_names: names.join(" "), signing_string: lines.join("\n"), headers }
}

/// The `Signature` header for `signature` made by `key_id` over an [`Outgoing`]'s signing string.
pub fn signature_header(key_id: &str, signed_names: &str, signature: &[u8]) -> String {
    format!(r#"keyId="{key_id}",algorithm="rsa-sha256",headers="{signed_names}",signature="{}""#, B64.encode(signature))
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod proptests;
