//! Email subscriptions on a blog's host (issue 30, docs/email.md "Subscribing"): pages that work
//! without JavaScript, never cached.
//!
//! - `GET /subscribe`: the form (the one under posts and on the home page posts here too).
//! - `POST /subscribe`: "Check your inbox", the same whether or not a mail went out. A filled
//!   honeypot is answered the same and stores nothing; a token that is not ours, too fresh or too
//!   old shows the form again with the address kept and a new token.
//! - `GET /subscribe/confirm/{token}`: a page whose button confirms; `POST` confirms. A link
//!   scanner that follows links confirms nothing.
//! - `GET /unsubscribe/{token}`: a page whose button unsubscribes; `POST` unsubscribes (the
//!   one-click POST of RFC 8058 too: no session, no CSRF token, idempotent, always 200).

use std::time::{SystemTime, UNIX_EPOCH};

use askama::Template;
use poem::http::StatusCode;
use poem::web::{Data, Path};
use poem::{Body, Request, Response, handler};
use serde::Deserialize;

use super::routes::BlogHost;
use crate::auth::form_token::Refused;
use crate::auth::rate_limit::client_key;
use crate::blogs::subscriptions::Subscription;
use crate::domain::net::email_address::EmailAddress;
use crate::error::Error;
use crate::http::client::client_ip;
use crate::http::plain_pages;
use crate::http::state::AppState;

/// What the token of this form signs.
pub const PURPOSE: &str = "subscribe";
/// No script, no frames, forms only to this host.
const CSP: &str =
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
/// The longest token a link may carry (ours are 32 hex digits).
const MAX_TOKEN: usize = 64;
/// How much of a typed address a page shows back.
const SHOWN_EMAIL: usize = 2 * crate::domain::net::email_address::MAX_CHARS;

/// The subscribe form as sent.
#[derive(Debug, Default, Deserialize)]
pub struct Sent {
    #[serde(default)]
    email: String,
    #[serde(default)]
    token: String,
    #[serde(default)]
    website: String,
}

struct FormPart {
    action: String,
    token: String,
    asks_email: bool,
    email: String,
    button: &'static str,
}

#[derive(Template)]
#[template(path = "subscribe.html")]
struct SubscribePage {
    title: String,
    lines: Vec<String>,
    problem: String,
    form: Option<FormPart>,
    blog_url: String,
    blog_name: String,
}

/// The blog this request is on, as the pages name it: its subdomain, name and address.
struct OnBlog {
    subdomain: String,
    name: String,
    url: String,
}

async fn on_blog(req: &Request, state: &AppState) -> Result<Option<OnBlog>, Error> {
    let subdomain = req.extensions().get::<BlogHost>().map(|h| h.0.clone()).unwrap_or_default();
    let lookup = subdomain.clone();
    let blog = state.db.read(move |conn| crate::db::blogs::by_subdomain(conn, &lookup)).await?;
    Ok(blog.map(|blog| OnBlog {
        url: format!("{}/", state.config.blog_origin(&blog.address())),
        name: blog.name,
        subdomain,
    }))
}

fn page(
    status: StatusCode,
    blog: &OnBlog,
    title: &str,
    lines: &[&str],
    problem: &str,
    form: Option<FormPart>,
) -> Response {
    let html = SubscribePage {
        title: title.to_owned(),
        lines: lines.iter().map(|l| (*l).to_owned()).collect(),
        problem: problem.to_owned(),
        form,
        blog_url: blog.url.clone(),
        blog_name: blog.name.clone(),
    }
    .render()
    .unwrap_or_default();
    plain_pages::form_page(status, CSP, html)
}

fn not_taken(blog: &OnBlog) -> Response {
    page(
        StatusCode::NOT_FOUND,
        blog,
        "No email subscriptions",
        &["This blog does not send its posts by email."],
        "",
        None,
    )
}

/// The subscribe form, with a new token and `email` filled in.
fn form_page(state: &AppState, blog: &OnBlog, email: &str, problem: &str, status: StatusCode) -> Response {
    let form = FormPart {
        action: "/subscribe".to_owned(),
        token: state.auth.forms.issue(PURPOSE, now()),
        asks_email: true,
        email: email.chars().take(SHOWN_EMAIL).collect(),
        button: "Subscribe",
    };
    let line = format!("Get each new post of {} in your inbox. You confirm by email first.", blog.name);
    page(status, blog, &format!("Subscribe to {}", blog.name), &[&line], problem, Some(form))
}

/// `GET /subscribe`.
#[handler]
pub async fn subscribe_page(req: &Request, state: Data<&AppState>) -> Result<Response, Error> {
    let Some(blog) = on_blog(req, &state).await? else { return Ok(plain_pages::no_blog(&state.config, None)) };
    if !state.blogs.takes_subscribers(&blog.subdomain).await? {
        return Ok(not_taken(&blog));
    }
    Ok(form_page(&state, &blog, "", "", StatusCode::OK))
}

/// `POST /subscribe`.
#[handler]
pub async fn send(req: &Request, body: Body, state: Data<&AppState>) -> Result<Response, Error> {
    let Some(blog) = on_blog(req, &state).await? else { return Ok(plain_pages::no_blog(&state.config, None)) };
    let bytes = body.into_vec().await.map_err(|_| Error::bad_request("body", "The form could not be read"))?;
    let Ok(sent) = serde_urlencoded::from_bytes::<Sent>(&bytes) else {
        return Ok(form_page(&state, &blog, "", "The form could not be read; send it again.", StatusCode::BAD_REQUEST));
    };
    if !state.blogs.takes_subscribers(&blog.subdomain).await? {
        return Ok(not_taken(&blog));
    }
    if !sent.website.is_empty() {
        // Only a program fills a field no person sees: answer as to anyone, store nothing.
        tracing::info!("a subscription with its honeypot field filled was dropped");
        return Ok(check_inbox(&blog));
    }
    let problem = match state.auth.forms.check(PURPOSE, &sent.token, now()) {
        Ok(()) => None,
        Err(Refused::TooSoon) => Some("That was quick. Check your address, then press Subscribe again."),
        Err(Refused::Invalid | Refused::Expired) => Some("This form has expired. Press Subscribe again."),
    };
    if let Some(problem) = problem {
        return Ok(form_page(&state, &blog, &sent.email, problem, StatusCode::UNPROCESSABLE_ENTITY));
    }
    let email = match EmailAddress::parse(&sent.email) {
        Ok(email) => email,
        Err(message) => return Ok(form_page(&state, &blog, &sent.email, message, StatusCode::UNPROCESSABLE_ENTITY)),
    };
    let client = client_ip(req, &state.config.trusted_proxies)
        .map_or_else(|| "unknown".to_owned(), |ip| client_key(ip).to_string());
    let limited = |status: StatusCode, line: &str| page(status, &blog, "Not subscribed yet", &[line], "", None);
    Ok(match state.blogs.subscribe(&blog.subdomain, email, client).await? {
        Subscription::CheckInbox => check_inbox(&blog),
        Subscription::AddressLimit => {
            limited(StatusCode::TOO_MANY_REQUESTS, "You have asked for many subscriptions today; try again tomorrow.")
        }
        Subscription::BlogLimit => {
            limited(StatusCode::TOO_MANY_REQUESTS, "This blog takes no more subscriptions today; try again tomorrow.")
        }
        Subscription::InstanceLimit => {
            limited(StatusCode::SERVICE_UNAVAILABLE, "Too many confirmation mails went out this hour; try again later.")
        }
        Subscription::NotTaken => not_taken(&blog),
    })
}

fn check_inbox(blog: &OnBlog) -> Response {
    page(
        StatusCode::OK,
        blog,
        "Check your inbox",
        &[
            "If this address can take mail, a message with a link to confirm your subscription is on its way.",
            "Nothing else is sent to you until you confirm.",
        ],
        "",
        None,
    )
}

/// `GET /subscribe/confirm/{token}`: the button that confirms.
#[handler]
pub async fn confirm_form(req: &Request, state: Data<&AppState>, Path(token): Path<String>) -> Result<Response, Error> {
    let action = format!("/subscribe/confirm/{}", token_of(&token));
    button_page(req, &state, action, "Confirm your subscription", "Confirm my subscription", |name| {
        format!("Press the button to receive the new posts of {name} by email.")
    })
    .await
}

/// A page with one button that POSTs to `action`: what a link in a mail opens, so that a
/// scanner following links changes nothing.
async fn button_page(
    req: &Request,
    state: &AppState,
    action: String,
    title: &str,
    button: &'static str,
    line: impl FnOnce(&str) -> String,
) -> Result<Response, Error> {
    let Some(blog) = on_blog(req, state).await? else { return Ok(plain_pages::no_blog(&state.config, None)) };
    let form = FormPart { action, token: String::new(), asks_email: false, email: String::new(), button };
    let line = line(&blog.name);
    Ok(page(StatusCode::OK, &blog, title, &[&line], "", Some(form)))
}

/// `POST /subscribe/confirm/{token}`: confirms.
#[handler]
pub async fn confirm(req: &Request, state: Data<&AppState>, Path(token): Path<String>) -> Result<Response, Error> {
    let Some(blog) = on_blog(req, &state).await? else { return Ok(plain_pages::no_blog(&state.config, None)) };
    let token = token_of(&token);
    if !token.is_empty() && state.blogs.confirm_subscription(&blog.subdomain, &token).await? {
        let line = format!("You will receive the new posts of {} by email.", blog.name);
        let footer = "Each message has a link to unsubscribe.";
        return Ok(page(StatusCode::OK, &blog, "You are subscribed", &[&line, footer], "", None));
    }
    let line = "This link has expired or was used already. Subscribe again from the blog.";
    Ok(page(StatusCode::NOT_FOUND, &blog, "Link expired", &[line], "", None))
}

/// `GET /unsubscribe/{token}`: the button that unsubscribes (never unsubscribes by itself).
#[handler]
pub async fn unsubscribe_form(
    req: &Request,
    state: Data<&AppState>,
    Path(token): Path<String>,
) -> Result<Response, Error> {
    let action = format!("/unsubscribe/{}", token_of(&token));
    button_page(req, &state, action, "Unsubscribe", "Unsubscribe", |name| {
        format!("Press the button to stop receiving the posts of {name} by email.")
    })
    .await
}

/// `POST /unsubscribe/{token}`: unsubscribes; 200 whatever the token, so nothing is learnt.
#[handler]
pub async fn unsubscribe(req: &Request, state: Data<&AppState>, Path(token): Path<String>) -> Result<Response, Error> {
    let Some(blog) = on_blog(req, &state).await? else { return Ok(plain_pages::no_blog(&state.config, None)) };
    let token = token_of(&token);
    if !token.is_empty() {
        state.blogs.unsubscribe(&blog.subdomain, &token).await?;
    }
    let line = format!("You will receive no more posts of {} by email.", blog.name);
    Ok(page(StatusCode::OK, &blog, "You are unsubscribed", &[&line], "", None))
}

/// The token a link carries, if it looks like one of ours (hex, not too long); '' otherwise.
fn token_of(raw: &str) -> String {
    match raw.len() <= MAX_TOKEN && raw.bytes().all(|b| b.is_ascii_hexdigit()) {
        true => raw.to_ascii_lowercase(),
        false => String::new(),
    }
}

fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |elapsed| elapsed.as_secs())
}
