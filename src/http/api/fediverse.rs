//! A blog's Fediverse settings and the replies it received: see them, approve or remove
//! followers, block domains, approve or delete replies (docs/api.md, docs/federation.md).
//! Writes go through the write path ([`crate::blogs::Blogs`]).

use poem::http::StatusCode;
use poem::web::{Data, Json, Path};
use poem::{IntoResponse, Request, Response, handler};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::blogs::{FediverseState, ReplyOfPost, follower_not_found, reply_not_found};
use crate::config::Config;
use crate::db::blogs::Blog;
use crate::domain::messages::Messages;
use crate::error::{Error, Result};
use crate::http::api::json::JsonBody;
use crate::http::session::SignedIn;
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
pub async fn show(signed_in: SignedIn, state: Data<&AppState>, Path(blog_id): Path<String>) -> Result<Json<Value>> {
    let blog = state.blogs.owned(signed_in.user.id, &blog_id).await?;
    let fediverse = state.blogs.fediverse(&blog).await?;
    Ok(fediverse_json(&state.config, &blog, &fediverse))
}

/// Turns the approval of new followers on or off.
#[handler]
pub async fn update(
    signed_in: SignedIn,
    state: Data<&AppState>,
    Path(blog_id): Path<String>,
    JsonBody(body): JsonBody<SetFediverse>,
) -> Result<Json<Value>> {
    let blog = state.blogs.owned(signed_in.user.id, &blog_id).await?;
    let fediverse = state.blogs.set_approve_followers(&blog, body.approve_followers).await?;
    Ok(fediverse_json(&state.config, &blog, &fediverse))
}

/// Accepts a pending follower.
#[handler]
pub async fn approve_follower(
    signed_in: SignedIn,
    state: Data<&AppState>,
    Path((blog_id, follower_id)): Path<(String, String)>,
) -> Result<Json<Value>> {
    let blog = state.blogs.owned(signed_in.user.id, &blog_id).await?;
    let follower_id = row_id(&follower_id, follower_not_found)?;
    let fediverse = state.blogs.approve_follower(&state.config, &blog, follower_id).await?;
    Ok(fediverse_json(&state.config, &blog, &fediverse))
}

/// Refuses a pending follower or removes an accepted one.
#[handler]
pub async fn remove_follower(
    signed_in: SignedIn,
    state: Data<&AppState>,
    Path((blog_id, follower_id)): Path<(String, String)>,
) -> Result<Json<Value>> {
    let blog = state.blogs.owned(signed_in.user.id, &blog_id).await?;
    let follower_id = row_id(&follower_id, follower_not_found)?;
    let fediverse = state.blogs.remove_follower(&state.config, &blog, follower_id).await?;
    Ok(fediverse_json(&state.config, &blog, &fediverse))
}

/// Blocks a domain for the blog.
#[handler]
pub async fn block_domain(
    signed_in: SignedIn,
    state: Data<&AppState>,
    Path(blog_id): Path<String>,
    JsonBody(body): JsonBody<BlockDomain>,
) -> Result<Json<Value>> {
    let blog = state.blogs.owned(signed_in.user.id, &blog_id).await?;
    let fediverse = state.blogs.block_domain(&blog, &body.domain).await?;
    Ok(fediverse_json(&state.config, &blog, &fediverse))
}

/// Unblocks a domain for the blog.
#[handler]
pub async fn unblock_domain(
    signed_in: SignedIn,
    state: Data<&AppState>,
    Path((blog_id, domain)): Path<(String, String)>,
) -> Result<Json<Value>> {
    let blog = state.blogs.owned(signed_in.user.id, &blog_id).await?;
    let fediverse = state.blogs.unblock_domain(&blog, &domain).await?;
    Ok(fediverse_json(&state.config, &blog, &fediverse))
}

/// The blog's held (`?state=held`, the default) or approved replies, newest first.
#[handler]
pub async fn replies(
    req: &Request,
    signed_in: SignedIn,
    state: Data<&AppState>,
    Path(blog_id): Path<String>,
) -> Result<Json<Value>> {
    let blog = state.blogs.owned(signed_in.user.id, &blog_id).await?;
    let params: Vec<(String, String)> = serde_urlencoded::from_str(req.uri().query().unwrap_or("")).unwrap_or_default();
    let approved = match params.iter().find(|(key, _)| key == "state").map(|(_, value)| value.as_str()) {
        None | Some("held") => false,
        Some("approved") => true,
        Some(_) => return Err(Error::BadRequest(Messages::one("state", "Should be held or approved"))),
    };
    let replies = state.blogs.replies(&blog, approved).await?;
    Ok(Json(json!({ "replies": replies.iter().map(reply_json).collect::<Vec<_>>() })))
}

/// Approves a held reply: it shows under its post.
#[handler]
pub async fn approve_reply(
    signed_in: SignedIn,
    state: Data<&AppState>,
    Path((blog_id, reply_id)): Path<(String, String)>,
) -> Result<Json<Value>> {
    let blog = state.blogs.owned(signed_in.user.id, &blog_id).await?;
    let reply = state.blogs.approve_reply(&blog, row_id(&reply_id, reply_not_found)?).await?;
    Ok(Json(json!({ "reply": reply_json(&reply) })))
}

/// Deletes a reply, held or shown.
#[handler]
pub async fn delete_reply(
    signed_in: SignedIn,
    state: Data<&AppState>,
    Path((blog_id, reply_id)): Path<(String, String)>,
) -> Result<Response> {
    let blog = state.blogs.owned(signed_in.user.id, &blog_id).await?;
    state.blogs.delete_reply(&blog, row_id(&reply_id, reply_not_found)?).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `{"fediverse": ...}` of docs/api.md.
fn fediverse_json(config: &Config, blog: &Blog, state: &FediverseState) -> Json<Value> {
    let followers: Vec<Value> = state
        .followers
        .iter()
        .map(|f| {
            json!({
                "id": f.id,
                "handle": f.handle,
                "actorUrl": f.actor_id,
                "state": if f.accepted { "accepted" } else { "pending" },
                "since": f.created_at,
            })
        })
        .collect();
    let given_up: Vec<Value> = state
        .given_up
        .iter()
        .map(|(host, count, error)| json!({ "inboxHost": host, "count": count, "lastError": error }))
        .collect();
    Json(json!({ "fediverse": {
        "handle": format!("@{}@{}", blog.subdomain, config.host),
        "actorUrl": config.actor_id(&blog.subdomain),
        "approveFollowers": state.approve_followers,
        "followerCount": state.follower_count,
        "followers": followers,
        "blockedDomains": state.blocked_domains,
        "givenUp": given_up,
    }}))
}

/// `<reply>` of docs/api.md.
fn reply_json((reply, short_id, title): &ReplyOfPost) -> Value {
    json!({
        "id": reply.id,
        "postId": short_id,
        "postTitle": title,
        "authorName": reply.author_name,
        "authorHandle": reply.author_handle,
        "authorUrl": reply.author_url,
        "url": reply.url,
        "text": reply.text,
        "publishedAt": reply.published_at,
        "receivedAt": reply.received_at,
        "state": if reply.approved { "approved" } else { "held" },
    })
}
