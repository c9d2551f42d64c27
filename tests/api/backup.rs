use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use rusqlite::Connection;

use crate::helpers::{quire, s, stderr};

fn migrated_data_dir(root: &Path, name: &str) -> std::path::PathBuf {
    let data = root.join(name);
    let out = quire(&["migrate", "--data-dir", s(&data)]);
    assert!(out.status.success(), "{}", stderr(&out));
    data
}

fn emails(db: &Path) -> Vec<String> {
    let conn = Connection::open(db).unwrap();
    let mut stmt = conn.prepare("SELECT email FROM users ORDER BY id").unwrap();
    stmt.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
}

fn add_user(db: &Path, email: &str) {
    let conn = Connection::open(db).unwrap();
    conn.execute("INSERT INTO users (email) VALUES (?1)", [email]).unwrap();
}

/// A data dir whose users are before@ and after@, and a backup `b.tar` taken between the two.
fn backed_up_then_changed(root: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let data = migrated_data_dir(root, "data");
    add_user(&data.join("quire.db"), "before@example.com");
    let archive = root.join("b.tar");
    assert!(quire(&["backup", "--data-dir", s(&data), s(&archive)]).status.success());
    add_user(&data.join("quire.db"), "after@example.com");
    (data, archive)
}

#[test]
fn a_backup_taken_while_another_process_writes_restores_a_consistent_prefix() {
    let root = tempfile::tempdir().unwrap();
    let data = migrated_data_dir(root.path(), "data");
    std::fs::write(data.join("uploads/abc123.png"), b"\x89PNG fake image bytes").unwrap();
    let written = Arc::new(AtomicUsize::new(0));
    let writer = {
        let db = data.join("quire.db");
        let written = written.clone();
        std::thread::spawn(move || {
            let conn = Connection::open(db).unwrap();
            conn.busy_timeout(Duration::from_secs(10)).unwrap();
            conn.pragma_update(None, "journal_mode", "WAL").unwrap();
            for i in 0..1000 {
                conn.execute("INSERT INTO users (email) VALUES (?1)", [format!("writer-{i}")]).unwrap();
                written.store(i + 1, Ordering::SeqCst);
                std::thread::sleep(Duration::from_micros(500));
            }
        })
    };
    while written.load(Ordering::SeqCst) < 100 {
        std::thread::sleep(Duration::from_millis(5));
    }
    let archive = root.path().join("backup.tar");
    let out = quire(&["backup", "--data-dir", s(&data), s(&archive)]);
    let during = written.load(Ordering::SeqCst);
    writer.join().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));

    let restored = root.path().join("restored");
    let out = quire(&["restore", "--data-dir", s(&restored), s(&archive)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let conn = Connection::open(restored.join("quire.db")).unwrap();
    let check: String = conn.query_row("PRAGMA integrity_check", [], |r| r.get(0)).unwrap();
    assert_eq!(check, "ok");
    let rows = emails(&restored.join("quire.db"));
    assert!(rows.len() >= 100, "the backup holds what was written before it began: {}", rows.len());
    assert!(rows.len() <= during.max(rows.len()) && rows.len() <= 1000);
    for (i, email) in rows.iter().enumerate() {
        assert_eq!(email, &format!("writer-{i}"), "rows form a prefix with no gap");
    }
    assert_eq!(std::fs::read(restored.join("uploads/abc123.png")).unwrap(), b"\x89PNG fake image bytes");
}

#[test]
fn a_backup_never_overwrites_an_existing_file() {
    let root = tempfile::tempdir().unwrap();
    let data = migrated_data_dir(root.path(), "data");
    let existing = root.path().join("precious.tar");
    std::fs::write(&existing, "keep me").unwrap();
    let out = quire(&["backup", "--data-dir", s(&data), s(&existing)]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("already exists"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&existing).unwrap(), "keep me");
    let leftovers: Vec<_> = std::fs::read_dir(root.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(leftovers.len(), 2, "no temporary files left: {leftovers:?}");
}

#[test]
fn a_backup_of_a_missing_database_or_into_a_missing_folder_is_one_clear_line() {
    let root = tempfile::tempdir().unwrap();
    let out = quire(&["backup", "--data-dir", s(&root.path().join("nothing")), s(&root.path().join("b.tar"))]);
    assert!(!out.status.success());
    assert!(stderr(&out).trim().starts_with("quire: there is no database"), "{}", stderr(&out));
    let data = migrated_data_dir(root.path(), "data");
    let out = quire(&["backup", "--data-dir", s(&data), s(&root.path().join("no/such/dir/b.tar"))]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("does not exist"), "{}", stderr(&out));
}

#[test]
fn restore_refuses_files_that_are_not_quire_backups_and_changes_nothing() {
    let root = tempfile::tempdir().unwrap();
    let garbage = root.path().join("garbage.tar");
    std::fs::write(&garbage, b"hello, I am not a tar file at all".repeat(40)).unwrap();

    let no_manifest = root.path().join("plain.tar");
    {
        let mut tar = tar::Builder::new(std::fs::File::create(&no_manifest).unwrap());
        let mut header = tar::Header::new_gnu();
        header.set_size(5);
        header.set_cksum();
        tar.append_data(&mut header, "notes.txt", &b"hello"[..]).unwrap();
        tar.finish().unwrap();
    }
    let escaping = root.path().join("escaping.tar");
    {
        let mut file = std::fs::File::create(&escaping).unwrap();
        let mut header = tar::Header::new_gnu();
        header.as_gnu_mut().unwrap().name[..13].copy_from_slice(b"../escaped.db");
        header.set_size(5);
        header.set_entry_type(tar::EntryType::Regular);
        header.set_cksum();
        use std::io::Write;
        file.write_all(header.as_bytes()).unwrap();
        file.write_all(&[b'x'; 512]).unwrap();
        file.write_all(&[0; 1024]).unwrap();
    }
    let data = root.path().join("data");
    for backup in [&garbage, &no_manifest, &escaping, &root.path().join("missing.tar")] {
        let out = quire(&["restore", "--data-dir", s(&data), s(backup)]);
        assert!(!out.status.success(), "{backup:?}");
        let err = stderr(&out);
        let error_lines: Vec<&str> = err.lines().filter(|l| l.starts_with("quire:")).collect();
        assert_eq!(error_lines.len(), 1, "one error line: {err}");
        assert_eq!(err.trim().lines().last(), Some(error_lines[0]), "and it is the last: {err}");
        assert!(err.contains("not a Quire backup") || err.contains("cannot read"), "{err}");
        assert!(!data.join("quire.db").exists());
    }
    assert!(!root.path().join("escaped.db").exists());
}

#[test]
fn restore_into_a_data_dir_in_use_needs_force_and_then_replaces_it() {
    let root = tempfile::tempdir().unwrap();
    let (data, archive) = backed_up_then_changed(root.path());

    let out = quire(&["restore", "--data-dir", s(&data), s(&archive)]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--force"), "{}", stderr(&out));
    assert_eq!(emails(&data.join("quire.db")), ["before@example.com", "after@example.com"]);

    let out = quire(&["restore", "--force", "--data-dir", s(&data), s(&archive)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(emails(&data.join("quire.db")), ["before@example.com"]);
    let leftovers: Vec<_> = std::fs::read_dir(&data)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with(".restore-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn restore_refuses_a_backup_from_a_newer_quire_or_with_a_damaged_database() {
    let root = tempfile::tempdir().unwrap();
    let data = migrated_data_dir(root.path(), "data");
    for i in 0..2000 {
        add_user(&data.join("quire.db"), &format!("user-{i}@example.com"));
    }
    let archive = root.path().join("good.tar");
    assert!(quire(&["backup", "--data-dir", s(&data), s(&archive)]).status.success());

    let rebuild = |name: &str, edit: &dyn Fn(&Path)| {
        let work = root.path().join(format!("{name}-work"));
        std::fs::create_dir(&work).unwrap();
        tar::Archive::new(std::fs::File::open(&archive).unwrap()).unpack(&work).unwrap();
        edit(&work.join("quire.db"));
        let out = root.path().join(format!("{name}.tar"));
        let mut tar = tar::Builder::new(std::fs::File::create(&out).unwrap());
        tar.append_path_with_name(work.join("quire-backup.json"), "quire-backup.json").unwrap();
        tar.append_path_with_name(work.join("quire.db"), "quire.db").unwrap();
        tar.finish().unwrap();
        out
    };
    let newer = rebuild("newer", &|db| {
        Connection::open(db).unwrap().pragma_update(None, "user_version", 99).unwrap();
    });
    let damaged = rebuild("damaged", &|db| {
        let mut bytes = std::fs::read(db).unwrap();
        let middle = bytes.len() / 2;
        bytes[middle..middle + 8192].fill(0xA5);
        std::fs::write(db, bytes).unwrap();
    });
    for (backup, expect) in [(&newer, "newer"), (&damaged, "damaged")] {
        let target = root.path().join(format!("target-{expect}"));
        let out = quire(&["restore", "--data-dir", s(&target), s(backup)]);
        assert!(!out.status.success(), "{expect}");
        assert!(stderr(&out).contains(expect) || stderr(&out).contains("not a Quire backup"), "{}", stderr(&out));
        assert!(!target.join("quire.db").exists(), "{expect}: nothing swapped in");
    }
}

#[test]
fn a_backup_onto_a_full_disk_is_one_clear_line_and_leaves_nothing() {
    let root = tempfile::tempdir().unwrap();
    let data = migrated_data_dir(root.path(), "data");
    let tiny = root.path().join("tiny");
    std::fs::create_dir(&tiny).unwrap();
    // A 64 KiB file system: the database (about 1 MB with its emoji) cannot fit. Mounting needs
    // root, which CI has; elsewhere this check cannot run and says so.
    let mounted = std::process::Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs", s(&tiny)])
        .output()
        .is_ok_and(|out| out.status.success());
    if !mounted {
        eprintln!("skipped: cannot mount a small tmpfs here (needs root)");
        return;
    }
    let out = quire(&["backup", "--data-dir", s(&data), s(&tiny.join("backup.tar"))]);
    let left: Vec<_> = std::fs::read_dir(&tiny).unwrap().map(|e| e.unwrap().file_name()).collect();
    let _ = std::process::Command::new("umount").arg(&tiny).status();
    assert!(!out.status.success());
    let err = stderr(&out);
    let last = err.trim().lines().last().unwrap_or("");
    assert!(last.starts_with("quire:") && last.contains("full"), "{err}");
    assert!(left.is_empty(), "nothing half-written is left: {left:?}");
}

/// Mounts a small tmpfs on `dir` (needs root, which CI has); false where that is not possible.
fn mount_tmpfs(dir: &Path) -> bool {
    std::process::Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=1m", "tmpfs", s(dir)])
        .output()
        .is_ok_and(|out| out.status.success())
}

/// The `replaced-*` folders of a data directory.
fn replaced_folders(data: &Path) -> Vec<std::path::PathBuf> {
    let mut found: Vec<_> = std::fs::read_dir(data)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_str().unwrap().starts_with("replaced-"))
        .collect();
    found.sort();
    found
}

#[test]
fn a_restore_whose_swap_fails_midway_puts_the_live_data_back() {
    let root = tempfile::tempdir().unwrap();
    let (data, archive) = backed_up_then_changed(root.path());
    // The uploads folder on its own file system, as an admin may set it up: renaming a mount
    // point fails (EBUSY) for root too, after the database has already been moved aside.
    if !mount_tmpfs(&data.join("uploads")) {
        eprintln!("skipped: cannot mount a tmpfs here (needs root)");
        return;
    }
    std::fs::write(data.join("uploads/live.png"), b"live image").unwrap();

    let out = quire(&["restore", "--force", "--data-dir", s(&data), s(&archive)]);
    let upload = std::fs::read(data.join("uploads/live.png"));
    let _ = std::process::Command::new("umount").arg(data.join("uploads")).status();

    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(data.join("quire.db").is_file(), "the live database is in place: {err}");
    assert_eq!(emails(&data.join("quire.db")), ["before@example.com", "after@example.com"]);
    let last = err.trim().lines().last().unwrap_or("");
    assert!(last.starts_with("quire:") && last.contains("put back"), "{err}");
    assert_eq!(err.lines().filter(|l| l.starts_with("quire:")).count(), 1, "{err}");
    let check: String =
        Connection::open(data.join("quire.db")).unwrap().query_row("PRAGMA integrity_check", [], |r| r.get(0)).unwrap();
    assert_eq!(check, "ok");
    assert_eq!(upload.unwrap(), b"live image");
    assert!(replaced_folders(&data).is_empty(), "nothing half-moved is left");
}

#[test]
fn a_restore_keeps_the_data_it_replaced_and_names_where() {
    let root = tempfile::tempdir().unwrap();
    let (data, archive) = backed_up_then_changed(root.path());
    std::fs::write(data.join("uploads/later.png"), b"uploaded after the backup").unwrap();

    let out = quire(&["restore", "--force", "--data-dir", s(&data), s(&archive)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let replaced = replaced_folders(&data);
    assert_eq!(replaced.len(), 1, "{replaced:?}");
    let said = crate::helpers::stdout(&out);
    assert!(
        said.contains(&format!(
            "The data it replaced is in {}; remove it when you no longer need it.",
            replaced[0].display()
        )),
        "{said}"
    );
    assert_eq!(emails(&replaced[0].join("quire.db")), ["before@example.com", "after@example.com"]);
    assert_eq!(std::fs::read(replaced[0].join("uploads/later.png")).unwrap(), b"uploaded after the backup");
    assert_eq!(emails(&data.join("quire.db")), ["before@example.com"]);
    assert!(!data.join("uploads/later.png").exists());

    // The set-aside folder is normal beside a database: the data dir migrates and restores again.
    let out = quire(&["migrate", "--data-dir", s(&data)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = quire(&["restore", "--force", "--data-dir", s(&data), s(&archive)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(replaced_folders(&data).len(), 2, "each restore keeps its own");
    let help = crate::helpers::stdout(&quire(&["restore", "--help"]));
    assert!(help.contains("replaced-<UTC time>/"), "--help says where replaced data goes: {help}");
}

#[test]
fn the_acme_account_and_certificates_are_backed_up_0600_and_restored_0600_in_0700_folders() {
    use std::os::unix::fs::PermissionsExt;
    let root = tempfile::tempdir().unwrap();
    let data = migrated_data_dir(root.path(), "data");
    let ca = crate::tls::TestCa::new();
    ca.plant(&data.join("certs"), "alice.example.com", 1, 89);
    std::fs::create_dir_all(data.join("acme")).unwrap();
    std::fs::write(data.join("acme/account.json"), br#"{"directory":"https://ca.example/dir"}"#).unwrap();
    let archive = root.path().join("b.tar");
    let out = quire(&["backup", "--data-dir", s(&data), s(&archive)]);
    assert!(out.status.success(), "{}", stderr(&out));

    let mut tar = tar::Archive::new(std::fs::File::open(&archive).unwrap());
    let modes: std::collections::BTreeMap<String, u32> = tar
        .entries()
        .unwrap()
        .map(|entry| {
            let entry = entry.unwrap();
            (entry.path().unwrap().to_string_lossy().into_owned(), entry.header().mode().unwrap())
        })
        .collect();
    for private in ["acme/account.json", "certs/alice.example.com/cert.pem", "certs/alice.example.com/key.pem"] {
        assert_eq!(modes.get(private), Some(&0o600), "{private} in {modes:?}");
    }
    assert_eq!(modes.get("quire.db"), Some(&0o644));

    let restored = root.path().join("restored");
    let out = quire(&["restore", "--data-dir", s(&restored), s(&archive)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mode = |path: &str| std::fs::metadata(restored.join(path)).unwrap().permissions().mode() & 0o777;
    for file in ["acme/account.json", "certs/alice.example.com/cert.pem", "certs/alice.example.com/key.pem"] {
        assert_eq!(mode(file), 0o600, "{file}");
        assert_eq!(std::fs::read(restored.join(file)).unwrap(), std::fs::read(data.join(file)).unwrap(), "{file}");
    }
    for folder in ["acme", "certs", "certs/alice.example.com"] {
        assert_eq!(mode(folder), 0o700, "{folder}");
    }

    // Restoring over a server's data: its certificates are set aside with the rest.
    ca.plant(&restored.join("certs"), "later.example.com", 1, 89);
    let out = quire(&["restore", "--force", "--data-dir", s(&restored), s(&archive)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let replaced = replaced_folders(&restored);
    assert!(replaced[0].join("certs/later.example.com/key.pem").is_file(), "{replaced:?}");
    assert!(!restored.join("certs/later.example.com").exists());
    assert!(restored.join("certs/alice.example.com/key.pem").is_file());

    // A tar entry elsewhere under certs/ is refused like any unexpected entry.
    let evil = root.path().join("evil.tar");
    let mut builder = tar::Builder::new(std::fs::File::create(&evil).unwrap());
    for (name, body) in [("quire-backup.json", &b"{}"[..]), ("certs/a.example/notes.txt", &b"x"[..])] {
        let mut header = tar::Header::new_gnu();
        header.set_size(body.len() as u64);
        header.set_mode(0o600);
        header.set_cksum();
        builder.append_data(&mut header, name, body).unwrap();
    }
    builder.into_inner().unwrap();
    let out = quire(&["restore", "--data-dir", s(&root.path().join("empty")), s(&evil)]);
    assert!(!out.status.success() && stderr(&out).contains("unexpected entry"), "{}", stderr(&out));
}

/// The database restored from a backup of a data dir holding alice's blog (id 1), to which
/// `add` added rows (with the folder holding it).
fn restored_with_alices_blog(add: impl FnOnce(&Connection)) -> (tempfile::TempDir, Connection) {
    let root = tempfile::tempdir().unwrap();
    let data = migrated_data_dir(root.path(), "data");
    {
        let conn = Connection::open(data.join("quire.db")).unwrap();
        conn.execute_batch(
            "INSERT INTO users (email) VALUES ('alice@example.com');
             INSERT INTO blogs (user_id, subdomain, name, theme_id, favicon_id, time_zone)
                 VALUES (1, 'alice', 'alice', (SELECT min(id) FROM themes), (SELECT min(id) FROM favicons), 'UTC');",
        )
        .unwrap();
        add(&conn);
    }
    let archive = root.path().join("b.tar");
    assert!(quire(&["backup", "--data-dir", s(&data), s(&archive)]).status.success());
    let restored = root.path().join("restored");
    let out = quire(&["restore", "--data-dir", s(&restored), s(&archive)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let conn = Connection::open(restored.join("quire.db")).unwrap();
    (root, conn)
}

#[test]
fn a_blogs_custom_domain_survives_backup_and_restore() {
    let (_root, conn) = restored_with_alices_blog(|conn| {
        conn.execute(
            "INSERT INTO custom_domains (blog_id, name, token, state, verified_at)
                 VALUES (1, 'blog.example.org', '0123456789abcdef0123456789abcdef', 'verified', '2026-11-24T08:00:00.000Z')",
            [],
        )
        .unwrap();
    });
    let row: (String, String, String) = conn
        .query_row("SELECT name, state, verified_at FROM custom_domains WHERE blog_id = 1", [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .unwrap();
    assert_eq!(row, ("blog.example.org".into(), "verified".into(), "2026-11-24T08:00:00.000Z".into()));
}

#[test]
fn a_blogs_federation_key_survives_backup_and_restore() {
    let key = quire::fetch::signed::generate_key().unwrap();
    let (_root, conn) = restored_with_alices_blog(|conn| {
        conn.execute(
            "INSERT INTO blog_keys (blog_id, private_pkcs8, public_pem) VALUES (1, ?1, ?2)",
            rusqlite::params![key.pkcs8_der(), key.public_pem()],
        )
        .unwrap();
    });
    let (der, pem): (Vec<u8>, String) = conn
        .query_row(
            "SELECT private_pkcs8, public_pem FROM blog_keys WHERE blog_id = 1 AND retired_at IS NULL",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(pem, key.public_pem(), "the same public key: the blog keeps its identity");
    let loaded = quire::fetch::signed::SigningKey::from_pkcs8(&der).unwrap();
    assert_eq!(loaded.public_pem(), key.public_pem());
    let signature = loaded.sign_bytes(b"after the restore").unwrap();
    quire::fetch::signed::verify("after the restore", &signature, &pem).unwrap();
}

/// A data directory whose database is one schema version behind this binary, holding one user.
fn one_version_behind(root: &Path) -> std::path::PathBuf {
    let data = root.join("data");
    std::fs::create_dir_all(data.join("uploads")).unwrap();
    let dir = quire::data_dir::DataDir::new(&data);
    let mut conn = quire::db::open_or_create(&dir).unwrap();
    quire::db::migrate::migrate_to(&mut conn, quire::db::migrate::latest_version() - 1).unwrap();
    conn.execute("INSERT INTO users (email) VALUES ('before@example.com')", []).unwrap();
    data
}

fn schema_version(db: &Path) -> i64 {
    Connection::open(db).unwrap().pragma_query_value(None, "user_version", |r| r.get(0)).unwrap()
}

fn pre_migration_backups(data: &Path) -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(data.join("backups"))
        .map(|entries| entries.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    files.sort();
    files
}

/// The path a "Backed up the database ... to PATH before migrating it" line names.
fn named_backup(output: &str) -> std::path::PathBuf {
    let line = output.lines().find(|l| l.starts_with("Backed up the database")).unwrap_or_else(|| {
        panic!("no backup line in {output:?}");
    });
    let path = line.split(" to ").nth(1).unwrap().split(" before migrating").next().unwrap();
    std::path::PathBuf::from(path)
}

#[test]
fn serve_backs_up_a_database_before_migrating_it_and_the_backup_restores_with_the_old_schema() {
    let root = tempfile::tempdir().unwrap();
    let data = one_version_behind(root.path());
    let latest = quire::db::migrate::latest_version();
    std::fs::write(data.join("uploads/kept.png"), b"\x89PNG bytes uploaded after the backup").unwrap();

    // `quire serve` says where the backup is before it says it is running.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut child = crate::helpers::quire_command(&["serve", "--listen", &format!("127.0.0.1:{port}")])
        .args(["--host", &format!("localhost:{port}"), "--data-dir", s(&data)])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut printed = String::new();
    {
        use std::io::BufRead;
        let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
        while !printed.contains("Quire is running at") {
            assert!(out.read_line(&mut printed).unwrap() > 0, "serve ended: {printed}");
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    let backup = named_backup(&printed);
    assert!(printed.contains(&format!("before migrating it to schema version {latest}")), "{printed}");
    assert!(printed.contains(&format!("quire restore --force --data-dir {} {}", s(&data), s(&backup))), "{printed}");
    assert_eq!(pre_migration_backups(&data), vec![backup.clone()]);
    assert_eq!(schema_version(&data.join("quire.db")), latest);
    add_user(&data.join("quire.db"), "after@example.com");

    // Going back: the old schema and the data as it was; the uploads stay where they are.
    let out = quire(&["restore", "--force", "--data-dir", s(&data), s(&backup)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(schema_version(&data.join("quire.db")), latest - 1);
    assert_eq!(emails(&data.join("quire.db")), vec!["before@example.com"]);
    assert_eq!(std::fs::read(data.join("uploads/kept.png")).unwrap(), b"\x89PNG bytes uploaded after the backup");
    // An up-to-date database is not backed up again.
    let out = quire(&["migrate", "--data-dir", s(&data)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(pre_migration_backups(&data).len(), 2, "the migration of the restored database was backed up");
    let out = quire(&["migrate", "--data-dir", s(&data)]);
    assert!(crate::helpers::stdout(&out).contains("is up to date"), "{}", crate::helpers::stdout(&out));
    assert_eq!(pre_migration_backups(&data).len(), 2);
}

#[test]
fn migrate_keeps_the_last_three_pre_migration_backups() {
    let root = tempfile::tempdir().unwrap();
    let data = one_version_behind(root.path());
    let older = root.path().join("older.tar");
    // A copy of the older database, to migrate from again and again.
    assert!(quire(&["backup", "--data-dir", s(&data), s(&older)]).status.success());
    std::fs::create_dir_all(data.join("backups")).unwrap();
    std::fs::write(data.join("backups/notes.txt"), "the operator's own file").unwrap();
    let mut named = Vec::new();
    for _ in 0..4 {
        let out = quire(&["restore", "--force", "--data-dir", s(&data), s(&older)]);
        assert!(out.status.success(), "{}", stderr(&out));
        let out = quire(&["migrate", "--data-dir", s(&data)]);
        assert!(out.status.success(), "{}", stderr(&out));
        named.push(named_backup(&crate::helpers::stdout(&out)));
    }
    let mut kept = pre_migration_backups(&data);
    kept.retain(|p| p.extension().is_some_and(|e| e == "tar"));
    let mut newest: Vec<_> = named[1..].to_vec();
    newest.sort();
    assert_eq!(kept, newest, "the oldest of four is removed");
    assert!(data.join("backups/notes.txt").is_file(), "other files of backups/ are left alone");
}

#[test]
fn a_pre_migration_backup_that_cannot_be_written_stops_the_migration() {
    let root = tempfile::tempdir().unwrap();
    let data = one_version_behind(root.path());
    // backups/ is a file: the backup cannot be written, so nothing is migrated.
    std::fs::write(data.join("backups"), "in the way").unwrap();
    let out = quire(&["migrate", "--data-dir", s(&data)]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("backups"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "one clear line: {err}");
    assert_eq!(schema_version(&data.join("quire.db")), quire::db::migrate::latest_version() - 1);
}
