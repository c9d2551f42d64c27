//! A certificate the admin brings (`--tls-cert`, `--tls-key`), a wildcard one say: served for
//! the names it covers, and read again when either file's modification time changes (certbot
//! renewals), checked every minute.

use std::path::PathBuf;
use std::sync::{Arc, RwLock};
use std::time::{Duration, SystemTime};

use anyhow::Context;
use rustls::sign::CertifiedKey;

use super::store::Stored;

/// How often the files' modification times are checked.
pub const RELOAD_CHECK: Duration = Duration::from_secs(60);

/// The admin's certificate and where it came from.
pub struct StaticCert {
    cert_file: PathBuf,
    key_file: PathBuf,
    current: RwLock<(Arc<Stored>, Option<SystemTime>)>,
}

impl StaticCert {
    /// Reads the files, refusing a key that does not match or a chain that cannot be read.
    pub fn load(cert_file: PathBuf, key_file: PathBuf) -> anyhow::Result<StaticCert> {
        let (stored, mtime) = read(&cert_file, &key_file)?;
        tracing::info!(names = ?stored.names, file = %cert_file.display(), "TLS certificate loaded");
        Ok(StaticCert { cert_file, key_file, current: RwLock::new((Arc::new(stored), mtime)) })
    }

    /// The certificate, when it covers `name`.
    pub fn for_name(&self, name: &str) -> Option<Arc<CertifiedKey>> {
        let current = self.current.read().expect("static cert lock");
        current.0.covers(name).then(|| current.0.key.clone())
    }

    /// The names the certificate covers.
    pub fn names(&self) -> Vec<String> {
        self.current.read().expect("static cert lock").0.names.clone()
    }

    /// Reads the files again when one changed; a bad new pair is logged and the old one kept.
    pub fn reload_if_changed(&self) {
        let mtime = modified(&self.cert_file, &self.key_file);
        if mtime == self.current.read().expect("static cert lock").1 {
            return;
        }
        match read(&self.cert_file, &self.key_file) {
            Ok((stored, mtime)) => {
                tracing::info!(names = ?stored.names, file = %self.cert_file.display(), "TLS certificate reloaded");
                *self.current.write().expect("static cert lock") = (Arc::new(stored), mtime);
            }
            Err(e) => {
                tracing::warn!(error = %format!("{e:#}"), "the changed TLS certificate cannot be used; keeping the old one")
            }
        }
    }

    /// Checks the files every `every`, for as long as the task runs.
    pub async fn run_reloads(self: Arc<Self>, every: Duration) {
        let mut tick = tokio::time::interval(every);
        tick.tick().await;
        loop {
            tick.tick().await;
            self.reload_if_changed();
        }
    }
}

/// The later of the two files' modification times.
fn modified(cert_file: &PathBuf, key_file: &PathBuf) -> Option<SystemTime> {
    let time = |path: &PathBuf| std::fs::metadata(path).and_then(|m| m.modified()).ok();
    time(cert_file).max(time(key_file))
}

fn read(cert_file: &PathBuf, key_file: &PathBuf) -> anyhow::Result<(Stored, Option<SystemTime>)> {
    let mtime = modified(cert_file, key_file);
    let chain = std::fs::read(cert_file).with_context(|| format!("--tls-cert {}", cert_file.display()))?;
    let key = std::fs::read(key_file).with_context(|| format!("--tls-key {}", key_file.display()))?;
    let stored = Stored::parse(&chain, &key).with_context(|| format!("--tls-cert {}", cert_file.display()))?;
    Ok((stored, mtime))
}
