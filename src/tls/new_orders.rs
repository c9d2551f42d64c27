//! What holds back new certificate orders (a name with no certificate yet), never renewals:
//!
//! - a pause per **registered domain** (public suffix list, `psl`: every name under
//!   `example.co.uk` shares one) after a failed order, 10 minutes doubling up to a day, or as
//!   long as the CA asked in a 429 naming the domain. It is kept in the database
//!   (`acme_backoffs`) and outlives the name: removing a custom domain and adding it (or a
//!   sibling) again does not clear it, nor does a restart;
//! - at most `--acme-new-certificates-per-day` new orders in 24 hours for the instance
//!   (`acme_new_orders`).
//!
//! Both are kept in memory for the handshake's checks and written through to the database in
//! the background.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use super::manager::backoff;
use super::store::unix_seconds;
use crate::db::Db;
use crate::db::acme_backoffs::{self, BackoffRow};

const DAY: Duration = Duration::from_secs(86400);

/// The registered domain of `name` (`a.b.example.co.uk` -> `example.co.uk`); the name itself
/// when the list knows no suffix for it.
pub fn registered_domain(name: &str) -> String {
    psl::domain_str(name).unwrap_or(name).to_owned()
}

/// The pauses of registered domains and the instance's new orders of the last day.
pub struct NewOrders {
    state: Mutex<State>,
    per_day: usize,
    db: Option<Db>,
}

#[derive(Default)]
struct State {
    by_domain: HashMap<String, BackoffRow>,
    started: VecDeque<SystemTime>,
}

fn from_unix(seconds: i64) -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(u64::try_from(seconds).unwrap_or(0))
}

impl NewOrders {
    /// The stored pauses and the last day's new orders of `db` (none without one: tests).
    pub fn load(db: Option<Db>, per_day: usize) -> anyhow::Result<NewOrders> {
        let mut state = State::default();
        if let Some(db) = &db {
            let conn = crate::db::open_connection(db.path(), false)?;
            for row in acme_backoffs::all(&conn)? {
                state.by_domain.insert(row.registered_domain.clone(), row);
            }
            let since = unix_seconds(SystemTime::now() - DAY);
            state.started = acme_backoffs::new_orders_since(&conn, since)?.into_iter().map(from_unix).collect();
        }
        Ok(NewOrders { state: Mutex::new(state), per_day, db })
    }

    /// Why a new order for `name` may not start at `now`, and until when.
    pub fn refusal(&self, name: &str, now: SystemTime) -> Option<(SystemTime, String)> {
        let mut state = self.state.lock().expect("new orders lock");
        if let Some(row) = state.by_domain.get(&registered_domain(name)) {
            let until = from_unix(row.retry_at);
            if now < until {
                return Some((until, row.error.clone()));
            }
        }
        while state.started.front().is_some_and(|at| *at + DAY <= now) {
            state.started.pop_front();
        }
        if state.started.len() >= self.per_day {
            let until = state.started.front().map_or(now, |oldest| *oldest + DAY);
            let why = format!(
                "This server's limit of {} new certificates a day is reached (--acme-new-certificates-per-day)",
                self.per_day
            );
            return Some((until, why));
        }
        None
    }

    /// Counts a new order of `name` starting at `now`.
    pub fn start(&self, name: &str, now: SystemTime) {
        self.state.lock().expect("new orders lock").started.push_back(now);
        let (name, at) = (name.to_owned(), unix_seconds(now));
        self.persist(move |conn| acme_backoffs::record_new_order(conn, &name, at));
    }

    /// Pauses the registered domain of `name` after a failed new order: `backoff(first, n)`
    /// after the n-th failure in a row, and not before `at_least` (a CA's pause for the
    /// domain). Returns the end of the pause.
    pub fn failed(&self, name: &str, first: Duration, at_least: Option<SystemTime>, error: &str) -> SystemTime {
        let domain = registered_domain(name);
        let now = SystemTime::now();
        let mut state = self.state.lock().expect("new orders lock");
        let failures = state.by_domain.get(&domain).map_or(0, |row| row.failures) + 1;
        let until = (now + backoff(first, failures)).max(at_least.unwrap_or(now));
        let row = BackoffRow {
            registered_domain: domain.clone(),
            failures,
            retry_at: unix_seconds(until),
            error: error.to_owned(),
        };
        state.by_domain.insert(domain, row.clone());
        drop(state);
        self.persist(move |conn| acme_backoffs::put(conn, &row));
        until
    }

    /// Clears the pause of the registered domain of `name`: a new order under it succeeded.
    pub fn succeeded(&self, name: &str) {
        let domain = registered_domain(name);
        if self.state.lock().expect("new orders lock").by_domain.remove(&domain).is_some() {
            self.persist(move |conn| acme_backoffs::clear(conn, &domain));
        }
    }

    /// Writes to the database in the background (the handshake path never waits for it).
    fn persist(&self, write: impl FnOnce(&rusqlite::Connection) -> Result<(), crate::error::Error> + Send + 'static) {
        let (Some(db), Ok(runtime)) = (self.db.clone(), tokio::runtime::Handle::try_current()) else { return };
        runtime.spawn(async move {
            if let Err(e) = db.write(move |conn| write(conn)).await {
                tracing::warn!(error = %e, "could not store a certificate order's pause");
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_share_the_pause_of_their_registered_domain() {
        assert_eq!(registered_domain("a.b.example.co.uk"), "example.co.uk");
        assert_eq!(registered_domain("blog.example.org"), "example.org");
        assert_eq!(registered_domain("example.org"), "example.org");
        let orders = NewOrders::load(None, 100).unwrap();
        let now = SystemTime::now();
        assert!(orders.refusal("a.example.org", now).is_none());
        let until = orders.failed("a.example.org", Duration::from_secs(600), None, "no");
        assert!(until >= now + Duration::from_secs(599));
        assert_eq!(orders.refusal("b.example.org", now).map(|(_, why)| why).as_deref(), Some("no"), "a sibling waits");
        assert!(orders.refusal("a.example.net", now).is_none(), "another domain does not");
        let asked = now + Duration::from_secs(7200);
        assert_eq!(orders.failed("c.example.org", Duration::from_secs(600), Some(asked), "429"), asked);
        orders.succeeded("a.example.org");
        assert!(orders.refusal("a.example.org", now).is_none());
    }

    #[test]
    fn new_orders_stop_at_the_daily_limit_until_the_oldest_is_a_day_old() {
        let orders = NewOrders::load(None, 2).unwrap();
        let now = SystemTime::now();
        orders.start("a.example.org", now - Duration::from_secs(3600));
        orders.start("b.example.net", now);
        let (until, why) = orders.refusal("c.example.com", now).expect("the third is refused");
        assert!(why.contains("2 new certificates a day"), "{why}");
        assert_eq!(until, now - Duration::from_secs(3600) + DAY);
        assert!(orders.refusal("c.example.com", until).is_none(), "a day after the oldest");
    }
}
