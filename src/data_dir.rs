//! The data directory: the one place that knows its file names, and its lock.
//!
//! ```text
//! quire.db           SQLite (WAL): the only source of truth
//! index/             the search index, derived from quire.db
//! uploads/           uploaded images, named by content hash
//! dev-idp-key.pem    the local issuer's signing key (only when it is used)
//! quire.lock         held by the process using the directory
//! ```

use std::fs::File;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

/// The database file's name.
pub const DB_FILE: &str = "quire.db";
/// The search index folder's name.
pub const INDEX_DIR: &str = "index";
/// The uploads folder's name.
pub const UPLOADS_DIR: &str = "uploads";
/// The lock file's name.
pub const LOCK_FILE: &str = "quire.lock";
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

    /// The local issuer's signing key.
    pub fn local_issuer_key(&self) -> PathBuf {
        self.root.join(LOCAL_ISSUER_KEY)
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
            Err(std::fs::TryLockError::WouldBlock) => bail!(
                "another quire process is using data directory {}; stop it first",
                self.root.display()
            ),
            Err(std::fs::TryLockError::Error(err)) => {
                Err(err).with_context(|| format!("cannot lock {}", path.display()))
            }
        }
    }
}
