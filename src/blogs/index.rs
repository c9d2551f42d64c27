//! Keeping the search index in step with the database. The database is the source of truth:
//! each post write bumps `search_state.posts_seq` in its transaction, each index commit
//! records the sequence it reached, and an index at another sequence is rebuilt at start.
//! An update that fails marks the index stale, so no later commit records a sequence that
//! would hide the missing change (see [`SearchIndex`]): the next start rebuilds it.
//!
//! A failed index update (no writer, a full disk) is logged and marks the index stale in memory;
//! a crash before any later commit leaves the recorded sequence behind, with the same result.
//! Holding the sequence back needs no extra table and covers every kind of update, removals
//! included; searches miss the failed change until the restart that rebuilds the index
//! ([`sync`]).

use anyhow::Context;
use rusqlite::Connection;

use crate::db::posts::{self, Post};
use crate::domain::content::blocks::Body;
use crate::progress::Progress;
use crate::search::{PostDoc, SearchIndex};

/// The index document of a post whose body is at hand.
pub fn doc(post: &Post, body: &Body) -> PostDoc {
    PostDoc {
        post_id: post.id,
        blog_id: post.blog_id,
        // Public search finds listed posts only: an unlisted one is found by its owner alone.
        published: post.published_at.is_some() && !post.unlisted,
        title: post.title.clone(),
        text: body.text(),
        tags: post.tags.clone(),
    }
}

/// The index document of a stored post (its body is read from its JSON).
pub fn stored_doc(post: &Post) -> anyhow::Result<PostDoc> {
    let body = Body::from_json(&post.body_json).with_context(|| format!("the body of post {}", post.id))?;
    Ok(doc(post, &body))
}

/// Rebuilds the index from the database when `force`d or when its committed sequence is not
/// the database's. Returns the number of posts indexed, or `None` when it was current.
pub fn sync(
    index: &SearchIndex,
    conn: &mut Connection,
    force: bool,
    show_progress: bool,
) -> anyhow::Result<Option<u64>> {
    // One read transaction: the sequence and the posts are the same snapshot.
    let tx = conn.transaction()?;
    let seq = posts::seq(&tx)?;
    if !force && index.committed_seq() == Some(seq) {
        return Ok(None);
    }
    let total = posts::count_all(&tx)?;
    let mut progress = show_progress.then(|| Progress::items("reindex", total, "posts"));
    index.rebuild(seq, |add| {
        posts::for_each(&tx, |post| {
            add(stored_doc(&post)?)?;
            if let Some(progress) = progress.as_mut() {
                progress.add(1);
            }
            Ok(())
        })
    })?;
    if let Some(progress) = progress {
        progress.finish();
    }
    tx.commit()?;
    Ok(Some(total))
}

/// Logs an index update that failed after its database write committed. Nothing is lost:
/// the failure marked the index stale, so however many writes follow, its commits no longer
/// record the database's sequence and the next start rebuilds it.
pub(super) fn log_failure(err: &anyhow::Error) {
    tracing::error!(error = format!("{err:#}"), "search index not updated; it is rebuilt at the next start");
}
