//! What a reader or owner types into search, query syntax included: `SearchIndex::search`
//! never fails and finds only posts of the blog asked about (published ones for readers).
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use quire::search::{PostDoc, SearchIndex};

const WORDS: [&str; 6] = ["sourdough", "starter", "bubbles", "rye", "oven", "title"];
const POSTS: i64 = 24;

/// Post `id` belongs to blog `id % 3 + 1` and is a draft when `id % 4 == 0`.
fn index() -> &'static SearchIndex {
    static INDEX: OnceLock<SearchIndex> = OnceLock::new();
    INDEX.get_or_init(|| {
        // Under fuzz/target, where scripts/fuzz.sh clears it before the next run (not in /tmp).
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(format!("target/search-index-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let index = SearchIndex::open(&dir).expect("index opens");
        index
            .rebuild(1, |add| {
                for post_id in 1..=POSTS {
                    let word = |n: i64| WORDS[(post_id + n) as usize % WORDS.len()];
                    add(PostDoc {
                        post_id,
                        blog_id: post_id % 3 + 1,
                        published: post_id % 4 != 0,
                        title: format!("{} {}", word(0), word(1)),
                        text: format!("{} {} {} 2 9 a z", word(2), word(3), word(4)),
                        tags: vec![word(5).to_owned()],
                    })?;
                }
                Ok(())
            })
            .expect("index built");
        index
    })
}

fuzz_target!(|data: (u8, &str)| {
    let (options, query) = data;
    let blog_id = i64::from(options % 4) + 1;
    let published_only = options & 0x80 != 0;
    let ids = index().search(blog_id, query, published_only, 20).unwrap_or_else(|err| panic!("{query:?}: {err}"));
    for id in ids {
        assert!((1..=POSTS).contains(&id) && id % 3 + 1 == blog_id, "{query:?} found post {id} of another blog");
        assert!(!published_only || id % 4 != 0, "{query:?} found draft {id} in public search");
    }
});
