//! A blog's Fediverse settings: see them, page through the followers, approve or remove
//! followers, block domains (docs/api.md, docs/federation.md); the replies it received are
//! `replies.rs`'s. Writes go through the write path ([`crate::blogs::Blogs`]).

use poem::web::{Data, Json, Path};
use poem::{Request, Response, handler};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::blogs::{FediverseState, follower_not_found};
use crate::config::Config;
use crate::db::blogs::Blog;
use crate::db::followers::Follower;
use crate::db::remote_refusals::Refusals;
use crate::domain::paging::PageRequest;
use crate::error::{Error, Result};
use crate::http::api::json::JsonBody;
use crate::http::api::paged;
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

/// Followers on a page when none is asked for.
pub const DEFAULT_PAGE_SIZE: u32 = 50;
/// Most followers on a page.
pub const MAX_PAGE_SIZE: u32 = 200;

/// A row id from the path; anything else names nothing (404).
pub fn row_id(raw: &str, not_found: fn() -> Error) -> Result<i64> {
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

/// One page of the blog's followers (`?page=&page_size=`), pending ones too, oldest first.
#[handler]
pub async fn followers(req: &Request, OwnedBlog { blog, .. }: OwnedBlog, state: Data<&AppState>) -> Result<Response> {
    let request = PageRequest::parse(req.uri().query(), DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE).map_err(Error::BadRequest)?;
    let (page, followers) = state.blogs.followers(&blog, request).await?;
    Ok(paged(Json(Followers { followers: followers.iter().map(follower_json).collect() }), page))
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
    /// Followers waiting for the owner's approval (`GET .../fediverse/followers` pages them all).
    pending_count: u64,
    blocked_domains: Vec<String>,
    /// Inboxes Quire stopped delivering to.
    given_up: Vec<GivenUp>,
    /// What the limits on remote servers refused, by kind.
    refused: Vec<RefusedJson>,
}

/// `{followers}`: one page of them.
#[derive(Serialize, TS)]
#[ts(export_to = "fediverse.ts")]
pub struct Followers {
    followers: Vec<FollowerJson>,
}

/// What the limits on remote servers refused of one kind (`reply`, `pending_follower`, `follower`,
/// `reaction`).
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "fediverse.ts", rename = "Refused")]
pub struct RefusedJson {
    /// `reply`, `pending_follower`, `follower` or `reaction`.
    kind: &'static str,
    /// How many were refused.
    count: i64,
    /// The host the last one came from.
    last_host: String,
    /// When the last one came.
    last_at: String,
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

fn follower_json(f: &Follower) -> FollowerJson {
    FollowerJson {
        id: f.id,
        handle: f.handle.clone(),
        actor_url: f.actor_id.clone(),
        state: if f.accepted { FollowerState::Accepted } else { FollowerState::Pending },
        since: f.created_at.clone(),
    }
}

fn fediverse_json(config: &Config, blog: &Blog, state: &FediverseState) -> Json<FediverseAnswer> {
    let refused = |r: &Refusals| RefusedJson {
        kind: r.kind.name(),
        count: r.count,
        last_host: r.last_host.clone(),
        last_at: r.last_at.clone(),
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
            pending_count: state.pending_count,
            blocked_domains: state.blocked_domains.clone(),
            given_up: state.given_up.iter().map(given_up).collect(),
            refused: state.refused.iter().map(refused).collect(),
        },
    })
}
