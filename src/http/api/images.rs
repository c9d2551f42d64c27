//! `POST /api/images` (multipart `image`, `type=file`): the built-in image host used when
//! no Imgur client ID is set. Answers like Imgur: `{data: {link}}`.

use poem::http::{StatusCode, header};
use poem::web::{Data, Json, Multipart, Path};
use poem::{IntoResponse, Request, Response, handler};
use serde_json::{Value, json};

use crate::domain::image::ImageType;
use crate::error::{Error, Result};
use crate::http::session::SignedIn;
use crate::http::state::AppState;

/// Stores an uploaded JPEG, PNG or GIF (through the write path) under its content hash.
#[handler]
pub async fn upload(signed_in: SignedIn, state: Data<&AppState>, multipart: poem::Result<Multipart>) -> Result<Json<Value>> {
    let malformed = || Error::bad_request("image", "Send the image as multipart form data in the field \"image\"");
    let mut multipart = multipart.map_err(|_| malformed())?;
    let mut image = None;
    while let Some(field) = multipart.next_field().await.map_err(|_| malformed())? {
        if field.name() == Some("image") {
            image = Some(field.bytes().await.map_err(|_| malformed())?);
        }
    }
    let bytes = image.ok_or_else(malformed)?;
    let name = state.blogs.store_image(signed_in.user.id, bytes.into()).await?;
    let link = format!("{}/media/{name}", state.config.app_url());
    Ok(Json(json!({ "data": { "link": link } })))
}

/// Serves an uploaded image: only hash names, with their real type, cached for a year.
#[handler]
pub async fn serve(req: &Request, state: Data<&AppState>, Path(name): Path<String>) -> Result<Response> {
    let not_found = || Error::not_found("path", "Not found");
    let kind = ImageType::of_stored_name(&name).ok_or_else(not_found)?;
    let etag = format!("\"{}\"", &name[..32]);
    if req.header(header::IF_NONE_MATCH).is_some_and(|tag| tag == etag) {
        return Ok(StatusCode::NOT_MODIFIED.with_header(header::ETAG, etag).into_response());
    }
    let path = state.config.data_dir.upload(&name);
    let bytes = tokio::fs::read(&path).await.map_err(|_| not_found())?;
    Ok(Response::builder()
        .content_type(kind.mime())
        .header(header::ETAG, etag)
        .header(header::CACHE_CONTROL, "public, max-age=31536000, immutable")
        .header("content-security-policy", "default-src 'none'; sandbox")
        .body(bytes))
}
