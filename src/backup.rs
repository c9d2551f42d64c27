//! `quire backup` and `quire restore`.
//!
//! A backup is one tar file: `quire-backup.json` (what made it), `quire.db` (a consistent
//! snapshot taken with SQLite's online backup API, safe while `serve` writes) and
//! `uploads/`, and with them the certificates of a server that serves HTTPS itself:
//! `acme/account.json` and `certs/<name>/{cert.pem,key.pem}`, as entries of mode 0600 (a
//! restore writes them 0600 in 0700 folders). The search index is not included: it is rebuilt from the database. Nor is
//! `exports/`: exports are made from the database and live a day at most; after a restore the
//! next start forgets finished exports whose file is gone (`Blogs::recover_jobs`).

use std::fs::File;
use std::io::{BufReader, BufWriter, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Component, Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{Context, anyhow, bail};
use rusqlite::Connection;
use rusqlite::backup::{Backup, StepResult};
use serde_json::json;

use crate::data_dir::{ACME_DIR, CERTS_DIR, DB_FILE, DataDir, INDEX_DIR, LOCK_FILE, UPLOADS_DIR, is_replaced_folder};
use crate::db::{self, APPLICATION_ID, migrate};
use crate::progress::{Progress, human};
use crate::tls::store::create_private_dir;

const MANIFEST: &str = "quire-backup.json";

/// Writes a backup of `data_dir` to `out`, which must not exist. Nothing is left behind on failure.
pub fn backup(data_dir: &DataDir, out: &Path) -> anyhow::Result<()> {
    if out.exists() {
        bail!("{} already exists; give a new file name (nothing was written)", out.display());
    }
    let db_path = data_dir.database();
    if !db_path.is_file() {
        bail!("there is no database at {}; nothing to back up", db_path.display());
    }
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !parent.is_dir() {
        bail!("cannot write {}: folder {} does not exist", out.display(), parent.display());
    }
    let staging = tempfile::Builder::new()
        .prefix(".quire-backup-")
        .tempdir_in(parent)
        .with_context(|| format!("cannot write in {}", parent.display()))?;

    let snapshot = staging.path().join(DB_FILE);
    let schema_version = snapshot_database(&db_path, &snapshot)?;
    let uploads = list_uploads(&data_dir.uploads())?;
    let private = list_private(data_dir.root())?;

    let total = file_len(&snapshot)? + uploads.iter().chain(&private).map(|(_, _, len)| len).sum::<u64>();
    let mut progress = Progress::bytes("backup", total);
    let archive = tempfile::Builder::new()
        .prefix(".quire-backup-")
        .suffix(".tar")
        .tempfile_in(parent)
        .with_context(|| format!("cannot write in {}", parent.display()))?;
    let write_context = || format!("writing {}", out.display());
    let mut tar = tar::Builder::new(BufWriter::new(archive));
    let created = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default().as_secs();
    let manifest = json!({
        "format": 1,
        "quire": env!("CARGO_PKG_VERSION"),
        "schemaVersion": schema_version,
        "createdAt": created,
    })
    .to_string();
    append_bytes(&mut tar, MANIFEST, manifest.as_bytes()).with_context(write_context)?;
    append_file(&mut tar, &snapshot, DB_FILE, 0o644, &mut progress).with_context(write_context)?;
    for (name, path, _) in &uploads {
        append_file(&mut tar, path, &format!("{UPLOADS_DIR}/{name}"), 0o644, &mut progress)
            .with_context(write_context)?;
    }
    for (name, path, _) in &private {
        append_file(&mut tar, path, name, 0o600, &mut progress).with_context(write_context)?;
    }
    let archive = tar
        .into_inner()
        .and_then(|writer| writer.into_inner().map_err(|err| err.into_error()))
        .with_context(write_context)?;
    archive.as_file().sync_all().with_context(write_context)?;
    archive.persist_noclobber(out).map_err(|err| anyhow!("cannot create {}: {}", out.display(), err.error))?;
    progress.finish();
    println!(
        "Backed up {} (schema version {schema_version}, {} uploads) to {} ({}).",
        data_dir.root().display(),
        uploads.len(),
        out.display(),
        human(file_len(out)?)
    );
    Ok(())
}

/// Copies the live database into `dest` in one step (one read transaction, so the copy is a
/// consistent snapshot even while another process writes), then checks the copy.
fn snapshot_database(source: &Path, dest: &Path) -> anyhow::Result<i64> {
    let src = db::open_connection(source, false)?;
    db::check_is_quire(&src, source)?;
    let schema_version = migrate::check_not_newer(&src)?;
    let mut copy = Connection::open(dest).with_context(|| format!("cannot create {}", dest.display()))?;
    {
        let backup = Backup::new(&src, &mut copy)?;
        let mut attempts = 0;
        loop {
            match backup.step(-1).context("copying the database")? {
                StepResult::Done => break,
                StepResult::More => continue,
                StepResult::Busy | StepResult::Locked if attempts < 100 => {
                    attempts += 1;
                    std::thread::sleep(Duration::from_millis(50));
                }
                _ => bail!("the database stayed locked; try again"),
            }
        }
    }
    check_integrity(&copy).context("the snapshot failed its integrity check")?;
    Ok(schema_version)
}

fn check_integrity(conn: &Connection) -> anyhow::Result<()> {
    let result: String = conn.query_row("PRAGMA integrity_check", [], |row| row.get(0))?;
    if result != "ok" {
        bail!("integrity_check says: {result}");
    }
    Ok(())
}

/// The regular files of the uploads folder: (name, path, length).
fn list_uploads(dir: &Path) -> anyhow::Result<Vec<(String, PathBuf, u64)>> {
    list_entries(dir, true)
}

/// The regular files (or the folders) of `dir`, sorted: (name, path, length).
fn list_entries(dir: &Path, want_files: bool) -> anyhow::Result<Vec<(String, PathBuf, u64)>> {
    let mut files = Vec::new();
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(files),
        Err(err) => return Err(err).with_context(|| format!("cannot read {}", dir.display())),
    };
    for entry in entries {
        let entry = entry?;
        let meta = entry.metadata()?;
        let wanted = if want_files { meta.is_file() } else { meta.is_dir() };
        if let (true, Some(name)) = (wanted, entry.file_name().to_str()) {
            files.push((name.to_owned(), entry.path(), meta.len()));
        }
    }
    files.sort();
    Ok(files)
}

/// The ACME account and certificates (`acme/account.json`, `certs/<name>/{cert,key}.pem`):
/// (name in the archive, path, length).
fn list_private(root: &Path) -> anyhow::Result<Vec<(String, PathBuf, u64)>> {
    let mut files = Vec::new();
    let account = root.join(ACME_DIR).join(ACCOUNT_FILE);
    if account.is_file() {
        files.push((format!("{ACME_DIR}/{ACCOUNT_FILE}"), account.clone(), file_len(&account)?));
    }
    for (folder, _, _) in list_entries(&root.join(CERTS_DIR), false)? {
        for file in CERT_FILES {
            let path = root.join(CERTS_DIR).join(&folder).join(file);
            if path.is_file() {
                files.push((format!("{CERTS_DIR}/{folder}/{file}"), path.clone(), file_len(&path)?));
            }
        }
    }
    Ok(files)
}

/// The ACME account's file in `acme/`, and a certificate folder's files.
const ACCOUNT_FILE: &str = "account.json";
const CERT_FILES: [&str; 2] = ["cert.pem", "key.pem"];

fn file_len(path: &Path) -> anyhow::Result<u64> {
    Ok(std::fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?.len())
}

fn append_bytes<W: std::io::Write>(tar: &mut tar::Builder<W>, name: &str, bytes: &[u8]) -> std::io::Result<()> {
    let mut header = tar::Header::new_gnu();
    header.set_size(bytes.len() as u64);
    header.set_mode(0o644);
    header.set_cksum();
    tar.append_data(&mut header, name, bytes)
}

fn append_file<W: std::io::Write>(
    tar: &mut tar::Builder<W>,
    path: &Path,
    name: &str,
    mode: u32,
    progress: &mut Progress,
) -> anyhow::Result<()> {
    let file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut header = tar::Header::new_gnu();
    header.set_size(file.metadata()?.len());
    header.set_mode(mode);
    header.set_cksum();
    let reader = Counting { inner: BufReader::new(file), progress };
    tar.append_data(&mut header, name, reader)?;
    Ok(())
}

struct Counting<'a, R> {
    inner: R,
    progress: &'a mut Progress,
}

impl<R: Read> Read for Counting<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.progress.add(n as u64);
        Ok(n)
    }
}

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

    // The swap: nothing above touched the live data.
    let staged_uploads = staging.path().join(UPLOADS_DIR);
    if !staged_uploads.exists() {
        std::fs::create_dir(&staged_uploads)?;
    }
    let replaced = swap_in(dir, staging.path(), &staged_db, &staged_uploads)?;
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
/// are only ever served for names Quire serves.
fn swap_in(dir: &DataDir, staging: &Path, staged_db: &Path, staged_uploads: &Path) -> anyhow::Result<Option<PathBuf>> {
    let data_dir = dir.root();
    let set_aside = dir.new_replaced_folder()?;
    let mut moves = Moves::default();
    let swapped = (|| -> anyhow::Result<()> {
        // The database before its WAL: a crash in between leaves it in a replaced-* folder,
        // which `serve` refuses to start beside, never a database without its last commits.
        let wal = format!("{DB_FILE}-wal");
        let shm = format!("{DB_FILE}-shm");
        for name in [DB_FILE, &wal, &shm, UPLOADS_DIR, INDEX_DIR] {
            let live = data_dir.join(name);
            if live.symlink_metadata().is_ok() {
                moves
                    .rename(&live, &set_aside.join(name))
                    .with_context(|| format!("moving {} aside", live.display()))?;
            }
        }
        moves.rename(staged_db, &dir.database()).context("moving the restored database into place")?;
        moves.rename(staged_uploads, &dir.uploads()).context("moving the restored uploads into place")?;
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

/// Whether the data directory holds anything beyond an empty uploads folder, the lock and
/// the folders of earlier restores (a restore never touches those).
fn holds_data(data_dir: &Path) -> anyhow::Result<bool> {
    for entry in std::fs::read_dir(data_dir).with_context(|| format!("cannot read {}", data_dir.display()))? {
        let entry = entry?;
        let name = entry.file_name();
        if name == LOCK_FILE || is_replaced_folder(&name) {
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

#[cfg(test)]
mod proptests;
