//! Property tests of [`SearchIndex::search`] with whatever a reader or owner types, query
//! syntax included: it never fails, and it finds only posts of the blog asked about (only
//! published ones for public search).

use std::collections::{HashMap, HashSet};

use proptest::prelude::*;

use super::*;

fn config() -> ProptestConfig {
    ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() }
}

const WORDS: [&str; 8] = ["sourdough", "starter", "bubbles", "rye", "oven", "title", "body", "published"];

/// Pieces of tantivy's query language, aimed at other blogs' posts and the filter fields.
const SYNTAX: [&str; 32] = [
    "title:",
    "body:",
    "blog_id:",
    "blog_id:2",
    "blog_id:[0 TO 9]",
    "post_id:",
    "post_id:>0",
    "published:0",
    "published:1",
    "[a TO z]",
    "{a TO z}",
    "[* TO *]",
    "body:>a",
    "title:<=z",
    "*",
    "~",
    "~2",
    "^",
    "^3",
    "\"",
    "(",
    ")",
    "+",
    "-",
    "AND",
    "OR",
    "NOT",
    "IN [1 2 3]",
    "\\",
    ":",
    "'",
    "blog_id:IN [1 2 3]",
];

/// What a person might type: words, syntax, both mixed, or any text at all.
fn query() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        prop::sample::select(WORDS.to_vec()).prop_map(str::to_owned),
        prop::sample::select(SYNTAX.to_vec()).prop_map(str::to_owned),
        "[a-z0-9]{1,6}",
        any::<char>().prop_map(String::from),
    ];
    let joined = (prop::collection::vec(piece, 0..12), prop::collection::vec(prop::sample::select(vec!["", " "]), 12))
        .prop_map(|(pieces, gaps)| pieces.iter().zip(gaps).map(|(piece, gap)| format!("{piece}{gap}")).collect());
    prop_oneof![3 => joined, 1 => any::<String>(), 1 => "[\\PC]{0,200}"]
}

/// An index of three blogs, published posts and drafts, all sharing words; and, per post,
/// its blog and whether it is published.
fn index() -> (tempfile::TempDir, SearchIndex, HashMap<i64, (i64, bool)>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let index = SearchIndex::open(&dir.path().join("index")).expect("index opens");
    let mut posts = HashMap::new();
    index
        .rebuild(1, |add| {
            for post_id in 1..=24 {
                let blog_id = post_id % 3 + 1;
                let published = post_id % 4 != 0;
                let words = |n: i64| WORDS[(post_id + n) as usize % WORDS.len()];
                add(PostDoc {
                    post_id,
                    blog_id,
                    published,
                    title: format!("{} {}", words(0), words(1)),
                    text: format!("{} {} {} 2 9 a z", words(2), words(3), words(4)),
                    tags: Vec::new(),
                })?;
                posts.insert(post_id, (blog_id, published));
            }
            Ok(())
        })
        .expect("index built");
    (dir, index, posts)
}

#[test]
fn the_query_properties_hold() {
    let (_dir, index, posts) = index();
    let found_any = std::cell::Cell::new(false);
    proptest!(config(), |(query in query(), blog_id in 0i64..=4, published_only in any::<bool>(), limit in 1usize..30)| {
        let ids = index.search(blog_id, &query, published_only, limit);
        prop_assert!(ids.is_ok(), "{:?} failed: {:?}", query, ids);
        let ids = ids.unwrap();
        prop_assert!(ids.len() <= limit);
        prop_assert_eq!(ids.iter().collect::<HashSet<_>>().len(), ids.len(), "no post twice");
        for id in &ids {
            let (blog, published) = posts[id];
            prop_assert_eq!(blog, blog_id, "{:?} found post {} of another blog", query, id);
            prop_assert!(published || !published_only, "{:?} found draft {} in public search", query, id);
        }
        found_any.set(found_any.get() || !ids.is_empty());
    });
    assert!(found_any.get(), "some queries find posts, so the blog filter was really exercised");
}
