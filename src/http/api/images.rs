//! `POST /api/images` (multipart `image`, `type=file`): the built-in image host used when
//! no Imgur client ID is set. Answers like Imgur: `{data: {link}}`.

use std::path::PathBuf;

use poem::http::{StatusCode, header};
use poem::web::{Data, Json, Multipart, Path};
use poem::{IntoResponse, Request, Response, handler};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::app::{AppState, UPLOADS_DIR};
use crate::auth::session::SignedIn;
use crate::db::images;
use crate::domain::image::{ImageType, MAX_IMAGE_BYTES};
use crate::error::{Error, Messages, Result};

/// Stores an uploaded JPEG, PNG or GIF under its content hash.
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
    if bytes.is_empty() {
        return Err(Error::invalid("image", "The file is empty"));
    }
    if bytes.len() > MAX_IMAGE_BYTES {
        return Err(Error::TooLarge(Messages::one("image", "Images can be at most 10 MB")));
    }
    let kind = ImageType::sniff(&bytes)
        .ok_or_else(|| Error::invalid("image", "Only JPEG, PNG and GIF images can be uploaded"))?;
    let hash = hex::encode(Sha256::digest(&bytes));
    let name = format!("{hash}.{}", kind.extension());
    let path = state.config.data_dir.join(UPLOADS_DIR).join(&name);
    let size = bytes.len();
    tokio::task::spawn_blocking(move || store(&path, &bytes))
        .await
        .map_err(|err| Error::Internal(err.into()))??;
    let user_id = signed_in.user.id;
    state.db.write(move |conn| images::record(conn, user_id, &hash, kind.mime(), size)).await?;
    let link = format!("{}/media/{name}", state.config.app_url());
    Ok(Json(json!({ "data": { "link": link } })))
}

/// Writes the file once (same bytes, same name), through a temporary file and a rename.
fn store(path: &PathBuf, bytes: &[u8]) -> anyhow::Result<()> {
    if path.exists() {
        return Ok(());
    }
    let dir = path.parent().expect("uploads dir");
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    std::io::Write::write_all(&mut tmp, bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path)?;
    Ok(())
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
    let path = state.config.data_dir.join(UPLOADS_DIR).join(&name);
    let bytes = tokio::fs::read(&path).await.map_err(|_| not_found())?;
    Ok(Response::builder()
        .content_type(kind.mime())
        .header(header::ETAG, etag)
        .header(header::CACHE_CONTROL, "public, max-age=31536000, immutable")
        .header("content-security-policy", "default-src 'none'; sandbox")
        .body(bytes))
}
