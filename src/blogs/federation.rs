//! Federation on the write path (issue 16, in progress): a blog's signing key, made on first
//! use. Delivery, the inbox and the routes come later (docs/architecture.md).

use std::sync::Arc;

use anyhow::Context;

use super::Blogs;
use crate::db::federation_keys;
use crate::error::{Error, Result};
use crate::fetch::signed::{self, SigningKey};

/// Parsed keys kept in memory (ring checks a key as it loads it, which costs a few ms).
pub(super) const CACHED_KEYS: usize = 1024;

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
                    .write(move |conn| federation_keys::insert_or_keep(conn, blog_id, made.pkcs8_der(), made.public_pem()))
                    .await?
                    .ok_or_else(|| Error::not_found("blog", "Blog not found"))?
            }
        };
        let key = Arc::new(SigningKey::from_pkcs8(&stored.private_pkcs8).context("loading the blog's stored key")?);
        self.keys.insert(blog_id, key.clone());
        Ok(key)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::blogs::{Blogs, PageGenerations, ServedNames};
    use crate::data_dir::DataDir;
    use crate::db::{Db, federation_keys};
    use crate::domain::blocks::Rules;
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
        Blogs::new(db, search, Arc::new(PageGenerations::default()), data_dir.clone(), rules, served)
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn racing_first_uses_agree_on_one_stored_key_a_restart_reads_back_and_deletion_removes() {
        let dir = tempfile::tempdir().unwrap();
        let data_dir = DataDir::new(dir.path().join("data"));
        std::fs::create_dir(data_dir.root()).unwrap();
        let pem = {
            let blogs = Arc::new(blogs(&data_dir));
            let racers: Vec<_> = (0..3).map(|_| tokio::spawn({
                let blogs = blogs.clone();
                async move { blogs.signing_key(1).await.unwrap().public_pem().to_owned() }
            })).collect();
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
        // Deleting the account deletes its key, and forgets the parsed one.
        let blog = blogs.owned(1, "1").await.unwrap();
        blogs.delete_account(&blog).await.unwrap();
        assert_eq!(blogs.db.read(|conn| federation_keys::get(conn, 1)).await.unwrap(), None);
        assert_eq!(blogs.signing_key(1).await.unwrap_err().status(), poem::http::StatusCode::NOT_FOUND);
    }
}
