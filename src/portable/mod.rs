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
//!
//! [`open`] sniffs a file's format ([`detect`]) and hands it to its reader, which answers the
//! export's header ([`model::Read`]) and an iterator of its items ([`Items`]). Readers stream:
//! a WordPress file is read with an XML pull parser, a zip one entry at a time, so a large
//! export never sits in memory whole; JSON and CSV exports are parsed whole, under a byte cap.
//! Markup becomes blocks in [`html`] (HTML, through a real HTML5 parser) and [`markdown_blocks`].
//! docs/import.md lists what each source element becomes and what is reported.
//!
//! [`open`] sniffs a file's format ([`detect`]) and hands it to its reader, which answers the
//! export's header ([`model::Read`]) and an iterator of its items ([`Items`]). Readers stream:
//! a WordPress file is read with an XML pull parser, a zip one entry at a time, so a large
//! export never sits in memory whole; JSON and CSV exports are parsed whole, under a byte cap.
//! Markup becomes blocks in [`html`] (HTML, through a real HTML5 parser) and [`markdown_blocks`].
//! docs/import.md lists what each source element becomes and what is reported.

pub mod archive;
mod builder;
mod dates;
mod embeds;
mod front_matter;
pub mod ghost;
pub mod html;
mod links;
pub mod markdown;
pub mod markdown_blocks;
pub mod markdown_zip;
pub mod model;
mod notes;
pub mod safe_zip;
pub mod wordpress;
pub mod zip_out;

use std::io::Read as _;

pub use links::Base;

use crate::domain::blocks::Block;

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
}

/// A body converted to blocks, with what could not be carried over.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Converted {
    /// The blocks, in order.
    pub blocks: Vec<Block>,
    /// What of the source is not in the blocks, one line each, for the report.
    pub notes: Vec<String>,
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

/// The text of a file that should be UTF-8, without a byte-order mark.
fn utf8(bytes: Vec<u8>, what: &str) -> Result<String, Unreadable> {
    let text = String::from_utf8(bytes).map_err(|_| Unreadable::new(format!("{what} is not UTF-8 text")))?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_owned(),
        None => text,
    })
}
