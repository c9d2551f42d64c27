//! The instance admins' API under `/api/admin` (issue 29, docs/api.md "Admin"): the review
//! queue, the search over all blogs, one blog, the actions on a blog and the record of admin
//! actions. Every route starts with [`Admin`]: 401 without a session, 403 for a user who is not
//! one of `--admin`'s. Writes go through the write path ([`crate::blogs::Blogs::act_as_admin`]);
//! CSRF is checked for them as for every write under `/api`.

use std::collections::HashMap;

use poem::web::{Data, Json, Path, RequestBody};
use poem::{FromRequest, Request, Response, handler};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::blogs::AdminDo;
use crate::db::reports::{self as db_reports, Report, Settled};
use crate::db::review::{AdminAction, AdminBlog, BlogFilter, QueueOrder};
use crate::domain::blog::trust_state::TrustState;
use crate::domain::paging::PageRequest;
use crate::error::{Error, Messages, Result};
use crate::http::api::json::JsonBody;
use crate::http::api::paged;
use crate::http::session::SignedIn;
use crate::http::state::AppState;

/// Blogs or actions on a page when none is asked for.
pub const DEFAULT_PAGE_SIZE: u32 = 25;
/// Most blogs or actions on a page.
pub const MAX_PAGE_SIZE: u32 = 100;
/// Longest search text.
pub const MAX_QUERY_CHARS: usize = 200;

/// A signed-in admin: the extractor of every `/api/admin` route.
pub struct Admin {
    /// The admin's session.
    pub signed_in: SignedIn,
}

impl<'a> FromRequest<'a> for Admin {
    async fn from_request(req: &'a Request, body: &mut RequestBody) -> poem::Result<Self> {
        let signed_in = SignedIn::from_request(req, body).await?;
        let state = req.data::<AppState>().expect("AppState is attached to every app route");
        if !state.config.public.is_admin(&signed_in.user.email) {
            return Err(Error::Forbidden(Messages::one("admin", "This is for the instance's admins only")).into());
        }
        Ok(Admin { signed_in })
    }
}

/// `{blogs}`: a page of blogs (the queue, the search), with the paging headers.
#[derive(Serialize, TS)]
#[ts(export_to = "admin.ts")]
pub struct AdminBlogs {
    blogs: Vec<AdminBlog>,
}

/// `{blog}`: one blog, as it is after the call.
#[derive(Serialize, TS)]
#[ts(export_to = "admin.ts")]
pub struct OneAdminBlog {
    blog: AdminBlog,
}

/// `{actions}`: a page of the record of admin actions, newest first, with the paging headers.
#[derive(Serialize, TS)]
#[ts(export_to = "admin.ts")]
pub struct AdminActions {
    actions: Vec<AdminAction>,
}

/// `{done}`: what an action did, in one line (a deletion's answer: the blog is gone).
#[derive(Serialize, TS)]
#[ts(export_to = "admin.ts")]
pub struct AdminDone {
    done: String,
}

/// The body of an action: the reason (required to suspend; shown to the owner).
#[derive(Deserialize)]
pub struct ActionBody {
    #[serde(default)]
    reason: String,
}

/// The review queue (`?order=newest|risk&page=&page_size=`): blogs `new` and approved ones
/// flagged back, newest first unless `order=risk`.
#[handler]
pub async fn queue(req: &Request, _admin: Admin, state: Data<&AppState>) -> Result<Response> {
    let params = query_params(req)?;
    let order = match params.get("order").map(String::as_str) {
        None | Some("") | Some("newest") => QueueOrder::Newest,
        Some("risk") => QueueOrder::Risk,
        Some(_) => return Err(Error::bad_request("order", "Should be newest or risk")),
    };
    let request = page_request(req)?;
    let (page, blogs) = state.blogs.review_queue(order, request).await?;
    Ok(paged(Json(AdminBlogs { blogs }), page))
}

/// The search over all blogs (`?q=&state=&page=&page_size=`): by subdomain, name or owner
/// email, newest first.
#[handler]
pub async fn search(req: &Request, _admin: Admin, state: Data<&AppState>) -> Result<Response> {
    let params = query_params(req)?;
    let text = params.get("q").cloned().unwrap_or_default();
    if text.chars().count() > MAX_QUERY_CHARS {
        return Err(Error::bad_request("q", format!("Should be at most {MAX_QUERY_CHARS} characters")));
    }
    let blog_state = match params.get("state").map(String::as_str) {
        None | Some("") => None,
        Some(raw) => Some(
            TrustState::parse(raw)
                .ok_or_else(|| Error::bad_request("state", "Should be new, approved, silenced or suspended"))?,
        ),
    };
    let request = page_request(req)?;
    let filter = BlogFilter { text, state: blog_state, since: None };
    let (page, blogs) = state.blogs.find_blogs(filter, request).await?;
    Ok(paged(Json(AdminBlogs { blogs }), page))
}

/// One blog, by subdomain.
#[handler]
pub async fn show(_admin: Admin, state: Data<&AppState>, Path(subdomain): Path<String>) -> Result<Json<OneAdminBlog>> {
    Ok(Json(OneAdminBlog { blog: state.blogs.admin_blog(&subdomain).await? }))
}

/// Approves, silences, suspends or unsuspends the blog (`POST .../:subdomain/:action`, body
/// `{reason}`); answers the blog as it is now.
#[handler]
pub async fn act(
    admin: Admin,
    state: Data<&AppState>,
    Path((subdomain, action)): Path<(String, String)>,
    JsonBody(body): JsonBody<ActionBody>,
) -> Result<Json<OneAdminBlog>> {
    let what = match AdminDo::parse(&action) {
        Some(what @ AdminDo::Moderate(_)) => what,
        _ => return Err(Error::not_found("action", "There is no such action")),
    };
    state.blogs.act_as_admin(what, &subdomain, &body.reason, &admin.signed_in.user.email).await?;
    Ok(Json(OneAdminBlog { blog: state.blogs.admin_blog(&subdomain).await? }))
}

/// Deletes the blog and its owner's account, as "Delete Account" does.
#[handler]
pub async fn delete(admin: Admin, state: Data<&AppState>, Path(subdomain): Path<String>) -> Result<Json<AdminDone>> {
    let done = state.blogs.act_as_admin(AdminDo::Delete, &subdomain, "", &admin.signed_in.user.email).await?;
    Ok(Json(AdminDone { done }))
}

/// The record of admin actions (`?page=&page_size=`), newest first.
#[handler]
pub async fn actions(req: &Request, _admin: Admin, state: Data<&AppState>) -> Result<Response> {
    let request = page_request(req)?;
    let (page, actions) = state.blogs.admin_actions(request).await?;
    Ok(paged(Json(AdminActions { actions }), page))
}

/// `{reports}`: a page of abuse reports, with the paging headers.
#[derive(Serialize, TS)]
#[ts(export_to = "admin.ts")]
pub struct AdminReports {
    reports: Vec<Report>,
}

/// `{report}`: one abuse report, as it is after the call.
#[derive(Serialize, TS)]
#[ts(export_to = "admin.ts")]
pub struct OneReport {
    report: Report,
}

/// The abuse reports (`?state=open|resolved|dismissed&page=&page_size=`; open when no state is
/// asked for), newest first.
#[handler]
pub async fn reports(req: &Request, _admin: Admin, state: Data<&AppState>) -> Result<Response> {
    let params = query_params(req)?;
    let asked = params.get("state").map(String::as_str).filter(|s| !s.is_empty()).unwrap_or("open");
    let report_state = db_reports::STATES
        .into_iter()
        .find(|known| *known == asked)
        .ok_or_else(|| Error::bad_request("state", "Should be open, resolved or dismissed"))?;
    let request = page_request(req)?;
    let (page, reports) = state.blogs.reports(report_state, request).await?;
    Ok(paged(Json(AdminReports { reports }), page))
}

/// Resolves or dismisses an open report (`POST /api/admin/reports/:id/resolve|dismiss`); answers
/// the report as it is now.
#[handler]
pub async fn settle_report(
    admin: Admin,
    state: Data<&AppState>,
    Path((id, action)): Path<(String, String)>,
) -> Result<Json<OneReport>> {
    let how = Settled::parse(&action).ok_or_else(|| Error::not_found("action", "There is no such action"))?;
    let id = id.parse::<i64>().map_err(|_| Error::not_found("report", format!("There is no report {id:?}")))?;
    let report = state.blogs.settle_report(id, how, &admin.signed_in.user.email).await?;
    Ok(Json(OneReport { report }))
}

fn page_request(req: &Request) -> Result<PageRequest> {
    PageRequest::parse(req.uri().query(), DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE).map_err(Error::BadRequest)
}

fn query_params(req: &Request) -> Result<HashMap<String, String>> {
    serde_urlencoded::from_str(req.uri().query().unwrap_or(""))
        .map_err(|_| Error::bad_request("query", "The query string is malformed"))
}
