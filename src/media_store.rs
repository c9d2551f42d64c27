//! Where uploaded images are kept: the data directory's `uploads/` folder, or an S3-compatible
//! bucket (`--uploads-url`, through Apache Arrow's `object_store`). A file's name is the SHA-256 of
//! its bytes and its type's extension, so writing it again writes the same bytes: a retry after a
//! failure is harmless, and a file is never changed, only written or deleted.
//!
//! The database says which files exist (`images` rows); this says where their bytes are. The write
//! path (`blogs/uploads.rs`) writes a file before the row that references it, and deletes one only
//! when no row references it, each under the file's [`MediaStore::lock`], so an upload and the
//! deletion of the same bytes' last other owner never interleave.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, anyhow, bail};
use bytes::Bytes;
use futures_util::StreamExt;
use object_store::aws::{AmazonS3, AmazonS3Builder, AmazonS3ConfigKey};
use object_store::path::Path as ObjectPath;
use object_store::{ClientConfigKey, ObjectStore, PutPayload, RetryConfig};

use crate::config::{BucketConfig, UploadsConfig};
use crate::data_dir::DataDir;

/// The uploads' store. Cheap to clone.
#[derive(Clone)]
pub struct MediaStore {
    backend: Arc<Backend>,
    /// One lock per slice of names (by the hash's first byte): an upload and a deletion of the
    /// same file take the same one.
    locks: Arc<[tokio::sync::Mutex<()>; LOCKS]>,
}

/// How many locks names share (a hash's first byte, modulo this).
const LOCKS: usize = 64;

enum Backend {
    Folder(PathBuf),
    Bucket(Bucket),
}

struct Bucket {
    store: AmazonS3,
    config: BucketConfig,
}

/// Why the bucket did not do what was asked; the message names the bucket and the cause.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct StoreError(String);

impl std::fmt::Debug for MediaStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

impl MediaStore {
    /// The uploads in a folder (the data directory's `uploads/`).
    pub fn folder(dir: impl Into<PathBuf>) -> MediaStore {
        MediaStore::with(Backend::Folder(dir.into()))
    }

    /// The store `config` names for `data_dir`: its `uploads/` folder, or the bucket. Reads the
    /// credentials (from the environment or the credentials file) now, refusing to go on without
    /// them; nothing is sent to the bucket yet.
    pub fn open(data_dir: &DataDir, config: &UploadsConfig) -> anyhow::Result<MediaStore> {
        let Some(bucket) = &config.bucket else { return Ok(MediaStore::folder(data_dir.uploads())) };
        let mut builder = AmazonS3Builder::from_env().with_bucket_name(&bucket.bucket);
        match &bucket.credentials {
            Some(file) => {
                let (key, secret, token) = read_credentials_file(file)?;
                builder = builder.with_access_key_id(key).with_secret_access_key(secret);
                if let Some(token) = token {
                    builder = builder.with_token(token);
                }
            }
            None => {
                let given = |name: &str| std::env::var(name).is_ok_and(|value| !value.trim().is_empty());
                if !given("AWS_ACCESS_KEY_ID") || !given("AWS_SECRET_ACCESS_KEY") {
                    bail!(
                        "--uploads-url {} needs the bucket's credentials: set AWS_ACCESS_KEY_ID and \
                         AWS_SECRET_ACCESS_KEY (in the environment or the service's environment file), \
                         or give --uploads-credentials FILE",
                        bucket.url()
                    );
                }
            }
        }
        let timeout = format!("{}s", bucket.timeout.as_secs());
        let retry = RetryConfig { max_retries: 2, retry_timeout: bucket.timeout, ..RetryConfig::default() };
        let store = builder
            .with_config(AmazonS3ConfigKey::Client(ClientConfigKey::Timeout), &timeout)
            .with_config(AmazonS3ConfigKey::Client(ClientConfigKey::ConnectTimeout), "5s")
            .with_retry(retry)
            .build()
            .with_context(|| format!("--uploads-url {}", bucket.url()))?;
        Ok(MediaStore::with(Backend::Bucket(Bucket { store, config: bucket.clone() })))
    }

    fn with(backend: Backend) -> MediaStore {
        MediaStore { backend: Arc::new(backend), locks: Arc::new(std::array::from_fn(|_| Default::default())) }
    }

    /// Whether the files are in a bucket rather than a local folder.
    pub fn is_bucket(&self) -> bool {
        matches!(*self.backend, Backend::Bucket(_))
    }

    /// Where the files are, for messages: a folder's path or the bucket's `s3://` URL.
    pub fn describe(&self) -> String {
        match &*self.backend {
            Backend::Folder(dir) => dir.display().to_string(),
            Backend::Bucket(bucket) => bucket.config.url(),
        }
    }

    /// The local path of a file, when the files are in a folder.
    pub fn local_path(&self, name: &str) -> Option<PathBuf> {
        match &*self.backend {
            Backend::Folder(dir) => Some(dir.join(name)),
            Backend::Bucket(_) => None,
        }
    }

    /// Where readers are sent for `name` (`--uploads-public-url`), when they are not served by Quire.
    pub fn public_url(&self, name: &str) -> Option<String> {
        match &*self.backend {
            Backend::Bucket(Bucket { config: BucketConfig { public_url: Some(base), .. }, .. }) => {
                Some(format!("{base}{name}"))
            }
            _ => None,
        }
    }

    /// The lock an upload of `name` and a deletion of it both hold.
    pub async fn lock(&self, name: &str) -> tokio::sync::MutexGuard<'_, ()> {
        let slot = name.bytes().take(2).fold(0usize, |acc, b| acc * 31 + usize::from(b)) % LOCKS;
        self.locks[slot].lock().await
    }

    /// Writes `bytes` as `name` (the same bytes again when it is there).
    pub async fn put(&self, name: &str, bytes: Bytes) -> Result<(), StoreError> {
        match &*self.backend {
            Backend::Folder(dir) => {
                let path = dir.join(name);
                tokio::task::spawn_blocking(move || write_file(&path, &bytes))
                    .await
                    .map_err(|err| StoreError(err.to_string()))?
                    .map_err(|err| StoreError(format!("{err:#}")))
            }
            Backend::Bucket(bucket) => bucket
                .store
                .put(&bucket.key(name), PutPayload::from_bytes(bytes))
                .await
                .map(drop)
                .map_err(|err| bucket.error("writing", name, err)),
        }
    }

    /// The bytes of `name`; `None` when there is no such file.
    pub async fn get(&self, name: &str) -> Result<Option<Bytes>, StoreError> {
        match &*self.backend {
            Backend::Folder(dir) => match tokio::fs::read(dir.join(name)).await {
                Ok(bytes) => Ok(Some(bytes.into())),
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(err) => Err(StoreError(format!("reading {}: {err}", dir.join(name).display()))),
            },
            Backend::Bucket(bucket) => match bucket.store.get(&bucket.key(name)).await {
                Ok(found) => found.bytes().await.map(Some).map_err(|err| bucket.error("reading", name, err)),
                Err(object_store::Error::NotFound { .. }) => Ok(None),
                Err(err) => Err(bucket.error("reading", name, err)),
            },
        }
    }

    /// The bytes of `name` from a bucket as they arrive, with their length; `None` when there is
    /// no such file. (A folder's files are streamed by the caller from [`MediaStore::local_path`].)
    pub async fn stream(
        &self,
        name: &str,
    ) -> Result<Option<(u64, futures_util::stream::BoxStream<'static, std::io::Result<Bytes>>)>, StoreError> {
        match &*self.backend {
            Backend::Folder(_) => match self.get(name).await? {
                Some(bytes) => {
                    let len = bytes.len() as u64;
                    Ok(Some((len, futures_util::stream::once(async move { Ok(bytes) }).boxed())))
                }
                None => Ok(None),
            },
            Backend::Bucket(bucket) => match bucket.store.get(&bucket.key(name)).await {
                Ok(found) => {
                    let len = found.meta.size;
                    Ok(Some((len, found.into_stream().map(|chunk| chunk.map_err(std::io::Error::from)).boxed())))
                }
                Err(object_store::Error::NotFound { .. }) => Ok(None),
                Err(err) => Err(bucket.error("reading", name, err)),
            },
        }
    }

    /// Deletes `name`; nothing when it is not there.
    pub async fn delete(&self, name: &str) -> Result<(), StoreError> {
        match &*self.backend {
            Backend::Folder(dir) => match tokio::fs::remove_file(dir.join(name)).await {
                Ok(()) => Ok(()),
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(()),
                Err(err) => Err(StoreError(format!("removing {}: {err}", dir.join(name).display()))),
            },
            Backend::Bucket(bucket) => match bucket.store.delete(&bucket.key(name)).await {
                Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
                Err(err) => Err(bucket.error("deleting", name, err)),
            },
        }
    }

    /// Every file: (name, length), sorted by name.
    pub async fn list(&self) -> Result<Vec<(String, u64)>, StoreError> {
        let mut files = match &*self.backend {
            Backend::Folder(dir) => {
                let dir = dir.clone();
                tokio::task::spawn_blocking(move || list_folder(&dir))
                    .await
                    .map_err(|err| StoreError(err.to_string()))?
                    .map_err(|err| StoreError(format!("{err:#}")))?
            }
            Backend::Bucket(bucket) => {
                let prefix =
                    (!bucket.config.prefix.is_empty()).then(|| ObjectPath::from(bucket.config.prefix.as_str()));
                let mut listing = bucket.store.list(prefix.as_ref());
                let mut files = Vec::new();
                while let Some(meta) = listing.next().await {
                    let meta = meta.map_err(|err| bucket.error("listing", "", err))?;
                    // Only the prefix's own files, not a folder below it.
                    let mut parts =
                        meta.location.prefix_match(&prefix.clone().unwrap_or_default()).into_iter().flatten();
                    if let (Some(name), None) = (parts.next(), parts.next()) {
                        files.push((name.as_ref().to_owned(), meta.size));
                    }
                }
                files
            }
        };
        files.sort();
        Ok(files)
    }

    /// Writes, reads back and deletes a small file: whether the store takes and gives files
    /// (`quire doctor`). Returns how long the three took.
    pub async fn probe(&self) -> Result<std::time::Duration, StoreError> {
        let started = std::time::Instant::now();
        let name = format!(".quire-doctor-{:016x}", rand::random::<u64>());
        let bytes = Bytes::from_static(b"quire doctor checks that the image store takes and gives files\n");
        self.put(&name, bytes.clone()).await?;
        let back = self.get(&name).await;
        let deleted = self.delete(&name).await;
        if back?.as_ref() != Some(&bytes) {
            return Err(StoreError(format!("{}: a file written could not be read back the same", self.describe())));
        }
        deleted?;
        Ok(started.elapsed())
    }

    /// [`MediaStore::get`] from a thread outside the runtime's workers (a blocking task, or a
    /// command's own thread inside [`MediaStore::block_on`]).
    pub fn get_blocking(&self, name: &str) -> anyhow::Result<Option<Bytes>> {
        if let Backend::Folder(dir) = &*self.backend {
            return match std::fs::read(dir.join(name)) {
                Ok(bytes) => Ok(Some(bytes.into())),
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(err) => Err(err).with_context(|| format!("reading {}", dir.join(name).display())),
            };
        }
        block_on(self.get(name))?.map_err(|err| anyhow!(err))
    }

    /// Whether `name` is there, from a thread outside the runtime's workers.
    pub fn exists_blocking(&self, name: &str) -> anyhow::Result<bool> {
        match &*self.backend {
            Backend::Folder(dir) => Ok(dir.join(name).is_file()),
            Backend::Bucket(bucket) => match block_on(bucket.store.head(&bucket.key(name)))? {
                Ok(_) => Ok(true),
                Err(object_store::Error::NotFound { .. }) => Ok(false),
                Err(err) => Err(anyhow!(bucket.error("checking", name, err))),
            },
        }
    }

    /// [`MediaStore::put`] from a thread outside the runtime's workers.
    pub fn put_blocking(&self, name: &str, bytes: Bytes) -> anyhow::Result<()> {
        block_on(self.put(name, bytes))?.map_err(|err| anyhow!(err))
    }

    /// [`MediaStore::list`] from a thread outside the runtime's workers.
    pub fn list_blocking(&self) -> anyhow::Result<Vec<(String, u64)>> {
        if let Backend::Folder(dir) = &*self.backend {
            let mut files = list_folder(dir)?;
            files.sort();
            return Ok(files);
        }
        block_on(self.list())?.map_err(|err| anyhow!(err))
    }
}

/// Runs `future` to its end from a thread that is not one of the runtime's workers: a blocking
/// task's thread (its runtime is entered), or, outside any runtime (a command's own thread),
/// the process's one runtime for that, made on first use, so the bucket's client keeps its
/// connections from one call to the next.
fn block_on<F: std::future::Future>(future: F) -> anyhow::Result<F::Output> {
    static COMMANDS: std::sync::OnceLock<tokio::runtime::Runtime> = std::sync::OnceLock::new();
    if let Ok(handle) = tokio::runtime::Handle::try_current() {
        return Ok(handle.block_on(future));
    }
    let runtime = match COMMANDS.get() {
        Some(runtime) => runtime,
        None => {
            let made = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build()?;
            COMMANDS.get_or_init(|| made)
        }
    };
    Ok(runtime.block_on(future))
}

/// `quire uploads migrate`: copies every file of the data directory's `uploads/` to the bucket
/// (those there already with the same length are not sent again), then reads each back and checks
/// it against its name's SHA-256. Files whose bytes do not match their name are reported and not
/// copied. Fails, saying which, when any file is not in the bucket as it should be.
pub fn run_migrate_command(args: &crate::cli::UploadsMigrateArgs) -> anyhow::Result<()> {
    use sha2::{Digest, Sha256};

    let data_dir = args.data_dir.dir();
    let config = UploadsConfig::from_args(&args.uploads)?;
    let bucket = crate::config::require_bucket(&config)?.url();
    let source = data_dir.uploads();
    let mut files = list_folder(&source)?;
    files.sort();
    if files.is_empty() {
        println!("{} holds no uploads; nothing to copy to {bucket}.", source.display());
        return Ok(());
    }
    let store = MediaStore::open(&data_dir, &config)?;
    let there: std::collections::HashMap<String, u64> = store.list_blocking()?.into_iter().collect();
    let total = files.iter().map(|(_, len)| len).sum();
    let mut progress = crate::progress::Progress::bytes("copying", total);
    let (mut copied, mut already, mut skipped, mut wrong) = (0usize, 0usize, Vec::new(), Vec::new());
    let mut checked = Vec::new();
    for (name, len) in &files {
        let Some(hash) = stored_hash(name) else {
            skipped.push(format!("{name} (not an upload's name)"));
            progress.add(*len);
            continue;
        };
        let bytes =
            std::fs::read(source.join(name)).with_context(|| format!("reading {}", source.join(name).display()))?;
        if hex::encode(Sha256::digest(&bytes)) != hash {
            skipped.push(format!("{name} (its bytes do not match its name: damaged on disk?)"));
            progress.add(*len);
            continue;
        }
        if there.get(name) == Some(len) {
            already += 1;
        } else {
            store.put_blocking(name, Bytes::from(bytes))?;
            copied += 1;
        }
        checked.push(name.clone());
        progress.add(*len);
    }
    progress.finish();
    for name in &checked {
        let hash = stored_hash(name).unwrap_or_default();
        match store.get_blocking(name)? {
            Some(bytes) if hex::encode(Sha256::digest(&bytes)) == hash => {}
            Some(_) => wrong.push(format!("{name} (the bucket's bytes do not match its name)")),
            None => wrong.push(format!("{name} (not in the bucket after copying)")),
        }
    }
    println!(
        "Copied {copied} uploads to {bucket} ({already} were there already); {} of {} checked against their SHA-256.",
        checked.len() - wrong.len(),
        checked.len()
    );
    for line in &skipped {
        println!("Not copied: {line}");
    }
    if !wrong.is_empty() {
        bail!(
            "{} uploads are not in {bucket} as they should be: {}; run the command again",
            wrong.len(),
            wrong.join(", ")
        );
    }
    println!(
        "The files in {} are left in place: once quire serve runs with --uploads-url {bucket}, they are no longer read \
         and may be removed (keep them until a backup with --uploads-url has been taken).",
        source.display()
    );
    Ok(())
}

/// The hash an upload's name starts with (`<64 hex digits>.<png|jpg|gif>`); `None` for another name.
fn stored_hash(name: &str) -> Option<&str> {
    crate::domain::content::image::ImageType::of_stored_name(name)?;
    name.get(..64)
}

impl Bucket {
    fn key(&self, name: &str) -> ObjectPath {
        match self.config.prefix.as_str() {
            "" => ObjectPath::from(name),
            prefix => ObjectPath::from(format!("{prefix}/{name}")),
        }
    }

    /// What went wrong, for the log and the command line: the bucket, the file and the cause.
    fn error(&self, doing: &str, name: &str, err: object_store::Error) -> StoreError {
        let cause = match &err {
            object_store::Error::PermissionDenied { .. } | object_store::Error::Unauthenticated { .. } => {
                format!("the bucket refused the credentials ({err})")
            }
            _ => err.to_string(),
        };
        let what = if name.is_empty() { String::new() } else { format!(" {name}") };
        StoreError(format!("{doing}{what} in {}: {cause}", self.config.url()))
    }
}

/// Writes `bytes` to `path` through a temporary file beside it, unless it is there.
fn write_file(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    if path.is_file() {
        return Ok(());
    }
    let dir = path.parent().context("an upload's path has a folder")?;
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir).with_context(|| format!("writing in {}", dir.display()))?;
    std::io::Write::write_all(&mut tmp, bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

/// A folder's regular files: (name, length).
fn list_folder(dir: &Path) -> anyhow::Result<Vec<(String, u64)>> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(err) => return Err(err).with_context(|| format!("reading {}", dir.display())),
    };
    let mut files = Vec::new();
    for entry in entries {
        let entry = entry.with_context(|| format!("reading {}", dir.display()))?;
        let meta = entry.metadata()?;
        if let (true, Some(name)) = (meta.is_file(), entry.file_name().to_str()) {
            files.push((name.to_owned(), meta.len()));
        }
    }
    Ok(files)
}

/// The key, secret and session token of AWS_PROFILE's profile (or `default`) in an AWS
/// credentials file (`[profile]` sections of `key = value` lines).
fn read_credentials_file(path: &Path) -> anyhow::Result<(String, String, Option<String>)> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("--uploads-credentials: cannot read {}", path.display()))?;
    let profile = std::env::var("AWS_PROFILE").ok().filter(|p| !p.trim().is_empty()).unwrap_or("default".into());
    let (mut section, mut key, mut secret, mut token) = (String::from("default"), None, None, None);
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|rest| rest.strip_suffix(']')) {
            section = name.trim().trim_start_matches("profile ").trim().to_owned();
            continue;
        }
        let Some((name, value)) = line.split_once('=') else { continue };
        if section != profile {
            continue;
        }
        let value = Some(value.trim().to_owned()).filter(|v| !v.is_empty());
        match name.trim().to_ascii_lowercase().as_str() {
            "aws_access_key_id" => key = value,
            "aws_secret_access_key" => secret = value,
            "aws_session_token" => token = value,
            _ => {}
        }
    }
    match (key, secret) {
        (Some(key), Some(secret)) => Ok((key, secret, token)),
        _ => bail!(
            "--uploads-credentials {}: no aws_access_key_id and aws_secret_access_key in its [{profile}] profile",
            path.display()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_credentials_file_gives_its_default_profile() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("credentials");
        std::fs::write(
            &path,
            "[other]\naws_access_key_id = NOPE\naws_secret_access_key = NOPE\n\n\
             [default]\n# a comment\naws_access_key_id = AKIDEXAMPLE\naws_secret_access_key=wJalr/K7MDENG\n",
        )
        .unwrap();
        assert_eq!(read_credentials_file(&path).unwrap(), ("AKIDEXAMPLE".into(), "wJalr/K7MDENG".into(), None));
        std::fs::write(&path, "[default]\naws_access_key_id = AKIDEXAMPLE\n").unwrap();
        let err = read_credentials_file(&path).unwrap_err().to_string();
        assert!(err.contains("no aws_access_key_id and aws_secret_access_key in its [default] profile"), "{err}");
    }

    #[tokio::test]
    async fn a_folder_store_writes_reads_lists_and_deletes() {
        let dir = tempfile::tempdir().unwrap();
        let store = MediaStore::folder(dir.path().join("uploads"));
        assert_eq!(store.get("a.png").await.unwrap(), None);
        store.put("a.png", Bytes::from_static(b"png")).await.unwrap();
        store.put("a.png", Bytes::from_static(b"png")).await.unwrap();
        assert_eq!(store.get("a.png").await.unwrap().as_deref(), Some(&b"png"[..]));
        assert_eq!(store.list().await.unwrap(), vec![("a.png".to_owned(), 3)]);
        store.probe().await.unwrap();
        store.delete("a.png").await.unwrap();
        store.delete("a.png").await.unwrap();
        assert!(store.list().await.unwrap().is_empty());
    }
}
