//! Searching the index: a query's text read as words and phrases, matched in a blog's posts.

use std::sync::Arc;

use anyhow::Context;
use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, BoostQuery, Occur, PhraseQuery, Query, TermQuery};
use tantivy::schema::IndexRecordOption;
use tantivy::{Searcher, Term};

use super::{MAX_QUERY_WORDS, SearchIndex, TITLE_BOOST};

impl SearchIndex {
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
    fn id_columns(&self, searcher: &Searcher) -> anyhow::Result<super::IdColumns> {
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
}
