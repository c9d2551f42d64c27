//! The data directory: the one place that knows its file names, and its lock.
//!
//! ```text
//! quire.db           SQLite (WAL): the only source of truth
//! index/             the search index, derived from quire.db
//! uploads/           uploaded images, named by content hash (unless --uploads-url keeps them in a bucket)
//! exports/           exports being written or waiting to be downloaded (a day at most)
//! dev-idp-key.pem    the local issuer's signing key (only when it is used)
//! acme/account.json  the ACME account's key and URL (with --acme-email; 0600)
//! certs/<name>/      each name's certificate chain and key, cert.pem and key.pem (ACME; 0600)
//! quire.lock         held by the process using the directory
//! replaced-<time>/   the data a `quire restore` replaced, kept until the admin removes it
//! backups/           the database as it was before each of the last three migrations
//! ```

use std::ffi::OsStr;
use std::fs::File;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

/// The database file's name.
pub const DB_FILE: &str = "quire.db";
/// The search index folder's name.
pub const INDEX_DIR: &str = "index";
/// The uploads folder's name.
pub const UPLOADS_DIR: &str = "uploads";
/// The exports folder's name.
pub const EXPORTS_DIR: &str = "exports";
/// The lock file's name.
pub const LOCK_FILE: &str = "quire.lock";
/// What the names of the folders holding the data a restore replaced begin with.
const REPLACED_PREFIX: &str = "replaced-";
/// The folder of the backups taken before migrations.
pub const BACKUPS_DIR: &str = "backups";
/// The ACME account's folder.
pub const ACME_DIR: &str = "acme";
/// The certificates' folder.
pub const CERTS_DIR: &str = "certs";
/// The local issuer's signing key.
const LOCAL_ISSUER_KEY: &str = "dev-idp-key.pem";

/// A data directory, by its root path. Cheap to clone; nothing is touched until asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataDir {
    root: PathBuf,
}

/// Held while a process uses the directory; dropping it releases the lock.
#[derive(Debug)]
pub struct DataDirLock {
    _file: File,
}

impl DataDir {
    /// The data directory at `root`.
    pub fn new(root: impl Into<PathBuf>) -> DataDir {
        DataDir { root: root.into() }
    }

    /// Its root folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The SQLite database.
    pub fn database(&self) -> PathBuf {
        self.root.join(DB_FILE)
    }

    /// The search index folder.
    pub fn index(&self) -> PathBuf {
        self.root.join(INDEX_DIR)
    }

    /// The uploads folder.
    pub fn uploads(&self) -> PathBuf {
        self.root.join(UPLOADS_DIR)
    }

    /// One uploaded file, by its stored name.
    pub fn upload(&self, name: &str) -> PathBuf {
        self.uploads().join(name)
    }

    /// The folder of export files (written by background jobs, removed after a day).
    pub fn exports(&self) -> PathBuf {
        self.root.join(EXPORTS_DIR)
    }

    /// One file of the exports folder, by its name.
    pub fn export(&self, name: &str) -> PathBuf {
        self.exports().join(name)
    }

    /// The folder of the backups taken before migrations.
    pub fn backups(&self) -> PathBuf {
        self.root.join(BACKUPS_DIR)
    }

    /// The local issuer's signing key.
    pub fn local_issuer_key(&self) -> PathBuf {
        self.root.join(LOCAL_ISSUER_KEY)
    }

    /// The ACME account file (its key and URL at the CA).
    pub fn acme_account(&self) -> PathBuf {
        self.root.join(ACME_DIR).join("account.json")
    }

    /// The folder of certificates obtained over ACME, one folder per name.
    pub fn certs(&self) -> PathBuf {
        self.root.join(CERTS_DIR)
    }

    /// Refuses a directory that holds Quire data (uploads, an index, the data a restore set
    /// aside) but no database: the database was lost or moved, and creating an empty one
    /// would hide that. A fresh directory, or one with only empty folders, passes.
    pub fn check_database_or_fresh(&self) -> anyhow::Result<()> {
        if self.database().exists() {
            return Ok(());
        }
        let non_empty = |dir: PathBuf| std::fs::read_dir(dir).is_ok_and(|mut entries| entries.next().is_some());
        let replaced = std::fs::read_dir(&self.root)
            .into_iter()
            .flatten()
            .filter_map(Result::ok)
            .find(|entry| is_replaced_folder(&entry.file_name()));
        let what = if non_empty(self.uploads()) {
            "uploads".to_owned()
        } else if non_empty(self.index()) {
            "a search index".to_owned()
        } else if let Some(folder) = replaced {
            format!("the data a restore set aside in {}", folder.path().display())
        } else if non_empty(self.backups()) {
            format!("backups taken before migrations in {}", self.backups().display())
        } else {
            return Ok(());
        };
        bail!(
            "{} holds {what} but no database ({DB_FILE}); restore a backup with `quire restore --data-dir {} BACKUP`, \
             or move the folder away to start afresh (nothing was changed)",
            self.root.display(),
            self.root.display()
        )
    }

    /// Creates a new, empty `replaced-<UTC time>` folder for the data a restore replaces.
    pub fn new_replaced_folder(&self) -> anyhow::Result<PathBuf> {
        let stamp = utc_stamp()?;
        for attempt in 1..=100 {
            let name = match attempt {
                1 => format!("{REPLACED_PREFIX}{stamp}"),
                n => format!("{REPLACED_PREFIX}{stamp}-{n}"),
            };
            let path = self.root.join(name);
            match std::fs::create_dir(&path) {
                Ok(()) => return Ok(path),
                Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(err) => return Err(err).with_context(|| format!("cannot create {}", path.display())),
            }
        }
        bail!("cannot find a free name for a replaced-* folder in {}", self.root.display())
    }

    /// Creates the directory and its uploads folder, and takes its lock so two servers (or a
    /// server and a restore) never share it.
    pub fn lock(&self) -> anyhow::Result<DataDirLock> {
        std::fs::create_dir_all(self.uploads())
            .with_context(|| format!("cannot create data directory {}", self.root.display()))?;
        let path = self.root.join(LOCK_FILE);
        let file = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .with_context(|| format!("cannot write in data directory {}", self.root.display()))?;
        match file.try_lock() {
            Ok(()) => Ok(DataDirLock { _file: file }),
            Err(std::fs::TryLockError::WouldBlock) => Err(InUse(self.root.clone()).into()),
            Err(std::fs::TryLockError::Error(err)) => {
                Err(err).with_context(|| format!("cannot lock {}", path.display()))
            }
        }
    }
}

/// Why [`DataDir::lock`] failed when another process (a running `quire serve`) holds the
/// directory; a command may give its own advice in its place.
#[derive(Debug, thiserror::Error)]
#[error("another quire process is using data directory {}; stop it first", .0.display())]
pub struct InUse(pub PathBuf);

/// Now in UTC as the names of `replaced-*` folders and of `backups/` files carry it:
/// `20261129T021500Z`, which sorts by time.
pub fn utc_stamp() -> anyhow::Result<String> {
    let format = time::macros::format_description!("[year][month][day]T[hour][minute][second]Z");
    Ok(time::OffsetDateTime::now_utc().format(format)?)
}

/// Whether a data directory entry is a folder where a restore set replaced data aside.
pub fn is_replaced_folder(name: &OsStr) -> bool {
    name.to_str().is_some_and(|name| name.starts_with(REPLACED_PREFIX))
}
