//! A write's effects, and the one helper that performs them: [`Blogs::commit`].
//!
//! A write method of [`Blogs`] hands `commit` a closure that runs on the database's writer
//! connection: it writes (one SQLite transaction, opened by the `db/` function it calls; the
//! activities federation queues are written there too, through [`Effects::outbound`]) and states
//! in [`Effects`] what else its change calls for. `commit` then performs those effects, always in
//! this order:
//!
//! 1. **The search index**, still inside the writer's closure, after the transaction committed,
//!    with the sequence the write reached ([`Effects::index_post`] and its siblings). The closure
//!    holds the writer connection, so index commits happen in database order and a later change
//!    never lands under an earlier one; see [`index`](super::index) for a failed update. Then,
//!    still holding the writer, **upload files no one references any more** are removed
//!    ([`Effects::remove_uploads`]): an upload records its reference and checks its file from the
//!    writer too, so a file is never removed under a reference recorded meanwhile.
//! 2. After the writer is released, only if the write succeeded: files of the change removed (a
//!    deleted job's, an account's exports), a deleted blog's signing key forgotten, a new blog's
//!    made in the background (`federation::OwnKeys`, off SQLite's threads).
//! 3. **The names served** ([`ServedNames`](super::ServedNames)): a blog created or deleted, a
//!    custom domain verified or not any more, a blog's trust state changed. Before the pages, which carry the blog's origin.
//! 4. **The blog's cached pages** invalidated ([`PageGenerations`](super::PageGenerations)).
//! 5. **The wake-ups**: the scheduler (a schedule may have moved), the delivery worker (an
//!    activity was queued), the job runner (a job was queued), the custom domains' recheck task
//!    (a domain was set).
//!
//! A new side effect of writes (an email queue, webmentions, ...) is added here once: a field
//! and a method stating it on [`Effects`], and its line in [`Effects::apply_in_writer`] when
//! it must follow database order, or in [`Blogs::performed`] when it happens after the commit.
//! What must be atomic with the change (a queue's row) is written in the write's transaction,
//! by a hook the `db/` function takes, as federation's are; what it wakes is woken here.
//!
//! Bookkeeping writes that change nothing a blog shows (a job's progress, a delivery's outcome,
//! a fetched or made key) call `Db::write` directly.

use rusqlite::Connection;

use super::federation::Outbound;
use super::{Blogs, index};
use crate::db::posts::Post;
use crate::domain::blog::trust_state::TrustState;
use crate::domain::content::blocks::Body;
use crate::error::Result;
use crate::media_store::MediaStore;
use crate::search::{PostDoc, SearchIndex};

/// What a write changed beyond its transaction, stated by the write inside the writer's
/// closure and performed by [`Blogs::commit`] once the closure succeeded.
pub(super) struct Effects {
    /// Builds the activities the write queues in its transaction.
    outbound: Outbound,
    /// Index changes, each at the database sequence its write reached, applied in order.
    index: Vec<(i64, IndexChange)>,
    /// Files of the exports folder the change leaves unused.
    job_files: Vec<String>,
    /// Upload files (`<hash>.<ext>`) the change left without any reference.
    orphaned_uploads: Vec<String>,
    /// Blogs whose signing key is retired (a deleted account).
    retired_keys: Vec<i64>,
    /// New blogs whose signing key is made in the background.
    wanted_keys: Vec<i64>,
    /// Changes of the names the server answers on.
    served: Vec<ServedChange>,
    /// The subdomains whose cached pages are stale, each once.
    invalidate: Vec<String>,
    /// A post's schedule may have changed: the scheduler looks again.
    schedule_moved: bool,
    /// An activity was queued: the delivery worker looks again.
    deliveries_queued: bool,
    /// Mail was queued: the mail sender looks again.
    mail_queued: bool,
    /// A webmention was received: the verifier looks again.
    webmention_queued: bool,
    /// A job was queued: the job runner looks again.
    job_queued: bool,
    /// A custom domain was set: the recheck task looks again.
    domain_set: bool,
}

/// One change of the search index.
enum IndexChange {
    /// One post, in its own index commit.
    Post(PostDoc),
    /// Posts written together (an import's batch), in one index commit.
    Posts(Vec<PostDoc>),
    /// A stored post whose document could not be built: logged like a failed update.
    Unreadable(anyhow::Error),
    /// A deleted post, by row id.
    Removed(i64),
    /// Every post of a deleted blog, by blog id.
    RemovedBlog(i64),
}

/// One change of the names served.
enum ServedChange {
    /// A blog was created on this subdomain.
    Created(String),
    /// The blog of this subdomain was deleted.
    Deleted(String),
    /// The blog of this subdomain answers on this verified custom domain, or on none.
    Domain(String, Option<String>),
    /// The blog of this subdomain is in this trust state now.
    State(String, TrustState),
}

impl Effects {
    fn new(outbound: Outbound) -> Effects {
        Effects {
            outbound,
            index: Vec::new(),
            job_files: Vec::new(),
            orphaned_uploads: Vec::new(),
            retired_keys: Vec::new(),
            wanted_keys: Vec::new(),
            served: Vec::new(),
            invalidate: Vec::new(),
            schedule_moved: false,
            deliveries_queued: false,
            mail_queued: false,
            webmention_queued: false,
            job_queued: false,
            domain_set: false,
        }
    }

    /// Builds the activities a post or account write queues inside its transaction (the hooks
    /// `db/` functions take).
    pub(super) fn outbound(&self) -> &Outbound {
        &self.outbound
    }

    /// Indexes a written post whose parsed body is at hand, at the database's new sequence `seq`.
    pub(super) fn index_post(&mut self, seq: i64, post: &Post, body: &Body) {
        self.index.push((seq, IndexChange::Post(index::doc(post, body))));
    }

    /// Indexes a written post from its stored body, at the database's new sequence `seq`.
    pub(super) fn index_stored_post(&mut self, seq: i64, post: &Post) {
        let change = match index::stored_doc(post) {
            Ok(doc) => IndexChange::Post(doc),
            Err(err) => IndexChange::Unreadable(err),
        };
        self.index.push((seq, change));
    }

    /// Indexes the posts written together with their parsed bodies in one index commit, at the
    /// database's new sequence `seq`.
    pub(super) fn index_posts<'a>(&mut self, seq: i64, posts: impl IntoIterator<Item = (&'a Post, &'a Body)>) {
        let docs = posts.into_iter().map(|(post, body)| index::doc(post, body)).collect();
        self.index.push((seq, IndexChange::Posts(docs)));
    }

    /// Removes a deleted post (row id `post_id`) from the index, at the database's new sequence.
    pub(super) fn unindex_post(&mut self, seq: i64, post_id: i64) {
        self.index.push((seq, IndexChange::Removed(post_id)));
    }

    /// Removes every post of a deleted blog from the index, at the database's new sequence.
    pub(super) fn unindex_blog(&mut self, seq: i64, blog_id: i64) {
        self.index.push((seq, IndexChange::RemovedBlog(blog_id)));
    }

    /// Removes these upload files, which the committed change left without any reference,
    /// before the writer is released.
    pub(super) fn remove_uploads(&mut self, files: impl IntoIterator<Item = String>) {
        self.orphaned_uploads.extend(files);
    }

    /// Removes these files of the exports folder after the commit (a missing one is no error).
    pub(super) fn remove_job_files(&mut self, files: impl IntoIterator<Item = String>) {
        self.job_files.extend(files);
    }

    /// Forgets the blog's parsed signing key after the commit: its key was retired.
    pub(super) fn key_retired(&mut self, blog_id: i64) {
        self.retired_keys.push(blog_id);
    }

    /// Makes the new blog's signing key in the background after the commit, so that its actor's
    /// first fetches find it (and never make one each).
    pub(super) fn key_wanted(&mut self, blog_id: i64) {
        self.wanted_keys.push(blog_id);
    }

    /// The server answers on the new blog's subdomain from the commit on.
    pub(super) fn blog_created(&mut self, subdomain: &str) {
        self.served.push(ServedChange::Created(subdomain.to_owned()));
    }

    /// The server stops answering on the deleted blog's names.
    pub(super) fn blog_deleted(&mut self, subdomain: &str) {
        self.served.push(ServedChange::Deleted(subdomain.to_owned()));
    }

    /// The blog answers on this verified custom domain from the commit on, or on none.
    pub(super) fn domain_served(&mut self, subdomain: &str, verified: Option<&str>) {
        self.served.push(ServedChange::Domain(subdomain.to_owned(), verified.map(str::to_owned)));
    }

    /// The blog is in trust state `state` from the commit on (its created or moderated state).
    pub(super) fn state_changed(&mut self, subdomain: &str, state: TrustState) {
        self.served.push(ServedChange::State(subdomain.to_owned(), state));
    }

    /// The blog's cached pages show what changed: none of them is served again.
    pub(super) fn invalidate(&mut self, subdomain: &str) {
        if !self.invalidate.iter().any(|known| known == subdomain) {
            self.invalidate.push(subdomain.to_owned());
        }
    }

    /// A post was written: its schedule may have moved.
    pub(super) fn schedule_moved(&mut self) {
        self.schedule_moved = true;
    }

    /// Activities were (or may have been) queued for delivery.
    pub(super) fn deliveries_queued(&mut self) {
        self.deliveries_queued = true;
    }

    /// A webmention was received (`db::webmentions::receive`) or a post's links queued
    /// (`db::webmentions::queue_outgoing`): the webmention worker looks at once.
    pub(super) fn webmention_queued(&mut self) {
        self.webmention_queued = true;
    }

    /// Mail was (or may have been) queued (`db::mail_queue::enqueue`): the sender looks at once.
    pub(super) fn mail_queued(&mut self) {
        self.mail_queued = true;
    }

    /// A background job was queued.
    pub(super) fn job_queued(&mut self) {
        self.job_queued = true;
    }

    /// A custom domain was set, with a check to schedule.
    pub(super) fn domain_set(&mut self) {
        self.domain_set = true;
    }

    /// The effects that must follow database order, applied while the writer connection is
    /// still held: the index commits, then the removal of unreferenced upload files from the
    /// uploads folder (a bucket's are removed after the writer is released, each under its
    /// lock: [`Blogs::remove_unreferenced`]).
    fn apply_in_writer(&mut self, search: &SearchIndex, media: &MediaStore) {
        for (seq, change) in self.index.drain(..) {
            let done = match change {
                IndexChange::Post(doc) => search.upsert(&doc, seq),
                IndexChange::Posts(docs) => search.upsert_many(&docs, seq),
                IndexChange::Unreadable(err) => Err(err),
                IndexChange::Removed(post_id) => search.remove(post_id, seq),
                IndexChange::RemovedBlog(blog_id) => search.remove_blog(blog_id, seq),
            };
            if let Err(err) = done {
                index::log_failure(&err);
            }
        }
        if media.is_bucket() {
            return;
        }
        for file in self.orphaned_uploads.drain(..) {
            let Some(path) = media.local_path(&file) else { continue };
            if let Err(err) = std::fs::remove_file(path) {
                tracing::warn!(%file, error = %err, "could not remove an upload no one references");
            }
        }
    }
}

impl Blogs {
    /// The one write path's helper: runs `write` on the writer connection (its transaction and
    /// what it queues there), applies its index changes before the writer is released, then,
    /// once it succeeded, performs its other effects in the order of the module's note.
    pub(super) async fn commit<T, F>(&self, write: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection, &mut Effects) -> Result<T> + Send + 'static,
    {
        let (search, outbound, media) = (self.search.clone(), self.outbound.clone(), self.media.clone());
        let (value, mut effects) = self
            .db
            .write(move |conn| {
                let mut effects = Effects::new(outbound);
                let value = write(conn, &mut effects)?;
                // Inside the writer's closure, so index commits happen in database order: each
                // records the sequence it reached, and a later write never lands under an
                // earlier one.
                effects.apply_in_writer(&search, &media);
                Ok((value, effects))
            })
            .await?;
        if !effects.orphaned_uploads.is_empty() {
            self.remove_unreferenced(std::mem::take(&mut effects.orphaned_uploads)).await;
        }
        self.performed(effects);
        Ok(value)
    }

    /// The effects of a committed write that happen after the commit, in the module's order.
    fn performed(&self, effects: Effects) {
        for file in &effects.job_files {
            self.remove_job_file(file);
        }
        for blog_id in &effects.retired_keys {
            self.keys.forget(*blog_id);
        }
        for blog_id in &effects.wanted_keys {
            self.keys.make_in_background(*blog_id);
        }
        for change in &effects.served {
            match change {
                ServedChange::Created(subdomain) => self.served.blog_created(subdomain),
                ServedChange::Deleted(subdomain) => self.served.blog_deleted(subdomain),
                ServedChange::Domain(subdomain, verified) => self.served.set_domain(subdomain, verified.as_deref()),
                ServedChange::State(subdomain, state) => self.served.set_state(subdomain, *state),
            }
        }
        for subdomain in &effects.invalidate {
            self.pages.invalidate(subdomain);
        }
        if effects.schedule_moved {
            self.schedule_changed.notify_one();
        }
        if effects.deliveries_queued {
            self.deliveries_changed.notify_one();
        }
        if effects.mail_queued {
            self.mail_changed.notify_one();
        }
        if effects.webmention_queued {
            self.webmentions_changed.notify_one();
        }
        if effects.job_queued {
            self.jobs_changed.notify_one();
        }
        if effects.domain_set {
            self.domain_checks.changed.notify_one();
        }
    }
}
