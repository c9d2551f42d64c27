//! A blog's custom domain on the write path: setting it (the name rules; a name another blog
//! has verified is refused), removing it, checking its TXT record now ("Check now", once per
//! 10 s per blog) and the task that rechecks on a schedule
//! (`domain::blog::domain_verification::after_check`) and drops unverified claims past
//! `--custom-domain-claim-days`. A blog sets at most `--custom-domain-changes-per-day` new names
//! in 24 hours (each verified one costs a certificate). Several blogs may claim one name; the first whose TXT record
//! proves it takes it, and the other claims are dropped, so a claim never blocks the name's
//! real owner. A change of the names a
//! blog answers on updates [`ServedNames`](super::ServedNames) and invalidates the blog's
//! cached pages (they carry its origin), after the commit (`Blogs::commit`).
//!
//! Such a commit also bumps the blog's `updated_at`. The TXT check ([`Blogs::check_domain`], and
//! [`run`], which sleeps until the next due check) looks up `_quire.{name}` through `Fetcher::txt`,
//! and writes its outcome only if the row still has the token it checked, so a name replaced
//! meanwhile is never verified by an old answer. Nothing is lost in a crash: `ServedNames` is
//! rebuilt from the table at start. (docs/custom-domains.md is the owner's and admin's side.)

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use time::OffsetDateTime;
use tokio::sync::Notify;

use super::Blogs;
use crate::db::blogs::{self, Blog};
use crate::db::custom_domains::{self, DomainRow, Set};
use crate::domain::blog::custom_domain::CustomDomain;
use crate::domain::blog::domain_verification::{self as rules, DomainState, Lookup};
use crate::domain::blog::trust_state::TrustState;
use crate::domain::messages::Messages;
use crate::error::{Error, Result};
use crate::fetch::Fetcher;

/// How often an owner may ask for a check.
pub const CHECK_EVERY: Duration = Duration::from_secs(10);
/// The longest the recheck task sleeps without looking at the table again.
const MAX_SLEEP: Duration = Duration::from_secs(3600);

/// The owners' last checks and the recheck task's wake-up.
#[derive(Default)]
pub(crate) struct Checks {
    last_by_owner: Mutex<HashMap<i64, Instant>>,
    pub(super) changed: Notify,
}

/// The 404 of a blog with no custom domain.
pub fn no_domain() -> Error {
    Error::not_found("domain", "This blog has no custom domain")
}

impl Blogs {
    /// The blog's custom domain, if it has one.
    pub async fn domain(&self, blog: &Blog) -> Result<Option<DomainRow>> {
        let id = blog.id;
        self.db.read(move |conn| custom_domains::get(conn, id)).await
    }

    /// Gives the blog the custom domain `raw_name` (checked against the name rules and the
    /// other blogs' names), replacing its earlier one with a new token; the same name again
    /// changes nothing.
    pub async fn set_domain(&self, blog: &Blog, raw_name: &str) -> Result<DomainRow> {
        if !blog.state.is_listed() {
            // Issue 29: a custom domain is for blogs the instance vouches for.
            let message = match blog.state {
                TrustState::New => "A blog waiting for review cannot use a custom domain yet.",
                _ => "A silenced blog cannot use a custom domain.",
            };
            return Err(Error::Forbidden(Messages::one("name", message)));
        }
        let name = CustomDomain::parse(raw_name, self.served.app_name())
            .map_err(|err| Error::invalid("name", err.message()))?;
        let (id, subdomain, token) = (blog.id, blog.subdomain.clone(), rules::new_token());
        let per_day = self.domain_limits.changes_per_day;
        self.commit(move |conn, effects| {
            let now = OffsetDateTime::now_utc();
            let (row, replaced) = match custom_domains::set(conn, id, &name, &token, per_day, now)? {
                Set::Domain { row, replaced } => (row, replaced),
                Set::Taken => return Err(Error::invalid("name", "This domain is already used by another blog")),
                Set::TooManyChanges { next } => {
                    return Err(Error::RateLimited(Messages::one(
                        "name",
                        format!(
                            "This blog's custom domain was changed {per_day} times in the last 24 hours: \
                             try again after {next}"
                        ),
                    )));
                }
            };
            if replaced.is_some_and(|old| old.state == DomainState::Verified) {
                effects.domain_served(&subdomain, None);
                effects.invalidate(&subdomain);
            }
            effects.domain_set();
            Ok(row)
        })
        .await
    }

    /// Removes the blog's custom domain: the blog answers on its subdomain alone again.
    pub async fn remove_domain(&self, blog: &Blog) -> Result<()> {
        let (id, subdomain) = (blog.id, blog.subdomain.clone());
        self.commit(move |conn, effects| {
            let removed = custom_domains::remove(conn, id)?.ok_or_else(no_domain)?;
            if removed.state == DomainState::Verified {
                effects.domain_served(&subdomain, None);
                effects.invalidate(&subdomain);
            }
            Ok(())
        })
        .await
    }

    /// Looks the blog's TXT record up now (the owner's "Check now": once per 10 s per blog).
    pub async fn check_domain(&self, blog: &Blog, fetcher: &Fetcher) -> Result<DomainRow> {
        let row = self.domain(blog).await?.ok_or_else(no_domain)?;
        {
            let mut last = self.domain_checks.last_by_owner.lock().expect("domain checks lock");
            let now = Instant::now();
            if let Some(wait) = last.get(&blog.id).and_then(|at| CHECK_EVERY.checked_sub(now.duration_since(*at))) {
                let seconds = wait.as_secs_f64().ceil().max(1.0) as u64;
                return Err(Error::RateLimited(Messages::one(
                    "check",
                    format!("Checked a moment ago: try again in {seconds} seconds"),
                )));
            }
            last.retain(|_, at| now.duration_since(*at) < CHECK_EVERY);
            last.insert(blog.id, now);
        }
        let lookup = look_up(fetcher, &row).await;
        self.record_check(blog, &row, &lookup, true).await?.ok_or_else(no_domain)
    }

    /// Writes the outcome of a check of `row` and applies what it changes; `None` when the
    /// blog's domain was removed or replaced meanwhile.
    async fn record_check(
        &self,
        blog: &Blog,
        row: &DomainRow,
        lookup: &Lookup,
        by_owner: bool,
    ) -> Result<Option<DomainRow>> {
        let now = OffsetDateTime::now_utc();
        let before = row.before();
        let found = rules::after_check(&row.domain(), &before, lookup, now, by_owner);
        let (id, subdomain, token, domain) = (row.blog_id, blog.subdomain.clone(), row.token.clone(), row.domain());
        let updated = self
            .commit(move |conn, effects| {
                // A name another blog has proved stays with it; a mere claim of it is dropped.
                let after = if found.state == DomainState::Verified
                    && custom_domains::verified_by_another(conn, id, domain.as_str())?
                {
                    rules::held_by_another(&domain, found, now)
                } else {
                    found
                };
                let changes_serving = after.changes_serving(&before);
                let updated = custom_domains::record_check(conn, id, &token, &after, now)?;
                if updated.is_some() && changes_serving {
                    let verified = (after.state == DomainState::Verified).then(|| domain.as_str().to_owned());
                    effects.domain_served(&subdomain, verified.as_deref());
                    effects.invalidate(&subdomain);
                }
                Ok(updated.map(|row| (row, changes_serving)))
            })
            .await?;
        if let Some((row, true)) = &updated {
            tracing::info!(blog = %blog.subdomain, domain = %row.name, state = row.state.as_str(), "custom domain changed");
        }
        Ok(updated.map(|(row, _)| row))
    }

    /// Checks every domain whose automatic check is due; returns when the next one is.
    async fn check_due_domains(&self, fetcher: &Fetcher) -> Result<Option<OffsetDateTime>> {
        let now = OffsetDateTime::now_utc();
        let claim_expiry = self.domain_limits.claim_expiry;
        let expired = self.commit(move |conn, _| custom_domains::expire_claims(conn, now - claim_expiry)).await?;
        for row in expired {
            tracing::info!(blog_id = row.blog_id, domain = %row.name, "unverified custom domain claim expired");
        }
        let due = self.db.read(move |conn| custom_domains::due(conn, now)).await?;
        for row in due {
            let id = row.blog_id;
            let Some(blog) = self.db.read(move |conn| blogs::by_id(conn, id)).await? else { continue };
            let lookup = look_up(fetcher, &row).await;
            self.record_check(&blog, &row, &lookup, false).await?;
        }
        let (next, oldest_claim) =
            self.db.read(|conn| Ok((custom_domains::next_due(conn)?, custom_domains::oldest_claim(conn)?))).await?;
        let parse = |at: Option<String>| at.as_deref().and_then(crate::domain::content::schedule::parse_stored);
        let expiry = parse(oldest_claim).map(|since| since + claim_expiry);
        Ok(parse(next).into_iter().chain(expiry).min())
    }
}

/// What the TXT record of `row`'s name says about its token.
async fn look_up(fetcher: &Fetcher, row: &DomainRow) -> Lookup {
    match fetcher.txt(&row.domain().txt_name()).await {
        Ok(strings) if rules::txt_proves(&strings, &row.token) => Lookup::Found,
        Ok(_) => Lookup::Missing,
        Err(reason) => Lookup::Failed(reason),
    }
}

/// The recheck task: checks due domains, then sleeps until the next is due (or a domain is
/// set), at most an hour. Started by the server.
pub async fn run(blogs: Arc<Blogs>, fetcher: Fetcher) {
    loop {
        let sleep = match blogs.check_due_domains(&fetcher).await {
            Ok(Some(next)) => {
                let wait = next - OffsetDateTime::now_utc();
                Duration::try_from(wait).unwrap_or(Duration::ZERO).max(Duration::from_millis(200)).min(MAX_SLEEP)
            }
            Ok(None) => MAX_SLEEP,
            Err(err) => {
                tracing::warn!(error = %err, "custom domain checks failed; trying again in a minute");
                Duration::from_secs(60)
            }
        };
        tokio::select! {
            _ = tokio::time::sleep(sleep) => {}
            _ = blogs.domain_checks.changed.notified() => {}
        }
    }
}
