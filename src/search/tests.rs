//! Tests of the index's segments and files: a merge, and searches that outlive commits.

use tantivy::Term;
use tantivy::collector::TopDocs;
use tantivy::query::TermQuery;
use tantivy::schema::IndexRecordOption;

use super::*;

fn post(post_id: i64, words: &str) -> PostDoc {
    PostDoc { post_id, blog_id: 1, published: true, title: words.to_owned(), text: words.to_owned(), tags: Vec::new() }
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
