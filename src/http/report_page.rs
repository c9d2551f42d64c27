//! The abuse report page on the app host (issue 29, docs/public-instance.md "Abuse reports"):
//! `GET /report?blog=SUB` or `?post=URL` renders a form that works without JavaScript under a
//! CSP that allows no script at all; `POST /report` stores the report for the Admin screen's
//! queue and sends the reader to `/report/sent`.
//!
//! It defends itself without CAPTCHAs or third parties: a honeypot field people never see (a
//! filled one is thanked and dropped), a signed token saying when the form was handed out (a post
//! sooner than `form_token::MIN_FILL`, or with a token not ours, is shown the form again with what
//! was typed), the per-address daily allowance (`--max-reports-per-address`) and a cap on open
//! reports (`--max-open-reports`), both counted in SQLite. Every value is escaped by the template.

use std::time::{SystemTime, UNIX_EPOCH};

use askama::Template;
use poem::http::{StatusCode, header};
use poem::web::{Data, Query};
use poem::{Body, Request, Response, handler};
use serde::Deserialize;

use crate::auth::form_token::Refused;
use crate::auth::rate_limit::client_key;
use crate::db::reports::{self, Added, NewReport, ReportLimits};
use crate::domain::blog::abuse_report::{self, MAX_DETAILS_CHARS, MAX_POST_URL, ReportReason};
use crate::domain::paths;
use crate::error::Error;
use crate::http::client::client_ip;
use crate::http::hosts::{self, Site};
use crate::http::plain_pages;
use crate::http::state::AppState;

/// What the token of this form signs.
const PURPOSE: &str = "report";
/// No script, no frames, forms only to this host; inline style for the page's own rules.
const CSP: &str =
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/// The reported blog or post, as the query or the form names it.
#[derive(Debug, Default, Deserialize)]
pub struct Target {
    blog: Option<String>,
    post: Option<String>,
}

/// The form as sent.
#[derive(Debug, Default, Deserialize)]
pub struct Sent {
    blog: Option<String>,
    post: Option<String>,
    #[serde(default)]
    token: String,
    #[serde(default)]
    website: String,
    #[serde(default)]
    reason: String,
    #[serde(default)]
    details: String,
    #[serde(default)]
    email: String,
}

/// A blog or post found to report.
struct Found {
    blog_id: i64,
    subdomain: String,
    /// '' for the whole blog.
    post_url: String,
    /// Where it is (the post, or the blog's address).
    url: String,
}

/// `GET /report`: the form.
#[handler]
pub async fn form(Query(target): Query<Target>, state: Data<&AppState>) -> Result<Response, Error> {
    let found = match find(&state, target.blog.as_deref(), target.post.as_deref()).await? {
        Ok(found) => found,
        Err(page) => return Ok(page),
    };
    Ok(render(&state, &found, &Sent::default(), Problems::default(), StatusCode::OK))
}

/// `POST /report`: stores a report, or shows the form again saying why not.
#[handler]
pub async fn send(req: &Request, body: Body, state: Data<&AppState>) -> Result<Response, Error> {
    let bytes = body.into_vec().await.map_err(|_| Error::bad_request("body", "The form could not be read"))?;
    let Ok(sent) = serde_urlencoded::from_bytes::<Sent>(&bytes) else {
        return Ok(plain_pages::message_page(
            StatusCode::BAD_REQUEST,
            "Report not sent",
            "The form could not be read.",
        ));
    };
    let found = match find(&state, sent.blog.as_deref(), sent.post.as_deref()).await? {
        Ok(found) => found,
        Err(page) => return Ok(page),
    };
    if !sent.website.is_empty() {
        // Only a program fills a field no person sees: thank it, store nothing.
        tracing::info!("a report with its honeypot field filled was dropped");
        return Ok(see_other(paths::REPORT_SENT));
    }
    let wait = match state.auth.forms.check(PURPOSE, &sent.token, now()) {
        Ok(()) => None,
        Err(Refused::TooSoon) => Some("That was quick. Check your report, then send it again."),
        Err(Refused::Invalid | Refused::Expired) => {
            Some("This form has expired. Check your report, then send it again.")
        }
    };
    if let Some(problem) = wait {
        let problems = Problems { form: problem.to_owned(), ..Problems::default() };
        return Ok(render(&state, &found, &sent, problems, StatusCode::UNPROCESSABLE_ENTITY));
    }
    let text = match abuse_report::check(&sent.reason, &sent.details, &sent.email) {
        Ok(text) => text,
        Err(errors) => {
            let mut problems =
                Problems { form: "The report was not sent: see below.".to_owned(), ..Problems::default() };
            for (field, message) in errors {
                match field {
                    "reason" => problems.reason = message,
                    "details" => problems.details = message,
                    _ => problems.email = message,
                }
            }
            return Ok(render(&state, &found, &sent, problems, StatusCode::UNPROCESSABLE_ENTITY));
        }
    };
    let client = client_ip(req, &state.config.trusted_proxies)
        .map_or_else(|| "unknown".to_owned(), |ip| client_key(ip).to_string());
    let report = NewReport { blog_id: found.blog_id, post_url: found.post_url.clone(), text, client_key: client };
    let public = &state.config.public;
    let limits = ReportLimits { per_address: public.reports_per_address, max_open: public.max_open_reports };
    match state.db.write(move |conn| reports::add(conn, &report, limits)).await? {
        Added::Stored(_) => Ok(see_other(paths::REPORT_SENT)),
        Added::AddressLimit => Ok(plain_pages::message_page(
            StatusCode::TOO_MANY_REQUESTS,
            "Report not sent",
            &format!("You have sent many reports today; try again tomorrow.{}", contact_line(&state)),
        )),
        Added::QueueFull => Ok(plain_pages::message_page(
            StatusCode::SERVICE_UNAVAILABLE,
            "Report not sent",
            &format!("This instance holds too many reports to read right now.{}", contact_line(&state)),
        )),
    }
}

/// `GET /report/sent`: the thanks.
#[handler]
pub fn thanks() -> Response {
    plain_pages::message_page(
        StatusCode::OK,
        "Report sent",
        "Thank you. The people who run this instance will read your report.",
    )
}

/// The blog `blog` or the post at `post` names, or the page that says there is none.
async fn find(state: &AppState, blog: Option<&str>, post: Option<&str>) -> Result<Result<Found, Response>, Error> {
    let missing =
        |message: &str| Ok(Err(plain_pages::message_page(StatusCode::NOT_FOUND, "Nothing to report here", message)));
    let (subdomain, post_url) = match (blog.map(str::trim).filter(|b| !b.is_empty()), post.map(str::trim)) {
        (Some(blog), _) => (blog.to_ascii_lowercase(), String::new()),
        (None, Some(post)) if !post.is_empty() => match blog_of_post(state, post) {
            Some(subdomain) => (subdomain, post.to_owned()),
            None => return missing("That address is not a blog of this instance."),
        },
        _ => return missing("Open this page from the Report link at the foot of a blog's pages."),
    };
    let lookup = subdomain.clone();
    let Some(blog) = state.db.read(move |conn| crate::db::blogs::by_subdomain(conn, &lookup)).await? else {
        return missing(&format!("There is no blog {subdomain:?} on this instance."));
    };
    let url = match post_url.is_empty() {
        true => state.config.blog_origin(&blog.address()),
        false => post_url.clone(),
    };
    Ok(Ok(Found { blog_id: blog.id, subdomain: blog.subdomain, post_url, url }))
}

/// The subdomain of the blog an http(s) `post` address is on (its subdomain or custom domain).
fn blog_of_post(state: &AppState, post: &str) -> Option<String> {
    if post.len() > MAX_POST_URL {
        return None;
    }
    let url = url::Url::parse(post).ok().filter(|url| matches!(url.scheme(), "http" | "https"))?;
    let authority = match url.port() {
        Some(port) => format!("{}:{port}", url.host_str()?),
        None => url.host_str()?.to_owned(),
    };
    let served = state.blogs.served_names();
    match hosts::classify_with(&authority, &state.config.host, |name| served.blog_of_domain(name)) {
        Site::Blog(subdomain) | Site::CustomDomain(subdomain) => Some(subdomain),
        Site::App | Site::Unknown => None,
    }
}

/// What is wrong with a sent form, shown above it and beside its fields.
#[derive(Default)]
struct Problems {
    form: String,
    reason: String,
    details: String,
    email: String,
}

/// A reason of the form's list.
struct ReasonOption {
    value: &'static str,
    label: &'static str,
    selected: bool,
}

/// A link (or plain text, with an empty `href`) under the form.
struct FooterLink {
    text: String,
    href: String,
}

#[derive(Template)]
#[template(path = "report.html")]
struct ReportPage {
    target_label: String,
    target_url: String,
    subdomain: String,
    post_url: String,
    token: String,
    problem: String,
    reasons: Vec<ReasonOption>,
    reason_error: String,
    details: String,
    details_error: String,
    max_details: usize,
    email: String,
    email_error: String,
    footer_links: Vec<FooterLink>,
}

/// The form for `found`, filled with what was `sent`, saying `problems`, with a new token.
fn render(state: &AppState, found: &Found, sent: &Sent, problems: Problems, status: StatusCode) -> Response {
    let public = &state.config.public;
    let mut footer_links: Vec<FooterLink> = plain_pages::operator_pages(&state.config)
        .into_iter()
        .map(|(text, href)| FooterLink { text: text.to_owned(), href: href.to_owned() })
        .collect();
    if let Some(email) = &public.contact_email {
        footer_links.push(FooterLink { text: format!("Contact: {email}"), href: format!("mailto:{email}") });
    }
    let page = ReportPage {
        target_label: match found.post_url.is_empty() {
            true => format!("the blog {}", found.subdomain),
            false => format!("a post of {}", found.subdomain),
        },
        target_url: found.url.clone(),
        subdomain: found.subdomain.clone(),
        post_url: found.post_url.clone(),
        token: state.auth.forms.issue(PURPOSE, now()),
        problem: problems.form,
        reasons: ReportReason::ALL
            .into_iter()
            .map(|reason| ReasonOption {
                value: reason.as_str(),
                label: reason.label(),
                selected: reason.as_str() == sent.reason,
            })
            .collect(),
        reason_error: problems.reason,
        details: sent.details.chars().take(MAX_DETAILS_CHARS * 2).collect(),
        details_error: problems.details,
        max_details: MAX_DETAILS_CHARS,
        email: sent.email.chars().take(254 * 2).collect(),
        email_error: problems.email,
        footer_links,
    };
    plain_pages::form_page(status, CSP, page.render().unwrap_or_default())
}

/// " Write to ops@example.com." when the operator gave a contact address.
fn contact_line(state: &AppState) -> String {
    state.config.public.contact_email.as_ref().map_or(String::new(), |email| format!(" You can also write to {email}."))
}

fn see_other(location: &str) -> Response {
    Response::builder().status(StatusCode::SEE_OTHER).header(header::LOCATION, location).finish()
}

fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |elapsed| elapsed.as_secs())
}
