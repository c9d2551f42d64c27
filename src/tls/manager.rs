//! On-demand certificates: each name Quire serves gets a certificate of its own, ordered the
//! first time a handshake names it (or when it is prefetched, or when renewal comes due).
//!
//! - The name check comes first, before stored certificates and renewals: a name the policy
//!   refuses never causes a CA request (and a name no longer served is not renewed).
//! - One order per name at a time: handshakes for a name being issued wait for that order.
//! - After a failed order the name backs off: 10 minutes, doubling up to 24 hours, during
//!   which its handshakes are refused without asking the CA. A failed *new* order (the name has
//!   no certificate) pauses its whole registered domain, in the database, so forgetting the
//!   name does not clear it ([`super::new_orders`]), and new orders are limited per day.
//! - A 429 from the CA that names the domain being ordered pauses that registered domain only;
//!   any other 429/503 pauses every new order until its `Retry-After` ([`super::acme`]).
//! - Renewals of certificates Quire has are never held back by new orders' pauses, and one of
//!   the two order slots is always theirs: at most two orders run at once, one of them new.
//! - Renewal at `notAfter - min(30 days, lifetime / 3)`, checked at start and hourly; the old
//!   certificate is served until the new one is stored.
//!
//! `Manager::ensure` (called by the acceptor for a name `--tls-cert` does not cover) asks the
//! `NamePolicy` first (a refusal closes the connection, counted, with no request to the CA), then
//! returns the certificate in memory, or joins or starts the name's order and waits for it (up to
//! [`HANDSHAKE_WAIT`]). `prefetch` and `forget` follow the names served (`app.rs`);
//! `certificate_state` is the `certificate` field of a verified custom domain in the API (through
//! `tls::CertificateStates`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use instant_acme::Account;
use tokio::sync::{OnceCell, Semaphore, watch};

use super::acme::{AcmeSettings, CaState, Challenges, ORDERING, ca_http_client, load_or_create_account, order};
use super::new_orders::{NewOrders, registered_domain};
use super::store::{CertDir, Certs, unix_seconds};
use super::{CertificateState, CertificateStates};
use crate::db::Db;

/// The name check the server gives the manager: whether Quire serves a name (lowercase, no
/// trailing dot, no port).
pub type NamePolicy = Arc<dyn Fn(&str) -> bool + Send + Sync>;

/// The first pause after a failed order, doubled after each further failure up to [`MAX_BACKOFF`].
pub const FIRST_BACKOFF: Duration = Duration::from_secs(600);
/// The longest pause after failed orders.
pub const MAX_BACKOFF: Duration = Duration::from_secs(86400);
/// How long a handshake waits for a certificate being issued.
pub const HANDSHAKE_WAIT: Duration = Duration::from_secs(30);
/// How often the renewal check runs.
pub const RENEW_CHECK: Duration = Duration::from_secs(3600);
/// Orders in flight at once.
const MAX_ORDERS: usize = 2;

/// The manager's settings.
#[derive(Debug, Clone)]
pub struct ManagerSettings {
    /// The CA and account.
    pub acme: AcmeSettings,
    /// `certs/` of the data directory.
    pub certs_dir: std::path::PathBuf,
    /// [`FIRST_BACKOFF`] (tests shorten it).
    pub first_backoff: Duration,
    /// [`HANDSHAKE_WAIT`].
    pub handshake_wait: Duration,
    /// New certificates (not renewals) ordered in 24 hours at most (`--acme-new-certificates-per-day`).
    pub new_per_day: usize,
}

/// The pause after `failures` failed orders in a row (1 or more).
pub fn backoff(first: Duration, failures: u32) -> Duration {
    first.saturating_mul(1u32 << failures.saturating_sub(1).min(16)).min(MAX_BACKOFF)
}

type Outcome = Option<Result<(), String>>;

enum Flight {
    Running(watch::Receiver<Outcome>),
    Failed { until: SystemTime, failures: u32, error: String },
}

/// Counters tests and the log read.
#[derive(Debug, Default)]
pub struct Stats {
    /// Orders started.
    pub orders: AtomicU64,
    /// Certificates issued.
    pub issued: AtomicU64,
    /// Orders that failed.
    pub failed: AtomicU64,
    /// Handshakes for names Quire does not serve.
    pub refused_unknown: AtomicU64,
    /// Handshakes refused because their name is backing off.
    pub refused_backing_off: AtomicU64,
}

/// Why a handshake got no certificate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// Quire does not serve the name.
    NotServed,
    /// The last order failed; no new one before the pause ends.
    BackingOff(String),
    /// The order failed now.
    Failed(String),
    /// The order took longer than the handshake may wait; it goes on in the background.
    TimedOut,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::NotServed => f.write_str("not a name Quire serves"),
            Refused::BackingOff(error) => write!(f, "backing off after: {error}"),
            Refused::Failed(error) => f.write_str(error),
            Refused::TimedOut => f.write_str("the certificate is still being issued"),
        }
    }
}

/// The certificates Quire obtains itself, over ACME.
pub struct Manager {
    certs: Arc<Certs>,
    store: CertDir,
    settings: ManagerSettings,
    http: reqwest::Client,
    account: OnceCell<Account>,
    challenges: Challenges,
    flights: Mutex<HashMap<String, Flight>>,
    allows: NamePolicy,
    ca: Arc<CaState>,
    orders: Semaphore,
    /// The one of the `orders` slots new orders may take, so renewals always have one.
    new_orders_slot: Semaphore,
    new_orders: NewOrders,
    /// Counters for tests and the log.
    pub stats: Stats,
}

impl Manager {
    /// A manager with the stored certificates and new orders' pauses (from `db`) loaded
    /// (nothing is sent to the CA yet).
    pub fn new(settings: ManagerSettings, allows: NamePolicy, db: Option<Db>) -> anyhow::Result<Arc<Manager>> {
        let new_orders = NewOrders::load(db, settings.new_per_day)?;
        let http = ca_http_client(settings.acme.ca_root.as_deref())?;
        let certs = Arc::new(Certs::default());
        let store = CertDir(settings.certs_dir.clone());
        let loaded = store.load_all(&certs)?;
        tracing::info!(loaded, directory = settings.acme.directory, "stored certificates loaded");
        Ok(Arc::new(Manager {
            certs,
            store,
            settings,
            http,
            account: OnceCell::new(),
            challenges: Challenges::default(),
            flights: Mutex::default(),
            allows,
            ca: Arc::default(),
            orders: Semaphore::new(MAX_ORDERS),
            new_orders_slot: Semaphore::new(1),
            new_orders,
            stats: Stats::default(),
        }))
    }

    /// The certificates in memory (the TLS resolver reads them).
    pub fn certs(&self) -> &Arc<Certs> {
        &self.certs
    }

    /// The HTTP-01 tokens being validated (the port-80 endpoint answers them).
    pub fn challenges(&self) -> &Challenges {
        &self.challenges
    }

    /// Requests sent to the CA so far.
    pub fn ca_requests(&self) -> u64 {
        self.ca.requests.load(Ordering::Relaxed)
    }

    /// Whether Quire serves `name` (the policy it was given).
    pub fn serves(&self, name: &str) -> bool {
        (self.allows)(name)
    }

    /// Whether Quire serves `name`, counting a refusal (a handshake for a name not served).
    pub fn serves_counted(&self, name: &str) -> bool {
        let serves = (self.allows)(name);
        if !serves {
            self.stats.refused_unknown.fetch_add(1, Ordering::Relaxed);
        }
        serves
    }

    /// Makes sure `name` has a certificate in memory, ordering one first when Quire serves the
    /// name and has none (or only an expired one). Never asks the CA for a refused name.
    pub async fn ensure(self: &Arc<Self>, name: &str) -> Result<(), Refused> {
        if !(self.allows)(name) {
            self.stats.refused_unknown.fetch_add(1, Ordering::Relaxed);
            return Err(Refused::NotServed);
        }
        if let Some(stored) = self.certs.get(name) {
            let now = SystemTime::now();
            if now < stored.not_after {
                if now >= stored.renew_at() {
                    let _ = self.start_or_join(name);
                }
                return Ok(());
            }
        }
        let mut rx = self.start_or_join(name)?;
        let wait = async {
            loop {
                if let Some(result) = rx.borrow().clone() {
                    return result;
                }
                if rx.changed().await.is_err() {
                    return Err("the order stopped".to_owned());
                }
            }
        };
        match tokio::time::timeout(self.settings.handshake_wait, wait).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(error)) => Err(Refused::Failed(error)),
            Err(_) => Err(Refused::TimedOut),
        }
    }

    /// Orders a certificate for `name` in the background when Quire serves it and has none
    /// (a blog created, a custom domain verified), so the first reader does not wait.
    pub fn prefetch(self: &Arc<Self>, name: &str) {
        if (self.allows)(name) && self.certs.get(name).is_none() {
            let _ = self.start_or_join(name);
        }
    }

    /// Forgets `name` (Quire stopped serving it): its certificate leaves memory and the data
    /// directory, and its own backoff is cleared, not its registered domain's pause of new
    /// orders. Nothing is revoked.
    pub fn forget(&self, name: &str) {
        self.certs.remove(name);
        self.flights.lock().expect("flights lock").remove(name);
        if let Err(e) = self.store.delete(name) {
            tracing::warn!(name, error = %e, "could not delete a certificate no longer used");
        }
    }

    /// Clears the backoff of `name` (the owner asked to check again).
    pub fn retry_now(&self, name: &str) {
        let mut flights = self.flights.lock().expect("flights lock");
        if let Some(Flight::Failed { .. }) = flights.get(name) {
            flights.remove(name);
        }
    }

    /// What Settings shows for `name`.
    pub fn certificate_state(&self, name: &str) -> CertificateState {
        let now = SystemTime::now();
        if let Some(stored) = self.certs.get(name).filter(|stored| now < stored.not_after) {
            return CertificateState::Issued { not_after: stored.not_after_unix() };
        }
        if let Some(Flight::Failed { until, error, .. }) = self.flights.lock().expect("flights lock").get(name) {
            return CertificateState::Failed { error: error.clone(), retry_at: unix_seconds(*until) };
        }
        if self.certs.get(name).is_none() {
            let refusal = self.ca.pause_reason().or_else(|| self.new_orders.refusal(name, now));
            if let Some((until, error)) = refusal {
                return CertificateState::Failed { error, retry_at: unix_seconds(until) };
            }
        }
        CertificateState::Pending
    }

    /// Joins the order running for `name`, or starts one unless the name is backing off (or,
    /// for a new certificate, its registered domain or every new order is).
    fn start_or_join(self: &Arc<Self>, name: &str) -> Result<watch::Receiver<Outcome>, Refused> {
        let mut flights = self.flights.lock().expect("flights lock");
        let now = SystemTime::now();
        let failures = match flights.get(name) {
            Some(Flight::Running(rx)) => return Ok(rx.clone()),
            Some(Flight::Failed { until, error, .. }) if now < *until => {
                self.stats.refused_backing_off.fetch_add(1, Ordering::Relaxed);
                return Err(Refused::BackingOff(error.clone()));
            }
            Some(Flight::Failed { failures, .. }) => *failures,
            None => 0,
        };
        let renewal = self.certs.get(name).is_some();
        if !renewal {
            if let Some((_, why)) = self.ca.pause_reason().or_else(|| self.new_orders.refusal(name, now)) {
                self.stats.refused_backing_off.fetch_add(1, Ordering::Relaxed);
                return Err(Refused::BackingOff(why));
            }
            self.new_orders.start(name, now);
        }
        let (tx, rx) = watch::channel(None);
        flights.insert(name.to_owned(), Flight::Running(rx.clone()));
        let this = self.clone();
        let name = name.to_owned();
        tokio::spawn(async move {
            let result = ORDERING.scope(name.clone(), this.issue(&name, renewal)).await.map_err(|e| format!("{e:#}"));
            let domain_pause = this.ca.take_domain_pause(&registered_domain(&name));
            let mut flights = this.flights.lock().expect("flights lock");
            match &result {
                Ok(()) => {
                    this.stats.issued.fetch_add(1, Ordering::Relaxed);
                    flights.remove(&name);
                    if !renewal {
                        this.new_orders.succeeded(&name);
                    }
                }
                Err(error) => {
                    this.stats.failed.fetch_add(1, Ordering::Relaxed);
                    let mut until = SystemTime::now() + backoff(this.settings.first_backoff, failures + 1);
                    if !renewal {
                        let first = this.settings.first_backoff;
                        until = until.max(this.new_orders.failed(&name, first, domain_pause, error));
                    }
                    let retry_in_s = until.duration_since(SystemTime::now()).unwrap_or_default().as_secs();
                    tracing::warn!(name, error, renewal, retry_in_s, "certificate not issued");
                    flights
                        .insert(name.clone(), Flight::Failed { until, failures: failures + 1, error: error.clone() });
                }
            }
            drop(flights);
            let _ = tx.send(Some(result));
        });
        Ok(rx)
    }

    /// Starts the renewal of every certificate due (and still served).
    pub fn renew_due(self: &Arc<Self>) {
        let now = SystemTime::now();
        for (name, stored) in self.certs.all() {
            if now >= stored.renew_at() && (self.allows)(&name) {
                tracing::info!(name, "certificate due for renewal");
                let _ = self.start_or_join(&name);
            }
        }
    }

    /// Checks for renewals now and then every `every`, for as long as the task runs.
    pub async fn run_renewals(self: Arc<Self>, every: Duration) {
        let mut tick = tokio::time::interval(every);
        loop {
            tick.tick().await;
            self.renew_due();
        }
    }

    /// Orders `name`'s certificate; a new one waits for the new orders' slot first, so a
    /// renewal always has a slot of its own.
    async fn issue(&self, name: &str, renewal: bool) -> anyhow::Result<()> {
        let _new_slot = if renewal { None } else { Some(self.new_orders_slot.acquire().await?) };
        if !renewal && let Some((until, why)) = self.ca.pause_reason() {
            let left = until.duration_since(SystemTime::now()).unwrap_or_default();
            anyhow::bail!("{why}; no new order for {} s", left.as_secs());
        }
        let _permit = self.orders.acquire().await?;
        let started = Instant::now();
        self.stats.orders.fetch_add(1, Ordering::Relaxed);
        let account =
            self.account.get_or_try_init(|| load_or_create_account(&self.settings.acme, &self.http, &self.ca)).await?;
        let (chain_pem, key_pem) = order(account, name, &self.challenges).await?;
        let stored = self.store.save(name, &chain_pem, &key_pem)?;
        let not_after = time::OffsetDateTime::from(stored.not_after)
            .format(&time::format_description::well_known::Rfc3339)
            .unwrap_or_default();
        self.certs.insert(name, stored);
        tracing::info!(name, ms = started.elapsed().as_millis() as u64, not_after, "certificate issued");
        Ok(())
    }
}

impl CertificateStates for Manager {
    fn state(&self, name: &str) -> Option<CertificateState> {
        Some(self.certificate_state(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backoff_doubles_from_ten_minutes_up_to_a_day() {
        let minutes = |failures| backoff(FIRST_BACKOFF, failures).as_secs() / 60;
        assert_eq!([1, 2, 3, 4, 5, 6, 7, 8].map(minutes), [10, 20, 40, 80, 160, 320, 640, 1280]);
        assert_eq!(minutes(9), 1440);
        assert_eq!(minutes(500), 1440, "no overflow after many failures");
        assert_eq!(backoff(Duration::ZERO, 3), Duration::ZERO);
    }
}
