//! The images of an import: each fetched (from the export, or downloaded through the guarded
//! fetcher) and stored through the upload path, or, when it cannot be had, its block replaced.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use bytes::Bytes;
use tokio::task::JoinSet;

use super::{IMAGE_DOWNLOADS, Run, Stored, internal, messages};
use crate::blogs::Blogs;
use crate::blogs::uploads::ACCOUNT_GONE;
use crate::db::exports;
use crate::domain::content::blocks::Block;
use crate::domain::content::image::MAX_IMAGE_BYTES;
use crate::domain::public_instance::UPLOAD_QUOTA_REFUSAL;
use crate::error::{Error, Result};
use crate::fetch::Fetcher;
use crate::portable::normalize::{link_or_text, lowercase_first};
use crate::portable::read::files::{ExportFiles, FILE_PREFIX};
use crate::portable::report::EXPORT_ITEM;
use crate::portable::write::quire_archive;

/// An image's bytes, or why there are none.
type Fetched = std::result::Result<Bytes, String>;

impl Blogs {
    /// Fetches each of `urls` (at most [`IMAGE_DOWNLOADS`] at once) and stores what it gets
    /// through the upload path (same bytes, one file; the account's upload limit holds),
    /// recording in `run` the stored URL or why there is none. Once nothing can be stored, the
    /// rest is not downloaded; nor is anything past the import's download limit
    /// (`--import-max-image-downloads`), which counts every attempt, failed ones too, so an
    /// export naming a million dead links cannot keep the fetcher busy for days.
    pub(super) async fn fetch_images(&self, user_id: i64, urls: Vec<String>, run: &mut Run<'_>) -> Result<()> {
        let prefix = self.rules.image_prefix.clone();
        if !prefix.ends_with(crate::domain::paths::MEDIA_PREFIX) {
            run.no_uploads = Some("this server keeps images on Imgur, where an import cannot upload".to_owned());
        }
        let mut pending = urls.into_iter();
        let mut running = JoinSet::new();
        loop {
            while running.len() < IMAGE_DOWNLOADS {
                let Some(url) = pending.next() else { break };
                let max_downloads = self.import_limits.max_image_downloads;
                let is_download = !url.starts_with(FILE_PREFIX);
                match &run.no_uploads {
                    Some(reason) => drop(run.images.insert(url, Err(reason.clone()))),
                    None if is_download && run.downloads >= max_downloads => {
                        let reason = format!(
                            "this import already downloaded {max_downloads} images, the most one import may \
                             (the server's --import-max-image-downloads)"
                        );
                        drop(run.images.insert(url, Err(reason)))
                    }
                    None => {
                        run.downloads += u64::from(is_download);
                        drop(running.spawn(download(run.fetcher.clone(), run.files.clone(), url)))
                    }
                }
            }
            let Some(finished) = running.join_next().await else { break };
            let (url, got) = finished.map_err(internal)?;
            let stored = match got {
                Ok(bytes) => match self.store_image(user_id, bytes).await {
                    Ok(name) => {
                        run.report.images += 1;
                        Ok(format!("{prefix}{name}"))
                    }
                    Err(err) => {
                        let full = err.messages().is_some_and(|m| {
                            m.0.iter().any(|(_, said)| said.starts_with(UPLOAD_QUOTA_REFUSAL) || said == ACCOUNT_GONE)
                        });
                        let reason = reason(err);
                        if full {
                            // No later image can be stored (the blog's upload quota is
                            // reached, or the account was deleted): they are not downloaded for
                            // nothing.
                            run.no_uploads = Some(reason.clone());
                        }
                        Err(reason)
                    }
                },
                Err(reason) => Err(reason),
            };
            run.images.insert(url, stored);
        }
        Ok(())
    }

    /// Stores the images of a Quire archive that no post names (an archive carries every
    /// image its owner uploaded), except those the owner has already: an archive names each
    /// image as uploads are stored, by the SHA-256 of its bytes.
    pub(super) async fn store_other_images(&self, user_id: i64, run: &mut Run<'_>) -> Result<()> {
        let owned: HashSet<String> =
            self.db.read(move |conn| exports::image_names(conn, user_id)).await?.into_iter().collect();
        let files = run.files.clone();
        let listed = tokio::task::spawn_blocking(move || files.list(quire_archive::IMAGES)).await.map_err(internal)?;
        let urls: Vec<String> = listed
            .into_iter()
            .filter(|path| path.strip_prefix(quire_archive::IMAGES).is_none_or(|name| !owned.contains(name)))
            .map(|path| format!("{FILE_PREFIX}{path}"))
            .filter(|url| !run.images.contains_key(url))
            .collect();
        self.fetch_images(user_id, urls.clone(), run).await?;
        for url in urls {
            if let Some(Err(reason)) = run.images.get(&url) {
                let path = url.strip_prefix(FILE_PREFIX).unwrap_or(&url);
                run.report.line(EXPORT_ITEM, format!("the image {path} was not imported: {reason}"));
            }
        }
        Ok(())
    }
}

/// The bytes of one image: from the export for `file:<path>`, else downloaded.
async fn download(fetcher: Fetcher, files: Arc<dyn ExportFiles>, url: String) -> (String, Fetched) {
    let got = if let Some(path) = url.strip_prefix(FILE_PREFIX) {
        let path = path.to_owned();
        tokio::task::spawn_blocking(move || files.read(&path, MAX_IMAGE_BYTES))
            .await
            .unwrap_or_else(|_| Err("the file could not be read".to_owned()))
            .map(Bytes::from)
    } else if url.starts_with("http://") || url.starts_with("https://") {
        fetcher.get_image(&url).await.map(|image| image.bytes).map_err(|err| err.to_string())
    } else {
        Err("it is neither an http(s) address nor a file of the export".to_owned())
    };
    (url, got)
}

/// The blocks with each image's URL replaced by its stored image's, or, when it could not be
/// had, the image replaced by a link to its old address (text for a file of the export) with
/// a line saying why.
pub(super) fn with_images(
    blocks: Vec<Block>,
    images: &HashMap<String, Stored>,
    changes: &mut Vec<String>,
) -> Vec<Block> {
    let mut out = Vec::with_capacity(blocks.len());
    for block in blocks {
        let Block::Image { url, alt, caption } = block else {
            out.push(block);
            continue;
        };
        match images.get(&url) {
            Some(Ok(stored)) => out.push(Block::Image { url: stored.clone(), alt, caption }),
            failed => {
                let reason = match failed {
                    Some(Err(reason)) => reason.as_str(),
                    _ => "it was not fetched",
                };
                let name = url.rsplit('/').find(|part| !part.is_empty()).unwrap_or(&url);
                let described = [alt.as_str(), caption.as_str()].into_iter().find(|t| !t.trim().is_empty());
                let title = described.unwrap_or(name);
                let web = url.starts_with("http://") || url.starts_with("https://");
                match link_or_text(if web { &url } else { "" }, title) {
                    Some(link @ Block::Link { .. }) => {
                        changes.push(format!("image {url} kept as a link: {reason}"));
                        out.push(link);
                    }
                    Some(text) => {
                        changes.push(format!("image {url} kept as text: {reason}"));
                        out.push(text);
                    }
                    None => changes.push(format!("image {url} left out: {reason}")),
                }
            }
        }
    }
    out
}

/// Why an image could not be stored, for the report: the upload path's own message (not an
/// image, the account's upload limit reached). A fault of the server is logged and said plainly.
fn reason(err: Error) -> String {
    match err {
        Error::Internal(err) => {
            tracing::error!(error = format!("{err:#}"), "an imported image could not be stored");
            "it could not be stored on this server".to_owned()
        }
        refused => lowercase_first(&messages(&refused)),
    }
}
