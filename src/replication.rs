//! `quire replication config` (docs/replication.md): Litestream's configuration for the data
//! directory's database, so that every committed write is shipped off the machine within about
//! a second, and a new machine restores it with `litestream restore`.
//!
//! Quire needs nothing else from Litestream's side: the database is in WAL mode, its writes
//! wait for locks (`busy_timeout`), and SQLite's own automatic checkpoints run as usual
//! (Litestream follows them: tests/api/replication.rs measures it).

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use anyhow::{Context, bail};

use crate::cli::ReplicationConfigArgs;
use crate::data_dir::DataDir;

/// The replica schemes Litestream 0.5 knows.
const SCHEMES: &[&str] = &["s3", "gs", "abs", "sftp", "webdav", "webdavs", "nats", "oss", "file"];

/// Prints the configuration, or one clear line on stderr and exit code 1 (through main).
pub fn run_config_command(args: &ReplicationConfigArgs) -> anyhow::Result<()> {
    let data_dir = args.data_dir.dir();
    print!("{}", config_yaml(&data_dir, &args.replica)?);
    Ok(())
}

/// Litestream's configuration replicating the database of `data_dir` to `replica`.
pub fn config_yaml(data_dir: &DataDir, replica: &str) -> anyhow::Result<String> {
    let database = std::path::absolute(data_dir.database()).context("finding the data directory")?;
    if !database.is_file() {
        bail!("there is no database at {}; start `quire serve` once first", database.display());
    }
    let database_text = database.to_str().with_context(|| {
        format!("the database's path {} is not UTF-8: Litestream's file cannot name it", database.display())
    })?;
    let root = std::path::absolute(data_dir.root()).context("finding the data directory")?;
    let url = replica_url(replica, &root)?;
    Ok(format!(
        "# Litestream's configuration for Quire's database, made by `quire replication config`
# (docs/replication.md). Run it beside `quire serve`:
#   litestream replicate -config THIS_FILE
# Restore on a new machine, before the first `quire serve` there:
#   litestream restore -config THIS_FILE {restore_path}
# Credentials are not in this file: Litestream reads them from its environment
# (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY for S3 and S3-compatible stores).
dbs:
  - path: {path}
    replica:
      url: {url}
",
        restore_path = shell_word(database_text),
        path = yaml_string(database_text),
        url = yaml_string(&url),
    ))
}

/// `replica` as the URL Litestream's file names, or why it cannot be a replica.
fn replica_url(replica: &str, data_dir: &Path) -> anyhow::Result<String> {
    let replica = replica.trim();
    if replica.is_empty() {
        bail!("--replica is empty: give where the replica goes, like s3://bucket/quire or /mnt/backup/quire");
    }
    if replica.starts_with('/') {
        let path = PathBuf::from(replica);
        refuse_inside(&path, data_dir)?;
        return Ok(url::Url::from_file_path(&path)
            .map_err(|()| anyhow::anyhow!("--replica {replica} is not a usable path"))?
            .to_string());
    }
    let Some((scheme, _)) = replica.split_once("://") else {
        bail!("--replica {replica} is neither an absolute path nor a URL like s3://bucket/quire");
    };
    let url = url::Url::parse(replica).with_context(|| format!("--replica {replica} is not a URL"))?;
    if !SCHEMES.contains(&url.scheme()) {
        bail!("--replica: Litestream cannot replicate to {scheme}:// (it knows {})", SCHEMES.join("://, ") + "://");
    }
    if url.password().is_some() {
        bail!(
            "--replica holds a password: keep credentials out of the URL (the configuration is a file others may read); \
             Litestream reads them from its environment"
        );
    }
    for (name, _) in url.query_pairs() {
        let name = name.to_ascii_lowercase().replace(['-', '_'], "");
        if name.contains("secret") || name.contains("accesskey") || name.contains("password") || name.contains("token")
        {
            bail!(
                "--replica holds a credential ({name}): keep it out of the URL; Litestream reads it from its environment"
            );
        }
    }
    if url.scheme() == "file" {
        let path = url.to_file_path().map_err(|()| anyhow::anyhow!("--replica {replica} is not a local path"))?;
        refuse_inside(&path, data_dir)?;
    } else if url.host_str().is_none_or(str::is_empty) {
        bail!("--replica {replica} names no bucket or host");
    }
    Ok(url.to_string())
}

/// How far the replica is from the database (`quire doctor --replica`).
#[derive(Debug)]
pub struct Freshness {
    /// The replica's newest transaction (Litestream's TXID) and when its file was written.
    pub replicated: Option<(u64, SystemTime)>,
    /// The newest transaction Litestream has taken from the database on this machine (its
    /// `.quire.db-litestream/` files); `None` when it keeps none (never ran, or idle a while).
    pub local: Option<u64>,
    /// When the database's write-ahead log was last written, when it holds frames.
    pub last_write: Option<SystemTime>,
}

/// A write this much newer than the replica's newest file is taken as not in it (the file times
/// of an S3 replica have whole seconds).
const TIME_GRAIN: Duration = Duration::from_secs(2);

impl Freshness {
    /// How long ago the database was last written, when that write is newer than the replica's
    /// newest file: a running Litestream ships a write within a second, so a write older than that
    /// and not in the replica means the replica is behind.
    pub fn waiting(&self) -> Option<Duration> {
        let written = self.last_write?;
        if let Some((_, replicated)) = self.replicated
            && written <= replicated + TIME_GRAIN
        {
            return None;
        }
        Some(SystemTime::now().duration_since(written).unwrap_or_default())
    }
}

/// Reads the replica at `replica` (a path, `file://`, or `s3://` with Litestream's `endpoint`,
/// `region` and `force-path-style` query, credentials from the `AWS_*` environment) and the
/// database's and Litestream's local state. Other replica types are refused with a pointer to
/// `litestream ltx`.
pub async fn freshness(data_dir: &DataDir, replica: &str) -> anyhow::Result<Freshness> {
    let url = replica_url(replica, data_dir.root())?;
    let url = url::Url::parse(&url)?;
    let replicated = match url.scheme() {
        "file" => {
            let dir = url.to_file_path().map_err(|()| anyhow::anyhow!("--replica {replica} is not a local path"))?;
            tokio::task::spawn_blocking(move || newest_in_folder(&dir.join("ltx"))).await??
        }
        "s3" => newest_in_bucket(&url).await?,
        scheme => bail!(
            "quire doctor reads file and s3 replicas; for a {scheme}:// replica, `litestream ltx -config FILE DB` \
             lists what it holds"
        ),
    };
    let db = data_dir.database();
    let state = db.with_file_name(format!(".{}-litestream", crate::data_dir::DB_FILE)).join("ltx");
    let local = newest_in_folder(&state)?.map(|(txid, _)| txid);
    let wal = db.with_file_name(format!("{}-wal", crate::data_dir::DB_FILE));
    let last_write = std::fs::metadata(&wal).ok().filter(|meta| meta.len() > 32).and_then(|meta| meta.modified().ok());
    Ok(Freshness { replicated, local, last_write })
}

/// The highest transaction among the LTX files (`<min>-<max>.ltx`, in a folder per level) under
/// `ltx` (a file replica's `ltx/`, or Litestream's own `.quire.db-litestream/ltx/`), and the
/// newest such file's time.
fn newest_in_folder(ltx: &Path) -> anyhow::Result<Option<(u64, SystemTime)>> {
    let mut newest: Option<(u64, SystemTime)> = None;
    let levels = match std::fs::read_dir(ltx) {
        Ok(levels) => levels,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(err) => return Err(err).with_context(|| format!("reading {}", ltx.display())),
    };
    for level in levels.flatten() {
        for file in std::fs::read_dir(level.path()).into_iter().flatten().flatten() {
            let (Some(txid), Ok(meta)) = (max_txid(&file.file_name().to_string_lossy()), file.metadata()) else {
                continue;
            };
            newest = Some(later(newest, (txid, meta.modified()?)));
        }
    }
    Ok(newest)
}

/// The same, from an `s3://bucket/path` replica.
async fn newest_in_bucket(url: &url::Url) -> anyhow::Result<Option<(u64, SystemTime)>> {
    use futures_util::StreamExt;
    use object_store::ObjectStore;

    let bucket = url.host_str().unwrap_or_default();
    let mut builder = object_store::aws::AmazonS3Builder::from_env().with_bucket_name(bucket);
    for (name, value) in url.query_pairs() {
        match name.as_ref() {
            "endpoint" => builder = builder.with_endpoint(value.as_ref()).with_allow_http(value.starts_with("http://")),
            "region" => builder = builder.with_region(value.as_ref()),
            "force-path-style" => builder = builder.with_virtual_hosted_style_request(value != "true"),
            _ => {}
        }
    }
    let store = builder.build().with_context(|| format!("reading the replica {url}"))?;
    // Litestream 0.5 keeps an S3 replica's files as `<path>/<level, 4 digits>/<min>-<max>.ltx`.
    let prefix = object_store::path::Path::from(url.path().trim_matches('/'));
    let mut listing = store.list(Some(&prefix));
    let mut newest: Option<(u64, SystemTime)> = None;
    while let Some(meta) = listing.next().await {
        let meta = meta.with_context(|| format!("listing the replica {url}"))?;
        if let Some(txid) = meta.location.filename().and_then(max_txid) {
            newest = Some(later(newest, (txid, meta.last_modified.into())));
        }
    }
    Ok(newest)
}

/// The last transaction an LTX file holds, from its name (`0000000000000001-0000000000000005.ltx`).
fn max_txid(name: &str) -> Option<u64> {
    let (_, max) = name.strip_suffix(".ltx")?.split_once('-')?;
    u64::from_str_radix(max, 16).ok()
}

/// The higher transaction, and the later time, of two.
fn later(current: Option<(u64, SystemTime)>, (txid, time): (u64, SystemTime)) -> (u64, SystemTime) {
    match current {
        Some((old_txid, old_time)) => (old_txid.max(txid), old_time.max(time)),
        None => (txid, time),
    }
}

/// A replica in the data directory is lost with it.
fn refuse_inside(replica: &Path, data_dir: &Path) -> anyhow::Result<()> {
    let replica = std::path::absolute(replica).unwrap_or_else(|_| replica.to_path_buf());
    let inside = |dir: &Path| replica.starts_with(dir);
    let resolved = data_dir.canonicalize().ok();
    if inside(data_dir) || resolved.as_deref().is_some_and(inside) {
        bail!(
            "--replica {} is inside the data directory {}: a replica must survive losing it (another disk, \
             another machine, object storage)",
            replica.display(),
            data_dir.display()
        );
    }
    Ok(())
}

/// `text` as a YAML double-quoted scalar.
fn yaml_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `text` as one word of a POSIX shell command line (single-quoted when it needs quoting).
fn shell_word(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+:=@,".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        return text.to_owned();
    }
    format!("'{}'", text.replace('\'', "'\\''").replace(char::is_control, "?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data_dir_with_database() -> (tempfile::TempDir, DataDir) {
        let dir = tempfile::tempdir().unwrap();
        let data_dir = DataDir::new(dir.path().join("data"));
        std::fs::create_dir_all(data_dir.root()).unwrap();
        std::fs::write(data_dir.database(), b"").unwrap();
        (dir, data_dir)
    }

    #[test]
    fn the_configuration_names_the_database_and_the_replica_and_no_credential() {
        let (_dir, data_dir) = data_dir_with_database();
        let yaml = config_yaml(&data_dir, "s3://quire-backups/main?endpoint=https://s3.example.net").unwrap();
        let database = data_dir.database().display().to_string();
        assert!(yaml.contains(&format!("  - path: \"{database}\"\n")), "{yaml}");
        assert!(yaml.contains("      url: \"s3://quire-backups/main?endpoint=https://s3.example.net\"\n"), "{yaml}");
        assert!(yaml.contains(&format!("litestream restore -config THIS_FILE {database}")), "{yaml}");

        let yaml = config_yaml(&data_dir, "/mnt/other-disk/quire").unwrap();
        assert!(yaml.contains("      url: \"file:///mnt/other-disk/quire\"\n"), "{yaml}");
    }

    #[test]
    fn a_replica_that_would_be_lost_or_leak_or_cannot_work_is_refused_with_why() {
        let (_dir, data_dir) = data_dir_with_database();
        let inside = format!("{}/replica", data_dir.root().display());
        for (replica, says) in [
            ("", "--replica is empty"),
            ("backups/quire", "neither an absolute path nor a URL"),
            ("ftp://host/quire", "cannot replicate to ftp://"),
            ("s3://KEY:SECRET@bucket/quire", "holds a password"),
            ("s3://bucket/quire?secret-access-key=x", "holds a credential"),
            ("s3:///quire", "names no bucket"),
            (inside.as_str(), "inside the data directory"),
            (&format!("file://{inside}"), "inside the data directory"),
        ] {
            let err = config_yaml(&data_dir, replica).unwrap_err().to_string();
            assert!(err.contains(says), "{replica:?}: {err}");
        }
        let missing = DataDir::new(data_dir.root().join("nothing-here"));
        let err = config_yaml(&missing, "s3://bucket/quire").unwrap_err().to_string();
        assert!(err.contains("there is no database at") && err.contains("start `quire serve` once first"), "{err}");
    }

    #[test]
    fn odd_paths_are_quoted_for_yaml_and_the_shell() {
        assert_eq!(yaml_string(r#"/srv/"q"\x"#), r#""/srv/\"q\"\\x""#);
        assert_eq!(yaml_string("a\nb"), "\"a\\u000ab\"");
        assert_eq!(shell_word("/var/lib/quire/quire.db"), "/var/lib/quire/quire.db");
        assert_eq!(shell_word("/srv/it's here/quire.db"), "'/srv/it'\\''s here/quire.db'");
    }
}
