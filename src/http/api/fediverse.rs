//! A blog's Fediverse settings and the replies it received: see them, approve or remove
//! followers, block domains, approve or delete replies (docs/api.md, docs/federation.md).
//! Writes go through the write path ([`crate::blogs::Blogs`]).

use poem::http::StatusCode;
use poem::web::{Data, Json, Path};
use poem::{IntoResponse, Request, Response, handler};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::blogs::{FediverseState, ReplyOfPost, follower_not_found, reply_not_found};
use crate::config::Config;
use crate::db::blogs::Blog;
use crate::db::followers::Follower;
use crate::domain::messages::Messages;
use crate::error::{Error, Result};
use crate::http::api::json::JsonBody;
use crate::http::owned_blog::OwnedBlog;
use crate::http::state::AppState;

/// `PUT .../fediverse`'s body.
#[derive(Deserialize)]
pub struct SetFediverse {
    #[serde(rename = "approveFollowers", alias = "approve_followers")]
    approve_followers: bool,
}

/// `POST .../fediverse/blocked_domains`'s body.
#[derive(Deserialize)]
pub struct BlockDomain {
    domain: String,
}

/// A row id from the path; anything else names nothing (404).
fn row_id(raw: &str, not_found: fn() -> Error) -> Result<i64> {
    raw.parse().map_err(|_| not_found())
}

/// The blog's Fediverse settings.
#[handler]
pub async fn show(OwnedBlog { blog, .. }: OwnedBlog, state: Data<&AppState>) -> Result<Json<FediverseAnswer>> {
    let fediverse = state.blogs.fediverse(&blog).await?;
    Ok(fediverse_json(&state.config, &blog, &fediverse))
}

/// Turns the approval of new followers on or off.
#[handler]
pub async fn update(
    OwnedBlog { blog, input: JsonBody(body), .. }: OwnedBlog<JsonBody<SetFediverse>>,
    state: Data<&AppState>,
) -> Result<Json<FediverseAnswer>> {
    let fediverse = state.blogs.set_approve_followers(&blog, body.approve_followers).await?;
    Ok(fediverse_json(&state.config, &blog, &fediverse))
}

/// Accepts a pending follower.
#[handler]
pub async fn approve_follower(
    OwnedBlog { blog, .. }: OwnedBlog,
    state: Data<&AppState>,
    Path((_, follower_id)): Path<(String, String)>,
) -> Result<Json<FediverseAnswer>> {
    let follower_id = row_id(&follower_id, follower_not_found)?;
    let fediverse = state.blogs.approve_follower(&state.config, &blog, follower_id).await?;
    Ok(fediverse_json(&state.config, &blog, &fediverse))
}

/// Refuses a pending follower or removes an accepted one.
#[handler]
pub async fn remove_follower(
    OwnedBlog { blog, .. }: OwnedBlog,
    state: Data<&AppState>,
    Path((_, follower_id)): Path<(String, String)>,
) -> Result<Json<FediverseAnswer>> {
    let follower_id = row_id(&follower_id, follower_not_found)?;
    let fediverse = state.blogs.remove_follower(&state.config, &blog, follower_id).await?;
    Ok(fediverse_json(&state.config, &blog, &fediverse))
}

/// Blocks a domain for the blog.
#[handler]
pub async fn block_domain(
    OwnedBlog { blog, input: JsonBody(body), .. }: OwnedBlog<JsonBody<BlockDomain>>,
    state: Data<&AppState>,
) -> Result<Json<FediverseAnswer>> {
    let fediverse = state.blogs.block_domain(&blog, &body.domain).await?;
    Ok(fediverse_json(&state.config, &blog, &fediverse))
}

/// Unblocks a domain for the blog.
#[handler]
pub async fn unblock_domain(
    OwnedBlog { blog, .. }: OwnedBlog,
    state: Data<&AppState>,
    Path((_, domain)): Path<(String, String)>,
) -> Result<Json<FediverseAnswer>> {
    let fediverse = state.blogs.unblock_domain(&blog, &domain).await?;
    Ok(fediverse_json(&state.config, &blog, &fediverse))
}

/// The blog's held (`?state=held`, the default) or approved replies, newest first.
#[handler]
pub async fn replies(req: &Request, OwnedBlog { blog, .. }: OwnedBlog, state: Data<&AppState>) -> Result<Response> {
    let params: Vec<(String, String)> = serde_urlencoded::from_str(req.uri().query().unwrap_or("")).unwrap_or_default();
    let approved = match params.iter().find(|(key, _)| key == "state").map(|(_, value)| value.as_str()) {
        None | Some("held") => false,
        Some("approved") => true,
        Some(_) => return Err(Error::BadRequest(Messages::one("state", "Should be held or approved"))),
    };
    let replies = state.blogs.replies(&blog, approved).await?;
    Ok(Json(Replies { replies: replies.iter().map(reply_json).collect() }).into_response())
}

/// Approves a held reply: it shows under its post.
#[handler]
pub async fn approve_reply(
    OwnedBlog { blog, .. }: OwnedBlog,
    state: Data<&AppState>,
    Path((_, reply_id)): Path<(String, String)>,
) -> Result<Response> {
    let reply = state.blogs.approve_reply(&blog, row_id(&reply_id, reply_not_found)?).await?;
    Ok(Json(OneReply { reply: reply_json(&reply) }).into_response())
}

/// Deletes a reply, held or shown.
#[handler]
pub async fn delete_reply(
    OwnedBlog { blog, .. }: OwnedBlog,
    state: Data<&AppState>,
    Path((_, reply_id)): Path<(String, String)>,
) -> Result<Response> {
    state.blogs.delete_reply(&blog, row_id(&reply_id, reply_not_found)?).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `{fediverse}`: every call of the Fediverse settings answers the settings as they are after it.
#[derive(Serialize, TS)]
#[ts(export_to = "fediverse.ts")]
pub struct FediverseAnswer {
    fediverse: FediverseJson,
}

/// The blog's Fediverse settings, `<fediverse>` of docs/api.md.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "fediverse.ts", rename = "Fediverse")]
pub struct FediverseJson {
    /// `@alice@example.com`.
    handle: String,
    actor_url: String,
    /// Whether new followers wait for the owner's approval.
    approve_followers: bool,
    follower_count: i64,
    followers: Vec<FollowerJson>,
    blocked_domains: Vec<String>,
    /// Inboxes Quire stopped delivering to.
    given_up: Vec<GivenUp>,
}

/// Whether a follower was accepted or waits for the owner's approval.
#[derive(Serialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export_to = "fediverse.ts")]
pub enum FollowerState {
    /// Accepted: gets the blog's posts.
    Accepted,
    /// Waits for the owner's approval.
    Pending,
}

/// A follower of the blog.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "fediverse.ts", rename = "Follower")]
pub struct FollowerJson {
    id: i64,
    /// `@bob@peer.example`.
    handle: String,
    actor_url: String,
    state: FollowerState,
    /// When it followed.
    since: String,
}

/// An inbox host deliveries were given up for, how many and the last error.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "fediverse.ts")]
pub struct GivenUp {
    inbox_host: String,
    count: i64,
    last_error: Option<String>,
}

fn fediverse_json(config: &Config, blog: &Blog, state: &FediverseState) -> Json<FediverseAnswer> {
    let follower = |f: &Follower| FollowerJson {
        id: f.id,
        handle: f.handle.clone(),
        actor_url: f.actor_id.clone(),
        state: if f.accepted { FollowerState::Accepted } else { FollowerState::Pending },
        since: f.created_at.clone(),
    };
    let given_up = |(host, count, error): &(String, i64, Option<String>)| GivenUp {
        inbox_host: host.clone(),
        count: *count,
        last_error: error.clone(),
    };
    Json(FediverseAnswer {
        fediverse: FediverseJson {
            handle: format!("@{}@{}", blog.subdomain, config.host),
            actor_url: config.actor_id(&blog.subdomain),
            approve_followers: state.approve_followers,
            follower_count: state.follower_count,
            followers: state.followers.iter().map(follower).collect(),
            blocked_domains: state.blocked_domains.clone(),
            given_up: state.given_up.iter().map(given_up).collect(),
        },
    })
}

/// Held for the owner's approval, or shown under the post.
#[derive(Serialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export_to = "replies.ts")]
pub enum ReplyState {
    /// Waits for the owner's approval.
    Held,
    /// Shown under its post.
    Approved,
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
    state: ReplyState,
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
        state: if reply.approved { ReplyState::Approved } else { ReplyState::Held },
    }
}
