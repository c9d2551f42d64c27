//! `quire backup` and `quire restore`, and the backup taken before a migration.
//!
//! A backup is one tar file: `quire-backup.json` (what made it), `quire.db` (a consistent
//! snapshot taken with SQLite's online backup API, safe while `serve` writes) and
//! `uploads/`, and with them the certificates of a server that serves HTTPS itself:
//! `acme/account.json` and `certs/<name>/{cert.pem,key.pem}`, as entries of mode 0600 (a
//! restore writes them 0600 in 0700 folders). The search index is not included: it is rebuilt from the database. Nor is
//! `exports/`: exports are made from the database and live a day at most; after a restore the
//! next start forgets finished exports whose file is gone (`Blogs::recover_jobs`).
//!
//! This file writes a backup; `restore` checks one and swaps it in.

mod restore;

pub use self::restore::restore;

use std::fs::File;
use std::io::{BufReader, BufWriter, Read};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{Context, anyhow, bail};
use rusqlite::Connection;
use rusqlite::backup::{Backup, StepResult};
use serde_json::json;

use crate::data_dir::{ACME_DIR, CERTS_DIR, DB_FILE, DataDir, UPLOADS_DIR};
use crate::db::{self, migrate};
use crate::media_store::MediaStore;
use crate::progress::{Progress, human};

const MANIFEST: &str = "quire-backup.json";

/// Writes a backup of `data_dir` to `out`, which must not exist, with the uploads read from where
/// `uploads` says they are (`--uploads-url`'s bucket, or the data directory). Nothing is left
/// behind on failure.
pub fn backup(data_dir: &DataDir, out: &Path, uploads: &crate::cli::UploadsArgs) -> anyhow::Result<()> {
    let media = MediaStore::open(data_dir, &crate::config::UploadsConfig::from_args(uploads)?)?;
    let written = write_backup(data_dir, out, Contents::Everything(&media))?;
    println!(
        "Backed up {} (schema version {}, {} uploads) to {} ({}).",
        data_dir.root().display(),
        written.schema_version,
        written.uploads,
        out.display(),
        human(file_len(out)?)
    );
    Ok(())
}

/// The backups taken before migrations that are kept; older ones are removed.
pub const KEEP_BEFORE_MIGRATION: usize = 3;

/// What the names of the backups taken before migrations begin with, in `backups/`.
const BEFORE_MIGRATION_PREFIX: &str = "before-migration-";

/// The backup `serve`, `migrate` and `import` write before they migrate a database holding data
/// from schema version `from` to `to`: `backups/before-migration-<UTC time>-schema-<from>.tar`
/// in the data directory, the same consistent snapshot as `quire backup` without the uploads
/// (named by their content and never changed, a migration does not touch them; a restore of it
/// keeps the uploads in place). The newest [`KEEP_BEFORE_MIGRATION`] are kept. Says where it is
/// and how to go back. When it cannot be written, nothing is migrated.
pub fn before_migration(data_dir: &DataDir, from: i64, to: i64) -> anyhow::Result<PathBuf> {
    let folder = data_dir.backups();
    std::fs::create_dir_all(&folder).with_context(|| format!("cannot create {}", folder.display()))?;
    let stamp = crate::data_dir::utc_stamp()?;
    let mut out = folder.join(format!("{BEFORE_MIGRATION_PREFIX}{stamp}-schema-{from}.tar"));
    for n in 2.. {
        if !out.exists() {
            break;
        }
        out = folder.join(format!("{BEFORE_MIGRATION_PREFIX}{stamp}-{n}-schema-{from}.tar"));
    }
    write_backup(data_dir, &out, Contents::DatabaseOnly).with_context(|| {
        format!("backing up the database before migrating it (nothing was migrated): {}", out.display())
    })?;
    println!(
        "Backed up the database (schema version {from}) to {} before migrating it to schema version {to}. \
         To go back: stop quire, run `quire restore --force --data-dir {} {}` with this binary, then put the \
         previous one back.",
        out.display(),
        data_dir.root().display(),
        out.display()
    );
    remove_old_before_migration(&folder)?;
    Ok(out)
}

/// Removes all but the newest [`KEEP_BEFORE_MIGRATION`] pre-migration backups of `folder` (by
/// when they were written); other files there are left alone.
fn remove_old_before_migration(folder: &Path) -> anyhow::Result<()> {
    let mut backups = Vec::new();
    for (name, path, _) in list_entries(folder, true)? {
        if name.starts_with(BEFORE_MIGRATION_PREFIX) && name.ends_with(".tar") {
            let written = std::fs::metadata(&path).and_then(|meta| meta.modified()).unwrap_or(UNIX_EPOCH);
            backups.push((written, name, path));
        }
    }
    backups.sort();
    let excess = backups.len().saturating_sub(KEEP_BEFORE_MIGRATION);
    for (_, _, path) in &backups[..excess] {
        std::fs::remove_file(path).with_context(|| format!("cannot remove the old backup {}", path.display()))?;
    }
    Ok(())
}

/// What a backup holds besides the database.
#[derive(Clone, Copy)]
enum Contents<'a> {
    /// The uploads (from this store) and the ACME account and certificates too (`quire backup`).
    Everything(&'a MediaStore),
    /// The database only (before a migration): a restore keeps the live uploads and certificates.
    DatabaseOnly,
}

/// What [`write_backup`] wrote.
struct Written {
    schema_version: i64,
    uploads: usize,
}

/// Writes a backup of `data_dir` to `out`, which must not exist. Nothing is left behind on failure.
fn write_backup(data_dir: &DataDir, out: &Path, contents: Contents<'_>) -> anyhow::Result<Written> {
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
    let (uploads, private) = match contents {
        Contents::Everything(media) => (media.list_blocking()?, list_private(data_dir.root())?),
        Contents::DatabaseOnly => (Vec::new(), Vec::new()),
    };

    let total = file_len(&snapshot)?
        + uploads.iter().map(|(_, len)| len).sum::<u64>()
        + private.iter().map(|(_, _, len)| len).sum::<u64>();
    let mut progress = Progress::bytes("backup", total);
    let archive = tempfile::Builder::new()
        .prefix(".quire-backup-")
        .suffix(".tar")
        .tempfile_in(parent)
        .with_context(|| format!("cannot write in {}", parent.display()))?;
    let write_context = || format!("writing {}", out.display());
    let mut tar = tar::Builder::new(BufWriter::new(archive));
    let created = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default().as_secs();
    let mut manifest = json!({
        "format": 1,
        "quire": env!("CARGO_PKG_VERSION"),
        "schemaVersion": schema_version,
        "createdAt": created,
    });
    if matches!(contents, Contents::DatabaseOnly) {
        manifest[UPLOADS_INCLUDED] = json!(false);
    }
    append_bytes(&mut tar, MANIFEST, manifest.to_string().as_bytes()).with_context(write_context)?;
    append_file(&mut tar, &snapshot, DB_FILE, 0o644, &mut progress).with_context(write_context)?;
    if let Contents::Everything(media) = contents {
        for (name, _) in &uploads {
            let entry = format!("{UPLOADS_DIR}/{name}");
            match media.local_path(name) {
                Some(path) => append_file(&mut tar, &path, &entry, 0o644, &mut progress),
                None => {
                    let bytes = media.get_blocking(name)?.ok_or_else(|| {
                        anyhow!("{name} went missing from {} while it was backed up", media.describe())
                    })?;
                    progress.add(bytes.len() as u64);
                    append_bytes(&mut tar, &entry, &bytes).map_err(anyhow::Error::from)
                }
            }
            .with_context(write_context)?;
        }
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
    Ok(Written { schema_version, uploads: uploads.len() })
}

/// The manifest's field that is `false` in a backup without the uploads and certificates (one
/// taken before a migration); a backup without it holds them all.
const UPLOADS_INCLUDED: &str = "uploadsIncluded";

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
    let result: String = conn.prepare_cached("PRAGMA integrity_check")?.query_row([], |row| row.get(0))?;
    if result != "ok" {
        bail!("integrity_check says: {result}");
    }
    Ok(())
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

#[cfg(test)]
mod proptests;
