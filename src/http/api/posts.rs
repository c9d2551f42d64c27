//! A blog's posts: list, create, read, update, delete, search. Writes go through the write
//! path ([`crate::blogs::Blogs`]); see docs/api.md for the shapes.
//!
//! A post is answered with `post_json`: the stored body is sent as raw JSON, never parsed again.
//! An update, `PUT /api/my/blogs/7/posts/abc123` on the app host: `http::csrf::guard` checks the
//! `CSRF-Token` header against the `csrf_token` cookie (and the `Origin` when sent), `OwnedBlog`
//! takes the session (401) and blog 7 if the user owns it (any other blog is the same 404), the JSON
//! body decodes (`json.rs`: a 400 naming the field), `Blogs::update_post` checks, writes, indexes
//! and invalidates, and the handler answers. A post's version travels as its `ETag` and the
//! `If-Match` an update sends back (`post_versions.rs`, docs/edit-conflicts.md).

use std::collections::HashMap;

use poem::http::StatusCode;
use poem::web::{Data, Json, Path};
use poem::{IntoResponse, Request, Response, handler};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use ts_rs::TS;

use crate::blogs::PostInput;
use crate::config::Config;
use crate::db::blogs::Blog;
use crate::db::posts::{self, Post, Updated};
use crate::db::{mail_queue, reactions, replies, responses, tags};
use crate::domain::content::blocks::Body;
use crate::domain::content::visibility::Visibility;
use crate::domain::paging::PageRequest;
use crate::error::{Error, Result};
use crate::http::api::answers::Empty;
use crate::http::api::json::JsonBody;
use crate::http::api::paged;
use crate::http::api::post_versions::{if_match, stale, tagged};
use crate::http::owned_blog::OwnedBlog;
use crate::http::state::AppState;

/// Posts per page by default.
pub const DEFAULT_PAGE_SIZE: u32 = 10;
/// Largest page size.
pub const MAX_PAGE_SIZE: u32 = 100;
/// Most search results returned.
const SEARCH_LIMIT: usize = 50;
/// Longest search query.
const MAX_QUERY: usize = 500;

/// Search body.
#[derive(Debug, Deserialize)]
pub struct SearchInput {
    query: String,
    /// Only posts with this tag.
    #[serde(default)]
    tag: Option<String>,
}

/// The API shape of a post. The body is sent as stored (it was validated and normalized
/// when written), so answering never parses it.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "posts.ts", rename = "Post")]
pub struct PostJson<'a> {
    short_id: &'a str,
    permalink: String,
    title: &'a str,
    published_at: &'a Option<String>,
    /// When an unpublished post is to be published; null otherwise.
    scheduled_at: &'a Option<String>,
    created_at: &'a str,
    updated_at: &'a str,
    #[ts(as = "Body")]
    body: &'a RawValue,
    tags: &'a [String],
    /// Whether it is a page (at `/{slug}`, in the blog's navigation).
    page: bool,
    /// Whether its owner closed its comments (`PUT .../posts/{postId}/comments`).
    comments_closed: bool,
    /// `public`, or `unlisted`: reachable by its permalink only (docs/unlisted.md). A page is
    /// always public.
    #[ts(type = "\"public\" | \"unlisted\"")]
    visibility: &'static str,
    /// Page views (the post list only).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    views: Option<i64>,
    /// Its email to the blog's subscribers (the post list only, when the instance sends mail):
    /// null when it was never mailed.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    mail: Option<Option<PostMailJson>>,
    /// Likes from the fediverse.
    likes: i64,
    /// Boosts from the fediverse.
    boosts: i64,
    /// Replies from the fediverse, held and approved.
    replies: i64,
    /// Comments and webmentions, held and approved (not spam).
    responses: i64,
    /// Its version, raised by every change; an update sends it back to be refused (409) rather
    /// than overwrite a newer one (docs/edit-conflicts.md). Also its `ETag`, `"N"`.
    version: i64,
}

/// A post's email to the blog's subscribers: waiting for its grace period (`dueAt`), then
/// how many messages the relay took, how many wait and how many were given up.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "posts.ts", rename = "PostMail")]
pub struct PostMailJson {
    /// When the grace period ends and the messages are queued; null once they are.
    due_at: Option<String>,
    sent: i64,
    waiting: i64,
    failed: i64,
}

/// `{post}`: a post created, read or changed.
#[derive(Serialize, TS)]
#[ts(export_to = "posts.ts")]
pub struct OnePost<'a> {
    /// The post.
    pub post: PostJson<'a>,
}

/// `{posts}`: a page of the list, or the search's matches.
#[derive(Serialize, TS)]
#[ts(export_to = "posts.ts")]
pub struct ManyPosts<'a> {
    posts: Vec<PostJson<'a>>,
}

/// A post in its API shape.
pub fn post_json<'a>(config: &Config, blog: &Blog, post: &'a Post) -> Result<PostJson<'a>> {
    let body: &RawValue = serde_json::from_str(&post.body_json).map_err(|err| Error::Internal(err.into()))?;
    Ok(PostJson {
        short_id: &post.short_id,
        permalink: format!("{}{}", config.blog_origin(&blog.address()), post.path()),
        title: &post.title,
        published_at: &post.published_at,
        scheduled_at: &post.scheduled_at,
        created_at: &post.created_at,
        updated_at: &post.updated_at,
        body,
        tags: &post.tags,
        page: post.page_position.is_some(),
        comments_closed: post.comments_closed,
        visibility: Visibility::of(post.unlisted).as_str(),
        views: None,
        mail: None,
        likes: 0,
        boosts: 0,
        replies: 0,
        responses: 0,
        version: post.version,
    })
}

/// The fediverse's likes, boosts and replies, and the comments and webmentions, of the posts
/// (row ids) that have any, in three queries.
type Reactions = (HashMap<i64, reactions::Counts>, HashMap<i64, i64>, HashMap<i64, i64>);

fn reactions_of(conn: &rusqlite::Connection, ids: &[i64]) -> Result<Reactions> {
    Ok((reactions::counts_of(conn, ids)?, replies::counts_of(conn, ids)?, responses::counts_of(conn, ids)?))
}

/// Sets the counts of `json`, the post `id`.
fn set_reactions(json: &mut PostJson<'_>, id: i64, (counts, replies, responses): &Reactions) {
    let counts = counts.get(&id).copied().unwrap_or_default();
    (json.likes, json.boosts) = (counts.likes, counts.boosts);
    json.replies = replies.get(&id).copied().unwrap_or(0);
    json.responses = responses.get(&id).copied().unwrap_or(0);
}

/// A post in its API shape, with its counts read.
pub async fn counted_post_json<'a>(state: &AppState, blog: &Blog, post: &'a Post) -> Result<PostJson<'a>> {
    let id = post.id;
    let reactions = state.db.read(move |conn| reactions_of(conn, &[id])).await?;
    let mut json = post_json(&state.config, blog, post)?;
    set_reactions(&mut json, id, &reactions);
    Ok(json)
}

fn posts_json<'a>(config: &Config, blog: &Blog, rows: &'a [Post]) -> Result<Vec<PostJson<'a>>> {
    rows.iter().map(|post| post_json(config, blog, post)).collect()
}

/// A page of the blog's posts, newest first, drafts included.
#[handler]
pub async fn list(req: &Request, OwnedBlog { blog, .. }: OwnedBlog, state: Data<&AppState>) -> Result<Response> {
    let request = PageRequest::parse(req.uri().query(), DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE).map_err(Error::BadRequest)?;
    let tag = super::tags::tag_param(req.uri().query())?;
    let (id, mail_on) = (blog.id, state.config.mail_enabled());
    // Counted views are written every few seconds; write them now so the owner sees them all.
    state.site.page_views.flush(&state.db).await;
    let (page, rows, counts) = state
        .db
        .read(move |conn| {
            let (page, rows) = match &tag {
                None => (
                    request.within(posts::count(conn, id)?),
                    posts::page(conn, id, request.offset(), request.page_size)?,
                ),
                Some(tag) => (
                    request.within(tags::count_with_tag(conn, id, tag)?),
                    tags::page_with_tag(conn, id, tag, request.offset(), request.page_size)?,
                ),
            };
            let page = page.map_err(Error::BadRequest)?;
            let ids: Vec<i64> = rows.iter().map(|p| p.id).collect();
            let mail = match mail_on {
                true => Some(mail_queue::post_counts(conn, &ids)?),
                false => None,
            };
            let counts = (posts::views(conn, &ids)?, reactions_of(conn, &ids)?, mail);
            Ok((page, rows, counts))
        })
        .await?;
    let (views, reactions, mut mail) = counts;
    let mut list = posts_json(&state.config, &blog, &rows)?;
    for (json, post) in list.iter_mut().zip(&rows) {
        json.views = Some(views.get(&post.id).copied().unwrap_or(0));
        json.mail = mail.as_mut().map(|mail| {
            mail.remove(&post.id).map(|m| PostMailJson {
                due_at: m.due_at,
                sent: m.sent,
                waiting: m.waiting,
                failed: m.failed,
            })
        });
        set_reactions(json, post.id, &reactions);
    }
    Ok(paged(Json(ManyPosts { posts: list }), page))
}

/// Creates a post; the draft flag off publishes it.
#[handler]
pub async fn create(
    OwnedBlog { blog, input: JsonBody(input), .. }: OwnedBlog<JsonBody<PostInput>>,
    state: Data<&AppState>,
) -> Result<Response> {
    let post = state.blogs.create_post(&blog, &input).await?;
    let body = OnePost { post: post_json(&state.config, &blog, &post)? };
    Ok(tagged(Json(body).with_status(StatusCode::CREATED), post.version))
}

/// One post.
#[handler]
pub async fn show(
    OwnedBlog { blog, .. }: OwnedBlog,
    state: Data<&AppState>,
    Path((_, post_id)): Path<(String, String)>,
) -> Result<Response> {
    let id = blog.id;
    let post =
        state.db.read(move |conn| posts::get(conn, id, &post_id)).await?.ok_or_else(crate::blogs::post_not_found)?;
    Ok(tagged(Json(OnePost { post: counted_post_json(&state, &blog, &post).await? }), post.version))
}

/// Replaces a post's blocks; publishing sets `publishedAt` once and it stays. Based on an older
/// version (`If-Match` or `version`) it is a 409 carrying the post as it is now.
#[handler]
pub async fn update(
    req: &Request,
    OwnedBlog { blog, input: JsonBody(input), .. }: OwnedBlog<JsonBody<PostInput>>,
    state: Data<&AppState>,
    Path((_, post_id)): Path<(String, String)>,
) -> Result<Response> {
    match state.blogs.update_post(&blog, &post_id, &input, if_match(req).as_deref()).await? {
        Updated::Saved(post, _) => {
            Ok(tagged(Json(OnePost { post: counted_post_json(&state, &blog, &post).await? }), post.version))
        }
        Updated::Stale(post) => Ok(stale(counted_post_json(&state, &blog, &post).await?, post.version)),
    }
}

/// Takes a published or scheduled post back to a draft (docs/api.md 8.6.1).
#[handler]
pub async fn unpublish(
    OwnedBlog { blog, .. }: OwnedBlog,
    state: Data<&AppState>,
    Path((_, post_id)): Path<(String, String)>,
) -> Result<Response> {
    let post = state.blogs.unpublish_post(&blog, &post_id).await?;
    Ok(tagged(Json(OnePost { post: counted_post_json(&state, &blog, &post).await? }), post.version))
}

/// Deletes a post.
#[handler]
pub async fn delete(
    OwnedBlog { blog, .. }: OwnedBlog,
    state: Data<&AppState>,
    Path((_, post_id)): Path<(String, String)>,
) -> Result<Json<Empty>> {
    state.blogs.delete_post(&blog, &post_id).await?;
    Ok(Json(Empty {}))
}

/// Full-text search in the blog's posts, drafts included, best match first.
#[handler]
pub async fn find(
    OwnedBlog { blog, input: JsonBody(input), .. }: OwnedBlog<JsonBody<SearchInput>>,
    state: Data<&AppState>,
) -> Result<Response> {
    let query = input.query.trim().to_owned();
    if query.is_empty() {
        return Err(Error::invalid("query", "Can't be blank"));
    }
    if query.chars().count() > MAX_QUERY {
        return Err(Error::invalid("query", format!("Should be at most {MAX_QUERY} characters")));
    }
    let tag = match input.tag.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        Some(tag) => Some(crate::domain::content::tags::tag(tag).map_err(|message| Error::invalid("tag", message))?),
        None => None,
    };
    let search = state.search.clone();
    let id = blog.id;
    let ids =
        tokio::task::spawn_blocking(move || search.search_tagged(id, &query, tag.as_deref(), false, SEARCH_LIMIT))
            .await
            .map_err(|err| Error::Internal(err.into()))??;
    let (rows, reactions) = state
        .db
        .read(move |conn| {
            let rows = posts::by_ids(conn, id, &ids)?;
            let reactions = reactions_of(conn, &rows.iter().map(|p| p.id).collect::<Vec<_>>())?;
            Ok((rows, reactions))
        })
        .await?;
    let mut found = posts_json(&state.config, &blog, &rows)?;
    for (json, post) in found.iter_mut().zip(&rows) {
        set_reactions(json, post.id, &reactions);
    }
    Ok(Json(ManyPosts { posts: found }).into_response())
}
