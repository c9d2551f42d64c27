//! The route table, in one place.
//!
//! A request for `{host}` reaches the owner app and its API; a request for `{sub}.{host}`
//! reaches that blog (or is sent to its verified custom domain, with a 301), a request for a
//! verified custom domain reaches its blog; anything else is a 404. A suspended blog answers 410
//! on all of its names (issue 29, the state kept in `ServedNames`).

pub mod access_log;
pub mod acme_http;
pub mod api;
pub mod blog;
pub mod client;
pub mod cookies;
pub mod csrf;
pub mod dev_idp;
pub mod emoji;
pub mod federation;
pub mod hosts;
pub mod inbox;
pub mod indieauth;
pub mod micropub;
pub mod middleware;
pub mod owned_blog;
pub mod plain_pages;
pub mod report_page;
pub mod serve;
pub mod session;
pub mod state;
pub mod suspension;
pub mod tls_ask;
pub mod ui;

use poem::endpoint::BoxEndpoint;
use poem::http::StatusCode;
use std::sync::Arc;

use poem::{Endpoint, EndpointExt, Request, Response, Route, get, handler, post};

use crate::domain::blog::trust_state::TrustState;
use crate::domain::paths;
use crate::http::state::AppState;
use hosts::Site;

/// The whole server: host dispatch inside the request-id, logging, error and header layer.
pub fn endpoint(state: AppState) -> BoxEndpoint<'static, Response> {
    let hosts = HostRouter {
        app: app_routes(&state).data(state.clone()).boxed(),
        blog: blog::routes().data(state.clone()).boxed(),
        federation: federation::blog_routes().data(state.clone()).boxed(),
        host: state.config.host.clone(),
        state: state.clone(),
        tls_ask: tls_ask::TlsAsk::new(state.blogs.served_names().clone(), state.config.trusted_proxies.clone()),
        inbox: inbox::Inbox::new(state.clone()),
    };
    let observe = Arc::new(middleware::Observe {
        https: state.config.https,
        access_log: state.access_log.clone(),
        trusted_proxies: state.config.trusted_proxies.clone(),
    });
    hosts
        .with(poem::middleware::CatchPanic::new().with_handler(middleware::PanicToError))
        .around(move |ep, req| middleware::observe(ep, req, observe.clone()))
        .boxed()
}

/// Paths the owner app's router handles; each is answered with `index.html`.
const SPA_PATHS: [&str; 8] =
    ["/", "/signup", "/signout", "/auth/callback", "/d", "/d/*rest", "/catalog", "/catalog/*rest"];

/// The owner app's routes, behind the CSRF guard.
fn app_routes(state: &AppState) -> impl Endpoint<Output = Response> + use<> {
    let mut routes = Route::new()
        .nest("/api", api::routes())
        .at("/d/signout", post(api::sessions::signout).get(ui::index))
        .at("/assets/*path", get(ui::asset))
        .at("/favicon.ico", get(ui::favicon))
        .at("/emoji/:version/:file", get(emoji::image))
        .at(paths::MEDIA, get(api::images::serve))
        .at(paths::REPORT, get(report_page::form).post(report_page::send))
        .at(paths::REPORT_SENT, get(report_page::thanks))
        .at(paths::MICROPUB, get(micropub::query).post(micropub::write))
        .at(paths::MICROPUB_MEDIA, post(micropub::upload))
        .at(paths::INDIEAUTH_METADATA, get(indieauth::metadata))
        .at(paths::INDIEAUTH_AUTH, get(indieauth::authorize).post(indieauth::redeem_profile))
        .at(paths::INDIEAUTH_TOKEN, post(indieauth::token_endpoint))
        .at(paths::INDIEAUTH_REVOKE, post(indieauth::revoke))
        .at(paths::INDIEAUTH_INTROSPECT, post(indieauth::introspect))
        .at("/healthz", get(healthz));
    if state.auth.local.is_some() {
        routes = routes.nest("/dev-idp", dev_idp::routes());
    }
    // Absent pages are not routed: their paths are the app's 404 like any other.
    if state.config.public.terms.is_some() {
        routes = routes.at(plain_pages::TERMS_PATH, get(plain_pages::terms));
    }
    if state.config.public.privacy.is_some() {
        routes = routes.at(plain_pages::PRIVACY_PATH, get(plain_pages::privacy));
    }
    let routes = federation::app_routes(routes);
    let routes = SPA_PATHS.into_iter().fold(routes, |routes, path| routes.at(path, get(ui::index)));
    let app_origin: Arc<str> = state.config.app_url().into();
    routes
        .around(suspension::guard)
        .around(move |ep, req| crate::http::csrf::guard(ep, req, app_origin.clone()))
        .map_to_response()
}

/// For load balancers and uptime checks.
#[handler]
fn healthz() -> &'static str {
    "ok"
}

/// A suspended blog's answer to `req`: the short page for a browser, an empty 410 for anything
/// that asks for JSON (ActivityPub documents, WebFinger, an inbox's POST).
pub fn suspended_answer(req: &Request) -> Response {
    let accept = req.header("accept").unwrap_or_default();
    let wants_json = accept.contains("json") || req.method() == poem::http::Method::POST;
    if wants_json || federation::is_blog_path(req.uri().path()) {
        return Response::builder().status(StatusCode::GONE).header("cache-control", "no-store").finish();
    }
    plain_pages::suspended()
}

/// A blog page's answer, asking search engines not to index it when the blog's state is not
/// listed (`new`, `silenced`); its pages carry the meta tag too (`templates::Layout`).
fn unlisted(mut answer: Response, state: TrustState) -> Response {
    if !state.is_listed() {
        answer.headers_mut().insert("x-robots-tag", poem::http::HeaderValue::from_static("noindex"));
    }
    answer
}

struct HostRouter {
    app: BoxEndpoint<'static, Response>,
    blog: BoxEndpoint<'static, Response>,
    /// A blog host's ActivityPub documents and WebFinger (`http/federation.rs`).
    federation: BoxEndpoint<'static, Response>,
    host: String,
    state: AppState,
    tls_ask: tls_ask::TlsAsk,
    inbox: inbox::Inbox,
}

impl Endpoint for HostRouter {
    type Output = Response;

    async fn call(&self, mut req: Request) -> poem::Result<Response> {
        if req.uri().path() == paths::TLS_ASK {
            return Ok(self.tls_ask.answer(&req));
        }
        let request_host = req
            .uri()
            .authority()
            .map(|a| a.as_str().to_owned())
            .or_else(|| req.header("host").map(str::to_owned))
            .unwrap_or_default();
        let served = self.state.blogs.served_names();
        let site = hosts::classify_with(&request_host, &self.host, |name| served.blog_of_domain(name));
        // A blog's trust state, from memory: a suspended blog answers nothing else, on any of
        // its names and paths (pages, feeds, preview links, old addresses, its inbox and
        // ActivityPub documents) but its owner's editor Preview (`blog::post_preview`); a new or
        // silenced one is served with `noindex`.
        let state = match &site {
            Site::Blog(subdomain) | Site::CustomDomain(subdomain) => served.state(subdomain),
            Site::App | Site::Unknown => TrustState::Approved,
        };
        let previewed = match &site {
            Site::Blog(subdomain) | Site::CustomDomain(subdomain) => {
                blog::post_preview::answered_when_suspended(&self.state.site, subdomain, req.uri().path())
            }
            Site::App | Site::Unknown => false,
        };
        if !state.is_served() && !previewed {
            return Ok(suspended_answer(&req));
        }
        if inbox::is_inbox(&req) && site != Site::Unknown {
            return Ok(self.inbox.answer(req, &site).await);
        }
        match site {
            Site::App => self.app.call(req).await,
            Site::Blog(subdomain) if federation::is_blog_path(req.uri().path()) => {
                // On the subdomain even when the blog has a custom domain: the actor id never moves.
                req.extensions_mut().insert(blog::BlogHost(subdomain));
                self.federation.call(req).await
            }
            Site::CustomDomain(subdomain) if req.uri().path().starts_with(paths::AP_PREFIX) => {
                Ok(federation::to_subdomain(&self.state, &subdomain, &req))
            }
            Site::CustomDomain(subdomain) if req.uri().path() == paths::WEBFINGER => {
                req.extensions_mut().insert(blog::BlogHost(subdomain));
                self.federation.call(req).await
            }
            Site::Blog(subdomain) => {
                let address = served.address(&subdomain);
                if address.domain.is_some() {
                    // The blog's one address is its custom domain now: the subdomain sends there.
                    let path = req.uri().path_and_query().map_or("/", |p| p.as_str());
                    let location = format!("{}{path}", self.state.config.blog_origin(&address));
                    return Ok(Response::builder()
                        .status(StatusCode::MOVED_PERMANENTLY)
                        .header("location", location)
                        .finish());
                }
                req.extensions_mut().insert(blog::BlogHost(subdomain));
                self.blog.call(req).await.map(|answer| unlisted(answer, state))
            }
            Site::CustomDomain(subdomain) => {
                req.extensions_mut().insert(blog::BlogHost(subdomain));
                self.blog.call(req).await.map(|answer| unlisted(answer, state))
            }
            Site::Unknown => Ok(plain_pages::no_blog(&self.state.config, None)),
        }
    }
}
