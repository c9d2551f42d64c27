//! Sign-in, independent of HTTP: OIDC token verification, the local issuer, rate limits,
//! pending nonces, the public forms' signed tokens and the secret-token helpers. The request-bound parts (session cookie, CSRF
//! guard) live in `http`.

pub mod form_token;
pub mod local_idp;
pub mod nonces;
pub mod oidc;
pub mod rate_limit;

use crate::config::Config;
use local_idp::LocalIssuer;
use oidc::Verifier;

/// Everything sign-in needs, built once at start.
pub struct Auth {
    /// Verifies ID tokens of the configured provider.
    pub verifier: Verifier,
    /// The local issuer, when it is the provider.
    pub local: Option<LocalIssuer>,
    /// Limits sign-in attempts per client address.
    pub limiter: rate_limit::Limiter,
    /// Sign-in nonces handed out and not used yet.
    pub nonces: nonces::Nonces,
    /// The signed tokens of the public forms (the abuse report).
    pub forms: form_token::FormTokens,
    /// Limits each API token's reads and writes a minute (Micropub).
    pub tokens: rate_limit::TokenLimiter,
}

impl Auth {
    /// Picks the provider: the configured issuer with its client ID, or the local issuer.
    pub fn from_config(config: &Config) -> anyhow::Result<Auth> {
        let (verifier, local) = match &config.oidc_client_id {
            Some(client_id) => (Verifier::remote(&config.oidc_issuer, client_id)?, None),
            None => {
                let local = LocalIssuer::load_or_create(&config.data_dir.local_issuer_key(), &config.app_url())?;
                let verifier = Verifier::local(local.issuer(), local_idp::CLIENT_ID, local.jwks());
                (verifier, Some(local))
            }
        };
        Ok(Auth {
            verifier,
            local,
            limiter: rate_limit::Limiter::new(),
            nonces: nonces::Nonces::new(),
            forms: form_token::FormTokens::new(),
            tokens: rate_limit::TokenLimiter::new(config.public.token_limits),
        })
    }
}

/// Compares two secrets in time independent of where they differ.
pub fn constant_time_eq(a: &str, b: &str) -> bool {
    use subtle::ConstantTimeEq;
    a.len() == b.len() && bool::from(a.as_bytes().ct_eq(b.as_bytes()))
}

/// SHA-256 of a secret token, the form in which tokens are stored.
pub fn token_hash(token: &str) -> Vec<u8> {
    use sha2::{Digest, Sha256};
    Sha256::digest(token.as_bytes()).to_vec()
}
