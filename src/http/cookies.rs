//! Reading and writing the few cookies Quire uses. All are host-only (no Domain), so blog
//! subdomains never receive them.

use poem::Request;

/// Lifetime given to long-lived cookies; the server decides when a session really ends.
pub const LONG_MAX_AGE: u64 = 400 * 24 * 3600;

/// The value of cookie `name` on the request, if any.
pub fn get<'a>(req: &'a Request, name: &str) -> Option<&'a str> {
    req.headers()
        .get_all(poem::http::header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|header| header.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value)
        .filter(|value| !value.is_empty())
}

/// A `Set-Cookie` value for a host-only cookie on `/`.
pub fn set(name: &str, value: &str, http_only: bool, secure: bool, max_age: Option<u64>) -> String {
    let mut cookie = format!("{name}={value}; Path=/; SameSite=Lax");
    if let Some(max_age) = max_age {
        cookie.push_str(&format!("; Max-Age={max_age}"));
    }
    if http_only {
        cookie.push_str("; HttpOnly");
    }
    if secure {
        cookie.push_str("; Secure");
    }
    cookie
}

/// A `Set-Cookie` value that deletes cookie `name`.
pub fn clear(name: &str, secure: bool) -> String {
    set(name, "", false, secure, Some(0))
}

/// A random token of 32 bytes in hex.
pub fn random_token() -> String {
    let bytes: [u8; 32] = rand::random();
    hex::encode(bytes)
}
