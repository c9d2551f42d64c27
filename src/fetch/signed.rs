//! A blog's federation key and the draft-cavage signatures made and checked with it (issue 16).
//! What is signed and checked is `domain::ap_signature`'s; the RSA work is here.
//!
//! RUSTSEC-2023-0071 ("Marvin", a timing side channel in the `rsa` crate's private-key
//! operations, open for every release with no fixed version) is why the work is split:
//! - the `rsa` crate only **generates** a key ([`generate_key`]): once per blog, on no attacker
//!   input, with nothing an attacker can time, which is outside the advisory's case;
//! - ring **signs** (`RSA_PKCS1_SHA256`, BoringSSL's constant-time code) and **verifies**
//!   (`RSA_PKCS1_2048_8192_SHA256`). No private-key operation of `rsa` runs on a request.
//!
//! A public key is read from the SPKI PEM actors publish (`BEGIN PUBLIC KEY`) with the `spki`
//! crate (through x509-cert) and handed to ring as the PKCS#1 key inside it.

use std::time::SystemTime;

use anyhow::{Context, anyhow};
use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use ring::signature::{self, RsaKeyPair, UnparsedPublicKey};
use rsa::pkcs1::DecodeRsaPublicKey;
use rsa::pkcs8::{EncodePrivateKey, EncodePublicKey, LineEnding};
use x509_cert::der::Decode;
use x509_cert::der::asn1::ObjectIdentifier;
use x509_cert::spki::SubjectPublicKeyInfoRef;

use crate::domain::federation::ap_signature::{self, Refusal};

/// Bits of a generated key (what Mastodon generates).
pub const KEY_BITS: usize = 2048;

/// The `rsaEncryption` algorithm of an SPKI key.
const RSA_ENCRYPTION: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.1");

/// A blog's RSA key pair: the PKCS#8 DER the database keeps, ring's parsed pair that signs, and
/// the SPKI PEM the actor publishes as `publicKeyPem`.
pub struct SigningKey {
    pair: RsaKeyPair,
    pkcs8_der: Vec<u8>,
    public_pem: String,
}

impl std::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SigningKey").field("public_pem", &self.public_pem).finish_non_exhaustive()
    }
}

/// A new [`KEY_BITS`]-bit key from the OS's randomness: the `rsa` crate generates it (see the
/// module's note on RUSTSEC-2023-0071), ring loads it. Takes 0.1 to 0.5 s in a debug build:
/// call it outside any database transaction.
pub fn generate_key() -> anyhow::Result<SigningKey> {
    let private = rsa::RsaPrivateKey::new(&mut rand_core::OsRng, KEY_BITS).context("generating an RSA key")?;
    let der = private.to_pkcs8_der().context("encoding the RSA key as PKCS#8")?;
    SigningKey::from_pkcs8(der.as_bytes())
}

impl SigningKey {
    /// Loads a PKCS#8 DER key (as stored); ring checks it, and its public half is encoded as
    /// SPKI PEM here, so the two always match.
    pub fn from_pkcs8(pkcs8_der: &[u8]) -> anyhow::Result<SigningKey> {
        let pair = RsaKeyPair::from_pkcs8(pkcs8_der).map_err(|e| anyhow!("the RSA key does not load: {e}"))?;
        // Public-key encoding only: no private-key operation of `rsa`.
        let public =
            rsa::RsaPublicKey::from_pkcs1_der(pair.public().as_ref()).context("reading the key's public half")?;
        let public_pem = public.to_public_key_pem(LineEnding::LF).context("encoding the key's public half as PEM")?;
        Ok(SigningKey { pair, pkcs8_der: pkcs8_der.to_vec(), public_pem })
    }

    /// The PKCS#8 DER the database keeps.
    pub fn pkcs8_der(&self) -> &[u8] {
        &self.pkcs8_der
    }

    /// The SPKI PEM (`-----BEGIN PUBLIC KEY-----`) for the actor's `publicKeyPem`.
    pub fn public_pem(&self) -> &str {
        &self.public_pem
    }

    /// RSASSA-PKCS1-v1_5 with SHA-256 over `data`, by ring. It fails only when the OS has no
    /// randomness for ring's blinding.
    pub fn sign_bytes(&self, data: &[u8]) -> anyhow::Result<Vec<u8>> {
        let mut out = vec![0; self.pair.public().modulus_len()];
        let rng = ring::rand::SystemRandom::new();
        self.pair
            .sign(&signature::RSA_PKCS1_SHA256, &rng, data, &mut out)
            .map_err(|e| anyhow!("ring could not sign: {e}"))?;
        Ok(out)
    }

    /// The headers of a request to `url` signed by this key under `key_id` at `now`
    /// (`host`, `date`, and for a body `digest` and `content-type`, then `signature`): a GET
    /// (`body: None`) or a POST of `body` sent as the given content type.
    pub fn sign(
        &self,
        key_id: &str,
        method: &str,
        url: &url::Url,
        body: Option<(&[u8], &str)>,
        now: SystemTime,
    ) -> anyhow::Result<Vec<(&'static str, String)>> {
        let outgoing = ap_signature::outgoing(method, url, body, now);
        let signature = self.sign_bytes(outgoing.signing_string.as_bytes())?;
        let mut headers = outgoing.headers;
        headers.push(("signature", ap_signature::signature_header(key_id, &outgoing.signed_names, &signature)));
        Ok(headers)
    }
}

/// Checks `signature` over `signing_string` with an actor's `publicKeyPem` (SPKI, or PKCS#1
/// `BEGIN RSA PUBLIC KEY`), RSA 2048 to 8192 bits, by ring.
pub fn verify(signing_string: &str, signature: &[u8], public_pem: &str) -> Result<(), Refusal> {
    let pkcs1 = rsa_public_key(public_pem).ok_or(Refusal::BadKey)?;
    UnparsedPublicKey::new(&signature::RSA_PKCS1_2048_8192_SHA256, &pkcs1)
        .verify(signing_string.as_bytes(), signature)
        .map_err(|_| Refusal::BadSignature)
}

/// Checks a request that passed `ap_signature::check_request` with the `publicKeyPem` of the key
/// its `keyId` names: over the signing string with the full target, then (for a target with a
/// query) over the one without it, which is how Fedify signs.
pub fn verify_checked(checked: &ap_signature::Checked, public_pem: &str) -> Result<(), Refusal> {
    let mut result = Err(Refusal::BadSignature);
    for signing_string in checked.signing_strings() {
        result = verify(signing_string, &checked.signature.signature, public_pem);
        if result != Err(Refusal::BadSignature) {
            break;
        }
    }
    result
}

/// The PKCS#1 `RSAPublicKey` DER of a PEM public key, or `None` when it is not an RSA key.
fn rsa_public_key(pem: &str) -> Option<Vec<u8>> {
    let pem = pem.trim();
    let (label, rest) = pem.strip_prefix("-----BEGIN ")?.split_once("-----")?;
    let body = rest.strip_suffix(&format!("-----END {label}-----"))?;
    let der = B64.decode(body.split_ascii_whitespace().collect::<String>()).ok()?;
    match label {
        "PUBLIC KEY" => {
            let spki = SubjectPublicKeyInfoRef::from_der(&der).ok()?;
            if spki.algorithm.oid != RSA_ENCRYPTION {
                return None;
            }
            spki.subject_public_key.as_bytes().map(<[u8]>::to_vec)
        }
        "RSA PUBLIC KEY" => Some(der),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
