//! Quire's export formats: [`quire_archive`] (the whole blog, nothing lost, for another Quire;
//! docs/archive.md), [`markdown_site`] (a folder per post with its Markdown and images, for
//! Hugo, Zola or Jekyll; docs/export.md), both written through [`zip`]. `blogs/exports.rs`
//! reads the database and hands what it read to these writers; [`super::read::quire_archive`]
//! reads the archive back with the same types. [`spreadsheet_csv`] writes the owner's list of
//! email subscribers for a spreadsheet.

pub mod markdown_site;
pub mod quire_archive;
pub mod spreadsheet_csv;
pub mod zip;
