//! The operator's review tools on the write path (issue 29, docs/public-instance.md "Admins and
//! the review queue" and "From the command line"): the risk score post writes keep up to date,
//! what admins read (the queue, the search, one blog, the record of actions), an admin's action
//! on a blog (a state change through [`Blogs::moderate`], a deletion through the account
//! deletion), and the command line's requests a running server performs.

use rusqlite::Connection;

use super::Blogs;
use super::moderation::no_such_blog;
use crate::db::admin_requests;
use crate::db::blogs::{self, Blog};
use crate::db::reports::{self, Report, Settle, Settled};
use crate::db::review::{self, AdminAction, AdminBlog, BlogFilter, QueueOrder};
use crate::domain::blog::trust_state::{Moderation, TrustState};
use crate::domain::content::blocks::Body;
use crate::domain::content::risk::{self, MAX_POSTS_SCORED, PostFacts};
use crate::domain::paging::{Page, PageRequest};
use crate::error::{Error, Result};

/// Who the command line's actions are recorded as.
pub const COMMAND_LINE: &str = "command line";

/// What an admin does to a blog: change its state, or delete it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AdminDo {
    /// A change of its trust state.
    Moderate(Moderation),
    /// Delete the blog and its owner's account, as "Delete Account" does.
    Delete,
}

impl AdminDo {
    /// The action named `raw` (`approve`, `silence`, `suspend`, `unsuspend`, `delete`).
    pub fn parse(raw: &str) -> Option<AdminDo> {
        match raw {
            "delete" => Some(AdminDo::Delete),
            raw => Moderation::parse(raw).map(AdminDo::Moderate),
        }
    }

    /// Its name (as [`AdminDo::parse`] reads it).
    pub fn as_str(self) -> &'static str {
        match self {
            AdminDo::Moderate(action) => action.as_str(),
            AdminDo::Delete => "delete",
        }
    }
}

/// Recomputes the blog's risk score inside a post write's transaction (`conn`), when the blog
/// is `new` or in its first 30 days; flags an approved blog whose posts took up many new link
/// hosts since its approval (`risk::flags_approved`).
pub(super) fn rescore(conn: &Connection, blog_id: i64, terms: &[String]) -> Result<()> {
    let Some(facts) = review::score_facts(conn, blog_id)? else {
        return Ok(());
    };
    if facts.state != TrustState::New && !facts.recent {
        return Ok(());
    }
    let posts: Vec<PostFacts> = review::published_bodies(conn, blog_id, MAX_POSTS_SCORED)?
        .iter()
        .filter_map(|json| Body::from_json(json).ok())
        .map(|body| PostFacts::of(&body, terms))
        .collect();
    let scored = risk::assess(&posts);
    let flag = facts.state == TrustState::Approved
        && facts.recent
        && !facts.flagged
        && risk::flags_approved(&scored.hosts, &facts.approved_hosts);
    review::store_risk(conn, blog_id, &scored, flag)
}

impl Blogs {
    /// The operator's terms (`--review-terms`), for [`rescore`].
    pub(super) fn review_terms(&self) -> Vec<String> {
        self.public.review_terms.clone()
    }

    /// One page of the review queue, with its paging facts.
    pub async fn review_queue(&self, order: QueueOrder, request: PageRequest) -> Result<(Page, Vec<AdminBlog>)> {
        self.db
            .read(move |conn| {
                let (total, blogs) = review::queue(conn, order, request.offset(), request.page_size)?;
                Ok((request.within(total).map_err(Error::BadRequest)?, blogs))
            })
            .await
    }

    /// One page of the blogs matching `filter`, newest first.
    pub async fn find_blogs(&self, filter: BlogFilter, request: PageRequest) -> Result<(Page, Vec<AdminBlog>)> {
        self.db
            .read(move |conn| {
                let (total, blogs) = review::search(conn, &filter, request.offset(), request.page_size)?;
                Ok((request.within(total).map_err(Error::BadRequest)?, blogs))
            })
            .await
    }

    /// The blog on `subdomain` as an admin sees it (404 when there is none).
    pub async fn admin_blog(&self, subdomain: &str) -> Result<AdminBlog> {
        let subdomain = subdomain.to_owned();
        self.db.read(move |conn| review::blog(conn, &subdomain)?.ok_or_else(|| no_such_blog(&subdomain))).await
    }

    /// One page of the record of admin actions, newest first.
    pub async fn admin_actions(&self, request: PageRequest) -> Result<(Page, Vec<AdminAction>)> {
        self.db
            .read(move |conn| {
                let (total, actions) = review::actions(conn, request.offset(), request.page_size)?;
                Ok((request.within(total).map_err(Error::BadRequest)?, actions))
            })
            .await
    }

    /// One page of the abuse reports in `state` (`open`, `resolved` or `dismissed`), newest first.
    pub async fn reports(&self, state: &'static str, request: PageRequest) -> Result<(Page, Vec<Report>)> {
        self.db
            .read(move |conn| {
                let (reports, total) = reports::list(conn, state, u64::from(request.page_size), request.offset())?;
                Ok((request.within(total).map_err(Error::BadRequest)?, reports))
            })
            .await
    }

    /// Resolves or dismisses the open report `id` for `admin`, recorded among the admin actions;
    /// answers the report as it is now. An unknown report is a 404, a settled one a 422.
    pub async fn settle_report(&self, id: i64, how: Settled, admin: &str) -> Result<Report> {
        let admin = admin.to_owned();
        match self.db.write(move |conn| reports::settle(conn, id, how, &admin)).await? {
            Settle::Done(report) => Ok(report),
            Settle::Unknown => Err(Error::not_found("report", format!("There is no report #{id}"))),
            Settle::Already(report) => Err(Error::invalid(
                "report",
                format!("Report #{id} was {} already by {}", report.state, report.handled_by.unwrap_or_default()),
            )),
        }
    }

    /// Performs `what` on the blog on `subdomain` for `admin` (an email, or [`COMMAND_LINE`]):
    /// a state change through [`Blogs::moderate`] (a suspension needs a reason, which the owner
    /// sees), a deletion through [`Blogs::delete_account`]. Answers the line that says what was
    /// done, e.g. "Suspended alice (it was approved)."
    pub async fn act_as_admin(&self, what: AdminDo, subdomain: &str, reason: &str, admin: &str) -> Result<String> {
        let lookup = subdomain.to_owned();
        let before = self.db.read(move |conn| blogs::by_subdomain(conn, &lookup)).await?;
        let before = before.ok_or_else(|| no_such_blog(subdomain))?;
        match what {
            AdminDo::Moderate(action) => {
                if action == Moderation::Suspend && reason.trim().is_empty() {
                    return Err(Error::invalid(
                        "reason",
                        "Say why the blog is suspended: its owner is shown the reason",
                    ));
                }
                let after = self.moderate(subdomain, action, reason, admin).await?;
                Ok(moderated_line(action, &before, &after))
            }
            AdminDo::Delete => {
                self.delete_account_for(&before, Some(admin.to_owned())).await?;
                Ok(format!("Deleted {} and its owner's account; the subdomain is retired.", before.subdomain))
            }
        }
    }

    /// Performs the command line's waiting requests (the server's watch of `admin_requests`),
    /// recording each outcome; answers how many were performed.
    pub async fn perform_admin_requests(&self) -> Result<usize> {
        if !self.db.read(admin_requests::any_waiting).await? {
            return Ok(0);
        }
        let waiting = self.db.read(|conn| admin_requests::waiting(conn, 50)).await?;
        for request in &waiting {
            let outcome = match AdminDo::parse(&request.action) {
                Some(what) => self.act_as_admin(what, &request.subdomain, &request.reason, COMMAND_LINE).await,
                None => Err(Error::invalid("action", format!("There is no action {:?}", request.action))),
            };
            let (ok, line) = match outcome {
                Ok(line) => (true, line),
                Err(err) => {
                    if err.messages().is_none() {
                        tracing::error!(error = %err, request = request.id, "a command line's admin request failed");
                    }
                    (false, refusal_line(&err))
                }
            };
            let id = request.id;
            self.db.write(move |conn| admin_requests::finish(conn, id, ok, &line)).await?;
        }
        Ok(waiting.len())
    }
}

/// The one line a refused admin action prints: its messages, joined.
pub fn refusal_line(err: &Error) -> String {
    match err.messages() {
        Some(messages) => messages.0.iter().map(|(_, message)| message.as_str()).collect::<Vec<_>>().join("; "),
        None => "The server could not do it; its log says why".to_owned(),
    }
}

fn moderated_line(action: Moderation, before: &Blog, after: &Blog) -> String {
    let done = match action {
        Moderation::Approve => "Approved",
        Moderation::Silence => "Silenced",
        Moderation::Suspend => "Suspended",
        Moderation::Unsuspend => "Unsuspended",
    };
    match before.state == after.state {
        true => format!("{done} {} (it was {} already).", after.subdomain, after.state),
        false => format!("{done} {} (it was {}; it is {} now).", after.subdomain, before.state, after.state),
    }
}

/// How often a running server looks for the command line's requests.
pub const REQUEST_POLL: std::time::Duration = std::time::Duration::from_millis(200);

/// The server's watch of the command line's requests: every [`REQUEST_POLL`], performs those
/// waiting (a failed look is logged and tried again at the next tick).
pub async fn run_requests(blogs: std::sync::Arc<Blogs>) {
    let mut every = tokio::time::interval(REQUEST_POLL);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        if let Err(err) = blogs.perform_admin_requests().await {
            tracing::warn!(error = %err, "could not perform the command line's admin requests");
        }
    }
}
