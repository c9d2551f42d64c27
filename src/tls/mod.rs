//! HTTPS served by Quire itself (`--acme-email`, `--tls-cert`): certificates obtained on demand
//! over ACME or brought by the admin, the TLS listener, and the state Settings shows.
//!
//! Without those flags none of this runs: plain HTTP on `--listen`, behind a proxy.
//! The module does not know which names Quire serves; the server gives it that check
//! ([`NamePolicy`]) so `tls` does not depend on `blogs`.

pub mod acceptor;
pub mod acme;
mod certificate_states;
pub mod manager;
pub mod new_orders;
pub mod static_cert;
pub mod store;

use std::sync::Arc;
use std::time::Duration;

pub use acceptor::{Certificates, TlsAcceptor};
pub use certificate_states::{CertificateState, CertificateStates, NotManaged};
pub use manager::{Manager, ManagerSettings, NamePolicy, Refused};
pub use static_cert::StaticCert;

use crate::config::Config;
use crate::db::Db;

/// An SNI normalized (lowercase, no trailing dot), `None` for what is not a DNS name: the one
/// rule the custom domains and Caddy's ask endpoint use too.
pub use crate::domain::net::dns_name::dns_name as normalize;

/// The TLS side of a server: where certificates come from, and the ACME manager if any.
pub struct Tls {
    /// What the acceptor serves.
    pub certificates: Certificates,
}

impl Tls {
    /// Loads the admin's certificate and the stored ACME certificates, as `config.tls` says.
    /// `None` when the server does not serve TLS itself.
    /// `db` keeps the pauses of new orders across restarts.
    pub fn from_config(config: &Config, allows: NamePolicy, db: &Db) -> anyhow::Result<Option<Tls>> {
        let Some(tls) = &config.tls else { return Ok(None) };
        let fixed = match &tls.cert {
            Some((cert, key)) => Some(Arc::new(StaticCert::load(cert.clone(), key.clone())?)),
            None => None,
        };
        let acme = match &tls.acme {
            Some(acme) => Some(Manager::new(
                ManagerSettings {
                    acme: acme::AcmeSettings {
                        directory: acme.directory.clone(),
                        ca_root: acme.ca_root.clone(),
                        email: acme.email.clone(),
                        account_file: config.data_dir.acme_account(),
                    },
                    certs_dir: config.data_dir.certs(),
                    first_backoff: tls.first_backoff,
                    handshake_wait: manager::HANDSHAKE_WAIT,
                    new_per_day: acme.new_certificates_per_day,
                },
                allows,
                Some(db.clone()),
            )?),
            None => None,
        };
        let default_name = config.host.rsplit_once(':').map_or(config.host.as_str(), |(name, _)| name).to_owned();
        Ok(Some(Tls { certificates: Certificates { fixed, acme, default_name } }))
    }

    /// The ACME manager, with `--acme-email`.
    pub fn manager(&self) -> Option<&Arc<Manager>> {
        self.certificates.acme.as_ref()
    }

    /// Starts the renewal check (now, then hourly) and the `--tls-cert` reload check (every
    /// minute); abort the handles to stop them.
    pub fn spawn_timers(&self, renew_every: Duration) -> Vec<tokio::task::JoinHandle<()>> {
        let mut tasks = Vec::new();
        if let Some(manager) = &self.certificates.acme {
            tasks.push(tokio::spawn(manager.clone().run_renewals(renew_every)));
        }
        if let Some(fixed) = &self.certificates.fixed {
            tasks.push(tokio::spawn(fixed.clone().run_reloads(static_cert::RELOAD_CHECK)));
        }
        tasks
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sni_names_are_normalized_and_non_names_refused() {
        assert_eq!(normalize("Alice.Example.COM.").as_deref(), Some("alice.example.com"));
        assert_eq!(normalize("xn--bcher-kva.example").as_deref(), Some("xn--bcher-kva.example"));
        for bad in
            ["", ".", "a..b", "*.example.com", "-a.example", "a-.example", "127.0.0.1", "::1", "a_b.example", "1.2.3"]
        {
            assert_eq!(normalize(bad), None, "{bad:?}");
        }
        assert_eq!(normalize(&format!("{}.example", "a".repeat(64))), None);
        assert_eq!(normalize(&"a.".repeat(127)).map(|n| n.len()), Some(253));
        assert_eq!(normalize(&"a.".repeat(128)), None);
    }
}
