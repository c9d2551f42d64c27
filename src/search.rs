//! The tantivy index of posts: one index for all blogs, each document tagged with its
//! blog, so a search only ever sees its own blog. SQLite is the source of truth: every
//! commit records the database's `posts_seq` as its payload, and at start an index that is
//! missing, unreadable or at another sequence is rebuilt from the database.
//!
//! An update that fails (no writer, a full disk) leaves the index missing that change while
//! the database has it. Later commits must not then record a sequence that claims the index
//! caught up, so a failure marks the index stale: until a full rebuild, every commit records
//! [`STALE`] instead of the sequence, and the next start sees it as behind and rebuilds it.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context;
use tantivy::collector::TopDocs;
use tantivy::columnar::Column;
use tantivy::directory::MmapDirectory;
use tantivy::query::{BooleanQuery, BoostQuery, Occur, PhraseQuery, Query, TermQuery};
use tantivy::schema::{FAST, Field, INDEXED, IndexRecordOption, STRING, Schema, TextFieldIndexing, TextOptions};
use tantivy::{Index, IndexReader, IndexSettings, IndexWriter, ReloadPolicy, Searcher, TantivyDocument, Term, doc};

/// The payload of a commit made after an update failed: not a sequence, so the start-up
/// check never takes the index as in step with the database.
const STALE: &str = "stale";

/// Most words a search reads (words of phrases included); the rest of the query is ignored,
/// so no query costs more than this many term lookups per field.
pub const MAX_QUERY_WORDS: usize = 16;
/// How much more a match in the title counts than one in the body.
const TITLE_BOOST: f32 = 2.0;
/// Memory the writer may use before it flushes a segment (tantivy's minimum is 15 MB).
const WRITER_MEMORY: usize = 15_000_000;

/// What the index holds of one post.
#[derive(Debug, Clone)]
pub struct PostDoc {
    /// The post's row id.
    pub post_id: i64,
    /// Its blog.
    pub blog_id: i64,
    /// Whether readers can see it (public search filters on this).
    pub published: bool,
    /// Its title.
    pub title: String,
    /// Its searchable text.
    pub text: String,
    /// Its tags (a search can be narrowed to one).
    pub tags: Vec<String>,
}

#[derive(Clone, Copy)]
struct Fields {
    post_id: Field,
    blog_id: Field,
    published: Field,
    title: Field,
    body: Field,
    tags: Field,
}

/// The open index. Its writer is opened on the first write and closed after a quiet spell
/// ([`SearchIndex::close_idle_writer`]): it holds tens of megabytes of indexing memory, and a
/// blog is read far more often than written.
pub struct SearchIndex {
    index: Index,
    /// The directory `index` reads through (a handle on the same mmap cache). tantivy's cache
    /// keeps an entry (the path and a weak handle) for every file it ever mapped and forgets
    /// unmapped ones only when asked for its info, so each commit's new segment and delete
    /// files stayed listed for good: about 1 KB per commit, the write path's slow memory
    /// growth in the soak (bench/README.md). Each commit prunes it.
    files: MmapDirectory,
    reader: IndexReader,
    writer: Mutex<WriterSlot>,
    fields: Fields,
    /// The `post_id` column of each segment of the searcher generation searched last. Opening
    /// a column reads its header, a line per 512 documents, so opening it for every hit made
    /// each search cost more as the index grew (at a million posts, half a search's time went
    /// there; bench/README.md); opened once a generation, a hit's id is one lookup.
    ids: Mutex<Option<(u64, Arc<Vec<Column<u64>>>)>>,
}

struct WriterSlot {
    writer: Option<IndexWriter>,
    last_used: Instant,
    /// An update failed since the last full rebuild: the index lacks a change the database has.
    stale: bool,
}

/// The index's files, mapped for random reads: a search reads a few small pieces of each
/// posting list (a skip entry, one block), and the kernel's default readahead around each
/// page fault (128 KB) read and mapped pages no search asked for. Under a memory limit that
/// thrashed (1M posts capped at 60 MB: 10 searches a second; bench/README.md).
fn open_directory(dir: &Path) -> Result<MmapDirectory, tantivy::directory::error::OpenDirectoryError> {
    MmapDirectory::open_with_madvice(dir, tantivy::directory::Advice::Random)
}

fn schema() -> (Schema, Fields) {
    let mut builder = Schema::builder();
    let text = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer("en_stem")
            .set_index_option(IndexRecordOption::WithFreqsAndPositions),
    );
    let fields = Fields {
        post_id: builder.add_u64_field("post_id", INDEXED | FAST),
        blog_id: builder.add_u64_field("blog_id", INDEXED),
        published: builder.add_u64_field("published", INDEXED),
        title: builder.add_text_field("title", text.clone()),
        body: builder.add_text_field("body", text),
        // Whole tags, untokenized. Adding a field changes the schema, and `open` starts a new
        // index for another schema, so an older index is rebuilt from the database at start.
        tags: builder.add_text_field("tags", STRING),
    };
    (builder.build(), fields)
}

impl SearchIndex {
    /// Opens the index in `dir`, creating it (empty) when missing, unreadable or of
    /// another schema.
    pub fn open(dir: &Path) -> anyhow::Result<SearchIndex> {
        let (schema, fields) = schema();
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let opened = open_directory(dir)
            .map_err(tantivy::TantivyError::from)
            .and_then(|files| Ok((Index::open(files.clone())?, files)));
        let (index, files) = match opened {
            Ok((index, files)) if index.schema() == schema => (index, files),
            opened => {
                if let Err(err) = &opened {
                    tracing::warn!(error = %err, "search index unreadable; starting a new one");
                }
                std::fs::remove_dir_all(dir).with_context(|| format!("cannot clear {}", dir.display()))?;
                std::fs::create_dir_all(dir)?;
                let files = open_directory(dir)?;
                (Index::create(files.clone(), schema, IndexSettings::default())?, files)
            }
        };
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .doc_store_cache_num_blocks(0) // nothing is read from the document store
            .try_into()?;
        let slot = WriterSlot { writer: None, last_used: Instant::now(), stale: false };
        Ok(SearchIndex { index, files, reader, writer: Mutex::new(slot), fields, ids: Mutex::new(None) })
    }

    /// The database sequence the last commit recorded (`None` for a new or stale index).
    pub fn committed_seq(&self) -> Option<i64> {
        self.index.load_metas().ok()?.payload?.parse().ok()
    }

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
    fn merge_into_one(&self) -> anyhow::Result<()> {
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

    /// Ids of the posts of `blog_id` matching `query`, best first. The text is read as plain
    /// words and "quoted phrases" (see [`SearchIndex::query_parts`]): every part must match,
    /// in the title or the body. Nothing a user types runs a range, a wildcard or a field
    /// query; text with no word finds nothing.
    pub fn search(&self, blog_id: i64, query: &str, published_only: bool, limit: usize) -> anyhow::Result<Vec<i64>> {
        self.search_tagged(blog_id, query, None, published_only, limit)
    }

    /// [`SearchIndex::search`] among the posts tagged `tag` when one is given.
    pub fn search_tagged(
        &self,
        blog_id: i64,
        query: &str,
        tag: Option<&str>,
        published_only: bool,
        limit: usize,
    ) -> anyhow::Result<Vec<i64>> {
        let f = self.fields;
        let parts = self.query_parts(query)?;
        if parts.is_empty() {
            return Ok(Vec::new());
        }
        let term = |field, value: u64| -> Box<dyn Query> {
            Box::new(TermQuery::new(Term::from_field_u64(field, value), IndexRecordOption::Basic))
        };
        let mut clauses = vec![(Occur::Must, term(f.blog_id, blog_id as u64))];
        if published_only {
            clauses.push((Occur::Must, term(f.published, 1)));
        }
        if let Some(tag) = tag {
            clauses.push((
                Occur::Must,
                Box::new(TermQuery::new(Term::from_field_text(f.tags, tag), IndexRecordOption::Basic)),
            ));
        }
        for words in &parts {
            let in_field = |field| -> Box<dyn Query> {
                let terms: Vec<Term> = words.iter().map(|word| Term::from_field_text(field, word)).collect();
                match terms.len() {
                    1 => Box::new(TermQuery::new(terms[0].clone(), IndexRecordOption::WithFreqs)),
                    _ => Box::new(PhraseQuery::new(terms)),
                }
            };
            let either = BooleanQuery::new(vec![
                (Occur::Should, Box::new(BoostQuery::new(in_field(f.title), TITLE_BOOST)) as Box<dyn Query>),
                (Occur::Should, in_field(f.body)),
            ]);
            clauses.push((Occur::Must, Box::new(either)));
        }
        let searcher = self.reader.searcher();
        let hits = searcher.search(&BooleanQuery::new(clauses), &TopDocs::with_limit(limit))?;
        // The id comes from the fast field (a column), not the compressed document store.
        let ids = self.id_columns(&searcher)?;
        hits.into_iter()
            .map(|(_, address)| {
                let column = ids.get(address.segment_ord as usize).context("a hit in an unknown segment")?;
                column.first(address.doc_id).map(|id| id as i64).context("indexed post without an id")
            })
            .collect()
    }

    /// The `post_id` columns of `searcher`'s segments, opened once for its generation.
    fn id_columns(&self, searcher: &Searcher) -> anyhow::Result<Arc<Vec<Column<u64>>>> {
        let generation = searcher.generation().generation_id();
        let mut cached = self.ids.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((cached_generation, columns)) = cached.as_ref()
            && *cached_generation == generation
        {
            return Ok(columns.clone());
        }
        let columns = searcher
            .segment_readers()
            .iter()
            .map(|segment| segment.fast_fields().u64("post_id"))
            .collect::<Result<Vec<_>, _>>()?;
        let columns = Arc::new(columns);
        *cached = Some((generation, columns.clone()));
        Ok(columns)
    }

    /// What a query's text asks for: each part is one word or, for text in double quotes, a
    /// phrase of words in order, analyzed as the index analyzes posts (lowercased, stemmed).
    /// Every other character only separates words, so `title:[a TO z]` is the four words
    /// `title`, `a`, `to`, `z`. An unclosed quote's words are plain words. At most
    /// [`MAX_QUERY_WORDS`] words are read; the rest are ignored.
    fn query_parts(&self, query: &str) -> anyhow::Result<Vec<Vec<String>>> {
        let mut analyzer = self.index.tokenizer_for_field(self.fields.body)?;
        let segments: Vec<&str> = query.split('"').collect();
        let closed = segments.len() % 2 == 1; // an even number of quotes
        let mut parts = Vec::new();
        let mut budget = MAX_QUERY_WORDS;
        for (i, segment) in segments.iter().enumerate() {
            if budget == 0 {
                break;
            }
            let mut words = Vec::new();
            analyzer.token_stream(segment).process(&mut |token| words.push(token.text.clone()));
            words.truncate(budget);
            budget -= words.len();
            let quoted = i % 2 == 1 && (closed || i + 1 < segments.len());
            if quoted && words.len() > 1 {
                parts.push(words);
            } else {
                parts.extend(words.into_iter().map(|word| vec![word]));
            }
        }
        Ok(parts)
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

#[cfg(test)]
mod proptests;

#[cfg(test)]
mod tests {
    use super::*;

    fn post(post_id: i64, words: &str) -> PostDoc {
        PostDoc {
            post_id,
            blog_id: 1,
            published: true,
            title: words.to_owned(),
            text: words.to_owned(),
            tags: Vec::new(),
        }
    }

    #[test]
    fn merging_into_one_segment_keeps_every_post_and_the_committed_sequence() {
        let dir = tempfile::tempdir().expect("temp dir");
        let index = SearchIndex::open(&dir.path().join("index")).expect("index opens");
        for id in 1..=5 {
            index.upsert(&post(id, &format!("loaf number{id}")), id).expect("upsert");
        }
        assert_eq!(index.index.searchable_segment_ids().unwrap().len(), 5, "a commit a post");
        // Searched before the merge too: the ids' columns of the old generation are not reused.
        assert_eq!(index.search(1, "number4", false, 10).expect("search"), vec![4]);
        index.merge_into_one().expect("merge");
        assert_eq!(index.index.searchable_segment_ids().unwrap().len(), 1);
        assert_eq!(index.committed_seq(), Some(5));
        let mut found = index.search(1, "loaf", false, 10).expect("search");
        found.sort();
        assert_eq!(found, vec![1, 2, 3, 4, 5]);
        assert_eq!(index.search(1, "number3", false, 10).expect("search"), vec![3]);
        // Reopened from disk, it is still one segment at the same sequence.
        drop(index);
        let reopened = SearchIndex::open(&dir.path().join("index")).expect("index reopens");
        assert_eq!(reopened.index.searchable_segment_ids().unwrap().len(), 1);
        assert_eq!(reopened.committed_seq(), Some(5));
    }

    #[test]
    fn a_search_begun_before_many_commits_still_reads_the_files_it_began_with() {
        let dir = tempfile::tempdir().expect("temp dir");
        let index = SearchIndex::open(&dir.path().join("index")).expect("index opens");
        index.upsert(&post(1, "sourdough starter"), 1).expect("upsert");
        let before = index.reader.searcher();
        // Every commit prunes the mmap cache, merges replace segments and the old ones are
        // deleted: the searcher taken before holds its own mappings all along.
        let mut live = std::collections::BTreeSet::new();
        for seq in 2..=60 {
            let post_id = seq % 7 + 2;
            if seq % 3 == 0 {
                index.remove(post_id, seq).expect("remove");
                live.remove(&post_id);
            } else {
                index.upsert(&post(post_id, "rye oven crumb"), seq).expect("upsert");
                live.insert(post_id);
            }
        }
        index.remove(1, 61).expect("remove");
        let query = TermQuery::new(Term::from_field_text(index.fields.body, "sourdough"), IndexRecordOption::Basic);
        let old_hits = before.search(&query, &TopDocs::with_limit(10)).expect("old searcher reads");
        assert_eq!(old_hits.len(), 1, "the old searcher still sees post 1");
        assert_eq!(index.search(1, "sourdough", false, 10).expect("search"), Vec::<i64>::new());
        let mut found = index.search(1, "rye", false, 10).expect("search");
        found.sort();
        assert_eq!(found, live.into_iter().collect::<Vec<_>>());
        assert_eq!(index.committed_seq(), Some(61));
    }
}
