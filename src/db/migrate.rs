//! Numbered schema migrations, tracked by `PRAGMA user_version`, one transaction each.
//!
//! A new migration is the next numbered file in `migrations/` and its entry at the end of
//! [`MIGRATIONS`]; an applied one is never edited. A database newer than the binary is refused
//! ([`check_not_newer`]).

use anyhow::{Context, bail};
use rusqlite::{Connection, Transaction, TransactionBehavior};

use crate::data_dir::DataDir;

/// One schema step.
pub struct Migration {
    /// Becomes `user_version` once applied; numbered from 1 without gaps.
    pub version: i64,
    /// Short name shown by `quire migrate --status`.
    pub name: &'static str,
    /// Schema changes.
    pub sql: &'static str,
    /// Reference data written in the same transaction.
    pub seed: Option<fn(&Transaction) -> rusqlite::Result<()>>,
}

/// Every migration, in order.
pub const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "initial schema, themes, addons and emoji favicons",
        sql: include_str!("migrations/0001_init.sql"),
        seed: Some(super::favicons::seed),
    },
    Migration {
        version: 2,
        name: "post change counter for the search index",
        sql: include_str!("migrations/0002_search_state.sql"),
        seed: None,
    },
    Migration {
        version: 3,
        name: "sign-in nonces move to memory",
        sql: include_str!("migrations/0003_drop_auth_nonces.sql"),
        seed: None,
    },
    Migration {
        version: 4,
        name: "image sizes; paragraphs become Markdown (old text escaped)",
        sql: include_str!("migrations/0004_markdown_image_sizes.sql"),
        seed: Some(super::paragraphs::escape_old_paragraphs),
    },
    Migration {
        version: 5,
        name: "post tags and pages",
        sql: include_str!("migrations/0005_tags_and_pages.sql"),
        seed: None,
    },
    Migration {
        version: 6,
        name: "scheduled posts and preview links",
        sql: include_str!("migrations/0006_schedule_previews.sql"),
        seed: None,
    },
    Migration {
        version: 7,
        name: "a time zone for each blog",
        sql: include_str!("migrations/0007_blog_time_zone.sql"),
        seed: None,
    },
    Migration {
        version: 8,
        name: "background jobs (exports)",
        sql: include_str!("migrations/0008_jobs.sql"),
        seed: None,
    },
    Migration {
        version: 9,
        name: "imported items and the redirects of their old addresses",
        sql: include_str!("migrations/0009_imports.sql"),
        seed: None,
    },
    Migration {
        version: 10,
        name: "import jobs: the uploaded file's name and the old site's address",
        sql: include_str!("migrations/0010_import_jobs.sql"),
        seed: None,
    },
    Migration {
        version: 11,
        name: "custom domains",
        sql: include_str!("migrations/0011_custom_domains.sql"),
        seed: None,
    },
    Migration { version: 12, name: "federation", sql: include_str!("migrations/0012_federation.sql"), seed: None },
    Migration {
        version: 13,
        name: "federation activity",
        sql: include_str!("migrations/0013_federation_activity.sql"),
        seed: None,
    },
    Migration {
        version: 14,
        name: "federation queue: ids never reused, given-up rows summed by host, Follows kept small",
        sql: include_str!("migrations/0014_federation_queue.sql"),
        seed: Some(super::deliveries::migrate_queue),
    },
    Migration {
        version: 15,
        name: "limits on what remote servers store",
        sql: include_str!("migrations/0015_federation_caps.sql"),
        seed: None,
    },
    Migration {
        version: 16,
        name: "the instance actor's key",
        sql: include_str!("migrations/0016_instance_key.sql"),
        seed: None,
    },
    Migration {
        version: 17,
        name: "custom domain claims expire, the first proof wins; certificate order pauses per registered domain",
        sql: include_str!("migrations/0017_tls_hardening.sql"),
        seed: None,
    },
    Migration {
        version: 18,
        name: "blogs' trust states and the admin actions' record",
        sql: include_str!("migrations/0018_public_instance.sql"),
        seed: None,
    },
    Migration {
        version: 19,
        name: "invite codes and the log of blog creations",
        sql: include_str!("migrations/0019_signups.sql"),
        seed: None,
    },
    Migration {
        version: 20,
        name: "what a blog's daily quotas count",
        sql: include_str!("migrations/0020_quota_uses.sql"),
        seed: None,
    },
    Migration {
        version: 21,
        name: "blogs' risk scores and link hosts; the command line's requests to a running server",
        sql: include_str!("migrations/0021_admin_review.sql"),
        seed: None,
    },
    Migration {
        version: 22,
        name: "abuse reports",
        sql: include_str!("migrations/0022_abuse_reports.sql"),
        seed: None,
    },
    Migration {
        version: 23,
        name: "email subscriptions and the mail queue",
        sql: include_str!("migrations/0023_email.sql"),
        seed: None,
    },
    Migration {
        version: 24,
        name: "when each blog's owner was last sent a digest",
        sql: include_str!("migrations/0024_owner_digest.sql"),
        seed: None,
    },
    Migration {
        version: 25,
        name: "subscribers imported by owners, for the daily cap",
        sql: include_str!("migrations/0025_subscriber_imports.sql"),
        seed: None,
    },
    Migration {
        version: 26,
        name: "comments and webmentions: responses held for the owner",
        sql: include_str!("migrations/0026_responses.sql"),
        seed: None,
    },
    Migration {
        version: 27,
        name: "webmentions waiting for their source to be read",
        sql: include_str!("migrations/0027_webmentions.sql"),
        seed: None,
    },
    Migration {
        version: 28,
        name: "webmentions to send for the links of public posts",
        sql: include_str!("migrations/0028_outgoing_webmentions.sql"),
        seed: None,
    },
    Migration {
        version: 29,
        name: "fediverse replies can be put in spam",
        sql: include_str!("migrations/0029_reply_spam.sql"),
        seed: None,
    },
    Migration {
        version: 30,
        name: "webmentions sent once more for deleted posts",
        sql: include_str!("migrations/0030_webmentions_of_deleted_posts.sql"),
        seed: None,
    },
    Migration { version: 31, name: "unlisted posts", sql: include_str!("migrations/0031_unlisted.sql"), seed: None },
    Migration {
        version: 32,
        name: "a blog's custom CSS",
        sql: include_str!("migrations/0032_custom_css.sql"),
        seed: None,
    },
    Migration {
        version: 33,
        name: "post revisions and the trash",
        sql: include_str!("migrations/0033_revisions_trash.sql"),
        seed: None,
    },
    Migration {
        version: 34,
        name: "a version for each post (edit conflicts)",
        sql: include_str!("migrations/0034_post_versions.sql"),
        seed: None,
    },
    Migration {
        version: 35,
        name: "a blog's description, and its listing on the landing page",
        sql: include_str!("migrations/0035_blog_description_listing.sql"),
        seed: None,
    },
    Migration {
        version: 36,
        name: "whether a blog asks AI crawlers not to use it",
        sql: include_str!("migrations/0036_ai_crawlers.sql"),
        seed: None,
    },
    Migration {
        version: 37,
        name: "API tokens for Micropub and IndieAuth",
        sql: include_str!("migrations/0037_api_tokens.sql"),
        seed: None,
    },
    Migration {
        version: 38,
        name: "IndieAuth authorization codes",
        sql: include_str!("migrations/0038_indieauth.sql"),
        seed: None,
    },
];

/// The schema version this binary writes.
pub fn latest_version() -> i64 {
    MIGRATIONS.last().map_or(0, |m| m.version)
}

/// The schema version of an open database.
pub fn current_version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.pragma_query_value(None, "user_version", |row| row.get(0))
}

/// Fails when the database was written by a newer Quire.
pub fn check_not_newer(conn: &Connection) -> anyhow::Result<i64> {
    let current = current_version(conn)?;
    if current > latest_version() {
        bail!(
            "the database has schema version {current}, newer than this quire binary knows ({}); run a newer quire",
            latest_version()
        );
    }
    Ok(current)
}

/// Migrations not applied yet.
pub fn pending(conn: &Connection) -> anyhow::Result<Vec<&'static Migration>> {
    let current = check_not_newer(conn)?;
    Ok(MIGRATIONS.iter().filter(|m| m.version > current).collect())
}

/// Calls `before(from, to)` when the database holds data at schema version `from` (> 0) and
/// migrations up to `to` are pending (the pre-migration backup); otherwise does nothing.
pub fn before_migrating(conn: &Connection, before: impl FnOnce(i64, i64) -> anyhow::Result<()>) -> anyhow::Result<()> {
    let current = check_not_newer(conn)?;
    if current > 0 && current < latest_version() {
        before(current, latest_version())?;
    }
    Ok(())
}

/// Applies every pending migration, each in its own transaction; returns those applied.
pub fn migrate(conn: &mut Connection) -> anyhow::Result<Vec<&'static Migration>> {
    migrate_to(conn, latest_version())
}

/// Applies the pending migrations up to `version` (tests build an older database with it, to
/// check what a migration does to existing rows); returns those applied.
pub fn migrate_to(conn: &mut Connection, version: i64) -> anyhow::Result<Vec<&'static Migration>> {
    let pending: Vec<_> = pending(conn)?.into_iter().filter(|m| m.version <= version).collect();
    for migration in &pending {
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute_batch(migration.sql)
            .with_context(|| format!("migration {} ({})", migration.version, migration.name))?;
        if let Some(seed) = migration.seed {
            seed(&tx).with_context(|| format!("seeding migration {}", migration.version))?;
        }
        tx.pragma_update(None, "user_version", migration.version)?;
        tx.commit()?;
    }
    Ok(pending)
}

/// `quire migrate [--status]`: apply pending migrations (calling `before(from, to)` first, as
/// [`before_migrating`] does: the pre-migration backup), or list them.
pub fn run_command(
    data_dir: &DataDir,
    status_only: bool,
    before: impl FnOnce(i64, i64) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let path = data_dir.database();
    if status_only {
        if !path.exists() {
            println!("No database at {} yet; `quire serve` or `quire migrate` creates it.", path.display());
            for m in MIGRATIONS {
                println!("  pending  {:>4}  {}", m.version, m.name);
            }
            return Ok(());
        }
        let conn = super::open_connection(&path, false)?;
        super::check_is_quire(&conn, &path)?;
        let current = check_not_newer(&conn)?;
        println!("{}: schema version {current} of {}", path.display(), latest_version());
        for m in MIGRATIONS {
            let state = if m.version <= current { "applied" } else { "pending" };
            println!("  {state}  {:>4}  {}", m.version, m.name);
        }
        return Ok(());
    }
    let _lock = data_dir.lock()?;
    let mut conn = super::open_or_create(data_dir)?;
    before_migrating(&conn, before)?;
    let applied = migrate(&mut conn)?;
    if applied.is_empty() {
        println!("{} is up to date (schema version {}).", path.display(), latest_version());
    }
    for m in applied {
        println!("applied {:>4}  {}", m.version, m.name);
    }
    Ok(())
}
