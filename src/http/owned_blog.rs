//! `OwnedBlog`: the extractor every `/api/my/blogs/{blog_id}/...` handler starts with. It takes
//! the signed-in session (401 without one, like [`SignedIn`]) and the `:blog_id` path parameter,
//! and yields that blog when it is the user's: another user's blog, a blog that does not exist
//! or an id that is not a number is the same 404 `{"errors": [{"blog": "Blog not found"}]}`.
//!
//! A handler that also reads its request (a JSON body, a query) names that extractor as `B`,
//! `OwnedBlog<JsonBody<Rename>>`: it runs between the two checks, so a signed-out request is a
//! 401 before its body is read, and a body that does not parse is a 400 before the blog is
//! looked up, in the order the handlers always checked them.

use std::future::Future;
use std::pin::Pin;

use poem::web::RequestBody;
use poem::{FromRequest, Request};

use crate::db::blogs::Blog;
use crate::error::Error;
use crate::http::session::SignedIn;
use crate::http::state::AppState;

/// The signed-in user's blog named by the path, with what `B` extracted on the way.
pub struct OwnedBlog<B = NoInput> {
    /// The blog, owned by `signed_in.user`.
    pub blog: Blog,
    /// The session it was found through.
    pub signed_in: SignedIn,
    /// What `B` extracted between the session and the blog.
    pub input: B,
}

/// The `B` of an [`OwnedBlog`] that reads nothing else of the request.
pub struct NoInput;

impl<'a> FromRequest<'a> for NoInput {
    async fn from_request(_req: &'a Request, _body: &mut RequestBody) -> poem::Result<Self> {
        Ok(NoInput)
    }
}

impl<'a, B: FromRequest<'a> + Send> FromRequest<'a> for OwnedBlog<B> {
    async fn from_request(req: &'a Request, body: &mut RequestBody) -> poem::Result<Self> {
        let signed_in = SignedIn::from_request(req, body).await?;
        // Boxed as poem's own generic extractors do (rust-lang/rust#100013: otherwise a handler's
        // future cannot be proved `Send`).
        let input: Pin<Box<dyn Future<Output = poem::Result<B>> + Send + '_>> = Box::pin(B::from_request(req, body));
        let input = input.await?;
        let blog = owned(req, &signed_in).await?;
        Ok(OwnedBlog { blog, signed_in, input })
    }
}

/// The blog of the `:blog_id` path parameter when `signed_in`'s user owns it; a 404 otherwise.
async fn owned(req: &Request, signed_in: &SignedIn) -> Result<Blog, Error> {
    let state = req.data::<AppState>().expect("AppState is attached to every app route");
    let raw_id = req.raw_path_param("blog_id").unwrap_or_default();
    state.blogs.owned(signed_in.user.id, raw_id).await
}
