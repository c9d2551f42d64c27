//! `quire restore`: a backup unpacked and checked beside the data, then swapped in for it.

use std::fs::File;
use std::io::BufReader;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Component, Path, PathBuf};

use anyhow::{Context, anyhow, bail};

use super::{ACCOUNT_FILE, CERT_FILES, MANIFEST, UPLOADS_INCLUDED, check_integrity};
use crate::data_dir::{
    ACME_DIR, BACKUPS_DIR, CERTS_DIR, DB_FILE, DataDir, INDEX_DIR, LOCK_FILE, UPLOADS_DIR, is_replaced_folder,
};
use crate::db::{self, APPLICATION_ID, migrate};
use crate::progress::Progress;
use crate::tls::store::create_private_dir;

/// Restores `backup` into `data_dir`. The backup is unpacked and checked (manifest,
/// integrity, schema version) beside the data before anything is replaced.
pub fn restore(dir: &DataDir, backup: &Path, force: bool) -> anyhow::Result<()> {
    let file = File::open(backup).with_context(|| format!("cannot read {}", backup.display()))?;
    let total = file.metadata()?.len();
    let _lock = dir.lock()?;
    let data_dir = dir.root();
    if holds_data(data_dir)? && !force {
        bail!(
            "{} already holds Quire data; pass --force to replace it with the backup (nothing was changed)",
            data_dir.display()
        );
    }
    let staging = tempfile::Builder::new()
        .prefix(".restore-")
        .tempdir_in(data_dir)
        .with_context(|| format!("cannot write in {}", data_dir.display()))?;
    let not_ours = || format!("{} is not a Quire backup", backup.display());

    let mut progress = Progress::bytes("restore", total);
    unpack(file, staging.path(), &mut progress).with_context(not_ours)?;
    progress.finish();
    if !staging.path().join(MANIFEST).is_file() || !staging.path().join(DB_FILE).is_file() {
        bail!("{} (it has no {MANIFEST} or {DB_FILE})", not_ours());
    }
    let staged_db = staging.path().join(DB_FILE);
    let schema_version = {
        let conn = db::open_connection(&staged_db, false).with_context(not_ours)?;
        let app_id: i64 = conn.pragma_query_value(None, "application_id", |row| row.get(0))?;
        if app_id != APPLICATION_ID {
            bail!("{} (its database belongs to another program)", not_ours());
        }
        check_integrity(&conn).with_context(|| format!("the database in {} is damaged", backup.display()))?;
        migrate::check_not_newer(&conn)?
    };

    // A backup taken before a migration holds the database only: the live uploads stay.
    let manifest: serde_json::Value = std::fs::read(staging.path().join(MANIFEST))
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .ok_or_else(|| anyhow!("{} (its {MANIFEST} is not JSON)", not_ours()))?;
    let with_uploads = manifest.get(UPLOADS_INCLUDED).and_then(serde_json::Value::as_bool) != Some(false);

    // The swap: nothing above touched the live data.
    let staged_uploads = staging.path().join(UPLOADS_DIR);
    if with_uploads && !staged_uploads.exists() {
        std::fs::create_dir(&staged_uploads)?;
    }
    let staged_uploads = with_uploads.then_some(staged_uploads.as_path());
    let replaced = swap_in(dir, staging.path(), &staged_db, staged_uploads)?;
    println!(
        "Restored {} (schema version {schema_version}) into {}. Start `quire serve` to use it.",
        backup.display(),
        data_dir.display()
    );
    if let Some(replaced) = replaced {
        println!("The data it replaced is in {}; remove it when you no longer need it.", replaced.display());
    }
    Ok(())
}

/// Moves the live data (database with its WAL files, uploads, index) into a new
/// `replaced-<UTC time>` folder of the data directory and the restored database and uploads
/// into place. The replaced data stays until the admin removes it: a restore never deletes
/// data. If any step fails, every step already made is undone, so the live data is back where
/// it was. Returns the folder holding the replaced data, or `None` when there was none.
///
/// `acme/` and `certs/` are replaced only when the backup has them: a backup without
/// certificates (from a server behind a proxy, or an older Quire) keeps the live ones, which
/// are only ever served for names Quire serves. `uploads/` is replaced unless `staged_uploads`
/// is `None` (a backup taken before a migration, which keeps the live uploads).
fn swap_in(
    dir: &DataDir,
    staging: &Path,
    staged_db: &Path,
    staged_uploads: Option<&Path>,
) -> anyhow::Result<Option<PathBuf>> {
    let data_dir = dir.root();
    let set_aside = dir.new_replaced_folder()?;
    let mut moves = Moves::default();
    let swapped = (|| -> anyhow::Result<()> {
        // The database before its WAL: a crash in between leaves it in a replaced-* folder,
        // which `serve` refuses to start beside, never a database without its last commits.
        let wal = format!("{DB_FILE}-wal");
        let shm = format!("{DB_FILE}-shm");
        for name in [DB_FILE, &wal, &shm, UPLOADS_DIR, INDEX_DIR] {
            if name == UPLOADS_DIR && staged_uploads.is_none() {
                continue;
            }
            let live = data_dir.join(name);
            if live.symlink_metadata().is_ok() {
                moves
                    .rename(&live, &set_aside.join(name))
                    .with_context(|| format!("moving {} aside", live.display()))?;
            }
        }
        moves.rename(staged_db, &dir.database()).context("moving the restored database into place")?;
        if let Some(staged_uploads) = staged_uploads {
            moves.rename(staged_uploads, &dir.uploads()).context("moving the restored uploads into place")?;
        }
        for name in [ACME_DIR, CERTS_DIR] {
            let (staged, live) = (staging.join(name), data_dir.join(name));
            if staged.is_dir() {
                if live.symlink_metadata().is_ok() {
                    moves
                        .rename(&live, &set_aside.join(name))
                        .with_context(|| format!("moving {} aside", live.display()))?;
                }
                moves.rename(&staged, &live).with_context(|| format!("moving the restored {name}/ into place"))?;
            }
        }
        Ok(())
    })();
    if let Err(err) = swapped {
        return Err(match moves.undo() {
            Ok(()) => {
                let _ = std::fs::remove_dir(&set_aside);
                anyhow!("{err:#}; the live data was put back and nothing was changed")
            }
            Err(undo) => anyhow!(
                "{err:#}; putting the live data back failed too ({undo:#}): what is not back in {} is in {}",
                data_dir.display(),
                set_aside.display()
            ),
        });
    }
    // The old index describes the replaced database: it is derived, so it is not kept. Empty
    // folders are not data either (remove_dir removes nothing else).
    let old_index = set_aside.join(INDEX_DIR);
    match std::fs::remove_dir_all(&old_index) {
        Err(err) if err.kind() != std::io::ErrorKind::NotFound => {
            tracing::warn!(error = %err, "could not remove the replaced search index {}", old_index.display());
        }
        _ => {}
    }
    let _ = std::fs::remove_dir(set_aside.join(UPLOADS_DIR));
    Ok(std::fs::remove_dir(&set_aside).is_err().then_some(set_aside))
}

/// Renames made so far, to undo them if a later one fails.
#[derive(Default)]
struct Moves {
    done: Vec<(PathBuf, PathBuf)>,
}

impl Moves {
    fn rename(&mut self, from: &Path, to: &Path) -> std::io::Result<()> {
        std::fs::rename(from, to)?;
        self.done.push((from.to_owned(), to.to_owned()));
        Ok(())
    }

    /// Moves everything back, newest first; goes on past a failure and reports the first.
    fn undo(self) -> anyhow::Result<()> {
        let mut first_error = None;
        for (from, to) in self.done.into_iter().rev() {
            if let Err(err) = std::fs::rename(&to, &from) {
                first_error.get_or_insert(anyhow!("moving {} back: {err}", to.display()));
            }
        }
        first_error.map_or(Ok(()), Err)
    }
}

/// Whether the data directory holds anything beyond an empty uploads folder, the lock, the
/// folders of earlier restores and the backups taken before migrations (a restore never touches
/// those).
fn holds_data(data_dir: &Path) -> anyhow::Result<bool> {
    for entry in std::fs::read_dir(data_dir).with_context(|| format!("cannot read {}", data_dir.display()))? {
        let entry = entry?;
        let name = entry.file_name();
        if name == LOCK_FILE || name == BACKUPS_DIR || is_replaced_folder(&name) {
            continue;
        }
        if name == UPLOADS_DIR && std::fs::read_dir(entry.path())?.next().is_none() {
            continue;
        }
        return Ok(true);
    }
    Ok(false)
}

/// Unpacks the archive, accepting only the entries a Quire backup has.
fn unpack(file: File, dest: &Path, progress: &mut Progress) -> anyhow::Result<()> {
    let mut archive = tar::Archive::new(BufReader::new(file));
    for entry in archive.entries().context("not a tar archive")? {
        let mut entry = entry.context("not a tar archive")?;
        let path = entry.path()?.into_owned();
        let components: Vec<Component> = path.components().collect();
        let is_dir = entry.header().entry_type().is_dir();
        // The account and certificates: files only, written 0600 in 0700 folders.
        let private = match components.as_slice() {
            [Component::Normal(dir), Component::Normal(file)] => *dir == ACME_DIR && *file == ACCOUNT_FILE,
            [Component::Normal(dir), Component::Normal(_), Component::Normal(file)] => {
                *dir == CERTS_DIR && CERT_FILES.iter().any(|name| file == name)
            }
            _ => false,
        };
        let allowed = match components.as_slice() {
            _ if private => !is_dir,
            [Component::Normal(name)] if !is_dir => *name == MANIFEST || *name == DB_FILE,
            [Component::Normal(dir)] => *dir == UPLOADS_DIR,
            [Component::Normal(dir), Component::Normal(_)] => *dir == UPLOADS_DIR && !is_dir,
            _ => false,
        };
        if !allowed || !(is_dir || entry.header().entry_type().is_file()) {
            bail!("unexpected entry {:?}", path);
        }
        let target = dest.join(&path);
        if is_dir {
            std::fs::create_dir_all(&target)?;
            continue;
        }
        if let Some(parent) = target.parent() {
            if private {
                create_private_dir(parent)?;
            } else {
                std::fs::create_dir_all(parent)?;
            }
        }
        let size = entry.header().size().unwrap_or(0);
        let mode = if private { 0o600 } else { 0o644 };
        let mut out = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(mode)
            .open(&target)
            .with_context(|| format!("cannot write {}", target.display()))?;
        std::io::copy(&mut entry, &mut out).with_context(|| format!("writing {}", target.display()))?;
        out.sync_all()?;
        progress.add(size);
    }
    Ok(())
}
