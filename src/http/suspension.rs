//! What the owner of a suspended blog may still do (issue 29, docs/public-instance.md): sign
//! in and read everything, export the blog and delete the account. Every other write of the API
//! (`/api/my/...`, `/api/images`) is refused here, in one place, with a 403 that gives the
//! admin's reason; the allow-list below names the writes that stay open.

use std::sync::Arc;

use poem::http::Method;
use poem::{Endpoint, IntoResponse, Request, Response};

use crate::db::blogs;
use crate::domain::blog::trust_state::TrustState;
use crate::error::{Error, Messages};
use crate::http::session;
use crate::http::state::AppState;

/// Middleware around the owner app's routes: a write of a suspended blog's owner that is not
/// allowed is a 403 `{"errors": [{"blog": "This blog is suspended: <reason>"}]}`.
pub async fn guard<E: Endpoint>(ep: Arc<E>, req: Request) -> poem::Result<Response> {
    if is_guarded_write(req.method(), req.uri().path())
        && let Some(state) = req.data::<AppState>()
        && let Some(signed_in) = session::lookup(state, &req).await?
    {
        let user_id = signed_in.user.id;
        let blog = state.db.read(move |conn| blogs::of_user(conn, user_id)).await?;
        if let Some(blog) = blog.filter(|blog| blog.state == TrustState::Suspended) {
            return Err(suspended(&blog.state_reason).into());
        }
    }
    ep.call(req).await.map(IntoResponse::into_response)
}

/// The refusal of a suspended owner's write, with the reason the admin gave.
pub fn suspended(reason: &str) -> Error {
    let message = match reason.trim() {
        "" => "This blog is suspended.".to_owned(),
        reason => format!("This blog is suspended: {reason}"),
    };
    Error::Forbidden(Messages::one("blog", message))
}

/// Whether a request is a write of the API that a suspended owner may not make: any method
/// but GET and HEAD under `/api/my/` or to `/api/images`, except the allow-list.
fn is_guarded_write(method: &Method, path: &str) -> bool {
    if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
        return false;
    }
    if path == "/api/images" {
        return true;
    }
    let Some(rest) = path.strip_prefix("/api/my/") else { return false };
    let segments: Vec<&str> = rest.trim_end_matches('/').split('/').collect();
    let allowed = match (method, segments.as_slice()) {
        // Deleting the account.
        (&Method::DELETE, ["blogs", _]) => true,
        // Exporting the blog (their data is theirs), and removing an export.
        (&Method::POST, ["blogs", _, "exports"]) | (&Method::DELETE, ["blogs", _, "exports", _]) => true,
        // Reads that are POSTs: searching the posts, rendering the editor's preview.
        (&Method::POST, ["blogs", _, "posts", "search"]) | (&Method::POST, ["blogs", _, "preview"]) => true,
        _ => false,
    };
    !allowed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_export_delete_and_reads_stay_open() {
        let open = [
            (Method::DELETE, "/api/my/blogs/1"),
            (Method::POST, "/api/my/blogs/1/exports"),
            (Method::DELETE, "/api/my/blogs/1/exports/4"),
            (Method::POST, "/api/my/blogs/1/posts/search"),
            (Method::POST, "/api/my/blogs/1/preview"),
            (Method::GET, "/api/my/blogs/1/posts"),
            (Method::POST, "/api/sessions"),
            (Method::POST, "/d/signout"),
        ];
        for (method, path) in open {
            assert!(!is_guarded_write(&method, path), "{method} {path}");
        }
        let refused = [
            (Method::PUT, "/api/my/blogs/1"),
            (Method::POST, "/api/my/blogs/1/posts"),
            (Method::PUT, "/api/my/blogs/1/posts/2"),
            (Method::DELETE, "/api/my/blogs/1/posts/2"),
            (Method::POST, "/api/my/blogs/1/imports"),
            (Method::DELETE, "/api/my/blogs/1/imports/3"),
            (Method::PUT, "/api/my/blogs/1/domain"),
            (Method::POST, "/api/images"),
            (Method::POST, "/api/my/social_accounts"),
            (Method::POST, "/api/my/blogs"),
            (Method::PATCH, "/api/my/blogs/1/exports"),
        ];
        for (method, path) in refused {
            assert!(is_guarded_write(&method, path), "{method} {path}");
        }
    }
}
