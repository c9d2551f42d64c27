//! Quire's own federation keys (issue 16, issue 28 findings 6 and 8; docs/federation.md): a
//! blog's, made in the background when the blog is created (`Effects::key_wanted`), and the
//! instance actor's, which signs the key fetches no blog makes; both stored (`federation_keys`)
//! and kept parsed in memory ([`OwnKeys`]). Also the key that signs a queued delivery, a deleted
//! account's retired one included, and the sweep of retired keys no delivery needs any more.
//! The keys of other servers' actors are `remote_keys.rs`'s.
//!
//! A key is made once: requests for a key not made yet wait for the one making it (one lock per
//! owner), and the RSA work runs on a thread of its own, one key at a time ([`KEY_MAKERS`]),
//! never on the blocking pool SQLite's queries use, so a crowd of first fetches of a new blog's
//! actor neither makes a key each nor holds up anyone's queries. The key is generated outside
//! any transaction, stored unless another process stored one first, and read back
//! (`db::federation_keys::insert_or_keep`), so it is in backups and a restore keeps the
//! identity. The `rsa` crate only generates it; ring does every signature (`fetch::signed`,
//! which says why).

use std::sync::Arc;

use anyhow::Context;
use tokio::sync::{Mutex, Semaphore};

use crate::blogs::Blogs;
use crate::db::{Db, deliveries, federation_keys};
use crate::error::{Error, Result};
use crate::fetch::signed::{self, SigningKey};

/// Parsed keys kept in memory (ring checks a key as it loads it, which costs a few ms).
const CACHED_KEYS: usize = 1024;
/// Keys generated at once, each on its own thread (RSA 2048 takes a core for a while).
const KEY_MAKERS: usize = 1;

/// Whose key: a blog's, or the instance actor's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(in crate::blogs) enum KeyOwner {
    /// The blog with this id.
    Blog(i64),
    /// The instance actor (`/_quire/ap/instance`).
    Instance,
}

/// Quire's own keys, parsed; cheap to clone.
#[derive(Clone)]
pub(in crate::blogs) struct OwnKeys {
    db: Db,
    parsed: Arc<quick_cache::sync::Cache<KeyOwner, Arc<SigningKey>>>,
    making: Arc<quick_cache::sync::Cache<KeyOwner, Arc<Mutex<()>>>>,
    makers: Arc<Semaphore>,
}

impl OwnKeys {
    /// The keys stored in `db`.
    pub(in crate::blogs) fn new(db: Db) -> OwnKeys {
        OwnKeys {
            db,
            parsed: Arc::new(quick_cache::sync::Cache::new(CACHED_KEYS)),
            making: Arc::new(quick_cache::sync::Cache::new(CACHED_KEYS)),
            makers: Arc::new(Semaphore::new(KEY_MAKERS)),
        }
    }

    /// The parsed key of `owner`, if it is in memory.
    fn cached(&self, owner: KeyOwner) -> Option<Arc<SigningKey>> {
        self.parsed.get(&owner)
    }

    /// Forgets a blog's parsed key (its key was retired or deleted).
    pub(in crate::blogs) fn forget(&self, blog_id: i64) {
        self.parsed.remove(&KeyOwner::Blog(blog_id));
    }

    /// The live key of `owner`: in memory, stored, or made now (once, however many ask); a
    /// blog that does not exist is a 404.
    pub(in crate::blogs) async fn live(&self, owner: KeyOwner) -> Result<Arc<SigningKey>> {
        if let Some(key) = self.cached(owner) {
            return Ok(key);
        }
        let lock = self.making.get_or_insert_with(&owner, || Ok::<_, ()>(Default::default())).unwrap_or_default();
        let _making = lock.lock().await;
        if let Some(key) = self.cached(owner) {
            return Ok(key);
        }
        let db = self.db.clone();
        let stored = db
            .read(move |conn| match owner {
                KeyOwner::Blog(blog_id) => federation_keys::get(conn, blog_id),
                KeyOwner::Instance => federation_keys::instance(conn),
            })
            .await?;
        let stored = match stored {
            Some(stored) => stored,
            None => {
                let made = self.generate().await?;
                tracing::info!(?owner, "made a federation key");
                self.db
                    .write(move |conn| match owner {
                        KeyOwner::Blog(blog_id) => {
                            federation_keys::insert_or_keep(conn, blog_id, made.pkcs8_der(), made.public_pem())
                        }
                        KeyOwner::Instance => {
                            federation_keys::instance_insert_or_keep(conn, made.pkcs8_der(), made.public_pem())
                                .map(Some)
                        }
                    })
                    .await?
                    .ok_or_else(|| Error::not_found("blog", "Blog not found"))?
            }
        };
        let key = Arc::new(SigningKey::from_pkcs8(&stored.private_pkcs8).context("loading a stored federation key")?);
        self.parsed.insert(owner, key.clone());
        Ok(key)
    }

    /// Makes the blog's key in the background (a new blog: its actor's first fetch finds it).
    pub(in crate::blogs) fn make_in_background(&self, blog_id: i64) {
        let keys = self.clone();
        tokio::spawn(async move {
            if let Err(err) = keys.live(KeyOwner::Blog(blog_id)).await {
                tracing::warn!(blog_id, error = %err, "could not make the new blog's federation key");
            }
        });
    }

    /// Generates a key on a thread of its own, at most [`KEY_MAKERS`] at once.
    async fn generate(&self) -> Result<SigningKey> {
        let _turn = self.makers.acquire().await.context("the key makers are closed")?;
        let (made, done) = tokio::sync::oneshot::channel();
        std::thread::Builder::new()
            .name("quire-keygen".to_owned())
            .spawn(move || {
                let _ = made.send(signed::generate_key());
            })
            .context("starting the key generation thread")?;
        Ok(done.await.context("the key generation thread failed")??)
    }
}

impl Blogs {
    /// The blog's key, which signs its activities and whose public half its actor publishes:
    /// made when the blog was created (or, for an older blog, on first use). A blog that does
    /// not exist is a 404.
    pub async fn signing_key(&self, blog_id: i64) -> Result<Arc<SigningKey>> {
        self.keys.live(KeyOwner::Blog(blog_id)).await
    }

    /// The instance actor's key, which signs the key fetches of the shared inbox and whose
    /// public half the instance actor publishes; made on first use.
    pub async fn instance_key(&self) -> Result<Arc<SigningKey>> {
        self.keys.live(KeyOwner::Instance).await
    }

    /// The key that signs the blog's queued deliveries: its live key (made now if it has none
    /// yet), or the retired key of a deleted account (whose actor's Delete is still on its way);
    /// `None` when the blog is gone and so is its key.
    pub async fn delivery_key(&self, blog_id: i64) -> Result<Option<Arc<SigningKey>>> {
        if let Some(key) = self.keys.cached(KeyOwner::Blog(blog_id)) {
            return Ok(Some(key));
        }
        let Some(stored) = self.db.read(move |conn| federation_keys::signing(conn, blog_id)).await? else {
            return match self.signing_key(blog_id).await {
                Ok(key) => Ok(Some(key)),
                Err(Error::NotFound(_)) => Ok(None),
                Err(err) => Err(err),
            };
        };
        let key = Arc::new(SigningKey::from_pkcs8(&stored.private_pkcs8).context("loading the blog's stored key")?);
        Ok(Some(key))
    }

    /// Deletes the retired keys of deleted accounts whose actor's Delete is delivered or given up,
    /// and forgets the inbox hosts whose last delivery was given up over
    /// [`deliveries::GIVEN_UP_KEPT_DAYS`] ago.
    pub async fn sweep_keys(&self) -> Result<usize> {
        let swept = self
            .db
            .write(|conn| {
                deliveries::forget_given_up(conn)?;
                federation_keys::sweep_retired(conn)
            })
            .await?;
        for blog_id in &swept {
            self.keys.forget(*blog_id);
        }
        Ok(swept.len())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::blogs::{Blogs, PageGenerations, ServedNames};
    use crate::data_dir::DataDir;
    use crate::db::{Db, federation_keys};
    use crate::domain::content::blocks::Rules;
    use crate::search::SearchIndex;

    fn blogs(data_dir: &DataDir) -> Blogs {
        let db = Db::open_and_migrate(data_dir).unwrap();
        let conn = rusqlite::Connection::open(data_dir.database()).unwrap();
        conn.execute_batch(
            "INSERT OR IGNORE INTO users (id, email) VALUES (1, 'alice@example.com');
             INSERT OR IGNORE INTO blogs (id, user_id, subdomain, name, theme_id, favicon_id, time_zone)
                 VALUES (1, 1, 'alice', 'alice', (SELECT min(id) FROM themes), (SELECT min(id) FROM favicons), 'UTC');",
        )
        .unwrap();
        let search = Arc::new(SearchIndex::open(&data_dir.index()).unwrap());
        let rules = Rules { image_prefix: String::new() };
        let served = Arc::new(ServedNames::new("example.com", Vec::new()));
        let config =
            Arc::new(crate::config::Config::local(data_dir.root(), "127.0.0.1:0".parse().unwrap(), "example.com"));
        let media = crate::media_store::MediaStore::folder(data_dir.uploads());
        Blogs::new(db, search, Arc::new(PageGenerations::default()), data_dir.clone(), media, rules, served, config)
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn racing_first_uses_agree_on_one_stored_key_a_restart_reads_back_and_deletion_removes() {
        let dir = tempfile::tempdir().unwrap();
        let data_dir = DataDir::new(dir.path().join("data"));
        std::fs::create_dir(data_dir.root()).unwrap();
        let pem = {
            let blogs = Arc::new(blogs(&data_dir));
            let racers: Vec<_> = (0..3)
                .map(|_| {
                    tokio::spawn({
                        let blogs = blogs.clone();
                        async move { blogs.signing_key(1).await.unwrap().public_pem().to_owned() }
                    })
                })
                .collect();
            let mut pems = Vec::new();
            for racer in racers {
                pems.push(racer.await.unwrap());
            }
            assert!(pems.iter().all(|p| *p == pems[0]), "every racer got the same key");
            let stored = blogs.db.read(|conn| federation_keys::get(conn, 1)).await.unwrap().unwrap();
            assert_eq!(stored.public_pem, pems[0]);
            let missing = blogs.signing_key(2).await.unwrap_err();
            assert_eq!(missing.status(), poem::http::StatusCode::NOT_FOUND);
            let instance = blogs.instance_key().await.unwrap().public_pem().to_owned();
            assert_ne!(instance, pems[0], "the instance actor has a key of its own");
            (pems.swap_remove(0), instance)
        };
        // Another process on the same data (a restart): the same keys, read, not made.
        let blogs = blogs(&data_dir);
        let (pem, instance) = pem;
        assert_eq!(blogs.signing_key(1).await.unwrap().public_pem(), pem);
        assert_eq!(blogs.instance_key().await.unwrap().public_pem(), instance);
        // Deleting the account retires its key (never handed out again), and forgets the parsed one.
        let blog = blogs.owned(1, "1").await.unwrap();
        blogs.delete_account(&blog).await.unwrap();
        assert_eq!(blogs.db.read(|conn| federation_keys::get(conn, 1)).await.unwrap(), None);
        assert_eq!(blogs.signing_key(1).await.unwrap_err().status(), poem::http::StatusCode::NOT_FOUND);
    }
}
