//! A blog's own federation key (issue 16, docs/federation.md): made on first use, stored in
//! `federation_keys`, kept parsed in memory (`Blogs::keys`); the key that signs a queued
//! delivery, a deleted account's retired one included; and the sweep of retired keys no
//! delivery needs any more. The keys of other servers' actors are `remote_keys.rs`'s.
//!
//! A key is generated outside any transaction, stored unless another request stored one first,
//! and read back (`db::federation_keys::insert_or_keep`), so it is in backups and a restore keeps
//! the blog's identity. The `rsa` crate only generates it; ring does every signature
//! (`fetch::signed`, which says why).

use std::sync::Arc;

use anyhow::Context;

use crate::blogs::Blogs;
use crate::db::{deliveries, federation_keys};
use crate::error::{Error, Result};
use crate::fetch::signed::{self, SigningKey};

/// Parsed keys kept in memory (ring checks a key as it loads it, which costs a few ms).
pub(in crate::blogs) const CACHED_KEYS: usize = 1024;

impl Blogs {
    /// The blog's key, which signs its activities and whose public half its actor publishes:
    /// read from the database, or on the blog's first use generated (off the async runtime and
    /// outside any transaction) and stored, the first stored key winning a race. A blog that
    /// does not exist is a 404.
    pub async fn signing_key(&self, blog_id: i64) -> Result<Arc<SigningKey>> {
        if let Some(key) = self.keys.get(&blog_id) {
            return Ok(key);
        }
        let stored = match self.db.read(move |conn| federation_keys::get(conn, blog_id)).await? {
            Some(stored) => stored,
            None => {
                let made = tokio::task::spawn_blocking(signed::generate_key)
                    .await
                    .context("the key generation task failed")??;
                tracing::info!(blog_id, "made the blog's federation key");
                self.db
                    .write(move |conn| {
                        federation_keys::insert_or_keep(conn, blog_id, made.pkcs8_der(), made.public_pem())
                    })
                    .await?
                    .ok_or_else(|| Error::not_found("blog", "Blog not found"))?
            }
        };
        let key = Arc::new(SigningKey::from_pkcs8(&stored.private_pkcs8).context("loading the blog's stored key")?);
        self.keys.insert(blog_id, key.clone());
        Ok(key)
    }

    /// The key that signs the blog's queued deliveries: its live key (made now if it has none
    /// yet), or the retired key of a deleted account (whose actor's Delete is still on its way);
    /// `None` when the blog is gone and so is its key.
    pub async fn delivery_key(&self, blog_id: i64) -> Result<Option<Arc<SigningKey>>> {
        if let Some(key) = self.keys.get(&blog_id) {
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
            self.keys.remove(blog_id);
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
        Blogs::new(db, search, Arc::new(PageGenerations::default()), data_dir.clone(), rules, served, config)
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
            pems.swap_remove(0)
        };
        // Another process on the same data (a restart): the same key, read, not made.
        let blogs = blogs(&data_dir);
        assert_eq!(blogs.signing_key(1).await.unwrap().public_pem(), pem);
        // Deleting the account retires its key (never handed out again), and forgets the parsed one.
        let blog = blogs.owned(1, "1").await.unwrap();
        blogs.delete_account(&blog).await.unwrap();
        assert_eq!(blogs.db.read(|conn| federation_keys::get(conn, 1)).await.unwrap(), None);
        assert_eq!(blogs.signing_key(1).await.unwrap_err().status(), poem::http::StatusCode::NOT_FOUND);
    }
}
