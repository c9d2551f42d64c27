//! `quire export`: writes one blog's export (archive, Markdown or static site) from the data
//! directory to a file. It only reads, in one read transaction, so like `quire backup` it is
//! safe while `quire serve` runs and writes; it takes no lock.

use std::path::Path;

use anyhow::{Context, anyhow, bail};

use crate::blogs::exports::{self, ExportFormat};
use crate::config::Config;
use crate::data_dir::DataDir;
use crate::db::{self, migrate};
use crate::http::blog::static_site::StaticSite;
use crate::progress::{Progress, human};

/// Writes the export of the blog `subdomain` as `format` to `out`, which must not exist.
/// `config` gives the addresses the static site's feeds and canonical links name.
pub fn run_command(
    data_dir: &DataDir,
    subdomain: &str,
    format: ExportFormat,
    out: &Path,
    config: Config,
) -> anyhow::Result<()> {
    if out.exists() {
        bail!("{} already exists; give a new file name (nothing was written)", out.display());
    }
    let path = data_dir.database();
    if !path.is_file() {
        bail!("there is no database at {}; nothing to export", path.display());
    }
    let conn = db::open_connection(&path, false)?;
    db::check_is_quire(&conn, &path)?;
    if migrate::check_not_newer(&conn)? < migrate::latest_version() {
        bail!("the database needs migrations first: run `quire migrate --data-dir {}`", data_dir.root().display());
    }
    if db::exports::blog_settings(&conn, subdomain)?.is_none() {
        bail!("there is no blog {subdomain:?} in {}", data_dir.root().display());
    }
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let file = tempfile::Builder::new()
        .prefix(".quire-export-")
        .suffix(".zip")
        .tempfile_in(parent)
        .with_context(|| format!("cannot write in {}", parent.display()))?;
    let media = crate::media_store::MediaStore::open(data_dir, &config.uploads)?;
    let site = StaticSite::new(config);
    let mut progress: Option<Progress> = None;
    let mut on_progress = |done: u64, total: u64| -> anyhow::Result<()> {
        progress.get_or_insert_with(|| Progress::items("export", total, "items")).reach(done);
        Ok(())
    };
    let size = exports::write(&conn, &media, subdomain, format, &site, file.reopen()?, &mut on_progress)
        .with_context(|| format!("writing {}", out.display()))?;
    if let Some(progress) = progress {
        progress.finish();
    }
    file.persist_noclobber(out).map_err(|err| anyhow!("cannot create {}: {}", out.display(), err.error))?;
    println!("Exported {subdomain} ({}) to {} ({}).", format.name(), out.display(), human(size));
    Ok(())
}
