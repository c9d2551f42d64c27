//! A blog's email settings and subscribers, the owner's side (docs/api.md 6.12, docs/email.md
//! "The owner's side"): the switches and counts, resuming after a pause for bounces, the list a
//! page at a time, removing one, the CSV export and importing another service's CSV. Writes go
//! through the write path ([`crate::blogs::Blogs`]). On an instance that sends no mail every
//! route is a 404 on `email`.

use poem::http::header;
use poem::web::{Data, Json, Path};
use poem::{Request, Response, handler};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::blogs::subscriber_list::{EmailState, SubscriberImport, subscriber_not_found};
use crate::db::mail_settings::MailSettingsChange;
use crate::db::subscriber_list::ListedSubscriber;
use crate::domain::messages::Messages;
use crate::domain::paging::PageRequest;
use crate::error::{Error, Result};
use crate::http::api::fediverse::row_id;
use crate::http::api::json::JsonBody;
use crate::http::api::paged;
use crate::http::owned_blog::OwnedBlog;
use crate::http::state::AppState;

/// Subscribers on a page when none is asked for.
pub const DEFAULT_PAGE_SIZE: u32 = 50;
/// Most subscribers on a page.
pub const MAX_PAGE_SIZE: u32 = 200;

/// `PUT .../email`'s body: each switch left out stays as it is.
#[derive(Deserialize)]
pub struct SetEmail {
    enabled: Option<bool>,
    #[serde(rename = "replyToOwner", alias = "reply_to_owner")]
    reply_to_owner: Option<bool>,
    #[serde(rename = "notifyOwner", alias = "notify_owner")]
    notify_owner: Option<bool>,
}

/// `POST .../subscribers/import`'s body.
#[derive(Deserialize)]
pub struct ImportList {
    /// The CSV file's text.
    csv: String,
    /// The owner's word that these readers agreed, where they subscribed, to get the posts.
    #[serde(default)]
    consented: bool,
}

/// The blog's email settings and counts.
#[handler]
pub async fn show(OwnedBlog { blog, .. }: OwnedBlog, state: Data<&AppState>) -> Result<Json<EmailAnswer>> {
    Ok(email_answer(&state.blogs.email_state(&blog).await?))
}

/// Changes the switches.
#[handler]
pub async fn update(
    OwnedBlog { blog, input: JsonBody(body), .. }: OwnedBlog<JsonBody<SetEmail>>,
    state: Data<&AppState>,
) -> Result<Json<EmailAnswer>> {
    let change = MailSettingsChange {
        enabled: body.enabled,
        reply_to_owner: body.reply_to_owner,
        notify_owner: body.notify_owner,
    };
    Ok(email_answer(&state.blogs.set_email(&blog, change).await?))
}

/// Ends a pause for bounces.
#[handler]
pub async fn resume(OwnedBlog { blog, .. }: OwnedBlog, state: Data<&AppState>) -> Result<Json<EmailAnswer>> {
    Ok(email_answer(&state.blogs.resume_email(&blog).await?))
}

/// One page (`?page=&page_size=`) of the subscribers whose address holds `q` and whose state is
/// `state` (`pending`, `confirmed`, `bounced`; all when absent), newest first.
#[handler]
pub async fn list(req: &Request, OwnedBlog { blog, .. }: OwnedBlog, state: Data<&AppState>) -> Result<Response> {
    let params: Vec<(String, String)> = serde_urlencoded::from_str(req.uri().query().unwrap_or(""))
        .map_err(|_| Error::BadRequest(Messages::one("query", "The query string is malformed")))?;
    let param = |name: &str| params.iter().find(|(key, _)| key == name).map(|(_, value)| value.as_str());
    let wanted = match param("state").unwrap_or("") {
        "" => None,
        "pending" => Some("pending"),
        "confirmed" => Some("confirmed"),
        "bounced" => Some("bounced"),
        _ => return Err(Error::BadRequest(Messages::one("state", "Should be pending, confirmed or bounced"))),
    };
    let request = PageRequest::parse(req.uri().query(), DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE).map_err(Error::BadRequest)?;
    let (page, subscribers) = state.blogs.subscribers(&blog, param("q").unwrap_or(""), wanted, request).await?;
    Ok(paged(Json(Subscribers { subscribers: subscribers.iter().map(subscriber_json).collect() }), page))
}

/// Removes a subscriber (and the mail still queued for them).
#[handler]
pub async fn remove(
    OwnedBlog { blog, .. }: OwnedBlog,
    state: Data<&AppState>,
    Path((_, subscriber_id)): Path<(String, String)>,
) -> Result<Json<EmailAnswer>> {
    let subscriber_id = row_id(&subscriber_id, subscriber_not_found)?;
    Ok(email_answer(&state.blogs.remove_subscriber(&blog, subscriber_id).await?))
}

/// Every subscriber as a CSV download.
#[handler]
pub async fn export(OwnedBlog { blog, .. }: OwnedBlog, state: Data<&AppState>) -> Result<Response> {
    let csv = state.blogs.subscribers_csv(&blog).await?;
    Ok(Response::builder()
        .content_type("text/csv; charset=utf-8")
        .header(header::CONTENT_DISPOSITION, format!("attachment; filename=\"{}-subscribers.csv\"", blog.subdomain))
        .header(header::CACHE_CONTROL, "private, no-store")
        .body(csv))
}

/// Imports another service's CSV export as confirmed subscribers.
#[handler]
pub async fn import(
    OwnedBlog { blog, input: JsonBody(body), .. }: OwnedBlog<JsonBody<ImportList>>,
    state: Data<&AppState>,
) -> Result<Json<ImportAnswer>> {
    let (outcome, email) = state.blogs.import_subscriber_list(&blog, body.csv, body.consented).await?;
    Ok(Json(ImportAnswer { import: import_json(outcome), email: email_json(&email) }))
}

/// `{email}`: every call on the settings answers them as they are after it.
#[derive(Serialize, TS)]
#[ts(export_to = "email.ts")]
pub struct EmailAnswer {
    email: EmailJson,
}

/// The blog's email settings and counts, `<email>` of docs/api.md.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "email.ts", rename = "EmailSettings")]
pub struct EmailJson {
    /// The blog sends its posts by email (the subscribe form shows on its pages).
    enabled: bool,
    /// Its posts' mail carries `Reply-To` the owner's address.
    reply_to_owner: bool,
    /// The owner gets the hourly digest of what waits for them.
    notify_owner: bool,
    /// When a send's bounces paused the blog's mail (null when not paused).
    paused_at: Option<String>,
    /// Subscribers who confirmed.
    #[ts(type = "number")]
    confirmed: u64,
    /// Subscribers waiting for their confirmation.
    #[ts(type = "number")]
    pending: u64,
    /// Addresses the relay refused for good.
    #[ts(type = "number")]
    bounced: u64,
    /// Whether the blog may import subscribers (it is approved).
    can_import: bool,
    /// Subscribers it may still import in the next 24 hours.
    #[ts(type = "number")]
    imports_left_today: u64,
}

/// `{subscribers}`: one page of them.
#[derive(Serialize, TS)]
#[ts(export_to = "email.ts")]
pub struct Subscribers {
    subscribers: Vec<SubscriberJson>,
}

/// A subscriber as the owner's list shows them.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "email.ts", rename = "Subscriber")]
pub struct SubscriberJson {
    id: i64,
    email: String,
    #[ts(type = "\"pending\" | \"confirmed\" | \"bounced\"")]
    state: String,
    /// `form` (the blog's form) or `import` (a moved blog's archive, another service's CSV).
    #[ts(type = "\"form\" | \"import\"")]
    source: String,
    subscribed_at: String,
    confirmed_at: Option<String>,
    /// When the last post's mail went to them.
    last_sent_at: Option<String>,
}

/// `{import, email}`: what an import did, and the settings after it.
#[derive(Serialize, TS)]
#[ts(export_to = "email.ts")]
pub struct ImportAnswer {
    import: SubscriberImportJson,
    email: EmailJson,
}

/// What an import of another service's list did.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "email.ts", rename = "SubscriberImport")]
pub struct SubscriberImportJson {
    /// New subscribers, confirmed.
    #[ts(type = "number")]
    added: u64,
    /// Addresses the blog had already (left as they were) or the file repeated.
    #[ts(type = "number")]
    already: u64,
    /// Readers the file says get no mail there: left out.
    #[ts(type = "number")]
    unsubscribed: u64,
    /// The first bad rows: their line in the file and what is wrong.
    invalid: Vec<InvalidRow>,
    /// All bad rows.
    #[ts(type = "number")]
    invalid_count: u64,
}

/// A row of the file that was left out.
#[derive(Serialize, TS)]
#[ts(export_to = "email.ts")]
pub struct InvalidRow {
    #[ts(type = "number")]
    line: u64,
    reason: String,
}

fn email_json(state: &EmailState) -> EmailJson {
    EmailJson {
        enabled: state.settings.enabled,
        reply_to_owner: state.settings.reply_to_owner,
        notify_owner: state.settings.notify_owner,
        paused_at: state.settings.paused_at.clone(),
        confirmed: state.counts.confirmed,
        pending: state.counts.pending,
        bounced: state.counts.bounced,
        can_import: state.can_import,
        imports_left_today: state.imports_left_today,
    }
}

fn email_answer(state: &EmailState) -> Json<EmailAnswer> {
    Json(EmailAnswer { email: email_json(state) })
}

fn subscriber_json(s: &ListedSubscriber) -> SubscriberJson {
    SubscriberJson {
        id: s.id,
        email: s.email.clone(),
        state: s.state.clone(),
        source: s.source.clone(),
        subscribed_at: s.created_at.clone(),
        confirmed_at: s.confirmed_at.clone(),
        last_sent_at: s.last_sent_at.clone(),
    }
}

fn import_json(outcome: SubscriberImport) -> SubscriberImportJson {
    SubscriberImportJson {
        added: outcome.added,
        already: outcome.already,
        unsubscribed: outcome.unsubscribed,
        invalid: outcome.invalid.into_iter().map(|row| InvalidRow { line: row.line, reason: row.reason }).collect(),
        invalid_count: outcome.invalid_count,
    }
}
