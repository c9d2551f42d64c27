//! Blogs in portable form: reading other platforms' exports (and Quire's own archive) into
//! [`model`] values before anything is written, and the formats Quire exports
//! ([`archive`], [`markdown`], all written through [`zip_out`]).
//!
//! This layer parses files and converts markup; it neither writes the database nor fetches
//! anything over the network. Importing (`blogs/`) turns [`model::Post`]s into posts through
//! the one write path, downloading remote images with the guarded fetcher; exporting
//! (`blogs/exports.rs`) reads the database and hands what it read to these writers.

pub mod archive;
pub mod files;
pub mod markdown;
pub mod model;
pub mod normalize;
pub mod report;
pub mod zip_out;
