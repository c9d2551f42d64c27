//! Comments on a blog's host (issue 31, docs/responses.md "Comments"): `POST /comments`, sent by
//! the plain form under each post (no script; the post page keeps its strict CSP). The answer is
//! a page of its own, never cached: "waits for approval" (or shown, for a trusted commenter), or
//! the form again with the reader's words kept and what to fix.
//!
//! Defences, none of which needs a third party: a honeypot field (filled: answered as held,
//! nothing stored), a form token signed for the post with a minimum fill time (it stands in for
//! CSRF on a cached page), limits per client address and per blog, the duplicate check, the link
//! limit, and the blog's blocked addresses and words (to Spam, the reader told the same).

use std::time::{SystemTime, UNIX_EPOCH};

use askama::Template;
use poem::http::{StatusCode, header};
use poem::web::{Data, Path};
use poem::{Body, IntoResponse, Request, Response, handler};
use serde::Deserialize;

use super::routes::BlogHost;
use crate::auth::form_token::Refused;
use crate::auth::rate_limit::client_key;
use crate::blogs::comments::{Commented, takes_comments};
use crate::db::posts::Post;
use crate::db::public::{self, PublicBlog};
use crate::domain::content::comment;
use crate::error::Error;
use crate::http::client::client_ip;
use crate::http::cookies;
use crate::http::plain_pages;
use crate::http::state::AppState;

/// No script, no frames, forms only to this host.
const CSP: &str =
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
/// The cookie that recognises a commenter the owner approved before (on this blog's host only).
pub const COMMENTER_COOKIE: &str = "quire_commenter";

/// What a comment form's token signs: the post it belongs to.
pub fn purpose(post_id: i64) -> String {
    format!("comment:{post_id}")
}

/// A fresh token for the comment form of the post `post_id`.
pub fn form_token(state: &AppState, post_id: i64) -> String {
    state.auth.forms.issue(&purpose(post_id), now())
}

/// The comment form as sent.
#[derive(Debug, Default, Deserialize)]
pub struct Sent {
    #[serde(default)]
    post: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    website: String,
    #[serde(default)]
    text: String,
    #[serde(default)]
    token: String,
    #[serde(default)]
    homepage: String,
    /// `save` or `delete`, on the edit form.
    #[serde(default)]
    action: String,
}

struct FormPart {
    action: String,
    post: String,
    token: String,
    name: String,
    website: String,
    text: String,
    button: &'static str,
    deletable: bool,
}

#[derive(Template)]
#[template(path = "comment.html")]
struct CommentPage {
    title: String,
    lines: Vec<String>,
    edit_link: Option<String>,
    problems: Vec<String>,
    form: Option<FormPart>,
    back_url: String,
    back_text: String,
}

impl CommentPage {
    /// A page titled `title` with `lines` to read and a link `back` (url, text).
    fn new(title: &str, lines: &[&str], back: (String, String)) -> CommentPage {
        CommentPage {
            title: title.to_owned(),
            lines: lines.iter().map(|l| (*l).to_owned()).collect(),
            edit_link: None,
            problems: Vec::new(),
            form: None,
            back_url: back.0,
            back_text: back.1,
        }
    }

    /// The page, answered with `status` under the form pages' strict CSP.
    fn respond(self, status: StatusCode) -> Response {
        plain_pages::form_page(status, CSP, self.render().unwrap_or_default())
    }
}

/// The page of an answer: `lines` to read, `problems` to fix in `form`, a link back.
fn page(
    status: StatusCode,
    title: &str,
    lines: &[&str],
    problems: Vec<String>,
    form: Option<FormPart>,
    back: (String, String),
) -> Response {
    CommentPage { problems, form, ..CommentPage::new(title, lines, back) }.respond(status)
}

/// What a held comment's sender is told.
const HELD: &str = "Your comment is waiting for approval. It shows under the post once the author approves it.";
/// What a trusted commenter is told.
const SHOWN: &str = "Your comment is under the post.";

/// "Thank you": `line`, the secret link that changes the comment (shown once), a link back.
fn thanks(line: &str, edit_link: Option<String>, back: (String, String)) -> Response {
    CommentPage { edit_link, ..CommentPage::new("Thank you", &[line], back) }.respond(StatusCode::OK)
}

/// The secret link that changes or deletes a comment.
fn edit_url(state: &AppState, blog: &PublicBlog, edit: &str) -> String {
    format!("{}{}/edit/{edit}", state.config.blog_origin(&blog.address), crate::domain::paths::COMMENTS)
}

/// The token an edit link carries, if it looks like one of ours (32 hex digits); '' otherwise.
fn edit_token(raw: &str) -> String {
    match raw.len() == 32 && raw.bytes().all(|b| b.is_ascii_hexdigit()) {
        true => raw.to_ascii_lowercase(),
        false => String::new(),
    }
}

/// The form that changes the comment whose secret link carries `edit`.
fn edit_form(edit: &str, name: &str, website: &str, text: &str) -> FormPart {
    FormPart {
        action: format!("{}/edit/{edit}", crate::domain::paths::COMMENTS),
        post: String::new(),
        token: String::new(),
        name: kept(name, comment::MAX_NAME),
        website: kept(website, comment::MAX_WEBSITE),
        text: kept(text, comment::MAX_TEXT),
        button: "Save changes",
        deletable: true,
    }
}

/// The blog this request is on, and its home link.
async fn this_blog(req: &Request, state: &AppState) -> Result<Option<(PublicBlog, (String, String))>, Error> {
    let subdomain = req.extensions().get::<BlogHost>().map(|h| h.0.clone()).unwrap_or_default();
    let Some(blog) = state.db.read(move |conn| public::blog(conn, &subdomain)).await? else { return Ok(None) };
    let home = (format!("{}/", state.config.blog_origin(&blog.address)), format!("Back to {}", blog.name));
    Ok(Some((blog, home)))
}

fn link_expired(home: (String, String)) -> Response {
    let line = "This link has expired: a comment can be changed for 15 minutes after it is sent.";
    page(StatusCode::NOT_FOUND, "Link expired", &[line], Vec::new(), None, home)
}

/// `GET /comments/edit/{token}`: the comment's words, to change or delete.
#[handler]
pub async fn edit_page(req: &Request, state: Data<&AppState>, Path(raw): Path<String>) -> Result<Response, Error> {
    let Some((blog, home)) = this_blog(req, &state).await? else {
        return Ok(plain_pages::no_blog(&state.config, None));
    };
    let edit = edit_token(&raw);
    let found = if edit.is_empty() { None } else { state.blogs.comment_by_edit_link(blog.id, &edit).await? };
    let Some(found) = found else { return Ok(link_expired(home)) };
    let form = edit_form(&edit, &found.author_name, &found.author_url, &found.text);
    Ok(page(StatusCode::OK, "Your comment", &[], Vec::new(), Some(form), home))
}

/// `POST /comments/edit/{token}`: saves the change (`action=save`) or deletes the comment.
#[handler]
pub async fn save_edit(
    req: &Request,
    body: Body,
    state: Data<&AppState>,
    Path(raw): Path<String>,
) -> Result<Response, Error> {
    let Some((blog, home)) = this_blog(req, &state).await? else {
        return Ok(plain_pages::no_blog(&state.config, None));
    };
    let edit = edit_token(&raw);
    if edit.is_empty() {
        return Ok(link_expired(home));
    }
    let bytes = body.into_vec().await.map_err(|_| Error::bad_request("body", "The form could not be read"))?;
    let sent: Sent = serde_urlencoded::from_bytes(&bytes).unwrap_or_default();
    let change = match sent.action.as_str() {
        "delete" => None,
        _ => {
            let max_links = state.config.public.comment_limits.max_links as usize;
            match comment::check(&sent.name, &sent.website, &sent.text, max_links) {
                Ok(checked) => Some(checked),
                Err(messages) => {
                    let problems = messages.0.into_iter().map(|(_, message)| message).collect();
                    let form = edit_form(&edit, &sent.name, &sent.website, &sent.text);
                    return Ok(page(StatusCode::UNPROCESSABLE_ENTITY, "Your comment", &[], problems, Some(form), home));
                }
            }
        }
    };
    let deleting = change.is_none();
    let commenter = cookies::get(req, COMMENTER_COOKIE).unwrap_or_default().to_owned();
    if !state.blogs.edit_comment(&blog, &edit, change, commenter).await? {
        return Ok(link_expired(home));
    }
    let line =
        if deleting { "Your comment is deleted." } else { "Your comment is changed. It waits for approval again." };
    Ok(page(StatusCode::OK, "Thank you", &[line], Vec::new(), None, home))
}

/// How much of what the reader typed a page shows back (the form's own limits, with room).
fn kept(text: &str, max: usize) -> String {
    text.chars().take(max + 100).collect()
}

/// `POST /comments`.
#[handler]
pub async fn send(req: &Request, body: Body, state: Data<&AppState>) -> Result<Response, Error> {
    let subdomain = req.extensions().get::<BlogHost>().map(|h| h.0.clone()).unwrap_or_default();
    let lookup = subdomain.clone();
    let Some(blog) = state.db.read(move |conn| public::blog(conn, &lookup)).await? else {
        return Ok(plain_pages::no_blog(&state.config, None));
    };
    let blog_url = format!("{}/", state.config.blog_origin(&blog.address));
    let home = (blog_url.clone(), format!("Back to {}", blog.name));
    let bytes = body.into_vec().await.map_err(|_| Error::bad_request("body", "The form could not be read"))?;
    let Ok(sent) = serde_urlencoded::from_bytes::<Sent>(&bytes) else {
        return Ok(page(
            StatusCode::BAD_REQUEST,
            "Comment not sent",
            &["The form could not be read; send it again."],
            Vec::new(),
            None,
            home,
        ));
    };
    let (blog_id, short_id) = (blog.id, sent.post.clone());
    let found = state.db.read(move |conn| public::published_post(conn, blog_id, &short_id)).await?;
    let Some(post) = found.filter(|post| shows_form(&blog, post)) else {
        return Ok(page(
            StatusCode::NOT_FOUND,
            "Comments are closed",
            &["This post takes no comments."],
            Vec::new(),
            None,
            home,
        ));
    };
    let post_url = format!("{}{}", state.config.blog_origin(&blog.address), post.path());
    let back = (post_url, format!("Back to “{}”", post.title));
    let held = |back| thanks(HELD, None, back);
    if !sent.homepage.is_empty() {
        // Only a program fills a field no person sees: answer as to anyone, store nothing.
        tracing::info!("a comment with its honeypot field filled was dropped");
        return Ok(held(back));
    }
    let form_again = |problems: Vec<String>, status| {
        let form = FormPart {
            action: crate::domain::paths::COMMENTS.to_owned(),
            post: post.short_id.clone(),
            token: form_token(&state, post.id),
            name: kept(&sent.name, comment::MAX_NAME),
            website: kept(&sent.website, comment::MAX_WEBSITE),
            text: kept(&sent.text, comment::MAX_TEXT),
            button: "Send comment",
            deletable: false,
        };
        page(status, "Your comment", &[], problems, Some(form), back.clone())
    };
    let problem = match state.auth.forms.check(&purpose(post.id), &sent.token, now()) {
        Ok(()) => None,
        Err(Refused::TooSoon) => Some("That was quick. Read your comment once more, then send it again."),
        Err(Refused::Invalid | Refused::Expired) => Some("This form has expired. Send your comment again."),
    };
    if let Some(problem) = problem {
        return Ok(form_again(vec![problem.to_owned()], StatusCode::UNPROCESSABLE_ENTITY));
    }
    let max_links = state.config.public.comment_limits.max_links as usize;
    let checked = match comment::check(&sent.name, &sent.website, &sent.text, max_links) {
        Ok(checked) => checked,
        Err(messages) => {
            let problems = messages.0.into_iter().map(|(_, message)| message).collect();
            return Ok(form_again(problems, StatusCode::UNPROCESSABLE_ENTITY));
        }
    };
    let client = client_ip(req, &state.config.trusted_proxies)
        .map_or_else(|| "unknown".to_owned(), |ip| client_key(ip).to_string());
    let known =
        cookies::get(req, COMMENTER_COOKIE).filter(|id| id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit()));
    let commenter = known.map_or_else(|| hex::encode(rand::random::<[u8; 16]>()), str::to_owned);
    let outcome = state.blogs.comment(&blog, &post, checked, client, commenter.clone()).await?;
    let limited =
        |line: &str| page(StatusCode::TOO_MANY_REQUESTS, "Comment not sent", &[line], Vec::new(), None, back.clone());
    let answer = match outcome {
        Commented::Duplicate => held(back.clone()),
        Commented::Held { edit } => thanks(HELD, Some(edit_url(&state, &blog, &edit)), back.clone()),
        Commented::Shown { edit } => thanks(SHOWN, Some(edit_url(&state, &blog, &edit)), back.clone()),
        Commented::AddressLimit => limited("You have sent many comments today; try again tomorrow."),
        Commented::BlogLimit => limited("This blog takes no more comments today; try again tomorrow."),
        Commented::Closed => page(
            StatusCode::NOT_FOUND,
            "Comments are closed",
            &["This post takes no comments."],
            Vec::new(),
            None,
            back.clone(),
        ),
    };
    if known.is_some() {
        return Ok(answer);
    }
    let secure = state.config.scheme() == "https";
    let cookie = cookies::set(COMMENTER_COOKIE, &commenter, true, secure, Some(cookies::LONG_MAX_AGE));
    Ok(answer.with_header(header::SET_COOKIE, cookie).into_response())
}

/// Whether `blog` shows the comment form under `post` (the page asks before rendering).
pub fn shows_form(blog: &PublicBlog, post: &Post) -> bool {
    takes_comments(blog.state, blog.comments_mode, post, post.comments_closed)
}

fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |elapsed| elapsed.as_secs())
}
