//! Federation on the write path (issue 16, docs/federation.md): a blog's signing key, made on
//! first use, and the activities a change calls for, queued in the same transaction as the
//! change (db/deliveries.rs), so a committed change is always announced, even across kill -9:
//!
//! - a post becoming public (created or updated with the draft flag off, or a scheduled post
//!   coming due) queues a `Create` of its Article; an edit of a public post an `Update`; a
//!   deleted public post (or one made a page) a `Delete` of a Tombstone, which also cancels the
//!   still-queued Create/Update of the same post;
//! - a deleted account queues a `Delete` of its actor to every inbox, and its key is retired,
//!   not deleted, until that is delivered (`sweep_keys`).
//!
//! Drafts, scheduled posts not yet live, previews and pages never reach a follower. The
//! delivery worker (`blogs/delivery.rs`) signs and sends them.

use std::sync::Arc;

use anyhow::Context;
use serde_json::Value;
use time::OffsetDateTime;

use super::Blogs;
use super::served_names::ServedNames;
use crate::config::Config;
use crate::db::deliveries;
use crate::db::federation_keys;
use crate::db::followers;
use crate::db::posts::Post;
use crate::domain::content::blocks::Body;
use crate::domain::federation::activity::{self, ArticleFacts};
use crate::error::{Error, Result};
use crate::fetch::signed::{self, SigningKey};

/// Parsed keys kept in memory (ring checks a key as it loads it, which costs a few ms).
pub(super) const CACHED_KEYS: usize = 1024;

/// What the write path needs to build activities: the deployment's addresses.
#[derive(Clone)]
pub(super) struct Outbound {
    config: Arc<Config>,
    served: Arc<ServedNames>,
}

/// A post's `Article`, as its Create carries it and `/_quire/ap/posts/{id}` serves it: ids on
/// the blog's subdomain, the permalink and tag pages on its custom domain when it has one.
pub fn article_of(config: &Config, served: &ServedNames, subdomain: &str, post: &Post) -> Result<Value> {
    let body = Body::from_json(&post.body_json).map_err(Error::Internal)?;
    let origin = config.blog_origin(&served.address(subdomain));
    let (id, actor_id) = (config.ap_post_id(subdomain, &post.short_id), config.actor_id(subdomain));
    let published = post.published_at.as_deref().unwrap_or(&post.created_at);
    Ok(activity::article(&ArticleFacts {
        id: &id,
        actor_id: &actor_id,
        blog_origin: &origin,
        path: &post.path(),
        title: &post.title,
        body: &body,
        tags: &post.tags,
        published,
        updated: Some(&post.updated_at),
    }))
}

impl Outbound {
    pub(super) fn new(config: Arc<Config>, served: Arc<ServedNames>) -> Outbound {
        Outbound { config, served }
    }

    /// Queues what a written post calls for (see the module's note); `was_public` says whether
    /// it was a published post before the write.
    pub(super) fn post_written(
        &self,
        conn: &rusqlite::Connection,
        subdomain: &str,
        post: &Post,
        was_public: bool,
    ) -> Result<()> {
        let is_public = post.federates();
        match (was_public, is_public) {
            (false, false) => Ok(()),
            (true, false) => self.post_deleted(conn, post.blog_id, subdomain, &post.short_id),
            (false, true) => {
                let create = activity::create(&self.config.actor_id(subdomain), self.article(subdomain, post)?);
                self.queue(conn, post.blog_id, &self.config.ap_post_id(subdomain, &post.short_id), &create)
            }
            (true, true) => {
                let at_ms = OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000;
                let update = activity::update(&self.config.actor_id(subdomain), self.article(subdomain, post)?, at_ms);
                self.queue(conn, post.blog_id, &self.config.ap_post_id(subdomain, &post.short_id), &update)
            }
        }
    }

    /// Queues the Delete of a public post, cancelling its queued Create/Update.
    pub(super) fn post_deleted(
        &self,
        conn: &rusqlite::Connection,
        blog_id: i64,
        subdomain: &str,
        short_id: &str,
    ) -> Result<()> {
        let object_id = self.config.ap_post_id(subdomain, short_id);
        deliveries::cancel_for_object(conn, blog_id, &object_id)?;
        let delete = activity::delete_post(&self.config.actor_id(subdomain), &object_id);
        self.queue(conn, blog_id, &object_id, &delete)
    }

    /// Queues the Delete of a deleted account's actor to every inbox of its followers, and drops
    /// whatever else it still had queued.
    pub(super) fn account_deleted(&self, conn: &rusqlite::Connection, blog_id: i64, subdomain: &str) -> Result<()> {
        deliveries::cancel_for_blog(conn, blog_id)?;
        let actor_id = self.config.actor_id(subdomain);
        let inboxes = followers::delivery_inboxes(conn, blog_id)?;
        deliveries::enqueue(conn, blog_id, &actor_id, &activity::delete_actor(&actor_id).to_string(), &inboxes)?;
        Ok(())
    }

    fn article(&self, subdomain: &str, post: &Post) -> Result<Value> {
        article_of(&self.config, &self.served, subdomain, post)
    }

    /// Queues `activity` about `object_id` for every accepted follower's server.
    fn queue(&self, conn: &rusqlite::Connection, blog_id: i64, object_id: &str, activity: &Value) -> Result<()> {
        let inboxes = followers::delivery_inboxes(conn, blog_id)?;
        deliveries::enqueue(conn, blog_id, object_id, &activity.to_string(), &inboxes)?;
        Ok(())
    }
}

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
    /// and forgets deliveries given up over [`deliveries::GIVEN_UP_KEPT_DAYS`] ago.
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

    /// Wakes the delivery worker: something was queued (the inbox's Accept calls it too).
    pub fn deliveries_queued(&self) {
        self.deliveries_changed.notify_one();
    }

    /// The post's Article (`/_quire/ap/posts/{id}`, the outbox's items).
    pub fn article(&self, subdomain: &str, post: &Post) -> Result<Value> {
        self.outbound.article(subdomain, post)
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
