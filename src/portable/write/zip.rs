//! The zip file every export is written as: text entries deflated, images stored as they are
//! (they are compressed already), each entry streamed in, never the whole file in memory.

use std::io::{Read, Seek, Write};

use anyhow::Context;
use zip::CompressionMethod;
use zip::write::{SimpleFileOptions, ZipWriter};

/// A zip being written.
pub struct ZipOut<W: Write + Seek> {
    zip: ZipWriter<W>,
    entries: u64,
}

impl<W: Write + Seek> ZipOut<W> {
    /// A new zip written into `inner`.
    pub fn new(inner: W) -> ZipOut<W> {
        ZipOut { zip: ZipWriter::new(inner), entries: 0 }
    }

    /// Adds the entry `path`, deflated.
    pub fn text(&mut self, path: &str, bytes: &[u8]) -> anyhow::Result<()> {
        let options = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
        self.zip.start_file(path, options).with_context(|| format!("adding {path}"))?;
        self.zip.write_all(bytes).with_context(|| format!("writing {path}"))?;
        self.entries += 1;
        Ok(())
    }

    /// Adds the entry `path`, stored as it is (an image), copied from `reader` a chunk at a time.
    pub fn stored(&mut self, path: &str, reader: &mut impl Read) -> anyhow::Result<()> {
        // large_file: an entry is at most an image of 10 MB, but the zip64 header costs little.
        let options = SimpleFileOptions::default().compression_method(CompressionMethod::Stored).large_file(true);
        self.zip.start_file(path, options).with_context(|| format!("adding {path}"))?;
        std::io::copy(reader, &mut self.zip).with_context(|| format!("writing {path}"))?;
        self.entries += 1;
        Ok(())
    }

    /// Entries added so far.
    pub fn entries(&self) -> u64 {
        self.entries
    }

    /// Writes the zip's directory; returns what it was written into.
    pub fn finish(self) -> anyhow::Result<W> {
        self.zip.finish().context("finishing the zip file")
    }
}
