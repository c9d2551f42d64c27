//! The files inside an export (a zip's images), which image blocks name as `file:<path>`.
//! The reader of an export that holds files gives the importer one of these: [`of`] picks
//! it for a file and its format.

use std::fs::File;
use std::io::BufReader;
use std::path::Path;
use std::sync::{Arc, Mutex};

use super::safe_zip::SafeZip;
use crate::portable::Unreadable;
use crate::portable::model::Format;
use crate::portable::normalize::lowercase_first;

/// The prefix of an image block's `url` that names a file inside the export.
pub const FILE_PREFIX: &str = "file:";

/// Reads files of the export being imported. Called off the async runtime, one file at a
/// time per call, possibly from several threads.
pub trait ExportFiles: Send + Sync {
    /// The bytes of the file at `path` (as the image block names it, after `file:`), at most
    /// `max_bytes` of them; otherwise why not, as a sentence for the report ("not in the
    /// export", "larger than 10 MB").
    fn read(&self, path: &str, max_bytes: usize) -> Result<Vec<u8>, String>;

    /// The paths of the files under `folder` (`images/`), in the export's order: a Quire
    /// archive's images that no post names are imported from this list. None by default.
    fn list(&self, folder: &str) -> Vec<String> {
        let _ = folder;
        Vec::new()
    }
}

/// An export with no files of its own (a WordPress XML, a Ghost JSON).
#[derive(Debug, Clone, Copy, Default)]
pub struct NoFiles;

impl ExportFiles for NoFiles {
    fn read(&self, _path: &str, _max_bytes: usize) -> Result<Vec<u8>, String> {
        Err("the export holds no files".to_owned())
    }
}

/// The entries of a zip export (a Quire archive, a Markdown zip), read when asked for, through
/// [`SafeZip`] and its caps.
pub struct ZipFiles {
    zip: Mutex<SafeZip<BufReader<File>>>,
}

impl ZipFiles {
    /// Opens the zip at `path`.
    pub fn open(path: &Path) -> Result<ZipFiles, Unreadable> {
        let file = File::open(path).map_err(|err| Unreadable::new(format!("The file could not be opened: {err}")))?;
        Ok(ZipFiles { zip: Mutex::new(SafeZip::open(BufReader::new(file))?) })
    }
}

impl ExportFiles for ZipFiles {
    fn read(&self, path: &str, max_bytes: usize) -> Result<Vec<u8>, String> {
        // One reader at a time: a zip is read through one file position.
        let mut zip = self.zip.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if !zip.contains(path) {
            return Err("it is not in the export".to_owned());
        }
        zip.read(path, max_bytes as u64).map_err(|err| lowercase_first(&err.0))
    }

    fn list(&self, folder: &str) -> Vec<String> {
        let zip = self.zip.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        zip.names().iter().filter(|name| name.starts_with(folder)).cloned().collect()
    }
}

/// The files of the export at `path`, which its reader read as `format`: the zip's entries
/// for a Quire archive or a Markdown zip, none for the others.
pub fn of(path: &Path, format: Format) -> Result<Arc<dyn ExportFiles>, Unreadable> {
    Ok(match format {
        Format::QuireArchive | Format::MarkdownZip => Arc::new(ZipFiles::open(path)?),
        Format::WordPress | Format::Ghost | Format::WriteFreely | Format::BearBlog => Arc::new(NoFiles),
    })
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;
    use crate::portable::read::safe_zip::tests::zip_of;

    #[test]
    fn a_zips_files_are_read_by_path_and_listed_by_folder() {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        let entries: [(&str, &[u8]); 4] = [
            ("quire-archive.json", b"{}"),
            ("images/a.png", b"png"),
            ("images/b.gif", b"gif"),
            ("posts/x.json", b"{}"),
        ];
        file.write_all(&zip_of(&entries)).unwrap();
        let files = of(file.path(), Format::QuireArchive).unwrap();
        assert_eq!(files.list("images/"), ["images/a.png", "images/b.gif"]);
        assert_eq!(files.read("images/a.png", 10).unwrap(), b"png");
        assert_eq!(files.read("images/c.png", 10).unwrap_err(), "it is not in the export");
        let big = files.read("images/a.png", 2).unwrap_err();
        assert!(big.starts_with("the file images/a.png in the zip is larger than Quire reads"), "{big}");
        assert!(
            of(file.path(), Format::WordPress).unwrap().list("images/").is_empty(),
            "a WordPress export has no files"
        );
    }
}
