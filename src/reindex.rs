//! Keeping the search index in step with the database: at start, and `quire reindex`.

use std::path::Path;

use anyhow::{Context, bail};
use rusqlite::Connection;

use crate::app::lock_data_dir;
use crate::db::{self, DB_FILE, migrate, posts};
use crate::progress::Progress;
use crate::search::{INDEX_DIR, SearchIndex};

/// Rebuilds the index from the database when `force`d or when its committed sequence is not
/// the database's. Returns the number of posts indexed, or `None` when it was current.
pub fn sync(index: &SearchIndex, conn: &mut Connection, force: bool, show_progress: bool) -> anyhow::Result<Option<u64>> {
    // One read transaction: the sequence and the posts are the same snapshot.
    let tx = conn.transaction()?;
    let seq = posts::seq(&tx)?;
    if !force && index.committed_seq() == Some(seq) {
        return Ok(None);
    }
    let total = posts::count_all(&tx)?;
    let mut progress = show_progress.then(|| Progress::items("reindex", total, "posts"));
    index.rebuild(seq, |add| {
        posts::for_each_doc(&tx, |doc| {
            add(doc)?;
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

/// `quire reindex`: rebuilds the index of a stopped server's data directory.
pub fn run_command(data_dir: &Path) -> anyhow::Result<()> {
    let path = data_dir.join(DB_FILE);
    if !path.is_file() {
        bail!("there is no database at {}; nothing to index", path.display());
    }
    let _lock = lock_data_dir(data_dir)?;
    let mut conn = db::open_connection(&path, false)?;
    db::check_is_quire(&conn, &path)?;
    if migrate::check_not_newer(&conn)? < migrate::latest_version() {
        bail!("the database needs migrations first: run `quire migrate --data-dir {}`", data_dir.display());
    }
    let index = SearchIndex::open(&data_dir.join(INDEX_DIR)).context("opening the search index")?;
    let indexed = sync(&index, &mut conn, true, true)?.unwrap_or(0);
    println!("Indexed {indexed} posts in {}.", data_dir.join(INDEX_DIR).display());
    Ok(())
}
