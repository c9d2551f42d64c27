//! The local OpenID issuer under `/dev-idp/`: with no `--oidc-client-id` on a localhost
//! host, anyone can sign in with any e-mail address on their own machine. Its tokens are
//! real ES256 JWTs, checked by the same [`Verifier`](super::oidc::Verifier) as Google's.

use std::path::Path;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::Context;
use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use p256::SecretKey;
use p256::elliptic_curve::sec1::ToEncodedPoint;
use p256::pkcs8::{DecodePrivateKey, EncodePrivateKey, LineEnding};
use serde::Serialize;
use serde_json::json;
use sha2::{Digest, Sha256};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// The OAuth client ID the local issuer knows.
pub const CLIENT_ID: &str = "quire-local";
/// Lifetime of a local ID token.
const TOKEN_LIFETIME_SECS: u64 = 300;

/// The local issuer: its URL and signing key.
pub struct LocalIssuer {
    issuer: String,
    key: EncodingKey,
    kid: String,
    jwks: Arc<JwkSet>,
}

#[derive(Serialize)]
struct Claims<'a> {
    iss: &'a str,
    sub: String,
    aud: &'a str,
    iat: u64,
    exp: u64,
    nonce: &'a str,
    email: &'a str,
    email_verified: bool,
    name: &'a str,
}

impl LocalIssuer {
    /// Loads the signing key from `path`, creating it on first use.
    pub fn load_or_create(path: &Path, app_url: &str) -> anyhow::Result<LocalIssuer> {
        let path = path.to_owned();
        let secret = if path.exists() {
            let pem = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
            SecretKey::from_pkcs8_pem(&pem)
                .map_err(|err| anyhow::anyhow!("{} is not a P-256 key: {err}", path.display()))?
        } else {
            let secret = random_secret();
            let pem = secret.to_pkcs8_pem(LineEnding::LF).map_err(|err| anyhow::anyhow!("encoding key: {err}"))?;
            write_private(&path, pem.as_bytes()).with_context(|| format!("writing {}", path.display()))?;
            secret
        };
        let pem = secret.to_pkcs8_pem(LineEnding::LF).map_err(|err| anyhow::anyhow!("encoding key: {err}"))?;
        let key = EncodingKey::from_ec_pem(pem.as_bytes())?;
        let point = secret.public_key().to_encoded_point(false);
        let x = URL_SAFE_NO_PAD.encode(point.x().context("public key x")?);
        let y = URL_SAFE_NO_PAD.encode(point.y().context("public key y")?);
        let kid = hex::encode(&Sha256::digest(point.as_bytes())[..8]);
        let jwks: JwkSet = serde_json::from_value(json!({
            "keys": [{ "kty": "EC", "crv": "P-256", "x": x, "y": y, "kid": kid, "use": "sig", "alg": "ES256" }]
        }))?;
        Ok(LocalIssuer { issuer: format!("{app_url}/dev-idp"), key, kid, jwks: Arc::new(jwks) })
    }

    /// The issuer URL, `{app}/dev-idp`.
    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// The public keys.
    pub fn jwks(&self) -> Arc<JwkSet> {
        self.jwks.clone()
    }

    /// Signs an ID token for `email` (the subject is derived from the address).
    pub fn sign(&self, email: &str, nonce: &str) -> anyhow::Result<String> {
        let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default().as_secs();
        let email = email.trim();
        let subject = hex::encode(&Sha256::digest(email.to_lowercase().as_bytes())[..16]);
        let name = email.split('@').next().unwrap_or(email);
        let claims = Claims {
            iss: &self.issuer,
            sub: subject,
            aud: CLIENT_ID,
            iat: now,
            exp: now + TOKEN_LIFETIME_SECS,
            nonce,
            email,
            email_verified: true,
            name,
        };
        let mut header = Header::new(Algorithm::ES256);
        header.kid = Some(self.kid.clone());
        Ok(jsonwebtoken::encode(&header, &claims, &self.key)?)
    }

    /// The discovery document.
    pub fn discovery(&self) -> serde_json::Value {
        json!({
            "issuer": self.issuer,
            "authorization_endpoint": format!("{}/authorize", self.issuer),
            "jwks_uri": format!("{}/jwks", self.issuer),
            "response_types_supported": ["id_token"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["ES256"],
            "scopes_supported": ["openid", "email", "profile"],
        })
    }
}

fn random_secret() -> SecretKey {
    loop {
        let bytes: [u8; 32] = rand::random();
        if let Ok(secret) = SecretKey::from_slice(&bytes) {
            return secret;
        }
    }
}

fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}
