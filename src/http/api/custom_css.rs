//! A blog's custom CSS (issue 32, docs/custom-css.md): `GET`/`PUT /api/my/blogs/{id}/css` with
//! `{css}`, and `POST .../css/check`, which answers the same 422s as a save without storing
//! anything (the theme panel's messages as the owner types) and, when the CSS passes, the
//! address of its live preview (`http::blog::css_preview`). Each refusal is a 422 on `css`
//! naming its line; a body that is not UTF-8 is one too, naming the line of the first bad byte.

use poem::web::{Data, Json, RequestBody};
use poem::{FromRequest, Request, handler};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::domain::paths;
use crate::error::{Error, Result};
use crate::http::owned_blog::OwnedBlog;
use crate::http::state::AppState;

/// The blog's custom stylesheet.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "custom-css.ts")]
pub struct CustomCssAnswer {
    /// The CSS exactly as stored ('' for none).
    css: String,
}

/// A check that passed: where the blog's home page shows the CSS checked, for ten minutes.
#[derive(Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "custom-css.ts")]
pub struct CssCheckAnswer {
    /// The live preview's address on the blog's own host (`/css-preview/{token}`).
    preview: String,
}

/// `{css}`: the stylesheet to check or store ('' clears it).
#[derive(Debug, Deserialize)]
pub struct CssInput {
    css: String,
}

/// A `{css}` body whose bytes need not be UTF-8: those that are not are refused as the CSS's,
/// with the line they are on, rather than as JSON that does not parse.
pub struct CssBody(CssInput);

impl<'a> FromRequest<'a> for CssBody {
    async fn from_request(_req: &'a Request, body: &mut RequestBody) -> poem::Result<Self> {
        let unreadable = || Error::bad_request("body", "The request body could not be read");
        let bytes = body.take().map_err(|_| unreadable())?.into_vec().await.map_err(|_| unreadable())?;
        if let Err(error) = std::str::from_utf8(&bytes) {
            let before = &bytes[..error.valid_up_to()];
            // Inside the JSON string a line break is written `\n`.
            let line = 1 + before.windows(2).filter(|pair| pair == b"\\n").count();
            return Err(Error::invalid("css", format!("Line {line}: this is not UTF-8 text")).into());
        }
        let input = serde_json::from_slice::<CssInput>(&bytes).map_err(|error| match error.is_data() {
            true => Error::bad_request("css", "Is required (a string)"),
            false => Error::bad_request("body", "The request body is not valid JSON"),
        })?;
        Ok(CssBody(input))
    }
}

/// The blog's custom CSS.
#[handler]
pub async fn show(OwnedBlog { blog, .. }: OwnedBlog, state: Data<&AppState>) -> Result<Json<CustomCssAnswer>> {
    Ok(Json(CustomCssAnswer { css: state.blogs.custom_css(&blog).await? }))
}

/// Checks and stores the blog's custom CSS; its pages link it at once.
#[handler]
pub async fn set(
    OwnedBlog { blog, input: CssBody(body), .. }: OwnedBlog<CssBody>,
    state: Data<&AppState>,
) -> Result<Json<CustomCssAnswer>> {
    state.blogs.set_custom_css(&blog, &body.css).await?;
    Ok(Json(CustomCssAnswer { css: body.css }))
}

/// Checks CSS as a save would, storing nothing in the database: the address of its live
/// preview (held in memory for ten minutes), or the save's 422.
#[handler]
pub async fn check(
    OwnedBlog { blog, input: CssBody(body), .. }: OwnedBlog<CssBody>,
    state: Data<&AppState>,
) -> Result<Json<CssCheckAnswer>> {
    let checked = state.blogs.check_custom_css(&blog, &body.css).await?;
    let token = state.site.css_previews.hold(&blog.subdomain, checked.as_str());
    let origin = state.config.blog_origin(&blog.address());
    Ok(Json(CssCheckAnswer { preview: format!("{origin}{}{token}", paths::CSS_PREVIEW_PREFIX) }))
}
