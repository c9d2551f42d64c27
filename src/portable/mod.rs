//! Blogs in portable form: reading other platforms' exports (and Quire's own archive) into
//! [`model`] values before anything is written, and the formats Quire exports
//! ([`archive`], [`markdown`], all written through [`zip_out`]).
//!
//! This layer parses files and converts markup; it neither writes the database nor fetches
//! anything over the network. Importing (`blogs/`) turns [`model::Post`]s into posts through
//! the one write path, downloading remote images with the guarded fetcher; exporting
//! (`blogs/exports.rs`) reads the database and hands what it read to these writers.
//!
//! [`open`] sniffs a file's format ([`detect`]) and hands it to its reader, which answers the
//! export's header ([`model::Read`]) and an iterator of its items ([`Items`]). Readers stream:
//! a WordPress file is read with an XML pull parser, a zip one entry at a time, so a large
//! export never sits in memory whole; JSON and CSV exports are parsed whole, under a byte cap.
//! Markup becomes blocks in [`html`] (HTML, through a real HTML5 parser) and [`markdown_blocks`].
//! docs/import.md lists what each source element becomes and what is reported.

pub mod archive;
pub mod bear;
mod builder;
mod dates;
pub mod detect;
mod embeds;
pub mod files;
#[cfg(test)]
mod fixtures;
mod front_matter;
pub mod ghost;
pub mod html;
mod links;
pub mod markdown;
pub mod markdown_blocks;
pub mod markdown_zip;
pub mod model;
pub mod normalize;
mod notes;
pub mod quire_archive;
pub mod report;
pub mod safe_zip;
pub mod wordpress;
pub mod writefreely;
pub mod zip_out;

use std::fs::File;
use std::io::{BufReader, Read as _, Seek, SeekFrom};
use std::path::Path;

pub use links::Base;

use crate::domain::content::blocks::Block;

/// Why a file cannot be read at all, in words a blogger understands ("This file is not an
/// export Quire can read: ..."). The importer shows it as the error of the upload or the job.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Unreadable(pub String);

impl Unreadable {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> Unreadable {
        Unreadable(message.into())
    }
}

impl From<Unreadable> for crate::error::Error {
    fn from(err: Unreadable) -> crate::error::Error {
        crate::error::Error::invalid("file", err.0)
    }
}

/// What went wrong while reading items.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// One item could not be read (its body is not valid JSON, it is over the size cap); the
    /// others still are. For the report.
    Item {
        /// The item's [`model::Post::source_id`], when known.
        source_id: String,
        /// Its title, when known.
        title: String,
        /// Why it was skipped.
        message: String,
    },
    /// The rest of the file cannot be read (a zip entry that inflates past its cap, a read
    /// error); the iterator ends after it.
    File(Unreadable),
}

impl Problem {
    fn item(source_id: impl Into<String>, title: impl Into<String>, message: impl Into<String>) -> Problem {
        Problem::Item { source_id: source_id.into(), title: title.into(), message: message.into() }
    }
}

impl std::fmt::Display for Problem {
    /// As the import report shows it: the item (its title, else its source id) and why, or
    /// why the rest of the file cannot be read.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Problem::Item { source_id, title, message } => {
                let name = if title.trim().is_empty() { source_id } else { title };
                if name.is_empty() { f.write_str(message) } else { write!(f, "{name}: {message}") }
            }
            Problem::File(err) => f.write_str(&err.0),
        }
    }
}

/// The items of an export, in the source's order, one at a time.
pub type Items = Box<dyn Iterator<Item = Result<model::Post, Problem>> + Send>;

/// An export opened by its reader: its header, and its items still to read.
pub struct Export {
    /// What the reader found before the items: format, settings, notes for the report.
    pub read: model::Read,
    /// The posts and pages, read lazily.
    pub items: Items,
}

impl std::fmt::Debug for Export {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Export").field("read", &self.read).finish_non_exhaustive()
    }
}

/// What the person importing may tell the readers that the file does not say.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The old site's address (`https://old.example.com`). Ghost exports name their own
    /// images and links relative to the site (`__GHOST_URL__/content/images/...`) without
    /// saying where it was; WordPress and the Markdown zips use it when the file names none.
    pub site_url: Option<url::Url>,
    /// The IANA zone of times written without an offset (an Obsidian note's `date`), when the
    /// file's own settings (a Jekyll or Hugo site's) don't name one. UTC when neither does.
    pub time_zone: Option<String>,
}

/// A body converted to blocks, with what could not be carried over.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Converted {
    /// The blocks, in order.
    pub blocks: Vec<Block>,
    /// What of the source is not in the blocks, one line each, for the report.
    pub notes: Vec<String>,
}

/// Reads the export at `path`, whatever its format: sniffs it ([`detect::detect`]) and opens
/// it with its reader. The file is then read lazily, through [`Export::items`]; a WordPress
/// export inside a zip (as WordPress.com gives it) is first unpacked to a temporary file.
pub fn open(path: &Path, options: &Options) -> Result<Export, Unreadable> {
    let mut file = File::open(path).map_err(|err| Unreadable::new(format!("The file could not be opened: {err}")))?;
    let format = detect::detect(&mut file)?;
    file.seek(SeekFrom::Start(0)).map_err(io_error)?;
    read_as(format, file, options)
}

/// Opens the export at `path` as [`open`] does, with the files inside it
/// ([`files::of`]): what an import reads.
pub fn open_with_files(
    path: &Path,
    options: &Options,
) -> Result<(Export, std::sync::Arc<dyn files::ExportFiles>), Unreadable> {
    let export = open(path, options)?;
    let files = files::of(path, export.read.format)?;
    Ok((export, files))
}

/// Opens `file` with the reader of `format` (as [`detect::detect`] named it).
pub fn read_as(format: model::Format, mut file: File, options: &Options) -> Result<Export, Unreadable> {
    use model::Format;
    match format {
        Format::WordPress => {
            let mut magic = [0u8; 4];
            let zipped = file.read_exact(&mut magic).is_ok() && magic == *b"PK\x03\x04";
            file.seek(SeekFrom::Start(0)).map_err(io_error)?;
            if zipped {
                return wordpress::read(BufReader::new(unzip_wxr(file)?), options);
            }
            wordpress::read(BufReader::new(file), options)
        }
        Format::Ghost => ghost::read(file, options),
        Format::MarkdownZip => markdown_zip::read(file, options),
        Format::WriteFreely => writefreely::read(file, options),
        Format::BearBlog => bear::read(file, options),
        Format::QuireArchive => quire_archive::read(file),
    }
}

/// The one WordPress export inside a zip, unpacked to a temporary file (deleted on close).
fn unzip_wxr(file: File) -> Result<File, Unreadable> {
    let mut zip = safe_zip::SafeZip::open(file)?;
    let xml: Vec<String> = zip.names().iter().filter(|n| n.to_ascii_lowercase().ends_with(".xml")).cloned().collect();
    if xml.len() > 1 {
        return Err(Unreadable::new(format!(
            "This zip holds {} WordPress export files: upload each .xml file on its own",
            xml.len()
        )));
    }
    let name = xml.first().ok_or_else(|| Unreadable::new("This zip holds no WordPress export (.xml) file"))?;
    let mut out = tempfile::tempfile().map_err(io_error)?;
    zip.copy(name, &mut out, safe_zip::MAX_TOTAL_BYTES)?;
    out.seek(SeekFrom::Start(0)).map_err(io_error)?;
    Ok(out)
}

fn io_error(err: std::io::Error) -> Unreadable {
    Unreadable::new(format!("The file could not be read: {err}"))
}

/// Reads all of `input`, refusing more than `max` bytes with a message naming `what`.
fn read_capped(input: impl std::io::Read, max: u64, what: &str) -> Result<Vec<u8>, Unreadable> {
    let mut bytes = Vec::new();
    input.take(max + 1).read_to_end(&mut bytes).map_err(io_error)?;
    if bytes.len() as u64 > max {
        return Err(Unreadable::new(format!("{what} is larger than Quire reads ({} MB at most)", max / 1024 / 1024)));
    }
    Ok(bytes)
}

/// A JSON export parsed whole; `what` names it in the messages ("This Ghost export").
fn json_of<T: serde::de::DeserializeOwned>(bytes: &[u8], what: &str) -> Result<T, Unreadable> {
    serde_json::from_slice(bytes).map_err(|err| {
        Unreadable::new(if err.is_eof() {
            format!("{what} is cut off before its end: export it again and upload the whole file")
        } else {
            format!("This file is not valid JSON ({err})")
        })
    })
}

/// The text of a file that should be UTF-8, without its byte-order mark.
fn utf8(bytes: Vec<u8>, what: &str) -> Result<String, Unreadable> {
    let text = String::from_utf8(bytes).map_err(|_| Unreadable::new(format!("{what} is not UTF-8 text")))?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_owned(),
        None => text,
    })
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;
    use crate::portable::safe_zip::tests::zip_of;

    fn file_of(bytes: &[u8]) -> tempfile::NamedTempFile {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(bytes).unwrap();
        file
    }

    #[test]
    fn open_sniffs_the_format_and_reads_a_wordpress_export_inside_a_zip() {
        let wxr = r#"<?xml version="1.0"?><rss xmlns:wp="http://wordpress.org/export/1.2/"><channel><title>T</title><wp:wxr_version>1.2</wp:wxr_version>
            <item><title>A</title><content:encoded><![CDATA[Hi]]></content:encoded><wp:post_id>4</wp:post_id><wp:status>publish</wp:status><wp:post_type>post</wp:post_type></item>
            </channel></rss>"#;
        let zipped = file_of(&zip_of(&[("site.wordpress.2024-01-01.000.xml", wxr.as_bytes())]));
        let export = open(zipped.path(), &Options::default()).unwrap();
        assert_eq!(export.read.format, model::Format::WordPress);
        let posts: Vec<model::Post> = export.items.map(Result::unwrap).collect();
        assert_eq!(posts[0].blocks, [Block::Paragraph { text: "Hi".into() }]);
        let plain = file_of(wxr.as_bytes());
        assert_eq!(open(plain.path(), &Options::default()).unwrap().items.count(), 1);
    }

    #[test]
    fn what_open_refuses_becomes_the_error_shape_of_the_api() {
        let err = open(file_of(b"%PDF-1.4").path(), &Options::default()).unwrap_err();
        let err: crate::error::Error = err.into();
        assert_eq!(err.status(), poem::http::StatusCode::UNPROCESSABLE_ENTITY);
        assert!(
            err.body("r")["errors"][0]["file"]
                .as_str()
                .unwrap()
                .starts_with("This file is not an export Quire can read")
        );
    }
}
