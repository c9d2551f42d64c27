//! Gathers a body's blocks as a converter finds them: neighbouring text shares one paragraph
//! block up to [`MAX_PARAGRAPH`] characters, and blocks found inside text (an image in a
//! paragraph, a tweet in a list) are placed right after it.

use super::Converted;
use super::notes::Notes;
use crate::domain::content::blocks::{Block, MAX_PARAGRAPH};

/// The blocks of one body, being built.
#[derive(Debug, Default)]
pub(crate) struct Builder {
    blocks: Vec<Block>,
    /// Markdown of the paragraph block being filled, and its length in characters.
    para: String,
    para_chars: usize,
    /// Blocks found inside the text being written, placed after it.
    pub(crate) lifted: Vec<Block>,
    /// What was not carried over.
    pub(crate) notes: Notes,
    /// Links kept as their text, by the address they had.
    pub(crate) unlinked: Vec<String>,
}

impl Builder {
    /// Ends the paragraph block being filled.
    pub(crate) fn flush_para(&mut self) {
        let text = std::mem::take(&mut self.para);
        self.para_chars = 0;
        if !text.trim().is_empty() {
            self.blocks.push(Block::Paragraph { text });
        }
    }

    /// Places the blocks found inside the text written so far.
    pub(crate) fn flush_lifted(&mut self) {
        if !self.lifted.is_empty() {
            self.flush_para();
            for block in std::mem::take(&mut self.lifted) {
                self.push(block);
            }
        }
    }

    /// Adds a block after the paragraph being filled. An image right after the same image
    /// (a lazy loader's `noscript` copy) is dropped.
    pub(crate) fn push(&mut self, block: Block) {
        self.flush_para();
        if let (Block::Image { url, .. }, Some(Block::Image { url: last, .. })) = (&block, self.blocks.last())
            && url == last
        {
            return;
        }
        self.blocks.push(block);
    }

    /// Adds Markdown to the paragraph being filled, after a blank line, starting a new
    /// paragraph block when it would pass the limit.
    pub(crate) fn add_flow(&mut self, markdown: &str) {
        let markdown = markdown.trim_matches('\n');
        if markdown.trim().is_empty() {
            return;
        }
        let chars = markdown.chars().count();
        if !self.para.is_empty() && self.para_chars + 2 + chars > MAX_PARAGRAPH {
            self.flush_para();
        }
        if !self.para.is_empty() {
            self.para.push_str("\n\n");
            self.para_chars += 2;
        }
        self.para.push_str(markdown);
        self.para_chars += chars;
    }

    /// Blocks so far (the paragraph being filled not included).
    pub(crate) fn blocks_mut(&mut self) -> &mut Vec<Block> {
        &mut self.blocks
    }

    /// The blocks and notes.
    pub(crate) fn finish(mut self) -> Converted {
        self.flush_para();
        self.flush_lifted();
        if !self.unlinked.is_empty() {
            let n = self.unlinked.len();
            let shown: Vec<&str> = self.unlinked.iter().take(3).map(String::as_str).collect();
            let more = if n > 3 { ", ..." } else { "" };
            self.notes.add(format!(
                "{} kept as plain text: Quire links only to http, https and mailto addresses ({}{more})",
                if n == 1 { "1 link was".to_owned() } else { format!("{n} links were") },
                shown.join(", ")
            ));
        }
        Converted { blocks: self.blocks, notes: self.notes.into_lines() }
    }
}
