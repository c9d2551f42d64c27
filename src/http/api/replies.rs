//! The replies a blog received from the fediverse: page through the held, approved or spam
//! ones, approve one, put it in spam or delete it (docs/api.md, docs/federation.md); the owner's
//! one queue (`responses.rs`) lists them with the comments and webmentions. Writes go through the write path
//! ([`crate::blogs::Blogs`]).

use poem::http::StatusCode;
use poem::web::{Data, Json, Path};
use poem::{IntoResponse, Request, Response, handler};
use serde::Serialize;
use ts_rs::TS;

use crate::blogs::{ReplyOfPost, reply_not_found};
use crate::db::responses::ResponseState;
use crate::domain::messages::Messages;
use crate::domain::paging::PageRequest;
use crate::error::{Error, Result};
use crate::http::api::fediverse::row_id;
use crate::http::api::paged;
use crate::http::owned_blog::OwnedBlog;
use crate::http::state::AppState;

/// Replies on a page when none is asked for.
pub const DEFAULT_PAGE_SIZE: u32 = 20;
/// Most replies on a page.
pub const MAX_PAGE_SIZE: u32 = 100;

/// One page (`?page=&page_size=`) of the blog's held (`?state=held`, the default), approved or
/// spam replies, newest first.
#[handler]
pub async fn list(req: &Request, OwnedBlog { blog, .. }: OwnedBlog, state: Data<&AppState>) -> Result<Response> {
    let params: Vec<(String, String)> = serde_urlencoded::from_str(req.uri().query().unwrap_or("")).unwrap_or_default();
    let wanted = match params.iter().find(|(key, _)| key == "state").map(|(_, value)| value.as_str()) {
        None | Some("") => ResponseState::Held,
        Some(raw) => ResponseState::parse(raw)
            .ok_or_else(|| Error::BadRequest(Messages::one("state", "Should be held, approved or spam")))?,
    };
    let request = PageRequest::parse(req.uri().query(), DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE).map_err(Error::BadRequest)?;
    let (page, replies) = state.blogs.replies(&blog, wanted, request).await?;
    Ok(paged(Json(Replies { replies: replies.iter().map(reply_json).collect() }), page))
}

/// Approves a reply (it shows under its post) or puts it in spam (`action` is `approve` or
/// `spam`).
#[handler]
pub async fn act(
    OwnedBlog { blog, .. }: OwnedBlog,
    state: Data<&AppState>,
    Path((_, reply_id, action)): Path<(String, String, String)>,
) -> Result<Response> {
    let to = match action.as_str() {
        "approve" => ResponseState::Approved,
        "spam" => ResponseState::Spam,
        _ => return Err(reply_not_found()),
    };
    let reply = state.blogs.move_reply(&blog, row_id(&reply_id, reply_not_found)?, to).await?;
    Ok(Json(OneReply { reply: reply_json(&reply) }).into_response())
}

/// Deletes a reply, held or shown.
#[handler]
pub async fn delete(
    OwnedBlog { blog, .. }: OwnedBlog,
    state: Data<&AppState>,
    Path((_, reply_id)): Path<(String, String)>,
) -> Result<Response> {
    state.blogs.delete_reply(&blog, row_id(&reply_id, reply_not_found)?).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// A reply from the fediverse to one of the blog's posts, `<reply>` of docs/api.md.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "replies.ts", rename = "Reply")]
pub struct ReplyJson<'a> {
    id: i64,
    /// The short id of the post it answers.
    post_id: &'a str,
    post_title: &'a str,
    author_name: &'a str,
    /// `@bob@peer.example`.
    author_handle: &'a str,
    /// The author's profile page.
    author_url: &'a str,
    /// The reply's own page, or null.
    url: &'a Option<String>,
    /// Plain text, paragraphs separated by a blank line.
    text: &'a str,
    published_at: &'a str,
    received_at: &'a str,
    /// Held for the owner's approval, shown under the post, or in spam.
    #[ts(type = "\"held\" | \"approved\" | \"spam\"")]
    state: &'static str,
}

/// `{replies}`, newest first.
#[derive(Serialize, TS)]
#[ts(export_to = "replies.ts")]
pub struct Replies<'a> {
    replies: Vec<ReplyJson<'a>>,
}

/// `{reply}`.
#[derive(Serialize, TS)]
#[ts(export_to = "replies.ts")]
pub struct OneReply<'a> {
    reply: ReplyJson<'a>,
}

fn reply_json((reply, short_id, title): &ReplyOfPost) -> ReplyJson<'_> {
    ReplyJson {
        id: reply.id,
        post_id: short_id,
        post_title: title,
        author_name: &reply.author_name,
        author_handle: &reply.author_handle,
        author_url: &reply.author_url,
        url: &reply.url,
        text: &reply.text,
        published_at: &reply.published_at,
        received_at: &reply.received_at,
        state: reply.state.as_str(),
    }
}
