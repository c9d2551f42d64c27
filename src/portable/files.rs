//! The files inside an export (a zip's images), which image blocks name as `file:<path>`.
//! The reader of an export that holds files gives the importer one of these.

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
