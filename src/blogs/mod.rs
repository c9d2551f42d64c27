//! The one write path. Every change to what a blog shows (its posts, name, theme, icon,
//! addons, uploads, custom domain, followers and replies, the account itself, its background
//! jobs) goes through [`Blogs`]. Each write method checks its input, then calls the one helper,
//! `Blogs::commit` (`effects.rs`), with a closure that writes in one SQLite transaction and
//! states its effects; the helper performs them, always in the same order:
//!
//! 1. the database write (one SQLite transaction; federation's activities queued in it),
//! 2. the search index update, inside the database writer's closure,
//! 3. after the commit: the names served, the page-cache invalidation
//!    ([`PageGenerations::invalidate`]), and the wake-ups of the scheduler, the delivery
//!    worker, the job runner and the domains' recheck task.
//!
//! HTTP handlers decode a request, call one method here and answer with what it returns; they
//! never touch the index or the page cache. A new side effect of writes (an email queue,
//! webmentions, ...) is added in one place, `effects.rs`: a field and a method on `Effects`
//! that writes call to state it, and its line where the helper performs effects.

pub mod api_tokens;
pub mod comments;
mod custom_css;
mod digests;
pub mod domains;
mod effects;
pub mod exports;
pub mod federation;
pub mod generations;
mod import_jobs;
mod imports;
pub mod index;
pub mod indieauth;
pub mod jobs;
pub mod micropub;
mod moderation;
mod pages;
pub mod paste;
mod posts;
mod preview_links;
pub mod review;
mod revisions;
pub mod schedule;
pub mod served_names;
mod settings;
mod signups;
pub mod subscriber_list;
pub mod subscriptions;
mod trash;
mod uploads;
pub mod webmentions;

use std::sync::Arc;

use tokio::sync::Notify;

use crate::config::Config;
use crate::data_dir::DataDir;
use crate::db::Db;
use crate::db::blogs::{self, Blog};
use crate::domain::content::blocks::Rules;
use crate::error::{Error, Result};
use crate::media_store::MediaStore;
use crate::search::SearchIndex;
pub use federation::{FediverseState, Received, ReplyOfPost, article_of, follower_not_found, reply_not_found};
pub use generations::PageGenerations;
pub use import_jobs::{ImportRequest, MAX_IMPORT_BYTES, import_not_found};
pub use imports::{BATCH, BATCH_BYTES, ImportOptions, ImportProgress, ImportSource};
pub use posts::{PostInput, post_not_found};
pub use preview_links::PreviewLink;
pub use review::{AdminDo, COMMAND_LINE};
pub use revisions::revision_not_found;
pub use served_names::{NameChange, ServedNames};
pub use signups::Signup;
pub use trash::trash_not_found;
pub use uploads::backfill_image_sizes;

/// The write path of every blog.
pub struct Blogs {
    db: Db,
    search: Arc<SearchIndex>,
    pages: Arc<PageGenerations>,
    data_dir: DataDir,
    /// Where uploaded images are kept (the data directory's uploads/, or `--uploads-url`'s bucket).
    media: MediaStore,
    rules: Rules,
    /// Woken by every post write, so the scheduler sees a new or moved schedule at once.
    schedule_changed: Notify,
    /// Woken when a job is queued or ends, so the job runner looks for work at once.
    jobs_changed: Notify,
    /// The blogs an import file is being uploaded to (one at a time per blog).
    uploading: std::sync::Mutex<std::collections::HashSet<i64>>,
    /// The names the server answers on (blogs' subdomains, verified custom domains).
    served: Arc<ServedNames>,
    /// Custom domains: the owners' last "Check now", and the recheck task's wake-up.
    domain_checks: domains::Checks,
    /// Quire's own federation keys, parsed, and their making ([`Blogs::signing_key`]).
    keys: federation::OwnKeys,
    /// What one blog may do with custom domains (`--custom-domain-*`).
    domain_limits: crate::config::DomainLimits,
    /// Builds the activities post and account writes queue (blogs/federation/outbound.rs).
    outbound: federation::Outbound,
    /// Woken when a delivery is queued, so the delivery worker sends it at once.
    deliveries_changed: Notify,
    /// Woken when mail is queued, so the mail sender sends it at once.
    mail_changed: Arc<Notify>,
    /// Woken when a webmention is received, so the verifier reads its source at once.
    webmentions_changed: Notify,
    /// What other fediverse servers may make a blog store (`quire serve`'s flags).
    remote_limits: crate::domain::federation::remote_limits::RemoteLimits,
    /// What one import may take in (`serve --import-max-items`, `--import-max-item-mb`).
    import_limits: crate::domain::limits::ImportLimits,
    /// Signups, review and quotas (`serve --signups`, ...; docs/public-instance.md).
    public: crate::config::PublicInstance,
    /// Whether the instance sends mail (`serve --smtp-url`): without it no email feature shows.
    mail_on: bool,
    /// The deployment's addresses (the links mail carries).
    urls: Arc<Config>,
}

impl Blogs {
    /// The write path over this database and index; `rules` are the deployment's block rules,
    /// `served` the names served (loaded at start, [`ServedNames::load`]), `config` the
    /// deployment's addresses (federation's ids).
    pub fn new(
        db: Db,
        search: Arc<SearchIndex>,
        pages: Arc<PageGenerations>,
        data_dir: DataDir,
        media: MediaStore,
        rules: Rules,
        served: Arc<ServedNames>,
        config: Arc<Config>,
    ) -> Blogs {
        let remote_limits = config.remote_limits;
        let import_limits = config.import_limits;
        let domain_limits = config.domains;
        let public = config.public.clone();
        let mail_on = config.mail_enabled();
        let urls = config.clone();
        let outbound = federation::Outbound::new(config, served.clone());
        Blogs {
            keys: federation::OwnKeys::new(db.clone()),
            db,
            search,
            pages,
            data_dir,
            media,
            rules,
            schedule_changed: Notify::new(),
            jobs_changed: Notify::new(),
            uploading: Default::default(),
            served,
            domain_checks: Default::default(),
            domain_limits,
            outbound,
            deliveries_changed: Notify::new(),
            mail_changed: Arc::new(Notify::new()),
            webmentions_changed: Notify::new(),
            remote_limits,
            import_limits,
            public,
            mail_on,
            urls,
        }
    }

    /// Where uploaded images are kept.
    pub fn media(&self) -> &MediaStore {
        &self.media
    }

    /// The mail sender's wake-up, notified when a write queued mail.
    pub fn mail_changed(&self) -> Arc<Notify> {
        self.mail_changed.clone()
    }

    /// The names the server answers on.
    pub fn served_names(&self) -> &Arc<ServedNames> {
        &self.served
    }

    /// The block rules posts are checked against.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The blog `raw_id` if `user_id` owns it; any other blog, or none, is the same 404 (it
    /// never reveals that another user's blog exists).
    pub async fn owned(&self, user_id: i64, raw_id: &str) -> Result<Blog> {
        let not_found = || Error::not_found("blog", "Blog not found");
        let blog_id: i64 = raw_id.parse().map_err(|_| not_found())?;
        self.db.read(move |conn| blogs::owned(conn, blog_id, user_id)?.ok_or_else(not_found)).await
    }
}
