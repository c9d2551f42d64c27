//! `quire reindex`: rebuilds the search index of a stopped server's data directory.

use anyhow::{Context, bail};

use crate::blogs::index::sync;
use crate::data_dir::DataDir;
use crate::db::{self, migrate};
use crate::search::SearchIndex;

/// Rebuilds the index from the database, with a progress bar.
pub fn run_command(data_dir: &DataDir) -> anyhow::Result<()> {
    let path = data_dir.database();
    data_dir.check_database_or_fresh()?;
    if !path.is_file() {
        bail!("there is no database at {}; nothing to index", path.display());
    }
    let _lock = data_dir.lock()?;
    let mut conn = db::open_connection(&path, false)?;
    db::check_is_quire(&conn, &path)?;
    if migrate::check_not_newer(&conn)? < migrate::latest_version() {
        bail!("the database needs migrations first: run `quire migrate --data-dir {}`", data_dir.root().display());
    }
    let index = SearchIndex::open(&data_dir.index()).context("opening the search index")?;
    let indexed = sync(&index, &mut conn, true, true)?.unwrap_or(0);
    println!("Indexed {indexed} posts in {}.", data_dir.index().display());
    Ok(())
}
