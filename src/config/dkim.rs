//! `--dkim-key` and `--dkim-selector` (docs/email.md, "The SMTP relay"): the key Quire signs its
//! messages with, RSA or Ed25519, read once at start.

use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, anyhow, bail};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use lettre::message::dkim::{
    DkimCanonicalization, DkimCanonicalizationType, DkimConfig, DkimSigningAlgorithm, DkimSigningKey,
};
use lettre::message::header::HeaderName;
use rsa::pkcs1::EncodeRsaPrivateKey;
use rsa::pkcs8::DecodePrivateKey;

/// The DER of an Ed25519 PKCS#8 key before its 32-byte seed (RFC 8410).
const ED25519_PKCS8_PREFIX: [u8; 16] =
    [0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20];

/// The headers signed, when the message has them.
const SIGNED: [&str; 10] = [
    "From",
    "To",
    "Subject",
    "Date",
    "Message-ID",
    "Reply-To",
    "List-Unsubscribe",
    "List-Unsubscribe-Post",
    "MIME-Version",
    "Content-Type",
];

/// A DKIM signer: the key, the selector, the domain of `--mail-from`.
#[derive(Clone)]
pub struct Dkim {
    /// lettre's signing settings.
    pub config: Arc<DkimConfig>,
    /// The selector (`s=`), for the DNS name `SELECTOR._domainkey.DOMAIN`.
    pub selector: String,
}

impl std::fmt::Debug for Dkim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the key.
        f.debug_struct("Dkim").field("selector", &self.selector).finish()
    }
}

/// The signer of `--dkim-key` and `--dkim-selector` for `domain`: both or neither.
pub fn signer(key: Option<&Path>, selector: Option<&str>, domain: &str) -> anyhow::Result<Option<Dkim>> {
    let selector = selector.map(str::trim).filter(|s| !s.is_empty());
    let (key, selector) = match (key, selector) {
        (None, None) => return Ok(None),
        (Some(key), Some(selector)) => (key, selector),
        _ => bail!("--dkim-key and --dkim-selector go together: give both, or neither"),
    };
    if !selector
        .split('.')
        .all(|label| !label.is_empty() && label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
    {
        bail!("--dkim-selector {selector:?} is not a DNS label (letters, digits, -)");
    }
    let pem = std::fs::read_to_string(key).with_context(|| format!("--dkim-key: cannot read {}", key.display()))?;
    let signing = signing_key(&pem).with_context(|| format!("--dkim-key {}", key.display()))?;
    let headers = SIGNED.iter().map(|name| HeaderName::new_from_ascii_str(name)).collect();
    let canonicalization =
        DkimCanonicalization { header: DkimCanonicalizationType::Relaxed, body: DkimCanonicalizationType::Relaxed };
    let config = DkimConfig::new(selector.to_owned(), domain.to_owned(), signing, headers, canonicalization);
    Ok(Some(Dkim { config: Arc::new(config), selector: selector.to_owned() }))
}

/// The key of a PEM file: `RSA PRIVATE KEY` (PKCS#1), or `PRIVATE KEY` (PKCS#8) holding an
/// Ed25519 or RSA key.
fn signing_key(pem: &str) -> anyhow::Result<DkimSigningKey> {
    let unreadable = |err: &dyn std::fmt::Display| anyhow!("not an RSA or Ed25519 private key in PEM ({err})");
    if pem.contains("-----BEGIN RSA PRIVATE KEY-----") {
        return DkimSigningKey::new(pem, DkimSigningAlgorithm::Rsa).map_err(|err| unreadable(&err));
    }
    let body: String = pem
        .lines()
        .skip_while(|line| !line.starts_with("-----BEGIN PRIVATE KEY-----"))
        .skip(1)
        .take_while(|line| !line.starts_with("-----END"))
        .collect();
    let der = STANDARD.decode(body.trim()).map_err(|err| unreadable(&err))?;
    if der.len() == 48 && der.starts_with(&ED25519_PKCS8_PREFIX) {
        let seed = STANDARD.encode(&der[16..]);
        return DkimSigningKey::new(&seed, DkimSigningAlgorithm::Ed25519).map_err(|err| unreadable(&err));
    }
    let rsa = rsa::RsaPrivateKey::from_pkcs8_pem(pem).map_err(|err| unreadable(&err))?;
    let pkcs1 = rsa.to_pkcs1_pem(rsa::pkcs8::LineEnding::LF).map_err(|err| unreadable(&err))?;
    DkimSigningKey::new(&pkcs1, DkimSigningAlgorithm::Rsa).map_err(|err| unreadable(&err))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An Ed25519 key as `openssl genpkey -algorithm ed25519` writes it (RFC 8410's example).
    const ED25519: &str = "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEINTuctv5E1hK1bbY8fdp+K06/nwoy/HU++CXqI9EdVhC\n-----END PRIVATE KEY-----\n";

    #[test]
    fn an_ed25519_key_signs_and_the_flags_go_together() {
        let dir = tempfile::tempdir().unwrap();
        let key = dir.path().join("dkim.pem");
        std::fs::write(&key, ED25519).unwrap();
        let dkim = signer(Some(&key), Some("quire"), "example.com").unwrap().expect("a signer");
        assert_eq!(dkim.selector, "quire");
        assert!(!format!("{dkim:?}").contains("MC4C"));
        assert!(signer(Some(&key), None, "example.com").unwrap_err().to_string().contains("go together"));
        assert!(signer(None, Some("quire"), "example.com").is_err());
        assert!(signer(Some(&key), Some("bad selector"), "example.com").is_err());
        std::fs::write(&key, "not a key").unwrap();
        assert!(signer(Some(&key), Some("quire"), "example.com").is_err());
        assert!(signer(None, None, "example.com").unwrap().is_none());
    }
}
