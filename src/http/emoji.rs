//! `GET /emoji/{version}/{code}.svg`: the emoji images carried in the binary (Twemoji), for the
//! owner app's icon picker and previews. The version in the path is the embedded set's, so a
//! URL always names the same picture and is cached for a year.

use std::io::Read;

use poem::http::header;
use poem::web::Path;
use poem::{Request, Response, handler};

use crate::domain::content::emoji;
use crate::error::Error;
use crate::http::client::accepts_gzip;

/// The path prefix of the embedded images, e.g. `/emoji/15.0.0/`; `None` when the build has none.
pub fn images_prefix() -> Option<String> {
    let version = emoji::images_version();
    (!version.is_empty()).then(|| format!("/emoji/{version}/"))
}

/// One emoji's SVG: gzipped as stored when the client takes gzip, else unpacked. An emoji the
/// set has no image of (one newer than the set) is drawn as text; a code of no emoji is a 404.
#[handler]
pub fn image(req: &Request, Path((version, file)): Path<(String, String)>) -> Result<Response, Error> {
    let not_found = || Error::not_found("path", "Not found");
    let code = file.strip_suffix(".svg").ok_or_else(not_found)?;
    if version != emoji::images_version() {
        return Err(not_found());
    }
    let builder = Response::builder()
        .content_type("image/svg+xml")
        .header(header::CACHE_CONTROL, "public, max-age=31536000, immutable")
        .header(header::VARY, "Accept-Encoding")
        // Opened on its own, the image may run nothing and load nothing.
        .header("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'");
    let Some(gzip) = emoji::image_gzip(code) else {
        let emoji = emoji::by_code(code).ok_or_else(not_found)?;
        return Ok(builder.body(emoji::text_svg(emoji)));
    };
    if accepts_gzip(req) {
        return Ok(builder.header(header::CONTENT_ENCODING, "gzip").body(gzip));
    }
    let mut svg = Vec::new();
    flate2::read::GzDecoder::new(gzip).read_to_end(&mut svg).map_err(|err| Error::Internal(err.into()))?;
    Ok(builder.body(svg))
}
