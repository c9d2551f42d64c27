//! `POST /api/images` (multipart `image`, `type=file`): the built-in image host used when
//! no Imgur client ID is set. Answers like Imgur: `{data: {link}}`.

use anyhow::Context;
use poem::http::{StatusCode, header};
use poem::web::{Data, Json, Multipart, Path};
use poem::{Body, IntoResponse, Request, Response, handler};
use serde::Serialize;
use tokio::io::BufReader;
use ts_rs::TS;

use crate::domain::content::image::ImageType;
use crate::error::{Error, Result};
use crate::http::session::SignedIn;
use crate::http::state::AppState;

/// `{data: {link}}`: Imgur's answer to an upload, which the editor reads from either host.
#[derive(Serialize, TS)]
#[ts(export_to = "images.ts")]
pub struct Uploaded {
    data: ImageLink,
}

/// Where an uploaded image is served.
#[derive(Serialize, TS)]
#[ts(export_to = "images.ts")]
pub struct ImageLink {
    link: String,
}

/// Stores an uploaded JPEG, PNG or GIF (through the write path) under its content hash.
#[handler]
pub async fn upload(
    signed_in: SignedIn,
    state: Data<&AppState>,
    multipart: poem::Result<Multipart>,
) -> Result<Json<Uploaded>> {
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
    let link = format!("{}{}{name}", state.config.app_url(), crate::domain::paths::MEDIA_PREFIX);
    Ok(Json(Uploaded { data: ImageLink { link } }))
}

/// Bytes read from an image file at a time while it is streamed.
const READ_CHUNK: usize = 64 * 1024;

/// Serves an uploaded image: only hash names, with their real type, cached for a year. The file
/// is streamed, so a request holds one chunk of it in memory, never the whole image.
#[handler]
pub async fn serve(req: &Request, state: Data<&AppState>, Path(name): Path<String>) -> Result<Response> {
    let not_found = || Error::not_found("path", "Not found");
    let kind = ImageType::of_stored_name(&name).ok_or_else(not_found)?;
    // A file every owner of which is suspended is theirs alone: it answers like their blogs do.
    // Asked of SQLite only while some blog is suspended (the state is in memory).
    if state.blogs.served_names().any_suspended() {
        let hash = name[..64].to_owned(); // a stored name starts with its 64-digit hash
        if state.db.read(move |conn| crate::db::images::only_suspended_owners(conn, &hash)).await? {
            return Ok(crate::http::suspended_answer(req));
        }
    }
    let etag = format!("\"{}\"", &name[..32]);
    if req.header(header::IF_NONE_MATCH).is_some_and(|tag| tag == etag) {
        return Ok(StatusCode::NOT_MODIFIED.with_header(header::ETAG, etag).into_response());
    }
    let media = state.blogs.media();
    let answer = Response::builder()
        .content_type(kind.mime())
        .header(header::ETAG, etag)
        .header(header::CACHE_CONTROL, "public, max-age=31536000, immutable")
        .header("content-security-policy", "default-src 'none'; sandbox");
    if let Some(path) = media.local_path(&name) {
        let file = tokio::fs::File::open(&path).await.map_err(|_| not_found())?;
        let length = file.metadata().await.with_context(|| format!("reading {}", path.display()))?.len();
        return Ok(answer
            .header(header::CONTENT_LENGTH, length)
            .body(Body::from_async_read(BufReader::with_capacity(READ_CHUNK, file))));
    }
    // In a bucket: readers are sent to its public address when there is one (a day at a time,
    // so a new --uploads-public-url takes over), else the bytes are passed on as they come.
    if let Some(public) = media.public_url(&name) {
        return Ok(StatusCode::FOUND
            .with_header(header::LOCATION, public)
            .with_header(header::CACHE_CONTROL, "public, max-age=86400")
            .into_response());
    }
    match media.stream(&name).await {
        Ok(Some((length, bytes))) => {
            Ok(answer.header(header::CONTENT_LENGTH, length).body(Body::from_bytes_stream(bytes)))
        }
        Ok(None) => Err(not_found()),
        Err(err) => {
            tracing::warn!(error = %err, "an upload could not be read from the image store");
            Err(Error::Upstream(crate::error::Messages::one("image", STORE_UNREACHABLE)))
        }
    }
}

/// What a reader is told when the image store (`--uploads-url`) does not give an image.
const STORE_UNREACHABLE: &str = "The image store is not answering; try again in a moment";
