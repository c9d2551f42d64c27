//! The owner's side of email subscriptions (issue 30, docs/email.md "The owner's side"): the
//! blog's email settings and its counts, resuming after a pause for bounces, the list of
//! subscribers a page at a time, removing one, the CSV export, and importing another service's
//! list as confirmed (only with the owner's word that those readers consented there, only for
//! an approved blog, within `--max-imported-subscribers-per-day`). Only on an instance that
//! sends mail: elsewhere every call is a 404 on `email`.

use rusqlite::Connection;

use super::Blogs;
use crate::db::blogs::Blog;
use crate::db::mail_settings::{self, MailSettings, MailSettingsChange};
use crate::db::subscriber_list::{self, Imported, ListFilter, ListedSubscriber, SubscriberCounts};
use crate::domain::blog::trust_state::TrustState;
use crate::domain::paging::{Page, PageRequest};
use crate::error::{Error, Result};
use crate::portable::read::subscriber_list::{self as csv_list, BadRow};
use crate::portable::write::spreadsheet_csv;

/// The blog's email settings with its counts, as the Subscribers panel shows them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmailState {
    /// The switches and the pause.
    pub settings: MailSettings,
    /// Subscribers by state.
    pub counts: SubscriberCounts,
    /// Whether the blog may import subscribers (it is approved).
    pub can_import: bool,
    /// Subscribers it may still import in the next 24 hours.
    pub imports_left_today: u64,
}

/// What an import did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubscriberImport {
    /// New subscribers, confirmed.
    pub added: u64,
    /// Addresses the blog had already (left as they were), or repeated in the file.
    pub already: u64,
    /// Readers the file says get no mail there: not imported.
    pub unsubscribed: u64,
    /// The first bad rows, with their line and reason.
    pub invalid: Vec<BadRow>,
    /// All bad rows.
    pub invalid_count: u64,
}

/// A subscriber id the blog does not have.
pub fn subscriber_not_found() -> Error {
    Error::not_found("subscriber", "Subscriber not found")
}

/// The answer of every call on an instance without `--smtp-url`.
fn mail_off() -> Error {
    Error::not_found("email", "This instance does not send email.")
}

/// The longest search of the list.
const MAX_QUERY_CHARS: usize = 254;

impl Blogs {
    fn needs_mail(&self) -> Result<()> {
        if self.mail_on { Ok(()) } else { Err(mail_off()) }
    }

    /// The blog's email settings and counts.
    pub async fn email_state(&self, blog: &Blog) -> Result<EmailState> {
        self.needs_mail()?;
        let (id, trust, cap) = (blog.id, blog.state, self.public.quotas.imported_subscribers_per_day);
        self.db.read(move |conn| state_of(conn, id, trust, cap)).await
    }

    /// Changes the blog's switches. Turning sending off hides the subscribe form and drops the
    /// post mail waiting to go (its grace period or the queue): turning it on later sends
    /// nothing old.
    pub async fn set_email(&self, blog: &Blog, change: MailSettingsChange) -> Result<EmailState> {
        self.needs_mail()?;
        let (id, trust, cap) = (blog.id, blog.state, self.public.quotas.imported_subscribers_per_day);
        let subdomain = blog.subdomain.clone();
        self.commit(move |conn, effects| {
            let tx = conn.transaction()?;
            let before = mail_settings::get(&tx, id)?.ok_or_else(|| Error::not_found("blog", "Blog not found"))?;
            mail_settings::set(&tx, id, change)?;
            let state = state_of(&tx, id, trust, cap)?;
            tx.commit()?;
            if before.enabled != state.settings.enabled {
                // The subscribe form at the foot of its pages comes or goes.
                effects.invalidate(&subdomain);
            }
            Ok(state)
        })
        .await
    }

    /// Ends the pause a send's bounces caused: what waits in the queue goes out again.
    pub async fn resume_email(&self, blog: &Blog) -> Result<EmailState> {
        self.needs_mail()?;
        let (id, trust, cap) = (blog.id, blog.state, self.public.quotas.imported_subscribers_per_day);
        self.commit(move |conn, effects| {
            let tx = conn.transaction()?;
            let resumed = mail_settings::resume(&tx, id)?;
            let state = state_of(&tx, id, trust, cap)?;
            tx.commit()?;
            if resumed {
                effects.mail_queued();
            }
            Ok(state)
        })
        .await
    }

    /// One page of the blog's subscribers that `query` (part of an address) and `state` find,
    /// newest first; a page past the end is a 400 on `page`.
    pub async fn subscribers(
        &self,
        blog: &Blog,
        query: &str,
        state: Option<&'static str>,
        request: PageRequest,
    ) -> Result<(Page, Vec<ListedSubscriber>)> {
        self.needs_mail()?;
        if query.chars().count() > MAX_QUERY_CHARS {
            return Err(Error::bad_request("q", format!("Should be at most {MAX_QUERY_CHARS} characters")));
        }
        let (id, filter) = (blog.id, ListFilter { query: query.trim().to_owned(), state });
        self.db
            .read(move |conn| {
                let page =
                    request.within(subscriber_list::count_listed(conn, id, &filter)?).map_err(Error::BadRequest)?;
                Ok((page, subscriber_list::list(conn, id, &filter, request.offset(), request.page_size)?))
            })
            .await
    }

    /// Removes the blog's subscriber `subscriber_id` and the mail still queued for them.
    pub async fn remove_subscriber(&self, blog: &Blog, subscriber_id: i64) -> Result<EmailState> {
        self.needs_mail()?;
        let (id, trust, cap) = (blog.id, blog.state, self.public.quotas.imported_subscribers_per_day);
        self.commit(move |conn, _| {
            let tx = conn.transaction()?;
            if !subscriber_list::remove(&tx, id, subscriber_id)? {
                return Err(subscriber_not_found());
            }
            let state = state_of(&tx, id, trust, cap)?;
            tx.commit()?;
            Ok(state)
        })
        .await
    }

    /// Every subscriber of the blog as CSV (`email,state,source,subscribed_at,confirmed_at,
    /// last_sent_at`), oldest first, safe to open in a spreadsheet.
    pub async fn subscribers_csv(&self, blog: &Blog) -> Result<String> {
        self.needs_mail()?;
        let id = blog.id;
        let rows = self.db.read(move |conn| subscriber_list::all(conn, id)).await?;
        let header = ["email", "state", "source", "subscribed_at", "confirmed_at", "last_sent_at"];
        Ok(spreadsheet_csv::write(
            &header,
            rows.iter().map(|s| {
                vec![
                    s.email.as_str(),
                    s.state.as_str(),
                    s.source.as_str(),
                    s.created_at.as_str(),
                    s.confirmed_at.as_deref().unwrap_or(""),
                    s.last_sent_at.as_deref().unwrap_or(""),
                ]
            }),
        ))
    }

    /// Imports another service's CSV export (`csv`) as confirmed subscribers, when the owner
    /// says they consented there (`consented`). All or nothing: a file that would pass the day's
    /// cap adds nobody. Bad rows are left out and reported.
    pub async fn import_subscriber_list(
        &self,
        blog: &Blog,
        csv: String,
        consented: bool,
    ) -> Result<(SubscriberImport, EmailState)> {
        self.needs_mail()?;
        if blog.state != TrustState::Approved {
            return Err(Error::Forbidden(crate::domain::messages::Messages::one(
                "subscribers",
                "Only an approved blog may import subscribers.",
            )));
        }
        if !consented {
            return Err(Error::invalid(
                "consented",
                "Confirm that these readers agreed to receive your posts by email where they subscribed.",
            ));
        }
        let list = csv_list::read(&csv, time::OffsetDateTime::now_utc()).map_err(|m| Error::invalid("csv", m))?;
        let (id, trust, cap) = (blog.id, blog.state, self.public.quotas.imported_subscribers_per_day);
        self.commit(move |conn, _| {
            let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let emails: Vec<&str> = list.readers.iter().map(|r| r.email.as_str()).collect();
            let known = subscriber_list::existing(&tx, id, &emails)?;
            let new: Vec<Imported> = list
                .readers
                .iter()
                .zip(&known)
                .filter(|(_, known)| !**known)
                .map(|(r, _)| Imported { email: r.email.as_str().to_owned(), subscribed_at: r.subscribed_at.clone() })
                .collect();
            let left = u64::from(cap).saturating_sub(subscriber_list::imported_today(&tx, id)?);
            if new.len() as u64 > left {
                return Err(Error::invalid(
                    "csv",
                    format!(
                        "This file adds {} new subscribers; the blog may import {left} more today (at most {cap} a day).",
                        new.len()
                    ),
                ));
            }
            let added = subscriber_list::add_imported(&tx, id, &new)?;
            let state = state_of(&tx, id, trust, cap)?;
            tx.commit()?;
            let outcome = SubscriberImport {
                added,
                already: (list.readers.len() as u64 - added) + list.repeated,
                unsubscribed: list.unsubscribed,
                invalid: list.bad,
                invalid_count: list.bad_count,
            };
            Ok((outcome, state))
        })
        .await
    }
}

/// The settings and counts of the blog `blog_id`, whose standing is `state`.
fn state_of(conn: &Connection, blog_id: i64, state: TrustState, cap: u32) -> Result<EmailState> {
    let settings = mail_settings::get(conn, blog_id)?.ok_or_else(|| Error::not_found("blog", "Blog not found"))?;
    Ok(EmailState {
        settings,
        counts: subscriber_list::counts(conn, blog_id)?,
        can_import: state == TrustState::Approved,
        imports_left_today: u64::from(cap).saturating_sub(subscriber_list::imported_today(conn, blog_id)?),
    })
}
