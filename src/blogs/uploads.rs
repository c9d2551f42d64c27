//! Storing uploaded images (the built-in image host, used when no Imgur client ID is set).
//!
//! Files live in `uploads/`, named by the SHA-256 of their bytes; `images` rows record who uploaded
//! which, so deleting an account removes the files no one else uses (from the writer, which
//! records an upload's reference and then checks its file: the two never interleave), and each file's width and
//! height, read from its header at upload (files from before migration 4 are read once at start:
//! [`backfill_image_sizes`]).

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::Blogs;
use crate::db::images;
use crate::domain::content::image::{ImageType, MAX_IMAGE_BYTES};
use crate::error::{Error, Messages, Result};

impl Blogs {
    /// Stores a JPEG, PNG or GIF (told by its bytes) for `user_id` under its content hash;
    /// returns its file name under `/media/`.
    pub async fn store_image(&self, user_id: i64, bytes: bytes::Bytes) -> Result<String> {
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
        let size = bytes.len();
        let pixels = pixels(&bytes);
        // Checked before the file is written (a refused upload leaves nothing stored), and
        // again by the writer connection as it records it (no two uploads pass on one place).
        let within = {
            let (hash, quotas) = (hash.clone(), self.public.quotas);
            move |conn: &rusqlite::Connection| -> Result<()> {
                // The blog's upload quota (`--upload-quota-mb`): exactly at it is fine, a byte
                // over is a 413 naming it and the current use. Uploads already stored stay.
                if images::bytes_after(conn, user_id, &hash, size)? > quotas.upload_bytes {
                    let used = images::bytes_of_user(conn, user_id)?;
                    return Err(Error::TooLarge(Messages::one("image", quotas.upload_refusal(used))));
                }
                Ok(())
            }
        };
        self.db.read(within.clone()).await?;
        let record = move |conn: &mut rusqlite::Connection| -> Result<()> {
            within(conn)?;
            if !images::record(conn, user_id, &hash, kind.mime(), size, pixels)? {
                return Err(Error::invalid("image", ACCOUNT_GONE));
            }
            Ok(())
        };
        match self.media.local_path(&name) {
            Some(path) => self.store_in_folder(path, bytes, record).await?,
            None => self.store_in_bucket(&name, bytes, record).await?,
        }
        Ok(name)
    }

    /// The uploads folder: the file is written beside its place, outside the writer; it takes
    /// its name only once its reference is recorded, and is deleted when it is not (a refused
    /// or failed upload, an account gone meanwhile), so nothing is ever left on disk that no
    /// row names.
    async fn store_in_folder(
        &self,
        path: PathBuf,
        bytes: bytes::Bytes,
        record: impl FnOnce(&mut rusqlite::Connection) -> Result<()> + Send + 'static,
    ) -> Result<()> {
        let staging = (path.clone(), bytes.clone());
        let staged = tokio::task::spawn_blocking(move || stage(&staging.0, &staging.1))
            .await
            .map_err(|err| Error::Internal(err.into()))??;
        // No effect: an image shows only once a post that uses it is written.
        self.commit(move |conn, _| {
            record(conn)?;
            // The file may have been removed since it was staged or found already there: the
            // deletion of its last other owner's account removes it from the writer, after its
            // transaction. Here, from the writer too, after this upload's reference is recorded,
            // the file is put in place (or written again), so the two cannot interleave.
            place(&path, staged, &bytes).map_err(Error::Internal)
        })
        .await
    }

    /// A bucket (`--uploads-url`): the file is written first, then its reference recorded, both
    /// under the file's lock, which the removal of an unreferenced file takes too
    /// ([`Blogs::remove_unreferenced`]): a reference is never recorded to a file not stored,
    /// nor a file removed under a reference. When the bucket fails, nothing is recorded; when
    /// the record fails, the file is removed again unless another row names it.
    async fn store_in_bucket(
        &self,
        name: &str,
        bytes: bytes::Bytes,
        record: impl FnOnce(&mut rusqlite::Connection) -> Result<()> + Send + 'static,
    ) -> Result<()> {
        let _lock = self.media.lock(name).await;
        if let Err(err) = self.media.put(name, bytes).await {
            tracing::warn!(error = %err, "an upload could not be stored");
            return Err(Error::Upstream(Messages::one("image", STORE_DOWN)));
        }
        let recorded = self.commit(move |conn, _| record(conn)).await;
        if recorded.is_err() {
            let hash = name[..64].to_owned();
            if let Ok(false) = self.db.read(move |conn| images::is_referenced(conn, &hash)).await
                && let Err(err) = self.media.delete(name).await
            {
                tracing::warn!(error = %err, "an upload that was not recorded could not be removed");
            }
        }
        recorded
    }

    /// Removes files no row references any more (an account's, after its deletion), each under
    /// its lock and after checking again that no upload recorded it meanwhile. A failure is
    /// logged and ends the removal (a bucket that is down would make each file wait its
    /// timeout): the files left stay, unreferenced, named in the log.
    pub(super) async fn remove_unreferenced(&self, files: Vec<String>) {
        for (done, name) in files.iter().enumerate() {
            let _lock = self.media.lock(name).await;
            let hash = name.get(..64).unwrap_or_default().to_owned();
            match self.db.read(move |conn| images::is_referenced(conn, &hash)).await {
                Ok(false) => {
                    if let Err(err) = self.media.delete(name).await {
                        let left = files[done..].join(" ");
                        tracing::warn!(error = %err, %left, "could not remove uploads no one references");
                        return;
                    }
                }
                Ok(true) => {}
                Err(err) => tracing::warn!(error = %err, file = %name, "could not check an upload's references"),
            }
        }
    }
}

/// The message of an upload the image store did not take (`--uploads-url`'s bucket down, slow,
/// or refusing); the cause goes to the log.
pub(super) const STORE_DOWN: &str =
    "The image store is not answering, so the image was not saved. Try again in a moment.";

/// An image's width and height, read from its header; `None` when it can't be read.
fn pixels(bytes: &[u8]) -> Option<(u32, u32)> {
    let size = imagesize::blob_size(bytes).ok()?;
    let (width, height) = (u32::try_from(size.width).ok()?, u32::try_from(size.height).ok()?);
    (width > 0 && height > 0).then_some((width, height))
}

/// Reads the size of every uploaded image whose size is not recorded yet (uploaded before
/// sizes were), from the first bytes of its file. Run at start, before serving; the files of
/// a large site are read once.
pub fn backfill_image_sizes(conn: &rusqlite::Connection, data_dir: &crate::data_dir::DataDir) -> Result<usize> {
    let missing = images::without_size(conn)?;
    for (hash, mime) in &missing {
        let pixels = ImageType::from_mime(mime).and_then(|kind| {
            let size = imagesize::size(data_dir.upload(&format!("{hash}.{}", kind.extension()))).ok()?;
            let (width, height) = (u32::try_from(size.width).ok()?, u32::try_from(size.height).ok()?);
            (width > 0 && height > 0).then_some((width, height))
        });
        images::set_size(conn, hash, pixels)?;
    }
    Ok(missing.len())
}

/// The message of an upload whose account was deleted meanwhile (by an import still running).
pub(super) const ACCOUNT_GONE: &str = "The account this image was for no longer exists";

/// The file's bytes in a temporary file beside `path`, on disk, unless the file is there
/// already (same bytes, same name); the temporary file is deleted if it is dropped.
fn stage(path: &Path, bytes: &[u8]) -> anyhow::Result<Option<tempfile::NamedTempFile>> {
    if path.exists() {
        return Ok(None);
    }
    let dir = path.parent().expect("an upload's path has the uploads folder as parent");
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    std::io::Write::write_all(&mut tmp, bytes)?;
    tmp.as_file().sync_all()?;
    Ok(Some(tmp))
}

/// Puts the file at `path`: the staged file renamed there, or, if it was found there before and
/// removed since, written again; nothing when it is there.
fn place(path: &Path, staged: Option<tempfile::NamedTempFile>, bytes: &[u8]) -> anyhow::Result<()> {
    if path.exists() {
        return Ok(());
    }
    let staged = match staged {
        Some(staged) => staged,
        None => stage(path, bytes)?.expect("the file is not there"),
    };
    staged.persist(path)?;
    Ok(())
}
