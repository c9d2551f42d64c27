//! The tantivy index of posts: one index for all blogs, each document tagged with its
//! blog, so a search only ever sees its own blog. SQLite is the source of truth: every
//! commit records the database's `posts_seq` as its payload, and at start an index that is
//! missing, unreadable or at another sequence is rebuilt from the database.
//!
//! An update that fails (no writer, a full disk) leaves the index missing that change while
//! the database has it. Later commits must not then record a sequence that claims the index
//! caught up, so a failure marks the index stale: until a full rebuild, every commit records
//! [`STALE`] instead of the sequence, and the next start sees it as behind and rebuilds it.
//!
//! The index is derived: rebuilt at start when missing, unreadable, of another schema (a new
//! field, such as the posts' `tags`, is a new schema: no version number to bump), at another
//! sequence than the database or marked stale by a failed update, and by `quire reindex`. A
//! rebuild ends merged into one segment (a million posts otherwise leave six, and each search
//! looks each word up and seeks its postings in every one). The files are mapped with
//! `MADV_RANDOM` (`open_directory`). A hit's post id comes from the `post_id` column, opened once
//! per searcher generation (`SearchIndex::id_columns`), never per hit: opening one reads a header
//! line per 512 documents. At a million posts the index is about 260 MB, and the pages of it that
//! searches touch count in the server's RSS as file-backed memory, the kernel's page cache, which
//! it reclaims under pressure (bench/README.md measures both, and the server under a 60 MB cgroup
//! cap). An import's batch is one index commit (`SearchIndex::upsert_many`).
//!
//! This file opens the index and holds its schema; `writes` changes it (one commit per
//! update, a rebuild, the idle writer closed), `queries` searches it.

mod queries;
mod writes;

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use anyhow::Context;
use tantivy::columnar::Column;
use tantivy::directory::MmapDirectory;
use tantivy::schema::{FAST, Field, INDEXED, IndexRecordOption, STRING, Schema, TextFieldIndexing, TextOptions};
use tantivy::{Index, IndexReader, IndexSettings, IndexWriter, ReloadPolicy};

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

/// The `post_id` column of each segment of one searcher generation, in segment order.
type IdColumns = Arc<Vec<Column<u64>>>;

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
    ids: Mutex<Option<(u64, IdColumns)>>,
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
}

#[cfg(test)]
mod proptests;

#[cfg(test)]
mod tests;
