//! `POST /api/my/blogs/{id}/convert` (issue 33): a paste into the editor's paragraph, as the
//! blocks the import's converter makes of it (`blogs::paste`). `{markdown}` or `{html}` in,
//! `{blocks, notes}` out; nothing is stored. The body is capped while it streams (the JSON cap,
//! `http::middleware`), so a paste is at most about a megabyte.

use poem::handler;
use poem::web::{Data, Json};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::blogs::paste::Pasted;
use crate::domain::content::blocks::Block;
use crate::error::{Error, Result};
use crate::http::api::json::JsonBody;
use crate::http::owned_blog::OwnedBlog;
use crate::http::state::AppState;

/// `{markdown}` or `{html}`: what was pasted, one of the two.
#[derive(Debug, Deserialize)]
pub struct ConvertInput {
    markdown: Option<String>,
    html: Option<String>,
}

/// The paste as blocks, and what the owner should know of the conversion.
#[derive(Serialize, TS)]
#[ts(export_to = "posts.ts", rename = "PastedBlocks")]
pub struct ConvertJson {
    /// The blocks, in order, each following the post's block rules.
    blocks: Vec<Block>,
    /// What was changed or could not be carried over, one sentence each.
    notes: Vec<String>,
}

/// Converts a paste to blocks as an import would; a 422 when there is nothing to convert.
#[handler]
pub async fn convert(
    OwnedBlog { input: JsonBody(input), .. }: OwnedBlog<JsonBody<ConvertInput>>,
    state: Data<&AppState>,
) -> Result<Json<ConvertJson>> {
    let pasted = match (input.markdown, input.html) {
        (Some(_), Some(_)) => return Err(Error::invalid("body", "Send markdown or html, not both")),
        (Some(markdown), None) => Pasted::Markdown(markdown),
        (None, Some(html)) => Pasted::Html(html),
        (None, None) => return Err(Error::invalid("body", "Send the pasted text as markdown or html")),
    };
    let converted = state.blogs.convert_paste(pasted).await?;
    Ok(Json(ConvertJson { blocks: converted.blocks, notes: converted.notes }))
}
