//! Markup to blocks, whichever system wrote it: [`html`] (through html5ever, as a browser
//! repairs it), [`markdown`] (pulldown-cmark, keeping the author's own Markdown), and what both
//! share: `embeds` (a player's address as its block), `links` (relative addresses made
//! absolute, a zip's images as `file:`), `builder` (neighbouring text gathered into paragraph
//! blocks) and `notes` (what could not be carried over, said once each for the report). The
//! readers in [`super::read`] call these on every body.

pub(super) mod builder;
pub(super) mod embeds;
pub mod html;
pub(super) mod links;
pub mod markdown;
pub(super) mod notes;

pub use links::Base;

use crate::domain::content::blocks::Block;

/// A body converted to blocks, with what could not be carried over.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Converted {
    /// The blocks, in order.
    pub blocks: Vec<Block>,
    /// What of the source is not in the blocks, one line each, for the report.
    pub notes: Vec<String>,
}
