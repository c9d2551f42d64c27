//! The JSON API under `/api`.

pub mod addons;
pub mod admin;
pub mod answers;
pub mod blogs;
pub mod convert;
pub mod custom_css;
pub mod domains;
pub mod exports;
pub mod favicons;
pub mod fediverse;
pub mod images;
pub mod imports;
pub mod instance;
pub mod json;
pub mod pages;
pub mod post_versions;
pub mod posts;
pub mod preview;
pub mod preview_links;
pub mod replies;
pub mod responses;
pub mod revisions;
pub mod sessions;
pub mod social_accounts;
pub mod subscribers;
pub mod tags;
pub mod themes;
pub mod time_zones;
pub mod tokens;
pub mod trash;
#[cfg(test)]
mod typescript;

use poem::{IntoResponse, Response, Route, delete, get, post, put};

use crate::domain::paging::Page;

/// The `/api` route table.
pub fn routes() -> Route {
    Route::new()
        .at("/themes", get(themes::list))
        .at("/favicons", get(favicons::list))
        .at("/time_zones", get(time_zones::list))
        .at("/instance", get(instance::show))
        .at("/auth/nonce", post(sessions::nonce))
        .at("/sessions", post(sessions::create))
        .at("/session", get(sessions::current))
        .at("/my/session", get(sessions::show))
        .at("/my/blogs", post(blogs::create))
        .at("/my/blogs/:blog_id", get(blogs::show).put(blogs::update).delete(blogs::delete))
        .at("/my/blogs/:blog_id/theme", put(blogs::set_theme))
        .at("/my/blogs/:blog_id/css", get(custom_css::show).put(custom_css::set))
        .at("/my/blogs/:blog_id/css/check", post(custom_css::check))
        .at("/my/blogs/:blog_id/favicon", put(blogs::set_favicon))
        .at("/my/blogs/:blog_id/time_zone", put(blogs::set_time_zone))
        .at("/my/blogs/:blog_id/description", put(blogs::set_description))
        .at("/my/blogs/:blog_id/listed", put(blogs::set_listed))
        .at("/my/blogs/:blog_id/ai-crawlers", put(blogs::set_ai_crawlers))
        .at("/my/blogs/:blog_id/domain", get(domains::show).put(domains::set).delete(domains::remove))
        .at("/my/blogs/:blog_id/domain/check", post(domains::check))
        .at("/my/blogs/:blog_id/fediverse", get(fediverse::show).put(fediverse::update))
        .at("/my/blogs/:blog_id/fediverse/followers", get(fediverse::followers))
        .at("/my/blogs/:blog_id/fediverse/followers/:follower_id", delete(fediverse::remove_follower))
        .at("/my/blogs/:blog_id/fediverse/followers/:follower_id/approve", post(fediverse::approve_follower))
        .at("/my/blogs/:blog_id/fediverse/blocked_domains", post(fediverse::block_domain))
        .at("/my/blogs/:blog_id/fediverse/blocked_domains/:domain", delete(fediverse::unblock_domain))
        .at("/my/blogs/:blog_id/replies", get(replies::list))
        .at("/my/blogs/:blog_id/replies/:reply_id", delete(replies::delete))
        .at("/my/blogs/:blog_id/replies/:reply_id/:action", post(replies::act))
        .at("/my/blogs/:blog_id/email", get(subscribers::show).put(subscribers::update))
        .at("/my/blogs/:blog_id/email/resume", post(subscribers::resume))
        .at("/my/blogs/:blog_id/subscribers", get(subscribers::list))
        .at("/my/blogs/:blog_id/subscribers/export", get(subscribers::export))
        .at("/my/blogs/:blog_id/subscribers/import", post(subscribers::import))
        .at("/my/blogs/:blog_id/subscribers/:subscriber_id", delete(subscribers::remove))
        .at("/my/blogs/:blog_id/comments", get(responses::show_settings).put(responses::set_settings))
        .at("/my/blogs/:blog_id/responses", get(responses::list))
        .at("/my/blogs/:blog_id/posts/:post_id/comments", put(responses::close_post))
        .at("/my/blogs/:blog_id/responses/bulk", post(responses::bulk))
        .at("/my/blogs/:blog_id/responses/:response_id", delete(responses::delete))
        .at("/my/blogs/:blog_id/responses/:response_id/reply", put(responses::reply))
        .at("/my/blogs/:blog_id/responses/:response_id/:action", post(responses::act))
        .at("/my/blogs/:blog_id/addons/installed", get(addons::installed))
        .at("/my/blogs/:blog_id/addons/uninstalled", get(addons::uninstalled))
        .at("/my/blogs/:blog_id/addons/:addon_id/installation", post(addons::install).delete(addons::uninstall))
        .at("/my/blogs/:blog_id/exports", get(exports::list).post(exports::create))
        .at("/my/blogs/:blog_id/exports/:export_id", get(exports::show).delete(exports::delete))
        .at("/my/blogs/:blog_id/exports/:export_id/download", get(exports::download))
        .at("/my/blogs/:blog_id/imports", get(imports::list).post(imports::create))
        .at("/my/blogs/:blog_id/imports/:import_id", get(imports::show).delete(imports::delete))
        .at("/my/social_accounts", post(social_accounts::create))
        .at("/my/blogs/:blog_id/posts", get(posts::list).post(posts::create))
        .at("/my/blogs/:blog_id/posts/search", post(posts::find))
        .at("/my/blogs/:blog_id/preview", post(preview::preview))
        .at("/my/blogs/:blog_id/convert", post(convert::convert))
        .at("/my/blogs/:blog_id/tags", get(tags::list))
        .at("/my/blogs/:blog_id/pages", get(pages::list).put(pages::reorder))
        .at("/my/blogs/:blog_id/posts/:post_id", get(posts::show).put(posts::update).delete(posts::delete))
        .at("/my/blogs/:blog_id/posts/:post_id/revisions", get(revisions::list))
        .at("/my/blogs/:blog_id/posts/:post_id/unpublish", post(posts::unpublish))
        .at("/my/blogs/:blog_id/posts/:post_id/revisions/:revision_id/restore", post(revisions::restore))
        .at("/my/indieauth/check", post(crate::http::indieauth::check))
        .at("/my/indieauth/approve", post(crate::http::indieauth::approve))
        .at("/my/indieauth/refuse", post(crate::http::indieauth::refuse))
        .at("/my/blogs/:blog_id/tokens", get(tokens::list).post(tokens::create))
        .at("/my/blogs/:blog_id/tokens/:token_id", delete(tokens::revoke))
        .at("/my/blogs/:blog_id/trash", get(trash::list))
        .at("/my/blogs/:blog_id/trash/:trash_id", delete(trash::purge))
        .at("/my/blogs/:blog_id/trash/:trash_id/restore", post(trash::restore))
        .at(
            "/my/blogs/:blog_id/posts/:post_id/preview_link",
            get(preview_links::show).post(preview_links::create).delete(preview_links::revoke),
        )
        .at("/images", post(images::upload))
        .at("/admin/queue", get(admin::queue))
        .at("/admin/blogs", get(admin::search))
        .at("/admin/blogs/:subdomain", get(admin::show).delete(admin::delete))
        .at("/admin/blogs/:subdomain/:action", post(admin::act))
        .at("/admin/actions", get(admin::actions))
        .at("/admin/reports", get(admin::reports))
        .at("/admin/reports/:id/:action", post(admin::settle_report))
}

/// An answer with the paging headers `total`, `totalPages`, `pageNumber`, `perPage`.
pub fn paged(body: impl IntoResponse, page: Page) -> Response {
    body.with_header("total", page.total)
        .with_header("totalPages", page.total_pages)
        .with_header("pageNumber", page.page_number)
        .with_header("perPage", page.per_page)
        .into_response()
}
