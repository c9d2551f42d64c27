//! Changing the index: each update runs with the one writer and commits at the database's
//! sequence (or marks the index stale when it fails); a rebuild replaces everything.

use std::time::{Duration, Instant};

use anyhow::Context;
use tantivy::{IndexWriter, TantivyDocument, Term, doc};

use super::{PostDoc, STALE, SearchIndex, WRITER_MEMORY};

impl SearchIndex {
    /// Adds or replaces one post, then commits at `seq`.
    pub fn upsert(&self, post: &PostDoc, seq: i64) -> anyhow::Result<()> {
        self.upsert_many(std::slice::from_ref(post), seq)
    }

    /// Adds or replaces many posts (an import's batch), then commits once at `seq`.
    pub fn upsert_many(&self, posts: &[PostDoc], seq: i64) -> anyhow::Result<()> {
        self.update(seq, false, |writer| {
            for post in posts {
                writer.delete_term(Term::from_field_u64(self.fields.post_id, post.post_id as u64));
                writer.add_document(self.document(post))?;
            }
            Ok(())
        })
    }

    /// Removes one post, then commits at `seq`.
    pub fn remove(&self, post_id: i64, seq: i64) -> anyhow::Result<()> {
        self.update(seq, false, |writer| {
            writer.delete_term(Term::from_field_u64(self.fields.post_id, post_id as u64));
            Ok(())
        })
    }

    /// Removes every post of a blog, then commits at `seq`.
    pub fn remove_blog(&self, blog_id: i64, seq: i64) -> anyhow::Result<()> {
        self.update(seq, false, |writer| {
            writer.delete_term(Term::from_field_u64(self.fields.blog_id, blog_id as u64));
            Ok(())
        })
    }

    /// Replaces the whole index with the posts `fill` hands to its callback (streamed, never
    /// all in memory), then commits at `seq`, which clears a stale mark. On error nothing is
    /// committed.
    pub fn rebuild(
        &self,
        seq: i64,
        fill: impl FnOnce(&mut dyn FnMut(PostDoc) -> anyhow::Result<()>) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        let built = self.update(seq, true, |writer| {
            writer.delete_all_documents()?;
            fill(&mut |post| {
                writer.add_document(self.document(&post))?;
                Ok(())
            })
        });
        if built.is_ok()
            && let Err(err) = self.merge_into_one()
        {
            tracing::warn!(error = format!("{err:#}"), "the rebuilt search index stays in several segments");
        }
        // A rebuild is a one-off: give its memory back now.
        self.close_idle_writer(Duration::ZERO);
        built
    }

    /// Merges every segment into one, after a rebuild: a rebuild writes a segment each time the
    /// writer's memory fills (six for a million posts), and a search looks each word up and
    /// seeks its postings in every segment, so one segment means fewer pages read a search
    /// (bench/README.md, a million posts). The merge keeps the last commit's sequence.
    pub(super) fn merge_into_one(&self) -> anyhow::Result<()> {
        let mut slot = self.writer.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        // The merges the commits started change the segments: let them end first.
        if let Some(writer) = slot.writer.take() {
            writer.wait_merging_threads().context("finishing the index's merges")?;
        }
        let segments = self.index.searchable_segment_ids()?;
        if segments.len() > 1 {
            let mut writer: IndexWriter =
                self.index.writer_with_num_threads(1, WRITER_MEMORY).context("opening the index writer")?;
            writer.merge(&segments).wait().context("merging the index's segments")?;
            // The merged segments' files are no longer part of the index.
            writer.garbage_collect_files().wait().context("removing the merged segments' files")?;
            writer.wait_merging_threads()?;
            self.reader.reload()?;
            self.forget_unmapped_files();
        }
        Ok(())
    }

    /// Closes the writer if it has not been used for `idle`, waiting for its merges; the
    /// server calls this every few seconds.
    pub fn close_idle_writer(&self, idle: Duration) {
        let mut slot = self.writer.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if slot.last_used.elapsed() < idle {
            return;
        }
        if let Some(writer) = slot.writer.take() {
            if let Err(err) = writer.wait_merging_threads() {
                tracing::warn!(error = %err, "closing the search index writer");
            }
            // Merges that ended after the last commit mapped files too.
            self.forget_unmapped_files();
        }
    }

    /// Runs `ops` with the writer (opening it when closed) and commits them at `seq`; a
    /// `complete` update (a rebuild) brings the whole index to `seq`. When anything fails, the
    /// index is marked stale and the writer dropped with its uncommitted changes.
    fn update(
        &self,
        seq: i64,
        complete: bool,
        ops: impl FnOnce(&mut IndexWriter) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        let mut slot = self.writer.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        slot.last_used = Instant::now();
        let payload = if slot.stale && !complete { STALE.to_owned() } else { seq.to_string() };
        let writer = match slot.writer.take() {
            Some(writer) => Ok(writer),
            None => self.index.writer_with_num_threads(1, WRITER_MEMORY).context("opening the index writer"),
        };
        let updated = writer.and_then(|mut writer| {
            ops(&mut writer)?;
            self.commit(&mut writer, &payload)?;
            Ok(writer)
        });
        match updated {
            Ok(writer) => {
                slot.writer = Some(writer);
                slot.stale &= !complete;
                Ok(())
            }
            Err(err) => {
                slot.stale = true;
                Err(err)
            }
        }
    }

    fn document(&self, post: &PostDoc) -> TantivyDocument {
        let f = self.fields;
        let mut document = doc!(
            f.post_id => post.post_id as u64,
            f.blog_id => post.blog_id as u64,
            f.published => u64::from(post.published),
            f.title => post.title.as_str(),
            f.body => post.text.as_str(),
        );
        for tag in &post.tags {
            document.add_text(f.tags, tag);
        }
        document
    }

    fn commit(&self, writer: &mut IndexWriter, payload: &str) -> anyhow::Result<()> {
        let mut prepared = writer.prepare_commit()?;
        prepared.set_payload(payload);
        prepared.commit()?;
        self.reader.reload()?;
        self.forget_unmapped_files();
        Ok(())
    }

    /// Drops the mmap cache's entries of files no longer mapped (see `files`): asking for the
    /// cache's info does it. A searcher still in use keeps its files mapped and listed.
    fn forget_unmapped_files(&self) {
        self.files.get_cache_info();
    }
}
