//! The files inside an export (a zip's images), which image blocks name as `file:<path>`.
//! The reader of an export that holds files gives the importer one of these.

use std::fs::File;
use std::path::Path;
use std::sync::{Arc, Mutex};

use super::Unreadable;
use super::model::Format;
use super::normalize::lowercase_first;
use super::safe_zip::SafeZip;

/// The prefix of an image block's `url` that names a file inside the export.
pub const FILE_PREFIX: &str = "file:";

/// Reads files of the export being imported. Called off the async runtime, one file at a
/// time per call, possibly from several threads.
pub trait ExportFiles: Send + Sync {
    /// The bytes of the file at `path` (as the image block names it, after `file:`), at most
    /// `max_bytes` of them; otherwise why not, as a sentence for the report ("not in the
    /// export", "larger than 10 MB").
    fn read(&self, path: &str, max_bytes: usize) -> Result<Vec<u8>, String>;
}

/// An export with no files of its own (a WordPress XML, a Ghost JSON).
#[derive(Debug, Clone, Copy, Default)]
pub struct NoFiles;

impl ExportFiles for NoFiles {
    fn read(&self, _path: &str, _max_bytes: usize) -> Result<Vec<u8>, String> {
        Err("the export holds no files".to_owned())
    }
}

/// The files of a zip export (a Markdown zip, a Quire archive), read from the zip on disk
/// through [`SafeZip`]'s checks: one reader, shared by the threads that read images.
pub struct ZipFiles {
    zip: Mutex<SafeZip<File>>,
}

impl ZipFiles {
    /// Opens the zip at `path`.
    pub fn open(path: &Path) -> Result<ZipFiles, Unreadable> {
        let file = File::open(path).map_err(|err| Unreadable::new(format!("The file could not be opened: {err}")))?;
        Ok(ZipFiles { zip: Mutex::new(SafeZip::open(file)?) })
    }
}

impl ExportFiles for ZipFiles {
    fn read(&self, path: &str, max_bytes: usize) -> Result<Vec<u8>, String> {
        let mut zip = self.zip.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if !zip.contains(path) {
            return Err("not in the export".to_owned());
        }
        zip.read(path, max_bytes as u64).map_err(|err| lowercase_first(&err.0))
    }
}

/// The files of the export at `path`, read as `format`: a zip's own files for the formats
/// whose image blocks name them, else none.
pub fn files_of(path: &Path, format: Format) -> Result<Arc<dyn ExportFiles>, Unreadable> {
    match format {
        Format::MarkdownZip | Format::QuireArchive => Ok(Arc::new(ZipFiles::open(path)?)),
        Format::WordPress | Format::Ghost | Format::WriteFreely | Format::BearBlog => Ok(Arc::new(NoFiles)),
    }
}
