//! Certificates on disk and in memory.
//!
//! ```text
//! certs/<name>/cert.pem   the chain as the CA sent it, leaf first     0600, in 0700 folders
//! certs/<name>/key.pem    its key, PKCS#8 (PEM)                       0600
//! acme/account.json       {"directory": URL, "credentials": ...}     0600, in a 0700 folder
//! ```
//!
//! Every write goes to a 0600 temporary file that is fsynced, then renamed, then the folder is
//! fsynced. The key is written before the chain: after a crash between the two renames the new
//! key sits beside the old chain, which [`Stored::parse`] refuses (`keys_match`), so the name is
//! issued again rather than served with a wrong key.

use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{Context, anyhow};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::sign::CertifiedKey;
use x509_cert::der::Decode;
use x509_cert::ext::pkix::SubjectAltName;
use x509_cert::ext::pkix::name::GeneralName;

/// One certificate ready to serve, with its validity and the DNS names it covers.
pub struct Stored {
    /// The chain and the signing key, as rustls serves them.
    pub key: Arc<CertifiedKey>,
    /// Start of validity.
    pub not_before: SystemTime,
    /// End of validity.
    pub not_after: SystemTime,
    /// The leaf's DNS names (subjectAltName), lowercase; wildcards as `*.example.com`.
    pub names: Vec<String>,
}

impl std::fmt::Debug for Stored {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stored").field("names", &self.names).field("not_after", &self.not_after).finish()
    }
}

impl Stored {
    /// Parses a PEM chain and key; refuses a key that does not match the leaf.
    pub fn parse(chain_pem: &[u8], key_pem: &[u8]) -> anyhow::Result<Stored> {
        let chain = CertificateDer::pem_slice_iter(chain_pem)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| anyhow!("the certificate file is not PEM: {e:?}"))?;
        let leaf = chain.first().ok_or_else(|| anyhow!("no certificate in the PEM file"))?;
        let key =
            PrivateKeyDer::from_pem_slice(key_pem).map_err(|e| anyhow!("the key file is not a PEM key: {e:?}"))?;
        let signing = rustls::crypto::ring::sign::any_supported_type(&key).context("unsupported key type")?;
        let cert =
            x509_cert::Certificate::from_der(leaf).map_err(|e| anyhow!("the certificate cannot be read: {e}"))?;
        let validity = &cert.tbs_certificate.validity;
        let names = match cert.tbs_certificate.get::<SubjectAltName>() {
            Ok(Some((_, san))) => san
                .0
                .iter()
                .filter_map(|name| match name {
                    GeneralName::DnsName(dns) => Some(dns.as_str().trim_end_matches('.').to_ascii_lowercase()),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        let certified = CertifiedKey::new(chain, signing);
        certified.keys_match().map_err(|e| anyhow!("the key does not match the certificate: {e}"))?;
        Ok(Stored {
            key: Arc::new(certified),
            not_before: validity.not_before.to_system_time(),
            not_after: validity.not_after.to_system_time(),
            names,
        })
    }

    /// When to renew: a third of the lifetime before expiry, at most 30 days before (90-day
    /// certificates renew 30 days ahead, 45-day ones 15, 6-day ones 2).
    pub fn renew_at(&self) -> SystemTime {
        renew_at(self.not_before, self.not_after)
    }

    /// `notAfter` in Unix seconds.
    pub fn not_after_unix(&self) -> i64 {
        unix_seconds(self.not_after)
    }

    /// Whether the certificate names `name`, directly or by a wildcard one label deep.
    pub fn covers(&self, name: &str) -> bool {
        self.names.iter().any(|pattern| matches_name(pattern, name))
    }
}

/// `not_after - min(30 days, lifetime / 3)`.
pub fn renew_at(not_before: SystemTime, not_after: SystemTime) -> SystemTime {
    let lifetime = not_after.duration_since(not_before).unwrap_or_default();
    let window = (lifetime / 3).min(Duration::from_secs(30 * 86400));
    not_after - window
}

/// Seconds since the Unix epoch (negative before it).
pub fn unix_seconds(time: SystemTime) -> i64 {
    match time.duration_since(UNIX_EPOCH) {
        Ok(after) => after.as_secs() as i64,
        Err(before) => -(before.duration().as_secs() as i64),
    }
}

/// Whether a certificate name (`a.example.com` or `*.example.com`) covers `name`. A wildcard
/// covers exactly one label, not the bare parent and not two labels (RFC 6125 §6.4.3).
pub fn matches_name(pattern: &str, name: &str) -> bool {
    match pattern.strip_prefix("*.") {
        Some(parent) => {
            name.split_once('.').is_some_and(|(label, rest)| !label.is_empty() && label != "*" && rest == parent)
        }
        None => pattern == name,
    }
}

/// The certificates in memory, by lowercase name.
#[derive(Default)]
pub struct Certs {
    by_name: RwLock<HashMap<String, Arc<Stored>>>,
}

impl std::fmt::Debug for Certs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Certs")
    }
}

impl Certs {
    /// The certificate of `name`.
    pub fn get(&self, name: &str) -> Option<Arc<Stored>> {
        self.by_name.read().expect("certs lock").get(name).cloned()
    }

    /// Sets the certificate of `name`.
    pub fn insert(&self, name: &str, stored: Stored) {
        self.by_name.write().expect("certs lock").insert(name.to_owned(), Arc::new(stored));
    }

    /// Forgets the certificate of `name`.
    pub fn remove(&self, name: &str) {
        self.by_name.write().expect("certs lock").remove(name);
    }

    /// Every name with its certificate.
    pub fn all(&self) -> Vec<(String, Arc<Stored>)> {
        self.by_name.read().expect("certs lock").iter().map(|(n, s)| (n.clone(), s.clone())).collect()
    }
}

/// The folder of stored certificates (`certs/` of the data directory).
#[derive(Debug, Clone)]
pub struct CertDir(pub PathBuf);

impl CertDir {
    /// Loads every stored certificate into `into`; an unreadable or mismatched pair is logged
    /// and skipped (it will be issued again when needed). Returns how many were loaded.
    pub fn load_all(&self, into: &Certs) -> anyhow::Result<usize> {
        let mut loaded = 0;
        let entries = match fs::read_dir(&self.0) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
            Err(e) => return Err(e).with_context(|| format!("reading {}", self.0.display())),
        };
        for entry in entries {
            let entry = entry?;
            let Some(name) = entry.file_name().to_str().and_then(super::normalize) else { continue };
            let dir = entry.path();
            match (fs::read(dir.join("cert.pem")), fs::read(dir.join("key.pem"))) {
                (Ok(chain), Ok(key)) => match Stored::parse(&chain, &key) {
                    Ok(stored) => {
                        into.insert(&name, stored);
                        loaded += 1;
                    }
                    Err(e) => {
                        tracing::warn!(name, error = %e, "stored certificate unreadable; it will be issued again")
                    }
                },
                _ => tracing::warn!(name, "stored certificate incomplete; it will be issued again"),
            }
        }
        Ok(loaded)
    }

    /// Stores the chain and key of `name` (key first), returning them parsed.
    pub fn save(&self, name: &str, chain_pem: &str, key_pem: &str) -> anyhow::Result<Stored> {
        let stored = Stored::parse(chain_pem.as_bytes(), key_pem.as_bytes())?;
        let dir = self.0.join(name);
        create_private_dir(&dir)?;
        write_private(&dir.join("key.pem"), key_pem.as_bytes())?;
        write_private(&dir.join("cert.pem"), chain_pem.as_bytes())?;
        Ok(stored)
    }

    /// Deletes the files of `name` (a name Quire no longer serves).
    pub fn delete(&self, name: &str) -> std::io::Result<()> {
        match fs::remove_dir_all(self.0.join(name)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }
}

/// Creates `dir` and its missing parents with mode 0700.
pub fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    fs::DirBuilder::new().recursive(true).mode(0o700).create(dir)
}

/// Writes `path` through a temporary file created 0600, fsynced, then renamed; then fsyncs the
/// folder, so the file is either the old one or the whole new one.
pub fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    let mut file = fs::OpenOptions::new().write(true).create(true).truncate(true).mode(0o600).open(&tmp)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    fs::rename(&tmp, path)?;
    if let Some(parent) = path.parent() {
        fs::File::open(parent)?.sync_all()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renewal_comes_a_third_of_the_lifetime_before_expiry_and_at_most_30_days_before() {
        let day = Duration::from_secs(86400);
        let start = UNIX_EPOCH + 1000 * day;
        assert_eq!(renew_at(start, start + 90 * day), start + 60 * day);
        assert_eq!(renew_at(start, start + 45 * day), start + 30 * day);
        assert_eq!(renew_at(start, start + 6 * day), start + 4 * day);
        assert_eq!(renew_at(start, start + 5 * 365 * day), start + 5 * 365 * day - 30 * day);
        assert_eq!(renew_at(start + day, start), start, "a backwards validity renews at once");
    }

    #[test]
    fn a_wildcard_covers_one_label_only() {
        assert!(matches_name("*.example.com", "alice.example.com"));
        assert!(!matches_name("*.example.com", "example.com"));
        assert!(!matches_name("*.example.com", "a.b.example.com"));
        assert!(!matches_name("*.example.com", ".example.com"));
        assert!(matches_name("example.com", "example.com"));
        assert!(!matches_name("example.com", "www.example.com"));
    }

    #[test]
    fn private_files_are_0600_in_0700_folders() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("certs/a.example");
        create_private_dir(&folder).unwrap();
        write_private(&folder.join("key.pem"), b"secret").unwrap();
        write_private(&folder.join("key.pem"), b"secret2").unwrap();
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&folder.join("key.pem")), 0o600);
        assert_eq!(mode(&folder), 0o700);
        assert_eq!(fs::read(folder.join("key.pem")).unwrap(), b"secret2");
        assert!(!folder.join("key.tmp").exists());
    }
}
