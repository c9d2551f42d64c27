//! OpenID Connect ID-token verification: one code path for Google, any issuer found
//! through discovery, and Quire's own local issuer.
//!
//! Checks: signature against the issuer's JWKS with RS256 or ES256 only (so
//! `alg: none` and HMAC tokens never verify), exact `iss`, `aud` holding our client ID,
//! `exp` and `iat` with at most 60 s leeway, and the nonce bound to this browser.

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde::Deserialize;
use tokio::sync::Mutex;

use crate::domain::identity::Identity;
use crate::error::{Error, Messages};

/// Allowed clock skew between us and the issuer.
pub const LEEWAY_SECS: u64 = 60;
/// Unknown-`kid` JWKS refetches allowed per minute (a key rotation needs one; a flood of
/// made-up kids gets no more than this).
const REFETCHES_PER_MINUTE: u32 = 3;
/// JWKS lifetime when the issuer sends no usable Cache-Control.
const DEFAULT_JWKS_TTL: Duration = Duration::from_secs(3600);
/// Longest a JWKS is trusted without a refetch, whatever its Cache-Control says (a revoked
/// key must not stay trusted for years, and a huge max-age must not overflow the clock).
const MAX_JWKS_TTL: Duration = Duration::from_secs(24 * 60 * 60);

#[derive(Debug, Deserialize)]
struct Claims {
    iss: String,
    sub: String,
    iat: u64,
    #[serde(default)]
    nonce: Option<String>,
    #[serde(default)]
    email: Option<String>,
    #[serde(default)]
    name: Option<String>,
}

/// Where the signing keys come from.
enum Keys {
    /// Fetched from the issuer's `jwks_uri` (found by discovery) and cached.
    Remote(Remote),
    /// The local issuer's own key set, held in memory.
    Local(Arc<JwkSet>),
}

struct Remote {
    http: reqwest::Client,
    issuer: String,
    state: Mutex<RemoteState>,
    refetches: DefaultDirectRateLimiter,
}

#[derive(Default)]
struct RemoteState {
    discovery: Option<Discovery>,
    keys: Option<JwkSet>,
    fresh_until: Option<Instant>,
}

/// The parts of an issuer's discovery document Quire uses.
#[derive(Debug, Clone, Deserialize)]
pub struct Discovery {
    /// The issuer, which must equal the configured one.
    pub issuer: String,
    /// Where the sign-in popup goes.
    pub authorization_endpoint: String,
    /// The signing keys.
    pub jwks_uri: String,
}

/// Verifies ID tokens of one issuer for one client.
pub struct Verifier {
    issuer: String,
    accepted_issuers: Vec<String>,
    client_id: String,
    keys: Keys,
}

impl Verifier {
    /// A verifier for a remote issuer (discovery at `{issuer}/.well-known/openid-configuration`).
    pub fn remote(issuer: &str, client_id: &str) -> anyhow::Result<Verifier> {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .user_agent(concat!("quire/", env!("CARGO_PKG_VERSION")))
            .build()?;
        // Google documents both spellings of its issuer in ID tokens.
        let mut accepted_issuers = vec![issuer.to_owned()];
        if issuer == crate::config::GOOGLE_ISSUER {
            accepted_issuers.push("accounts.google.com".to_owned());
        }
        Ok(Verifier {
            issuer: issuer.to_owned(),
            accepted_issuers,
            client_id: client_id.to_owned(),
            keys: Keys::Remote(Remote {
                http,
                issuer: issuer.to_owned(),
                state: Mutex::new(RemoteState::default()),
                refetches: RateLimiter::direct(Quota::per_minute(
                    NonZeroU32::new(REFETCHES_PER_MINUTE).expect("non-zero"),
                )),
            }),
        })
    }

    /// A verifier for the local issuer, whose keys are in memory.
    pub fn local(issuer: &str, client_id: &str, keys: Arc<JwkSet>) -> Verifier {
        Verifier {
            issuer: issuer.to_owned(),
            accepted_issuers: vec![issuer.to_owned()],
            client_id: client_id.to_owned(),
            keys: Keys::Local(keys),
        }
    }

    /// The issuer URL.
    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// The OAuth client ID.
    pub fn client_id(&self) -> &str {
        &self.client_id
    }

    /// The authorization endpoint for the popup (from discovery for remote issuers).
    pub async fn authorization_endpoint(&self) -> Result<String, Error> {
        match &self.keys {
            Keys::Local(_) => Ok(format!("{}/authorize", self.issuer)),
            Keys::Remote(remote) => Ok(remote.discovery().await?.authorization_endpoint),
        }
    }

    /// Verifies `token` and that its nonce is `expected_nonce`.
    pub async fn verify(&self, token: &str, expected_nonce: &str) -> Result<Identity, Error> {
        let header = jsonwebtoken::decode_header(token).map_err(|_| invalid("The sign-in token is malformed"))?;
        if !matches!(header.alg, Algorithm::RS256 | Algorithm::ES256) {
            return Err(invalid("The sign-in token is signed with an algorithm Quire does not accept"));
        }
        let kid = header.kid.as_deref().ok_or_else(|| invalid("The sign-in token names no signing key"))?;
        let key = match &self.keys {
            Keys::Local(set) => set.find(kid).cloned(),
            Keys::Remote(remote) => remote.key(kid).await?,
        }
        .ok_or_else(|| invalid("The sign-in token is signed with an unknown key"))?;
        let key = DecodingKey::from_jwk(&key).map_err(|_| invalid("The issuer's signing key is unusable"))?;

        let mut validation = Validation::new(header.alg);
        validation.leeway = LEEWAY_SECS;
        validation.set_issuer(&self.accepted_issuers);
        validation.set_audience(&[&self.client_id]);
        validation.set_required_spec_claims(&["exp", "iat", "iss", "aud", "sub"]);
        let data = jsonwebtoken::decode::<Claims>(token, &key, &validation).map_err(|err| {
            use jsonwebtoken::errors::ErrorKind;
            match err.kind() {
                ErrorKind::ExpiredSignature => invalid("The sign-in token has expired; sign in again"),
                ErrorKind::InvalidIssuer => invalid("The sign-in token comes from another issuer"),
                ErrorKind::InvalidAudience => invalid("The sign-in token was issued for another application"),
                ErrorKind::InvalidSignature => invalid("The sign-in token's signature is not valid"),
                _ => invalid("The sign-in token is not valid"),
            }
        })?;
        let claims = data.claims;
        let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default().as_secs();
        if claims.iat > now + LEEWAY_SECS {
            return Err(invalid("The sign-in token is issued in the future; check the server's clock"));
        }
        let nonce_matches =
            claims.nonce.as_deref().is_some_and(|nonce| crate::auth::constant_time_eq(nonce, expected_nonce));
        if !nonce_matches {
            return Err(invalid("The sign-in token was not requested by this browser; sign in again"));
        }
        Ok(Identity {
            issuer: claims.iss,
            subject: claims.sub,
            email: claims.email.unwrap_or_default(),
            name: claims.name.unwrap_or_default(),
        })
    }
}

fn invalid(message: &str) -> Error {
    Error::Unauthorized(Messages::one("idToken", message))
}

impl Remote {
    async fn discovery(&self) -> Result<Discovery, Error> {
        let mut state = self.state.lock().await;
        if let Some(discovery) = &state.discovery {
            return Ok(discovery.clone());
        }
        let url = format!("{}/.well-known/openid-configuration", self.issuer);
        let discovery: Discovery = self
            .http
            .get(&url)
            .send()
            .await
            .and_then(reqwest::Response::error_for_status)
            .map_err(|err| upstream(format!("fetching {url}: {err}")))?
            .json()
            .await
            .map_err(|err| upstream(format!("reading {url}: {err}")))?;
        if discovery.issuer.trim_end_matches('/') != self.issuer {
            return Err(upstream(format!(
                "{url} names issuer {:?}, not the configured {:?}",
                discovery.issuer, self.issuer
            )));
        }
        state.discovery = Some(discovery.clone());
        Ok(discovery)
    }

    /// The key `kid`: from the cache while it is fresh (per the JWKS's Cache-Control), else
    /// fetched; an unknown kid in a fresh cache refetches within a small rate limit.
    async fn key(&self, kid: &str) -> Result<Option<jsonwebtoken::jwk::Jwk>, Error> {
        let discovery = self.discovery().await?;
        let mut state = self.state.lock().await;
        let now = Instant::now();
        let fresh = state.fresh_until.is_some_and(|until| now < until);
        if fresh && let Some(key) = state.keys.as_ref().and_then(|keys| keys.find(kid)) {
            return Ok(Some(key.clone()));
        }
        let may_fetch = !fresh || self.refetches.check().is_ok();
        if may_fetch {
            let resp = self
                .http
                .get(&discovery.jwks_uri)
                .send()
                .await
                .and_then(reqwest::Response::error_for_status)
                .map_err(|err| upstream(format!("fetching {}: {err}", discovery.jwks_uri)))?;
            let ttl = resp
                .headers()
                .get(reqwest::header::CACHE_CONTROL)
                .and_then(|v| v.to_str().ok())
                .and_then(max_age)
                .unwrap_or(DEFAULT_JWKS_TTL);
            let keys: JwkSet =
                resp.json().await.map_err(|err| upstream(format!("reading {}: {err}", discovery.jwks_uri)))?;
            state.keys = Some(keys);
            state.fresh_until = now.checked_add(ttl);
        }
        Ok(state.keys.as_ref().and_then(|keys| keys.find(kid)).cloned())
    }
}

/// `max-age` of a Cache-Control value, at most `MAX_JWKS_TTL`.
fn max_age(cache_control: &str) -> Option<Duration> {
    cache_control
        .split(',')
        .filter_map(|directive| directive.trim().strip_prefix("max-age="))
        .find_map(|secs| secs.trim().parse::<u64>().ok())
        .map(|secs| Duration::from_secs(secs).min(MAX_JWKS_TTL))
}

fn upstream(detail: String) -> Error {
    tracing::warn!(%detail, "sign-in provider failed");
    Error::Upstream(Messages::one("signIn", "The sign-in provider cannot be reached right now; try again later"))
}

#[cfg(test)]
mod tests {
    use super::max_age;
    use std::time::Duration;

    #[test]
    fn cache_control_max_age_is_read() {
        assert_eq!(max_age("public, max-age=19869, must-revalidate"), Some(Duration::from_secs(19869)));
        assert_eq!(max_age("no-cache"), None);
    }

    #[test]
    fn a_max_age_near_u64_max_is_capped_at_a_day_and_never_overflows() {
        let ttl = max_age("public, max-age=18446744073709551615").expect("a max-age");
        assert_eq!(ttl, Duration::from_secs(24 * 60 * 60));
        let _ = std::time::Instant::now() + ttl;
    }
}
