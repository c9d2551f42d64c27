//! The one way Quire reads a zip (Markdown zips, a WordPress.com export, Quire's archive):
//! refuses entries whose names climb out (`../`, absolute paths, drive letters), symbolic
//! links, more than [`MAX_ENTRIES`] entries, and counts the bytes as it inflates them, so
//! that neither a lying header nor a zip bomb makes it hold more than each caller's cap, the
//! zip's [`MAX_TOTAL_BYTES`], or [`MAX_RATIO`] times an entry's compressed size.

use std::collections::HashMap;
use std::io::{Read, Seek, Write};

use zip::ZipArchive;

use crate::portable::Unreadable;

/// Most entries in one zip.
pub const MAX_ENTRIES: usize = 100_000;
/// Most bytes read out of one zip, all entries together, once inflated.
pub const MAX_TOTAL_BYTES: u64 = 4 * 1024 * 1024 * 1024;
/// Most an entry may inflate past 1 MiB, as a multiple of its compressed size.
pub const MAX_RATIO: u64 = 200;

/// A zip whose entry names were checked.
pub struct SafeZip<R> {
    archive: ZipArchive<R>,
    /// File entries (no folders), in the zip's order: name and index.
    files: Vec<String>,
    index: HashMap<String, usize>,
    /// Bytes inflated so far.
    total: u64,
}

impl<R: Read + Seek> SafeZip<R> {
    /// Opens a zip and checks every entry's name and kind before anything is read.
    pub fn open(reader: R) -> Result<SafeZip<R>, Unreadable> {
        let mut archive = ZipArchive::new(reader)
            .map_err(|err| Unreadable::new(format!("This zip file is damaged or is not a zip ({err})")))?;
        if archive.len() > MAX_ENTRIES {
            return Err(Unreadable::new(format!(
                "This zip holds {} entries: Quire reads at most {MAX_ENTRIES}",
                archive.len()
            )));
        }
        let mut files = Vec::new();
        let mut index = HashMap::new();
        for i in 0..archive.len() {
            let entry =
                archive.by_index_raw(i).map_err(|err| Unreadable::new(format!("This zip file is damaged ({err})")))?;
            let name = entry
                .name()
                .map_err(|_| Unreadable::new("This zip names a file in a way Quire cannot read"))?
                .into_owned();
            if let Some(problem) = name_problem(&name) {
                return Err(Unreadable::new(format!(
                    "This zip holds {problem} ({}): Quire does not read such zips",
                    shorten(&name)
                )));
            }
            if entry.is_symlink() {
                return Err(Unreadable::new(format!(
                    "This zip holds a symbolic link ({}): Quire does not read zips with links",
                    shorten(&name)
                )));
            }
            let normalized = name.replace('\\', "/");
            if entry.is_dir() || normalized.ends_with('/') || ignored(&normalized) {
                continue;
            }
            index.insert(normalized.clone(), i);
            files.push(normalized);
        }
        Ok(SafeZip { archive, files, index, total: 0 })
    }

    /// The files' names (paths with `/`), in the zip's order; folders and macOS's extras left out.
    pub fn names(&self) -> &[String] {
        &self.files
    }

    /// Whether the zip holds a file of this name.
    pub fn contains(&self, name: &str) -> bool {
        self.index.contains_key(name)
    }

    /// The bytes of one file, at most `max` of them.
    pub fn read(&mut self, name: &str, max: u64) -> Result<Vec<u8>, Unreadable> {
        let mut bytes = Vec::new();
        self.copy(name, &mut bytes, max)?;
        Ok(bytes)
    }

    /// Inflates one file into `out`, at most `max` bytes; answers how many.
    pub fn copy(&mut self, name: &str, out: &mut impl Write, max: u64) -> Result<u64, Unreadable> {
        let &i =
            self.index.get(name).ok_or_else(|| Unreadable::new(format!("The zip holds no file {}", shorten(name))))?;
        let damaged = |err: &dyn std::fmt::Display| {
            Unreadable::new(format!("The file {} in the zip could not be read ({err})", shorten(name)))
        };
        let mut entry = self.archive.by_index(i).map_err(|err| damaged(&err))?;
        let ratio_cap = entry.compressed_size().saturating_mul(MAX_RATIO).max(1024 * 1024);
        let mut written = 0u64;
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            let n = entry.read(&mut buf).map_err(|err| damaged(&err))?;
            if n == 0 {
                break;
            }
            written += n as u64;
            if written > max {
                return Err(Unreadable::new(format!(
                    "The file {} in the zip is larger than Quire reads ({} MB at most)",
                    shorten(name),
                    max.div_ceil(1024 * 1024)
                )));
            }
            if written > ratio_cap {
                return Err(Unreadable::new(format!(
                    "The file {} in the zip unpacks to over {MAX_RATIO} times its packed size: Quire does not read it (a zip bomb?)",
                    shorten(name)
                )));
            }
            if self.total + written > MAX_TOTAL_BYTES {
                return Err(Unreadable::new(format!(
                    "This zip unpacks to more than {} GB: Quire does not read it",
                    MAX_TOTAL_BYTES >> 30
                )));
            }
            out.write_all(&buf[..n]).map_err(|err| Unreadable::new(format!("The zip could not be unpacked: {err}")))?;
        }
        self.total += written;
        Ok(written)
    }
}

/// What is wrong with an entry's name, if anything: a path that climbs out of the zip.
fn name_problem(name: &str) -> Option<&'static str> {
    let normalized = name.replace('\\', "/");
    if normalized.starts_with('/') || normalized.contains('\0') {
        return Some("a file with an absolute path");
    }
    if normalized.as_bytes().get(1) == Some(&b':') {
        return Some("a file with a drive letter");
    }
    if normalized.split('/').any(|part| part == "..") {
        return Some("a file whose path climbs out of it with ../");
    }
    None
}

/// macOS's resource forks and Finder files, which no export means.
fn ignored(name: &str) -> bool {
    name.starts_with("__MACOSX/")
        || name.rsplit('/').next().is_some_and(|file| file == ".DS_Store" || file.starts_with("._"))
}

fn shorten(name: &str) -> String {
    if name.chars().count() <= 100 {
        name.to_owned()
    } else {
        format!("{}…", name.chars().take(100).collect::<String>())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::io::Cursor;

    use zip::write::SimpleFileOptions;

    use super::*;

    /// A zip of these files, deflated.
    pub(crate) fn zip_of(files: &[(&str, &[u8])]) -> Vec<u8> {
        let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
        for (name, bytes) in files {
            writer.start_file(*name, SimpleFileOptions::default()).unwrap();
            writer.write_all(bytes).unwrap();
        }
        writer.finish().unwrap().into_inner()
    }

    #[test]
    fn files_are_listed_and_read_with_folders_and_mac_extras_left_out() {
        let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
        writer.add_directory("posts/", SimpleFileOptions::default()).unwrap();
        for name in ["posts/a.md", "__MACOSX/posts/._a.md", "posts/.DS_Store"] {
            writer.start_file(name, SimpleFileOptions::default()).unwrap();
            writer.write_all(b"# A").unwrap();
        }
        let bytes = writer.finish().unwrap().into_inner();
        let mut zip = SafeZip::open(Cursor::new(bytes)).unwrap();
        assert_eq!(zip.names(), ["posts/a.md"]);
        assert_eq!(zip.read("posts/a.md", 100).unwrap(), b"# A");
        assert!(zip.read("posts/a.md", 2).unwrap_err().0.contains("larger than Quire reads"));
    }

    #[test]
    fn paths_that_climb_out_and_links_are_refused() {
        for name in ["../evil.md", "posts/../../evil.md", "/etc/passwd", "..\\evil.md", "C:/x.md"] {
            let err = SafeZip::open(Cursor::new(zip_of(&[(name, b"x")]))).err().unwrap();
            assert!(err.0.starts_with("This zip holds a file"), "{name}: {err}");
        }
        let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
        writer.add_symlink("posts/link.md", "/etc/passwd", SimpleFileOptions::default()).unwrap();
        let err = SafeZip::open(Cursor::new(writer.finish().unwrap().into_inner())).err().unwrap();
        assert_eq!(err.0, "This zip holds a symbolic link (posts/link.md): Quire does not read zips with links");
    }

    #[test]
    fn a_zip_bomb_is_stopped_while_it_inflates() {
        let zeros = vec![0u8; 20 * 1024 * 1024];
        let bytes = zip_of(&[("bomb.md", &zeros)]);
        assert!(bytes.len() < 100 * 1024);
        let mut zip = SafeZip::open(Cursor::new(bytes)).unwrap();
        let err = zip.read("bomb.md", u64::MAX).unwrap_err();
        assert!(err.0.contains("times its packed size"), "{err}");
    }

    #[test]
    fn what_is_not_a_zip_is_refused() {
        let err = SafeZip::open(Cursor::new(b"PK\x03\x04 truncated".to_vec())).err().unwrap();
        assert!(err.0.starts_with("This zip file is damaged or is not a zip"), "{err}");
        let whole = zip_of(&[("a.md", b"hello")]);
        let err = SafeZip::open(Cursor::new(whole[..whole.len() - 10].to_vec())).err().unwrap();
        assert!(err.0.starts_with("This zip file is damaged"), "{err}");
    }
}
