//! SQLite storage: opening with the right pragmas, migrations, and one file per entity.
//!
//! rusqlite is blocking, so every call from the server goes through [`Db::read`] or
//! [`Db::write`], which run on tokio's blocking pool. There is one writer connection
//! (SQLite allows one writer at a time anyway) and a pool of readers, which WAL lets run
//! beside it: a fixed number of connections that stay open (their page caches warm, their
//! statements prepared), a read waiting for a free one rather than opening another.
//!
//! `quire.db` is the only source of truth: WAL, `synchronous=FULL`, foreign keys on, and
//! `application_id` marking the file as Quire's. Its schema is `migrations/*.sql`, applied in order
//! by `migrate.rs`. The search index, the page cache and the names served are all rebuilt from it.

pub mod acme_backoffs;
pub mod addons;
pub mod admin_requests;
pub mod api_tokens;
pub mod blocked_domains;
pub mod blogs;
pub mod custom_css;
pub mod custom_domains;
pub mod deliveries;
pub mod digests;
pub mod exports;
pub mod favicons;
pub mod federation_keys;
pub mod followers;
pub mod front_page;
pub mod images;
pub mod imports;
pub mod indieauth;
pub mod jobs;
pub mod mail_queue;
pub mod mail_settings;
pub mod migrate;
pub mod pages;
pub mod paragraphs;
pub mod posts;
pub mod preview_links;
pub mod public;
pub mod quota_uses;
pub mod reactions;
pub mod redirects;
pub mod remote_actors;
pub mod remote_refusals;
pub mod replies;
pub mod reports;
pub mod response_queue;
pub mod responses;
pub mod review;
pub mod revisions;
pub mod schedule;
pub mod sessions;
pub mod signups;
pub mod subscriber_list;
pub mod subscribers;
pub mod tags;
#[cfg(test)]
pub mod test_support;
pub mod themes;
pub mod trash;
pub mod users;
pub mod webmentions;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{Context, anyhow, bail};
use rusqlite::{Connection, OpenFlags};

use crate::data_dir::DataDir;
use crate::error::Error;

/// `PRAGMA application_id` of a Quire database ("QUIR"), to tell it from other SQLite files.
pub const APPLICATION_ID: i64 = 0x5155_4952;

/// Reader connections: twice the cores, from 4 to 16. A read waits for a free one, so at most
/// this many reads run at once and no connection is ever opened for one read and thrown away
/// (each new one reads the schema and starts with a cold page cache).
fn reader_pool_size() -> usize {
    std::thread::available_parallelism().map_or(4, |cores| 2 * cores.get()).clamp(4, 16)
}
/// Prepared statements each connection keeps (Quire has about 400 distinct ones; a connection
/// uses a few dozen).
const STATEMENT_CACHE: usize = 256;
/// SQLite's page cache per connection, in KiB (negative `cache_size` means KiB).
const CACHE_KIB: i64 = 1024;

/// A handle on the database, cheap to clone.
#[derive(Clone)]
pub struct Db {
    inner: Arc<Inner>,
}

struct Inner {
    path: PathBuf,
    writer: Mutex<Connection>,
    /// The idle reader connections (opened as needed, up to the pool's size).
    readers: Mutex<Vec<Connection>>,
    /// One permit per reader connection: a read holds one while it runs.
    reader_permits: Arc<tokio::sync::Semaphore>,
    /// How much of the file each reader connection opened from now on maps (`mmap_size`).
    reader_mmap: AtomicU64,
}

impl Db {
    /// Opens (creating when missing) the database of `data_dir`, migrated to the latest schema.
    pub fn open_and_migrate(data_dir: &DataDir) -> anyhow::Result<Db> {
        Db::open_and_migrate_with(data_dir, |_, _| Ok(()))
    }

    /// [`Db::open_and_migrate`], calling `before(from, to)` first when a database that already
    /// holds data (schema version `from` > 0) is about to be migrated to version `to`: `serve`
    /// backs it up there. When `before` fails, nothing is migrated.
    pub fn open_and_migrate_with(
        data_dir: &DataDir,
        before: impl FnOnce(i64, i64) -> anyhow::Result<()>,
    ) -> anyhow::Result<Db> {
        let path = data_dir.database();
        let mut conn = open_or_create(data_dir)?;
        migrate::before_migrating(&conn, before)?;
        migrate::migrate(&mut conn).with_context(|| format!("migrating {}", path.display()))?;
        let reader_permits = Arc::new(tokio::sync::Semaphore::new(reader_pool_size()));
        Ok(Db {
            inner: Arc::new(Inner {
                path,
                writer: Mutex::new(conn),
                readers: Mutex::new(Vec::new()),
                reader_permits,
                reader_mmap: AtomicU64::new(0),
            }),
        })
    }

    /// Maps up to `bytes` of the file into memory on each reader connection (SQLite's
    /// `mmap_size`; 0: none), instead of copying each page read from the kernel's page cache
    /// (`serve --db-mmap-mb`). Set before the first read: the connections already open keep theirs.
    pub fn map_reads(&self, bytes: u64) {
        self.inner.reader_mmap.store(bytes, Ordering::Relaxed);
    }

    /// Path of the database file.
    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// Runs `f` on a reader connection, off the async runtime, once one is free.
    pub async fn read<T, F>(&self, f: F) -> Result<T, Error>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T, Error> + Send + 'static,
    {
        self.read_then(f, Ok).await
    }

    /// Runs `read` on a reader connection, then `then` on what it read, on the same blocking
    /// thread with the connection already given back: a page's reads and its render in one trip
    /// off the async runtime (each trip is two thread wake-ups; bench/README.md, "The crawler's
    /// view").
    pub async fn read_then<R, T, F, G>(&self, read: F, then: G) -> Result<T, Error>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<R, Error> + Send + 'static,
        G: FnOnce(R) -> Result<T, Error> + Send + 'static,
    {
        let inner = self.inner.clone();
        let permit = inner.reader_permits.clone().acquire_owned().await.map_err(|err| Error::Internal(err.into()))?;
        spawn_blocking(move || {
            // With a permit held, the idle connections and those in use are at most the pool's size.
            let idle = inner.readers.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).pop();
            let conn = match idle {
                Some(conn) => conn,
                None => open_reader(&inner.path, inner.reader_mmap.load(Ordering::Relaxed)).map_err(Error::Internal)?,
            };
            let result = read(&conn);
            inner.readers.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push(conn);
            drop(permit);
            then(result?)
        })
        .await
    }

    /// Runs `f` on the writer connection, off the async runtime. Writes are serialized.
    pub async fn write<T, F>(&self, f: F) -> Result<T, Error>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection) -> Result<T, Error> + Send + 'static,
    {
        let inner = self.inner.clone();
        spawn_blocking(move || {
            let mut conn = inner.writer.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            f(&mut conn)
        })
        .await
    }
}

async fn spawn_blocking<T: Send + 'static>(f: impl FnOnce() -> Result<T, Error> + Send + 'static) -> Result<T, Error> {
    tokio::task::spawn_blocking(f).await.map_err(|err| Error::Internal(anyhow!("database task failed: {err}")))?
}

/// Opens the database of `data_dir`, creating it only in a fresh directory (never beside
/// uploads or an index whose database is gone), and checks that it is Quire's.
pub fn open_or_create(data_dir: &DataDir) -> anyhow::Result<Connection> {
    data_dir.check_database_or_fresh()?;
    let path = data_dir.database();
    let conn = open_connection(&path, true)?;
    check_is_quire(&conn, &path)?;
    Ok(conn)
}

/// Opens one connection with Quire's pragmas. `create` allows creating the file.
pub fn open_connection(path: &Path, create: bool) -> anyhow::Result<Connection> {
    let mut flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX | OpenFlags::SQLITE_OPEN_URI;
    if create {
        flags |= OpenFlags::SQLITE_OPEN_CREATE;
    }
    let conn =
        Connection::open_with_flags(path, flags).with_context(|| format!("cannot open database {}", path.display()))?;
    conn.busy_timeout(Duration::from_secs(5))?;
    // The first statement that reads the file is where a corrupt or foreign file shows.
    conn.pragma_update(None, "journal_mode", "WAL")
        .map_err(|err| anyhow!("{} is not a usable SQLite database: {err}", path.display()))?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    // FULL: a committed post survives a power cut, not only a crash.
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "cache_size", -CACHE_KIB)?;
    // Every statement is prepared once per connection (`prepare_cached`): room for all of them.
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
    Ok(conn)
}

/// A reader connection of the pool, mapping up to `mmap_bytes` of the file.
fn open_reader(path: &Path, mmap_bytes: u64) -> anyhow::Result<Connection> {
    let conn = open_connection(path, false)?;
    if mmap_bytes > 0 {
        conn.pragma_update(None, "mmap_size", i64::try_from(mmap_bytes).unwrap_or(i64::MAX))?;
    }
    Ok(conn)
}

/// A command's connection to the data directory's database, which must exist and be up to date
/// (a command never migrates it: `quire serve` or `quire migrate` does); one clear line otherwise.
/// Safe while `quire serve` runs (WAL).
pub fn open_for_command(data_dir: &DataDir) -> anyhow::Result<Connection> {
    let path = data_dir.database();
    data_dir.check_database_or_fresh()?;
    if !path.is_file() {
        bail!("there is no database at {}; start `quire serve` once first", path.display());
    }
    let conn = open_connection(&path, false)?;
    check_is_quire(&conn, &path)?;
    if migrate::check_not_newer(&conn)? < migrate::latest_version() {
        bail!("the database needs migrations first: run `quire migrate --data-dir {}`", data_dir.root().display());
    }
    Ok(conn)
}

/// Refuses SQLite files that belong to some other program.
pub fn check_is_quire(conn: &Connection, path: &Path) -> anyhow::Result<()> {
    let app_id: i64 = conn.pragma_query_value(None, "application_id", |row| row.get(0))?;
    if app_id == APPLICATION_ID {
        return Ok(());
    }
    let tables: i64 = conn.prepare_cached("SELECT count(*) FROM sqlite_master")?.query_row([], |row| row.get(0))?;
    if app_id != 0 || tables > 0 {
        bail!(
            "{} is not a Quire database (it belongs to another program); move it away or pick another --data-dir",
            path.display()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn readers_map_as_much_of_the_file_as_they_are_told_and_a_render_sees_what_was_read() {
        let dir = tempfile::tempdir().unwrap();
        let data_dir = DataDir::new(dir.path());
        let db = Db::open_and_migrate(&data_dir).unwrap();
        db.map_reads(8 << 20);
        let mapped = |conn: &Connection| Ok(conn.pragma_query_value(None, "mmap_size", |row| row.get::<_, i64>(0))?);
        assert_eq!(db.read(mapped).await.unwrap(), 8 << 20);
        let (version, then_thread) = db
            .read_then(
                |conn| {
                    Ok((
                        conn.pragma_query_value(None, "user_version", |row| row.get::<_, i64>(0))?,
                        std::thread::current().id(),
                    ))
                },
                |(version, read_thread)| Ok((version, read_thread == std::thread::current().id())),
            )
            .await
            .unwrap();
        assert_eq!((version, then_thread), (migrate::latest_version(), true));
        let failed = db
            .read_then(|_| Err::<(), _>(Error::not_found("post", "gone")), |()| -> Result<(), Error> { panic!("run") });
        assert!(matches!(failed.await, Err(Error::NotFound(_))), "a failed read is answered without its render");
    }
}
