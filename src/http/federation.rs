//! The ActivityPub documents other servers read (issue 16, docs/federation.md), as
//! `application/activity+json` (WebFinger: `application/jrd+json`):
//!
//! - on the app host: `GET /.well-known/webfinger?resource=acct:alice@{host}`,
//!   `/.well-known/nodeinfo`, `/nodeinfo/2.1`;
//! - on a blog's subdomain: WebFinger too, and `/_quire/ap/actor`, `/_quire/ap/outbox[?page=n]`,
//!   `/_quire/ap/followers`, `/_quire/ap/posts/{shortId}`. These answer on the subdomain even
//!   when the blog has a custom domain (the actor id never moves);
//! - on a verified custom domain: WebFinger (`acct:alice@custom.example`), and `/_quire/ap/*`
//!   301s to the subdomain.
//!
//! A deleted account's actor answers 410 Gone. The host router (`http/mod.rs`) sends these
//! paths here before the owner app and the public blog see them.

use poem::http::StatusCode;
use poem::web::Data;
use poem::{Request, Response, Route, get, handler};
use serde_json::Value;

use crate::db::posts::Post;
use crate::db::{blogs, followers, public};
use crate::domain::federation::activity::{self, ACTIVITY_JSON, ActorFacts, JRD_JSON, OUTBOX_PAGE_SIZE};
use crate::domain::paths;
use crate::error::{Error, Result};
use crate::http::blog::BlogHost;
use crate::http::hosts::{Site, classify_with};
use crate::http::state::AppState;

/// Highest outbox page number accepted.
const MAX_PAGE: u64 = 100_000;

/// Whether a blog host's request is for this module (`/_quire/ap/...` or WebFinger).
pub fn is_blog_path(path: &str) -> bool {
    path.starts_with(paths::AP_PREFIX) || path == paths::WEBFINGER
}

/// The app host's routes (merged into the owner app's table).
pub fn app_routes(routes: Route) -> Route {
    routes
        .at(paths::WEBFINGER, get(webfinger))
        .at(paths::NODEINFO_LINKS, get(nodeinfo_links))
        .at(paths::NODEINFO, get(nodeinfo))
        .at(paths::AP_INSTANCE, get(instance_actor))
}

/// A blog host's routes (the request carries its [`BlogHost`]).
pub fn blog_routes() -> Route {
    Route::new()
        .at(paths::WEBFINGER, get(webfinger))
        .at(paths::AP_ACTOR, get(actor))
        .at(paths::AP_OUTBOX, get(outbox))
        .at(paths::AP_FOLLOWERS, get(followers_collection))
        .at(paths::AP_POST, get(post))
}

fn activity_json(doc: &Value) -> Response {
    json_as(doc, ACTIVITY_JSON, StatusCode::OK)
}

fn json_as(doc: &Value, content_type: &str, status: StatusCode) -> Response {
    Response::builder()
        .status(status)
        .content_type(content_type)
        .header("access-control-allow-origin", "*")
        .header("vary", "accept")
        .body(doc.to_string())
}

fn no_blog() -> Error {
    Error::not_found("resource", "No blog has this address")
}

/// The blog at `subdomain`, or `None` when its account was deleted (answered 410).
async fn blog_of(state: &AppState, subdomain: &str) -> Result<Option<public::PublicBlog>> {
    let lookup = subdomain.to_owned();
    let (blog, retired) =
        state.db.read(move |conn| Ok((public::blog(conn, &lookup)?, blogs::is_retired(conn, &lookup)?))).await?;
    match (blog, retired) {
        (Some(blog), _) => Ok(Some(blog)),
        (None, true) => Ok(None),
        (None, false) => Err(no_blog()),
    }
}

fn subdomain_of(req: &Request) -> String {
    req.extensions().get::<BlogHost>().map(|host| host.0.clone()).unwrap_or_default()
}

/// The deleted account's actor: 410 with a Tombstone.
fn gone(id: &str) -> Response {
    let mut tombstone = activity::tombstone(id);
    tombstone["formerType"] = Value::from("Person");
    tombstone["@context"] = Value::from(activity::AS_CONTEXT);
    json_as(&tombstone, ACTIVITY_JSON, StatusCode::GONE)
}

#[derive(serde::Deserialize)]
struct WebfingerQuery {
    resource: Option<String>,
}

/// `GET /.well-known/webfinger?resource=...`: `acct:alice@{host}`, `acct:alice@alice.{host}`,
/// `acct:alice@custom.example`, the actor id or the blog's URL.
#[handler]
async fn webfinger(state: Data<&AppState>, query: poem::web::Query<WebfingerQuery>) -> Result<Response> {
    let Some(resource) = query.0.resource.filter(|r| !r.trim().is_empty()) else {
        return Err(Error::bad_request("resource", "Give the account to look up: ?resource=acct:name@host"));
    };
    let served = state.blogs.served_names();
    let site_of = |host: &str| classify_with(host, &state.config.host, |name| served.blog_of_domain(name));
    let resource = resource.trim();
    let subdomain = match resource.strip_prefix("acct:").or_else(|| (!resource.contains("://")).then_some(resource)) {
        Some(account) => {
            let (user, host) =
                account.rsplit_once('@').ok_or_else(|| Error::bad_request("resource", "Not an account: name@host"))?;
            let user = user.trim_start_matches('@').to_ascii_lowercase();
            // `acct:` names are written without the port (`acct:alice@blog.example`): a name
            // without one is taken on the app's port.
            let app_port = state.config.host.rsplit_once(':').map(|(_, port)| port);
            let host = match app_port {
                Some(port) if !host.contains(':') => format!("{host}:{port}"),
                _ => host.to_owned(),
            };
            match site_of(&host) {
                Site::App => Some(user),
                Site::Blog(sub) | Site::CustomDomain(sub) => (sub == user).then_some(sub),
                Site::Unknown => None,
            }
        }
        None => {
            let url =
                url::Url::parse(resource).map_err(|_| Error::bad_request("resource", "Not an account or a URL"))?;
            let host = match url.port() {
                Some(port) => format!("{}:{port}", url.host_str().unwrap_or_default()),
                None => url.host_str().unwrap_or_default().to_owned(),
            };
            match (site_of(&host), url.path()) {
                (Site::Blog(sub), "/" | paths::AP_ACTOR) | (Site::CustomDomain(sub), "/") => Some(sub),
                _ => None,
            }
        }
    };
    let subdomain = subdomain.ok_or_else(no_blog)?;
    if !served.state(&subdomain).is_served() {
        // A suspended blog's account is gone for as long as it is suspended (issue 29).
        return Ok(Response::builder().status(StatusCode::GONE).header("cache-control", "no-store").finish());
    }
    let Some(blog) = blog_of(&state, &subdomain).await? else { return Err(no_blog()) };
    let blog_url = format!("{}/", state.config.blog_origin(&blog.address));
    let doc =
        activity::webfinger(&blog.subdomain, &state.config.host, &state.config.actor_id(&blog.subdomain), &blog_url);
    Ok(json_as(&doc, JRD_JSON, StatusCode::OK))
}

/// `GET /.well-known/nodeinfo`.
#[handler]
fn nodeinfo_links(state: Data<&AppState>) -> Response {
    json_as(&activity::nodeinfo_links(&state.config.app_url()), "application/json", StatusCode::OK)
}

/// `GET /nodeinfo/2.1`.
#[handler]
async fn nodeinfo(state: Data<&AppState>) -> Result<Response> {
    let (users, posts) = state.db.read(public::instance_counts).await?;
    let open = state.config.public.signups.is_open_to_anyone();
    let doc = activity::nodeinfo(env!("CARGO_PKG_VERSION"), users, posts, open);
    Ok(json_as(&doc, &format!("application/json; profile=\"{}#\"", activity::NODEINFO_SCHEMA), StatusCode::OK))
}

/// `GET /_quire/ap/actor`: the blog's Person, with its public key (made on first use).
#[handler]
async fn actor(req: &Request, state: Data<&AppState>) -> Result<Response> {
    let subdomain = subdomain_of(req);
    let actor_id = state.config.actor_id(&subdomain);
    let Some(blog) = blog_of(&state, &subdomain).await? else { return Ok(gone(&actor_id)) };
    let key = state.blogs.signing_key(blog.id).await?;
    let blog_id = blog.id;
    let approve = state.db.read(move |conn| followers::approve_followers(conn, blog_id)).await?;
    let blog_url = format!("{}/", state.config.blog_origin(&blog.address));
    let doc = activity::actor(&ActorFacts {
        actor_id: &actor_id,
        subdomain: &blog.subdomain,
        name: &blog.name,
        description: &blog.description,
        blog_url: &blog_url,
        shared_inbox: &state.config.shared_inbox(),
        public_pem: key.public_pem(),
        approve_followers: approve,
    });
    Ok(activity_json(&doc))
}

/// `GET /_quire/ap/instance` (app host): the instance actor, with its public key.
#[handler]
async fn instance_actor(state: Data<&AppState>) -> Result<Response> {
    let key = state.blogs.instance_key().await?;
    let config = &state.config;
    let doc = activity::instance_actor(
        &config.instance_actor_id(),
        &config.host,
        &config.app_url(),
        &config.shared_inbox(),
        key.public_pem(),
    );
    Ok(activity_json(&doc))
}

#[derive(serde::Deserialize)]
struct PageQuery {
    page: Option<String>,
}

/// `GET /_quire/ap/outbox`: the collection; `?page=n`: 20 Creates of published posts, newest first.
#[handler]
async fn outbox(req: &Request, state: Data<&AppState>, query: poem::web::Query<PageQuery>) -> Result<Response> {
    let subdomain = subdomain_of(req);
    let actor_id = state.config.actor_id(&subdomain);
    let Some(blog) = blog_of(&state, &subdomain).await? else { return Ok(gone(&actor_id)) };
    let blog_id = blog.id;
    let Some(raw) = query.0.page else {
        let total = state.db.read(move |conn| public::count_published(conn, blog_id)).await?;
        return Ok(activity_json(&activity::outbox(&actor_id, total)));
    };
    let page: u64 = raw
        .parse()
        .ok()
        .filter(|page| (1..=MAX_PAGE).contains(page))
        .ok_or_else(|| Error::bad_request("page", "The page is a number from 1"))?;
    let offset = (page - 1) * u64::from(OUTBOX_PAGE_SIZE);
    let posts = state.db.read(move |conn| public::published(conn, blog_id, offset, OUTBOX_PAGE_SIZE + 1)).await?;
    let more = posts.len() > OUTBOX_PAGE_SIZE as usize;
    let mut items = Vec::with_capacity(posts.len());
    for written in posts.iter().take(OUTBOX_PAGE_SIZE as usize) {
        items.push(activity::create(&actor_id, state.blogs.article(&blog.subdomain, written)?));
    }
    Ok(activity_json(&activity::outbox_page(&actor_id, page, items, more)))
}

/// `GET /_quire/ap/followers`: how many accepted followers (the list stays private).
#[handler]
async fn followers_collection(req: &Request, state: Data<&AppState>) -> Result<Response> {
    let subdomain = subdomain_of(req);
    let actor_id = state.config.actor_id(&subdomain);
    let Some(blog) = blog_of(&state, &subdomain).await? else { return Ok(gone(&actor_id)) };
    let blog_id = blog.id;
    let total = state.db.read(move |conn| followers::count(conn, blog_id)).await?;
    Ok(activity_json(&activity::followers(&actor_id, total)))
}

/// `GET /_quire/ap/posts/{shortId}`: a published post's Article; drafts, scheduled posts,
/// unlisted posts and pages are 404s.
#[handler]
async fn post(req: &Request, state: Data<&AppState>, short_id: poem::web::Path<String>) -> Result<Response> {
    let subdomain = subdomain_of(req);
    let Some(blog) = blog_of(&state, &subdomain).await? else { return Err(no_post()) };
    let (blog_id, short_id) = (blog.id, short_id.0);
    let found = state.db.read(move |conn| public::published_post(conn, blog_id, &short_id)).await?;
    let post = found.filter(Post::federates).ok_or_else(no_post)?;
    Ok(activity_json(&state.blogs.article(&blog.subdomain, &post)?))
}

fn no_post() -> Error {
    Error::not_found("post", "Post not found")
}

/// The 301 of a custom domain's `/_quire/ap/*` to the same path on the blog's subdomain.
pub fn to_subdomain(state: &AppState, subdomain: &str, req: &Request) -> Response {
    let path = req.uri().path_and_query().map_or("/", |p| p.as_str());
    let location = format!("{}://{subdomain}.{}{path}", state.config.scheme(), state.config.host);
    Response::builder().status(StatusCode::MOVED_PERMANENTLY).header("location", location).finish()
}
