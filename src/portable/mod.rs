//! Blogs in portable form: other platforms' exports (and Quire's own archive) read into
//! [`model`] values before anything is written, and the formats Quire exports. Three rooms:
//!
//! - [`read`]: one reader per source system (WordPress, Ghost, Bear Blog, WriteFreely, the
//!   Markdown sites, the Quire archive), with what they share: [`read::open`] sniffs a file's
//!   format ([`read::detect`]) and hands it to its reader; the one zip reader
//!   ([`read::safe_zip`]), dates as exports write them, the files inside an export;
//! - [`convert`]: markup to blocks, whichever system wrote it: HTML ([`convert::html`], through
//!   a real HTML5 parser), Markdown ([`convert::markdown`]), players and links;
//! - [`write`]: Quire's export formats ([`write::quire_archive`], [`write::markdown_site`]), all
//!   written through [`write::zip`].
//!
//! [`model`] (what a reader answers), [`normalize`] (Quire's rules applied to what was read) and
//! [`report`] (what an import tells the owner) stay here, as do the types every reader shares.
//!
//! This layer parses files and converts markup; it neither writes the database nor fetches
//! anything over the network. Importing (`blogs/`) turns [`model::Post`]s into posts through
//! the one write path, downloading remote images with the guarded fetcher; exporting
//! (`blogs/exports.rs`) reads the database and hands what it read to these writers.
//!
//! A reader answers the export's header ([`model::Read`]) and an iterator of its items
//! ([`Items`]). Readers stream: a WordPress file is read with an XML pull parser, a zip one entry
//! at a time, so a large export never sits in memory whole; JSON and CSV exports are parsed
//! whole, under a byte cap, except Ghost's, which is walked as a stream one post at a time.
//! Every export's items are counted against [`Options::limits`]. docs/import.md lists what each
//! source element becomes and what is reported.

pub mod convert;
pub mod model;
pub mod normalize;
pub mod read;
pub mod report;
pub mod write;

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
    /// How much of the export may be taken in (`quire serve --import-max-items`,
    /// `--import-max-item-mb`).
    pub limits: crate::domain::limits::ImportLimits,
    /// Where a reader unpacks what it must read from a file of its own (a WordPress export inside
    /// a zip): the data directory's `exports/` folder, never the system's temporary folder (RAM
    /// on many systems). `None` only in tests, for the system's temporary folder.
    pub work_dir: Option<std::path::PathBuf>,
}
