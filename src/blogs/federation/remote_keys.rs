//! The inbox's keys (issue 16): the public key a signed request names, fetched from its owner's
//! server and cached in memory and in `remote_actors`, and the verification of the request with
//! it. Called only after every check that needs no key (`domain::ap_signature::check_request`)
//! and after the blocked domains, so a refused request costs no fetch.
//!
//! - The fetch is a GET of the keyId without its fragment, through the guarded `Fetcher`
//!   (private addresses refused after DNS resolution; http and loopback only in test mode),
//!   always signed (Mastodon's secure mode and GoToSocial answer only signed fetches): with the
//!   addressed blog's key when the inbox knows the blog, else with the instance actor's
//!   (`/_quire/ap/instance`). The answer must come from the
//!   keyId's origin (after redirects), be an actor publishing that key or a key document (its
//!   owner is then fetched too), and the key's owner must be the activity's actor.
//! - A cached key is used for [`FRESH_FOR`]; a signature that does not verify with it fetches the
//!   key once more (it may have been rotated), at most once per keyId every [`REFETCH_EVERY`],
//!   so forged requests cannot make Quire hammer someone else's server.

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

use reqwest::header::{ACCEPT, HeaderName, HeaderValue};
use serde_json::Value;

use crate::db::Db;
use crate::db::remote_actors::{self, RemoteActor};
use crate::domain::federation::ap_signature::{Checked, Refusal};
use crate::domain::federation::inbound::{self, KeyDocument};
use crate::fetch::signed::{self, SigningKey};
use crate::fetch::{Fetcher, Request};

/// How long a fetched key is used before it is fetched again.
pub const FRESH_FOR: Duration = Duration::from_secs(24 * 3600);
/// The least time between two fetches of one keyId after failed verifications.
pub const REFETCH_EVERY: Duration = Duration::from_secs(300);
/// Keys kept in memory.
const CACHED: usize = 10_000;
/// The media types an actor or key document may come as.
const ACTIVITY_JSON: [&str; 3] = ["application/activity+json", "application/ld+json", "application/json"];

/// Why a request's key did not verify it: each is a 401.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyRefusal {
    /// The signature does not verify, or the key is not RSA.
    #[error("{0}")]
    Signature(Refusal),
    /// The keyId is not an https URL (http only in test mode).
    #[error("the signature's keyId must be an https URL")]
    NotHttps,
    /// The key could not be fetched.
    #[error("the key the signature names could not be fetched: {0}")]
    Fetch(String),
    /// The fetched document does not hold the key as it must.
    #[error("the key the signature names is not usable: {0}")]
    Document(String),
    /// The key belongs to another actor than the activity's.
    #[error("the key that signed the request is not the activity's actor's")]
    NotTheActor,
}

/// Whose key signs the inbox's fetches: the addressed blog's, or the instance actor's.
pub struct Signer {
    /// The blog's key.
    pub key: Arc<SigningKey>,
    /// Its id (`{actor id}#main-key`, the blog's or the instance actor's).
    pub key_id: String,
}

/// The key fetcher and its caches.
pub struct InboxKeys {
    db: Db,
    fetcher: Fetcher,
    allow_http: bool,
    keys: quick_cache::sync::Cache<String, Arc<RemoteActor>>,
    fetched: quick_cache::sync::Cache<String, Instant>,
    fetching: quick_cache::sync::Cache<String, Arc<tokio::sync::Mutex<()>>>,
    /// Remote actors cached per host in `remote_actors` (`--max-remote-actors-per-host`).
    actors_per_host: u64,
}

impl InboxKeys {
    /// Keys fetched by `fetcher`, cached in `db` (at most `actors_per_host` actors a host);
    /// `allow_http` (test mode only, with the fetcher's loopback allowance) accepts http keyIds.
    pub fn new(db: Db, fetcher: Fetcher, allow_http: bool, actors_per_host: u64) -> InboxKeys {
        InboxKeys {
            actors_per_host,
            db,
            fetcher,
            allow_http,
            keys: quick_cache::sync::Cache::new(CACHED),
            fetched: quick_cache::sync::Cache::new(CACHED),
            fetching: quick_cache::sync::Cache::new(CACHED),
        }
    }

    /// Verifies a checked request for `actor` with the key its keyId names (cached, else
    /// fetched, signed by `signer`); answers the verified actor.
    pub async fn verify(
        &self,
        checked: &Checked,
        actor: &str,
        signer: &Signer,
    ) -> Result<Arc<RemoteActor>, KeyRefusal> {
        let key_id = checked.signature.key_id.as_str();
        self.check_scheme(key_id)?;
        let cached = match self.keys.get(key_id) {
            Some(hit) => Some(hit),
            None => self.stored(key_id).await,
        };
        let cached = cached.filter(|actor| fresh(&actor.fetched_at));
        let remote = match cached {
            Some(remote) => match signed::verify_checked(checked, &remote.public_pem) {
                Ok(()) => remote,
                Err(Refusal::BadSignature) if self.may_refetch(key_id) => {
                    let refetched = self.fetch(key_id, signer).await?;
                    signed::verify_checked(checked, &refetched.public_pem).map_err(KeyRefusal::Signature)?;
                    refetched
                }
                Err(refusal) => return Err(KeyRefusal::Signature(refusal)),
            },
            None => {
                // One fetch of a new key at a time: requests that waited use what it fetched.
                let lock =
                    self.fetching.get_or_insert_with(key_id, || Ok::<_, ()>(Default::default())).unwrap_or_default();
                let _fetching = lock.lock().await;
                let fetched = match self.keys.get(key_id).filter(|actor| fresh(&actor.fetched_at)) {
                    Some(fetched) => fetched,
                    None => self.fetch(key_id, signer).await?,
                };
                signed::verify_checked(checked, &fetched.public_pem).map_err(KeyRefusal::Signature)?;
                fetched
            }
        };
        if remote.actor_id != actor {
            return Err(KeyRefusal::NotTheActor);
        }
        Ok(remote)
    }

    /// Verifies an actor's `Delete` of itself with its cached key however old, never fetching:
    /// the account is gone, and its server answers 410 for its key.
    pub async fn verify_cached(&self, checked: &Checked, actor: &str) -> Result<Arc<RemoteActor>, KeyRefusal> {
        let key_id = checked.signature.key_id.as_str();
        let cached = match self.keys.get(key_id) {
            Some(hit) => Some(hit),
            None => self.stored(key_id).await,
        };
        let remote =
            cached.ok_or_else(|| KeyRefusal::Fetch("the account is gone and its key was never seen".to_owned()))?;
        signed::verify_checked(checked, &remote.public_pem).map_err(KeyRefusal::Signature)?;
        if remote.actor_id != actor {
            return Err(KeyRefusal::NotTheActor);
        }
        Ok(remote)
    }

    /// The cached actor `actor_id`, if any (memory is keyed by key, so this reads the table).
    pub async fn known(&self, actor_id: &str) -> Option<RemoteActor> {
        let actor_id = actor_id.to_owned();
        self.db.read(move |conn| remote_actors::get(conn, &actor_id)).await.ok().flatten()
    }

    /// Fetches an actor's document again (its `Update`), keeping its key.
    pub async fn refresh(&self, remote: &RemoteActor, signer: &Signer) -> Result<Arc<RemoteActor>, KeyRefusal> {
        self.fetch(&remote.key_id, signer).await
    }

    /// Forgets an actor's key (its account was deleted).
    pub fn forget(&self, key_id: &str) {
        self.keys.remove(key_id);
    }

    fn check_scheme(&self, url: &str) -> Result<(), KeyRefusal> {
        if self.allowed_scheme(url) { Ok(()) } else { Err(KeyRefusal::NotHttps) }
    }

    /// https, or http in test mode.
    fn allowed_scheme(&self, url: &str) -> bool {
        url::Url::parse(url).is_ok_and(|url| url.scheme() == "https" || (self.allow_http && url.scheme() == "http"))
    }

    async fn stored(&self, key_id: &str) -> Option<Arc<RemoteActor>> {
        let owned = key_id.to_owned();
        let stored = self.db.read(move |conn| remote_actors::by_key(conn, &owned)).await.ok().flatten()?;
        let stored = Arc::new(stored);
        self.keys.insert(key_id.to_owned(), stored.clone());
        Some(stored)
    }

    /// Whether a key that failed a verification may be fetched again now (and if so, notes it).
    fn may_refetch(&self, key_id: &str) -> bool {
        if self.fetched.get(key_id).is_some_and(|at| at.elapsed() < REFETCH_EVERY) {
            return false;
        }
        self.fetched.insert(key_id.to_owned(), Instant::now());
        true
    }

    /// Fetches the key `key_id` and its owner, stores and caches them.
    async fn fetch(&self, key_id: &str, signer: &Signer) -> Result<Arc<RemoteActor>, KeyRefusal> {
        self.fetched.insert(key_id.to_owned(), Instant::now());
        let doc = self.document(key_id, signer).await?;
        let bad = |e: inbound::Invalid| KeyRefusal::Document(e.0);
        let (actor, pem) = match inbound::key_document(&doc, key_id).map_err(bad)? {
            KeyDocument::Actor(actor) => {
                let pem = actor.keys.iter().find(|k| k.id == key_id).map(|k| k.pem.clone()).unwrap_or_default();
                (actor, pem)
            }
            KeyDocument::Key(key) => {
                if !inbound::same_origin(&key.owner, key_id) {
                    return Err(KeyRefusal::Document("the key's owner is on another server".to_owned()));
                }
                let owner = self.document(&key.owner, signer).await?;
                (inbound::actor(&owner).map_err(bad)?, key.pem)
            }
        };
        if !self.allowed_scheme(&actor.inbox) {
            return Err(KeyRefusal::Document("the actor's inbox is not an https URL".to_owned()));
        }
        let shared_inbox = actor.shared_inbox.filter(|inbox| self.allowed_scheme(inbox));
        if !inbound::same_origin(&actor.id, key_id) {
            return Err(KeyRefusal::Document("the key's owner is on another server".to_owned()));
        }
        if let Some(owner) = actor.keys.iter().find(|k| k.id == key_id).map(|k| &k.owner)
            && *owner != actor.id
        {
            return Err(KeyRefusal::Document("the key's owner is not the actor that publishes it".to_owned()));
        }
        let remote = RemoteActor {
            actor_id: actor.id,
            key_id: key_id.to_owned(),
            public_pem: pem,
            inbox: actor.inbox,
            shared_inbox,
            handle: actor.handle,
            name: actor.name,
            url: actor.url,
            fetched_at: String::new(),
        };
        let per_host = self.actors_per_host;
        let stored = self
            .db
            .write(move |conn| remote_actors::upsert(conn, &remote, per_host))
            .await
            .map_err(|e| KeyRefusal::Fetch(format!("it could not be stored ({e})")))?;
        let stored = Arc::new(stored);
        self.keys.insert(key_id.to_owned(), stored.clone());
        Ok(stored)
    }

    /// GETs the JSON document at `url` (its fragment dropped), from `url`'s origin only.
    async fn document(&self, url: &str, signer: &Signer) -> Result<Value, KeyRefusal> {
        self.check_scheme(url)?;
        let mut target = url::Url::parse(url).map_err(|_| KeyRefusal::NotHttps)?;
        target.set_fragment(None);
        let accept =
            r#"application/activity+json, application/ld+json; profile="https://www.w3.org/ns/activitystreams""#;
        let mut request = Request::get(target.as_str()).header(ACCEPT, HeaderValue::from_static(accept));
        request = request.accept(&ACTIVITY_JSON);
        let headers = signer
            .key
            .sign(&signer.key_id, "GET", &target, None, SystemTime::now())
            .map_err(|e| KeyRefusal::Fetch(e.to_string()))?;
        for (name, value) in headers {
            // reqwest writes Host itself, with the same value.
            if name != "host"
                && let Ok(value) = HeaderValue::from_str(&value)
            {
                request = request.header(HeaderName::from_static(name), value);
            }
        }
        let response = self.fetcher.request(request).await.map_err(|e| KeyRefusal::Fetch(e.to_string()))?;
        if !inbound::same_origin(&response.url, target.as_str()) {
            return Err(KeyRefusal::Fetch("it was redirected to another server".to_owned()));
        }
        serde_json::from_slice(&response.body).map_err(|_| KeyRefusal::Document("it is not JSON".to_owned()))
    }
}

/// Whether a `fetched_at` (stored form) is within [`FRESH_FOR`] of now.
fn fresh(fetched_at: &str) -> bool {
    let Ok(at) = time::OffsetDateTime::parse(fetched_at, &time::format_description::well_known::Rfc3339) else {
        return false;
    };
    let age = time::OffsetDateTime::now_utc() - at;
    age < time::Duration::try_from(FRESH_FOR).unwrap_or(time::Duration::DAY)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::data_dir::DataDir;
    use crate::domain::federation::ap_signature::{SignatureHeader, check_request};

    /// The instance actor's signer, as the shared inbox signs its fetches.
    static SIGNER: std::sync::LazyLock<Signer> = std::sync::LazyLock::new(|| Signer {
        key: Arc::new(signed::generate_key().unwrap()),
        key_id: "http://localhost/_quire/ap/instance#main-key".to_owned(),
    });

    fn checked(key_id: &str) -> Checked {
        Checked {
            signature: SignatureHeader {
                key_id: key_id.to_owned(),
                algorithm: None,
                headers: Vec::new(),
                signature: vec![1],
            },
            signing_string: String::new(),
            without_query: None,
        }
    }

    fn keys(allow_loopback: bool) -> (tempfile::TempDir, InboxKeys) {
        let dir = tempfile::tempdir().unwrap();
        let data_dir = DataDir::new(dir.path().join("data"));
        std::fs::create_dir(data_dir.root()).unwrap();
        let mut config = Config::local(data_dir.root(), "127.0.0.1:0".parse().unwrap(), "localhost");
        config.fetch_allow_loopback = allow_loopback;
        let db = Db::open_and_migrate(&data_dir).unwrap();
        let keys = InboxKeys::new(db, Fetcher::new(&config).unwrap(), allow_loopback, 10);
        (dir, keys)
    }

    #[tokio::test]
    async fn outside_test_mode_http_key_ids_and_private_addresses_are_refused_before_any_connection() {
        let (_dir, keys) = keys(false);
        let refusal =
            keys.verify(&checked("http://127.0.0.1:9/actor#main-key"), "http://127.0.0.1:9/actor", &SIGNER).await;
        assert_eq!(refusal.unwrap_err(), KeyRefusal::NotHttps);
        let refusal =
            keys.verify(&checked("https://127.0.0.1:9/actor#main-key"), "https://127.0.0.1:9/actor", &SIGNER).await;
        let KeyRefusal::Fetch(why) = refusal.unwrap_err() else { panic!("a fetch refusal") };
        assert!(why.contains("loopback"), "{why}");
        let refusal = keys.verify(&checked("https://10.1.2.3/actor#main-key"), "https://10.1.2.3/actor", &SIGNER).await;
        let KeyRefusal::Fetch(why) = refusal.unwrap_err() else { panic!("a fetch refusal") };
        assert!(why.contains("private"), "{why}");
    }

    #[tokio::test]
    async fn a_fresh_stored_key_verifies_without_a_fetch_and_must_be_the_actors() {
        let (_dir, keys) = keys(true);
        let key = signed::generate_key().unwrap();
        let key_id = "http://127.0.0.1:9/users/bob#main-key";
        let bob = RemoteActor {
            actor_id: "http://127.0.0.1:9/users/bob".into(),
            key_id: key_id.into(),
            public_pem: key.public_pem().into(),
            inbox: "http://127.0.0.1:9/users/bob/inbox".into(),
            shared_inbox: None,
            handle: "@bob@127.0.0.1:9".into(),
            name: "Bob".into(),
            url: None,
            fetched_at: String::new(),
        };
        keys.db.write(move |conn| remote_actors::upsert(conn, &bob, 10)).await.unwrap();
        let url = url::Url::parse("http://localhost/_quire/ap/inbox").unwrap();
        let body = b"{}";
        let now = SystemTime::now();
        let mut headers = http::HeaderMap::new();
        for (name, value) in key.sign(key_id, "POST", &url, Some((body, "application/activity+json")), now).unwrap() {
            headers.insert(name, value.parse().unwrap());
        }
        let checked = check_request("POST", "/_quire/ap/inbox", &headers, body, now).unwrap();
        let remote = keys.verify(&checked, "http://127.0.0.1:9/users/bob", &SIGNER).await.unwrap();
        assert_eq!(remote.handle, "@bob@127.0.0.1:9");
        assert_eq!(
            keys.verify(&checked, "http://127.0.0.1:9/users/eve", &SIGNER).await.unwrap_err(),
            KeyRefusal::NotTheActor
        );

        // A day later the key is fetched again (here from nowhere), except for the actor's own
        // Delete, which its server will not serve the key for any more.
        let a_year_ago = "UPDATE remote_actors SET fetched_at = '2020-01-01T00:00:00.000Z'";
        keys.db.write(move |conn| Ok(conn.execute(a_year_ago, [])?)).await.unwrap();
        keys.keys.clear();
        let refused = keys.verify(&checked, "http://127.0.0.1:9/users/bob", &SIGNER).await.unwrap_err();
        assert!(matches!(refused, KeyRefusal::Fetch(_)), "{refused:?}");
        assert_eq!(
            keys.verify_cached(&checked, "http://127.0.0.1:9/users/bob").await.unwrap().handle,
            "@bob@127.0.0.1:9"
        );
    }
}
