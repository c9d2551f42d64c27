//! The owner's side of comments and webmentions (docs/api.md 6.13, docs/responses.md): who may
//! comment and the blocked words, and the one queue of responses (fediverse replies, comments,
//! webmentions): held, approved or spam, approve, mark as spam, delete. Writes go through the
//! write path ([`crate::blogs::Blogs`]); a fediverse reply's own actions keep their routes
//! (`replies.rs`), the bulk action takes both.

use poem::http::StatusCode;
use poem::web::{Data, Json, Path};
use poem::{IntoResponse, Request, Response, handler};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::blogs::comments::response_not_found;
use crate::db::response_queue::Entry;
use crate::db::responses::{CommentSettings, CommentsMode, ResponseState};
use crate::domain::messages::Messages;
use crate::domain::paging::PageRequest;
use crate::error::{Error, Result};
use crate::http::api::fediverse::row_id;
use crate::http::api::json::JsonBody;
use crate::http::api::paged;
use crate::http::owned_blog::OwnedBlog;
use crate::http::state::AppState;

/// Responses on a page when none is asked for.
pub const DEFAULT_PAGE_SIZE: u32 = 20;
/// Most responses on a page.
pub const MAX_PAGE_SIZE: u32 = 100;

/// `PUT .../comments`'s body: what is left out stays as it is.
#[derive(Deserialize)]
pub struct SetComments {
    mode: Option<String>,
    #[serde(rename = "blockedWords", alias = "blocked_words")]
    blocked_words: Option<Vec<String>>,
}

/// The blog's comment settings.
#[handler]
pub async fn show_settings(OwnedBlog { blog, .. }: OwnedBlog, state: Data<&AppState>) -> Result<Json<CommentsAnswer>> {
    Ok(comments_answer(state.blogs.comment_settings(blog.id).await?))
}

/// Changes who may comment, or the blocked words.
#[handler]
pub async fn set_settings(
    OwnedBlog { blog, input: JsonBody(body), .. }: OwnedBlog<JsonBody<SetComments>>,
    state: Data<&AppState>,
) -> Result<Json<CommentsAnswer>> {
    let mode = body
        .mode
        .map(|raw| CommentsMode::parse(&raw).ok_or_else(|| Error::invalid("mode", "Should be off, held or trusted")))
        .transpose()?;
    let settings = state.blogs.set_comment_settings(blog.id, &blog.subdomain, mode, body.blocked_words).await?;
    Ok(comments_answer(settings))
}

/// One page (`?state=held|approved|spam&page=&page_size=`) of the blog's fediverse replies,
/// comments and webmentions, newest first; `held` by default.
#[handler]
pub async fn list(req: &Request, OwnedBlog { blog, .. }: OwnedBlog, state: Data<&AppState>) -> Result<Response> {
    let params: Vec<(String, String)> = serde_urlencoded::from_str(req.uri().query().unwrap_or("")).unwrap_or_default();
    let wanted = match params.iter().find(|(key, _)| key == "state").map(|(_, value)| value.as_str()) {
        None | Some("") => ResponseState::Held,
        Some(raw) => ResponseState::parse(raw)
            .ok_or_else(|| Error::BadRequest(Messages::one("state", "Should be held, approved or spam")))?,
    };
    let request = PageRequest::parse(req.uri().query(), DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE).map_err(Error::BadRequest)?;
    let (page, found) = state.blogs.responses(&blog, wanted, request).await?;
    let responses = found.into_iter().map(response_json).collect();
    Ok(paged(Json(Responses { responses }), page))
}

/// Approves a response (it shows under its post), marks it as spam, or marks a comment as spam
/// and blocks the address it came from (`action` is `approve`, `spam` or `block`).
#[handler]
pub async fn act(
    OwnedBlog { blog, .. }: OwnedBlog,
    state: Data<&AppState>,
    Path((_, response_id, action)): Path<(String, String, String)>,
) -> Result<Response> {
    let response_id = row_id(&response_id, response_not_found)?;
    let entry = match action.as_str() {
        "approve" => state.blogs.move_response(&blog, response_id, ResponseState::Approved).await?,
        "spam" => state.blogs.move_response(&blog, response_id, ResponseState::Spam).await?,
        "block" => state.blogs.block_response_sender(&blog, response_id).await?,
        _ => return Err(response_not_found()),
    };
    Ok(Json(OneResponse { response: response_json(entry) }).into_response())
}

/// `PUT .../posts/{postId}/comments`'s body.
#[derive(Deserialize)]
pub struct CloseComments {
    closed: bool,
}

/// `{commentsClosed}`: whether the post's comments are closed now.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "responses.ts")]
pub struct PostComments {
    comments_closed: bool,
}

/// Closes or opens one post's comments.
#[handler]
pub async fn close_post(
    OwnedBlog { blog, input: JsonBody(body), .. }: OwnedBlog<JsonBody<CloseComments>>,
    state: Data<&AppState>,
    Path((_, short_id)): Path<(String, String)>,
) -> Result<Json<PostComments>> {
    let closed = state.blogs.close_comments(&blog, &short_id, body.closed).await?;
    Ok(Json(PostComments { comments_closed: closed }))
}

/// `PUT .../responses/{id}/reply`'s body.
#[derive(Deserialize)]
pub struct Reply {
    text: String,
}

/// `POST .../responses/bulk`'s body: comments and webmentions by `ids`, fediverse replies by
/// `replyIds`.
#[derive(Deserialize)]
pub struct Bulk {
    #[serde(default)]
    ids: Vec<i64>,
    #[serde(default, rename = "replyIds", alias = "reply_ids")]
    reply_ids: Vec<i64>,
    action: String,
}

/// Sets the owner's reply under a comment.
#[handler]
pub async fn reply(
    OwnedBlog { blog, input: JsonBody(body), .. }: OwnedBlog<JsonBody<Reply>>,
    state: Data<&AppState>,
    Path((_, response_id)): Path<(String, String)>,
) -> Result<Json<OneResponse>> {
    let response_id = row_id(&response_id, response_not_found)?;
    let entry = state.blogs.reply_to_response(&blog, response_id, &body.text).await?;
    Ok(Json(OneResponse { response: response_json(entry) }))
}

/// Approves, marks as spam or deletes several responses at once.
#[handler]
pub async fn bulk(
    OwnedBlog { blog, input: JsonBody(body), .. }: OwnedBlog<JsonBody<Bulk>>,
    state: Data<&AppState>,
) -> Result<Json<BulkDone>> {
    let to = match body.action.as_str() {
        "approve" => Some(ResponseState::Approved),
        "spam" => Some(ResponseState::Spam),
        "delete" => None,
        _ => return Err(Error::invalid("action", "Should be approve, spam or delete")),
    };
    let done = state.blogs.act_on_responses(&blog, body.ids, body.reply_ids, to).await?;
    Ok(Json(BulkDone { done: done as i64 }))
}

/// `{done}`: how many responses a bulk action changed.
#[derive(Serialize, TS)]
#[ts(export_to = "responses.ts")]
pub struct BulkDone {
    done: i64,
}

/// Deletes a response.
#[handler]
pub async fn delete(
    OwnedBlog { blog, .. }: OwnedBlog,
    state: Data<&AppState>,
    Path((_, response_id)): Path<(String, String)>,
) -> Result<Response> {
    state.blogs.delete_response(&blog, row_id(&response_id, response_not_found)?).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `{comments}`: the blog's comment settings after the call.
#[derive(Serialize, TS)]
#[ts(export_to = "responses.ts")]
pub struct CommentsAnswer {
    comments: CommentsJson,
}

/// Who may comment on the blog, and the words that send a comment to Spam.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "responses.ts", rename = "CommentSettings")]
pub struct CommentsJson {
    /// `off` (no comment form), `held` (each waits for approval), `trusted` (held but for
    /// commenters approved before).
    #[ts(type = "\"off\" | \"held\" | \"trusted\"")]
    mode: &'static str,
    blocked_words: Vec<String>,
}

/// `{responses}`: one page of them.
#[derive(Serialize, TS)]
#[ts(export_to = "responses.ts")]
pub struct Responses {
    responses: Vec<ResponseJson>,
}

/// `{response}`: one, after a change.
#[derive(Serialize, TS)]
#[ts(export_to = "responses.ts")]
pub struct OneResponse {
    response: ResponseJson,
}

/// A fediverse reply, comment or webmention, `<response>` of docs/api.md.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "responses.ts", rename = "Response")]
pub struct ResponseJson {
    /// Its id among the blog's replies (`kind` `reply`: the replies routes act on it), else
    /// among its comments and webmentions.
    id: i64,
    #[ts(type = "\"reply\" | \"comment\" | \"webmention\"")]
    kind: String,
    #[ts(type = "\"held\" | \"approved\" | \"spam\"")]
    state: &'static str,
    /// The short id of the post it answers.
    post_id: String,
    post_title: String,
    author_name: String,
    /// A fediverse author's handle (`@bob@peer.example`), else null.
    author_handle: Option<String>,
    /// The author's website or profile ('' for none).
    author_url: String,
    /// A webmention's source page, a reply's own page.
    source_url: Option<String>,
    /// A webmention's title ('' for none).
    title: String,
    /// A comment's Markdown; a reply's or webmention's plain text.
    text: String,
    /// The owner's reply under a comment ('' for none).
    owner_reply: String,
    received_at: String,
}

fn comments_answer(settings: CommentSettings) -> Json<CommentsAnswer> {
    Json(CommentsAnswer {
        comments: CommentsJson { mode: settings.mode.as_str(), blocked_words: settings.blocked_words },
    })
}

fn response_json(entry: Entry) -> ResponseJson {
    ResponseJson {
        id: entry.id,
        kind: entry.kind,
        state: entry.state.as_str(),
        post_id: entry.post_id,
        post_title: entry.post_title,
        author_name: entry.author_name,
        author_handle: entry.author_handle,
        author_url: entry.author_url,
        source_url: entry.source_url,
        title: entry.title,
        text: entry.text,
        owner_reply: entry.owner_reply,
        received_at: entry.received_at,
    }
}
