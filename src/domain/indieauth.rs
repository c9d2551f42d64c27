//! IndieAuth's rules (indieauth.spec.indieweb.org, issue 37): what a client id and a redirect URI
//! may be, PKCE's S256 check, the scopes an app may ask for, and the codes. No I/O: fetching a
//! client's metadata (its name, its published redirect URIs) is `fetch`'s, storing a request
//! and its code `db::indieauth`'s.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};
use url::{Host, Url};

use crate::domain::access::{Scope, Scopes};

/// How long the owner has to approve or refuse, and the app to redeem its code.
pub const REQUEST_MINUTES: i64 = 10;
/// The longest `state` a client may send (it comes back in the redirect).
pub const MAX_STATE_CHARS: usize = 1024;
/// The longest client id or redirect URI kept.
pub const MAX_URL_CHARS: usize = 2048;

/// A client id as the specification allows it: an `https` or `http` URL with a path, no
/// fragment, no user name or password, no `.` or `..` segment, a domain name (or a loopback
/// address) for its host.
pub fn client_id(raw: &str) -> Result<Url, String> {
    let url = app_url(raw, "client_id")?;
    if let Some(Host::Ipv4(ip)) = url.host()
        && !ip.is_loopback()
    {
        return Err("client_id must name its host, not an IP address".to_owned());
    }
    if let Some(Host::Ipv6(ip)) = url.host()
        && !ip.is_loopback()
    {
        return Err("client_id must name its host, not an IP address".to_owned());
    }
    Ok(url)
}

/// A redirect URI: an `https` or `http` URL with no fragment and no user name or password.
pub fn redirect_uri(raw: &str) -> Result<Url, String> {
    app_url(raw, "redirect_uri")
}

fn app_url(raw: &str, name: &str) -> Result<Url, String> {
    if raw.len() > MAX_URL_CHARS {
        return Err(format!("{name} is longer than {MAX_URL_CHARS} characters"));
    }
    let url = Url::parse(raw).map_err(|_| format!("{name} is not a URL"))?;
    if !matches!(url.scheme(), "https" | "http") {
        return Err(format!("{name} must be an https or http URL"));
    }
    if url.fragment().is_some() {
        return Err(format!("{name} must not have a fragment"));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(format!("{name} must not carry a user name or password"));
    }
    if url.host().is_none() {
        return Err(format!("{name} must have a host"));
    }
    // `Url` resolves `.` and `..` away; the raw text must not have had them.
    let path = raw.split(['?', '#']).next().unwrap_or_default();
    if path.split('/').skip(3).any(|segment| segment == "." || segment == "..") {
        return Err(format!("{name} must not have . or .. segments"));
    }
    Ok(url)
}

/// Whether `redirect` is on the client's own origin (scheme, host and port), which needs no
/// published list of redirect URIs.
pub fn same_origin(redirect: &Url, client: &Url) -> bool {
    redirect.scheme() == client.scheme()
        && redirect.host_str() == client.host_str()
        && redirect.port_or_known_default() == client.port_or_known_default()
}

/// Whether a PKCE verifier is well formed (RFC 7636: 43 to 128 of `A-Z a-z 0-9 - . _ ~`).
pub fn is_verifier(verifier: &str) -> bool {
    (43..=128).contains(&verifier.len())
        && verifier.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'))
}

/// Whether `verifier` is the one `challenge` was made from with S256.
pub fn s256_matches(verifier: &str, challenge: &str) -> bool {
    if !is_verifier(verifier) {
        return false;
    }
    let made = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
    subtle::ConstantTimeEq::ct_eq(made.as_bytes(), challenge.as_bytes()).into()
}

/// Whether a code challenge has S256's shape (43 base64url characters).
pub fn is_challenge(challenge: &str) -> bool {
    challenge.len() == 43 && challenge.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_'))
}

/// The scopes of a space-separated `scope` Quire can grant (the Micropub ones); others (`profile`,
/// `email`, `read`, ...) are not granted and not refused, as OAuth allows. `profile` is noted: the
/// app asks to know who signed in, which `me` tells.
pub fn asked_scopes(scope: &str) -> (Vec<Scope>, bool) {
    let mut granted: Vec<Scope> = Vec::new();
    let mut profile = false;
    for name in scope.split(' ').filter(|name| !name.is_empty()) {
        match Scope::parse(name) {
            Some(scope) if !granted.contains(&scope) => granted.push(scope),
            Some(_) => {}
            None => profile |= name == "profile",
        }
    }
    granted.sort();
    (granted, profile)
}

/// The granted scopes as a token's, or none for a sign-in that only asks who the owner is.
pub fn token_scopes(granted: &[Scope]) -> Option<Scopes> {
    Scopes::from_names(granted.iter().map(|scope| scope.name())).ok()
}

/// A new authorization code or request handle: 256 random bits, base64url.
pub fn new_secret() -> String {
    let bytes: [u8; 32] = rand::random();
    URL_SAFE_NO_PAD.encode(bytes)
}

/// Whether `s` has the shape of [`new_secret`]'s (anything else is refused without a lookup).
pub fn is_secret(s: &str) -> bool {
    s.len() == 43 && s.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_ids_follow_the_specification() {
        assert!(client_id("https://app.example.com/").is_ok());
        assert!(client_id("https://app.example.com/client?x=1").is_ok());
        assert!(client_id("http://localhost:8080/").is_ok());
        assert!(client_id("http://127.0.0.1:8080/").is_ok());
        for bad in [
            "app.example.com",
            "ftp://app.example.com/",
            "https://app.example.com/#frag",
            "https://user:pw@app.example.com/",
            "https://app.example.com/a/../b",
            "https://app.example.com/./b",
            "https://10.0.0.1/",
            "https://[2001:db8::1]/",
        ] {
            assert!(client_id(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_redirect_on_the_clients_origin_needs_nothing_published() {
        let client = client_id("https://app.example.com/").unwrap();
        assert!(same_origin(&redirect_uri("https://app.example.com/callback").unwrap(), &client));
        assert!(same_origin(&redirect_uri("https://app.example.com:443/cb").unwrap(), &client));
        assert!(!same_origin(&redirect_uri("https://evil.example/callback").unwrap(), &client));
        assert!(!same_origin(&redirect_uri("http://app.example.com/callback").unwrap(), &client));
        assert!(!same_origin(&redirect_uri("https://app.example.com:8443/cb").unwrap(), &client));
    }

    #[test]
    fn pkce_s256_is_checked() {
        // RFC 7636, appendix B.
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
        assert!(is_challenge(challenge));
        assert!(s256_matches(verifier, challenge));
        assert!(!s256_matches("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXx", challenge));
        assert!(!s256_matches("short", challenge));
        assert!(!is_challenge("plain-text-challenge"));
    }

    #[test]
    fn only_micropub_scopes_are_granted() {
        let (granted, profile) = asked_scopes("profile create  media create read email");
        assert_eq!(granted, [Scope::Create, Scope::Media]);
        assert!(profile);
        assert_eq!(asked_scopes("").0, []);
        assert_eq!(token_scopes(&[]), None);
        assert!(token_scopes(&[Scope::Create]).is_some());
    }

    #[test]
    fn secrets_have_one_shape() {
        let (a, b) = (new_secret(), new_secret());
        assert!(is_secret(&a) && is_secret(&b) && a != b);
        assert!(!is_secret(&a[1..]) && !is_secret(&format!("{a}!")[1..]));
    }
}
