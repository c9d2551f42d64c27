//! The names this server answers on, in memory: the app host, `www.{host}`, `{sub}.{host}` of
//! each existing blog and each verified custom domain. Built from SQLite at start and changed
//! only by the write path after its commits; read by host dispatch, the Caddy `ask` endpoint
//! and the TLS manager, so none of them needs SQL.
//!
//! The write path changes them after each commit that creates or deletes a blog or verifies,
//! unverifies, replaces or removes a custom domain, before it invalidates the blog's pages (which
//! carry its origin, `Config::blog_origin`). Each change is also broadcast ([`ServedNames::changes`])
//! for those keeping per-name state: the TLS manager orders or forgets certificates (`app.rs`).
//!
//! Each blog's trust state (issue 29) is kept here too, beside its names, so that host dispatch
//! answers a suspended blog's every surface with a 410, and marks a `new` or `silenced` blog's
//! answers `noindex`, without SQL; the write path changes it after `Blogs::moderate` commits.

use std::collections::{HashMap, HashSet};
use std::sync::RwLock;

use tokio::sync::broadcast;

use crate::db::Db;
use crate::domain::blog::address::BlogAddress;
use crate::domain::blog::trust_state::TrustState;
use crate::error::Error;

/// A name starts or stops being served.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameChange {
    /// A blog was created (`{sub}.{host}`) or a custom domain verified.
    Added(String),
    /// A blog was deleted or a custom domain removed or unverified.
    Removed(String),
}

#[derive(Default)]
struct Names {
    /// Subdomains of existing blogs.
    subdomains: HashSet<String>,
    /// Verified custom domain -> its blog's subdomain.
    domains: HashMap<String, String>,
    /// Subdomain -> its verified custom domain.
    domain_of: HashMap<String, String>,
    /// Subdomain -> its trust state, for blogs that are not `approved` (most are).
    states: HashMap<String, TrustState>,
}

/// The names served; cheap to ask, `Send + Sync`, shared as `Arc<ServedNames>`.
pub struct ServedNames {
    /// The app host's name, without its port.
    app_name: String,
    names: RwLock<Names>,
    changes: broadcast::Sender<NameChange>,
}

impl ServedNames {
    /// The names of `blogs` (each blog's subdomain and verified domain) under `app_host`
    /// (`host[:port]`).
    pub fn new(app_host: &str, blogs: Vec<(String, Option<String>)>) -> ServedNames {
        let app_name = app_host.rsplit_once(':').map_or(app_host, |(name, _)| name).to_owned();
        let mut names = Names::default();
        for (subdomain, domain) in blogs {
            if let Some(domain) = domain {
                names.domains.insert(domain.clone(), subdomain.clone());
                names.domain_of.insert(subdomain.clone(), domain);
            }
            names.subdomains.insert(subdomain);
        }
        ServedNames { app_name, names: RwLock::new(names), changes: broadcast::channel(256).0 }
    }

    /// Reads every blog, verified domain and trust state from the database.
    pub async fn load(db: &Db, app_host: &str) -> Result<ServedNames, Error> {
        let (blogs, states) =
            db.read(|conn| Ok((crate::db::custom_domains::served(conn)?, crate::db::blogs::states(conn)?))).await?;
        let served = ServedNames::new(app_host, blogs);
        for (subdomain, state) in states {
            served.set_state(&subdomain, state);
        }
        Ok(served)
    }

    /// The trust state of the blog on `subdomain` (`approved` for a name it does not know).
    pub fn state(&self, subdomain: &str) -> TrustState {
        let names = self.names.read().expect("served names lock");
        names.states.get(subdomain).copied().unwrap_or(TrustState::Approved)
    }

    /// Whether any blog is suspended (media files are looked up only then).
    pub fn any_suspended(&self) -> bool {
        self.names.read().expect("served names lock").states.values().any(|state| *state == TrustState::Suspended)
    }

    /// The blog on `subdomain` is in `state` from now on (called at start and by the write path
    /// after its commit).
    pub(crate) fn set_state(&self, subdomain: &str, state: TrustState) {
        let mut names = self.names.write().expect("served names lock");
        match state {
            TrustState::Approved => names.states.remove(subdomain),
            _ => names.states.insert(subdomain.to_owned(), state),
        };
    }

    /// Whether the server answers on `name` (lowercase, no trailing dot, no port): the app
    /// host, `www.{host}`, `{sub}.{host}` of an existing blog, a verified custom domain.
    pub fn allows(&self, name: &str) -> bool {
        if name == self.app_name || name.strip_prefix("www.") == Some(self.app_name.as_str()) {
            return true;
        }
        let names = self.names.read().expect("served names lock");
        match self.subdomain_label(name) {
            Some(label) => names.subdomains.contains(label),
            None => names.domains.contains_key(name),
        }
    }

    /// Every later change, for those who keep state per name (certificates).
    pub fn changes(&self) -> broadcast::Receiver<NameChange> {
        self.changes.subscribe()
    }

    /// The app host's name without its port.
    pub fn app_name(&self) -> &str {
        &self.app_name
    }

    /// The subdomain of the blog whose verified custom domain is `name`.
    pub fn blog_of_domain(&self, name: &str) -> Option<String> {
        self.names.read().expect("served names lock").domains.get(name).cloned()
    }

    /// Where the blog on `subdomain` answers: its verified custom domain, if it has one.
    pub fn address(&self, subdomain: &str) -> BlogAddress {
        let domain = self.names.read().expect("served names lock").domain_of.get(subdomain).cloned();
        BlogAddress { subdomain: subdomain.to_owned(), domain }
    }

    /// `{sub}` of `{sub}.{app name}`.
    fn subdomain_label<'a>(&self, name: &'a str) -> Option<&'a str> {
        name.strip_suffix(self.app_name.as_str())?.strip_suffix('.').filter(|label| !label.contains('.'))
    }

    fn host_of(&self, subdomain: &str) -> String {
        format!("{subdomain}.{}", self.app_name)
    }

    fn tell(&self, change: NameChange) {
        let _ = self.changes.send(change); // no receiver is fine
    }

    /// A blog was created on `subdomain` (called by the write path after its commit).
    pub(crate) fn blog_created(&self, subdomain: &str) {
        self.names.write().expect("served names lock").subdomains.insert(subdomain.to_owned());
        self.tell(NameChange::Added(self.host_of(subdomain)));
    }

    /// The blog on `subdomain` was deleted, with its custom domain.
    pub(crate) fn blog_deleted(&self, subdomain: &str) {
        let removed_domain = {
            let mut names = self.names.write().expect("served names lock");
            names.subdomains.remove(subdomain);
            names.states.remove(subdomain);
            let domain = names.domain_of.remove(subdomain);
            if let Some(domain) = &domain {
                names.domains.remove(domain);
            }
            domain
        };
        self.tell(NameChange::Removed(self.host_of(subdomain)));
        if let Some(domain) = removed_domain {
            self.tell(NameChange::Removed(domain));
        }
    }

    /// The blog on `subdomain` now answers on `domain` (verified), or on none (`None`:
    /// removed, replaced or unverified).
    pub(crate) fn set_domain(&self, subdomain: &str, domain: Option<&str>) {
        let (old, new) = {
            let mut names = self.names.write().expect("served names lock");
            let old = names.domain_of.remove(subdomain);
            if let Some(old) = &old {
                names.domains.remove(old);
            }
            if let Some(domain) = domain {
                names.domains.insert(domain.to_owned(), subdomain.to_owned());
                names.domain_of.insert(subdomain.to_owned(), domain.to_owned());
            }
            (old, domain.map(str::to_owned))
        };
        if old == new {
            return;
        }
        if let Some(old) = old {
            self.tell(NameChange::Removed(old));
        }
        if let Some(new) = new {
            self.tell(NameChange::Added(new));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_app_host_www_existing_blogs_and_verified_domains_are_served() {
        let served = ServedNames::new(
            "example.com:8080",
            vec![("alice".into(), Some("blog.alice.org".into())), ("bob".into(), None)],
        );
        for name in ["example.com", "www.example.com", "alice.example.com", "bob.example.com", "blog.alice.org"] {
            assert!(served.allows(name), "{name}");
        }
        for name in ["carol.example.com", "a.alice.example.com", "evil.test", "example.com:8080", "xexample.com", ""] {
            assert!(!served.allows(name), "{name}");
        }
        assert_eq!(served.blog_of_domain("blog.alice.org").as_deref(), Some("alice"));
        assert_eq!(served.address("alice").domain.as_deref(), Some("blog.alice.org"));
        assert_eq!(served.address("bob").domain, None);
    }

    #[test]
    fn trust_states_are_kept_per_blog_and_forgotten_with_it() {
        let served = ServedNames::new("example.com", vec![("alice".into(), None), ("bob".into(), None)]);
        assert_eq!(served.state("alice"), TrustState::Approved);
        assert!(!served.any_suspended());
        served.set_state("alice", TrustState::Suspended);
        served.set_state("bob", TrustState::New);
        assert_eq!((served.state("alice"), served.state("bob")), (TrustState::Suspended, TrustState::New));
        assert!(served.any_suspended());
        served.set_state("alice", TrustState::Approved);
        assert_eq!(served.state("alice"), TrustState::Approved);
        assert!(!served.any_suspended());
        served.blog_deleted("bob");
        served.blog_created("bob");
        assert_eq!(served.state("bob"), TrustState::Approved);
    }

    #[test]
    fn changes_are_applied_and_told() {
        let served = ServedNames::new("example.com", vec![]);
        let mut changes = served.changes();
        served.blog_created("alice");
        assert!(served.allows("alice.example.com"));
        served.set_domain("alice", Some("blog.alice.org"));
        assert!(served.allows("blog.alice.org"));
        served.set_domain("alice", Some("blog.alice.org"));
        served.set_domain("alice", Some("new.alice.org"));
        assert!(!served.allows("blog.alice.org") && served.allows("new.alice.org"));
        served.blog_deleted("alice");
        assert!(!served.allows("alice.example.com") && !served.allows("new.alice.org"));
        let told: Vec<NameChange> = std::iter::from_fn(|| changes.try_recv().ok()).collect();
        assert_eq!(
            told,
            [
                NameChange::Added("alice.example.com".into()),
                NameChange::Added("blog.alice.org".into()),
                NameChange::Removed("blog.alice.org".into()),
                NameChange::Added("new.alice.org".into()),
                NameChange::Removed("alice.example.com".into()),
                NameChange::Removed("new.alice.org".into()),
            ]
        );
    }
}
