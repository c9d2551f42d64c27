//! Property tests of [`restore`] on archives an attacker could hand an admin: a real backup
//! with its bytes damaged, and archives built entry by entry from evil names (`..`, absolute,
//! links), odd entry types and broken contents. Restoring never panics and never writes
//! outside the data directory; when it fails, the data directory is as it was; when it
//! succeeds, the data directory holds a Quire database and an uploads folder.

use std::path::Path;

use proptest::prelude::*;
use tar::{EntryType, Header};

use super::*;
use crate::db::Db;
use files::{copy_tree, tree};

mod files;

fn config() -> ProptestConfig {
    ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() }
}

/// What every case starts from: a real backup's bytes and entries, and a data directory
/// holding data.
struct Fixture {
    root: tempfile::TempDir,
    backup: Vec<u8>,
    /// Where the backup's entry headers start.
    headers: Vec<usize>,
    manifest: Vec<u8>,
    database: Vec<u8>,
    live: PathBuf,
}

const LIVE_UPLOAD: &str = "live.png";

fn fixture() -> Fixture {
    let root = tempfile::tempdir().expect("temp dir");
    let source = DataDir::new(root.path().join("source"));
    drop(source.lock().expect("source dir"));
    drop(Db::open_and_migrate(&source).expect("source database"));
    std::fs::write(source.upload("abc.png"), b"\x89PNG not really").unwrap();
    let archive = root.path().join("base.tar");
    backup(&source, &archive, &Default::default()).expect("a backup of the source");
    let backup = std::fs::read(&archive).unwrap();

    let entry = |name: &str| -> Vec<u8> {
        let mut tar = tar::Archive::new(backup.as_slice());
        let mut entry =
            tar.entries().unwrap().map(Result::unwrap).find(|e| e.path().unwrap() == Path::new(name)).unwrap();
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).unwrap();
        bytes
    };
    let (manifest, database) = (entry(MANIFEST), entry(DB_FILE));
    let headers = tar::Archive::new(backup.as_slice())
        .entries()
        .unwrap()
        .map(|entry| entry.unwrap().raw_header_position() as usize)
        .collect();

    let live = DataDir::new(root.path().join("live"));
    drop(live.lock().expect("live dir"));
    drop(Db::open_and_migrate(&live).expect("live database"));
    rusqlite::Connection::open(live.database())
        .unwrap()
        .execute("INSERT INTO users (email) VALUES ('live@example.com')", [])
        .unwrap();
    std::fs::write(live.upload(LIVE_UPLOAD), b"live bytes").unwrap();
    Fixture { live: live.root().to_owned(), root, backup, headers, manifest, database }
}

/// Ways to damage an archive's bytes.
#[derive(Debug, Clone)]
enum Damage {
    Set(usize, u8),
    Truncate(usize),
    Insert(usize, Vec<u8>),
    Zero(usize, usize),
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        4 => (any::<usize>(), any::<u8>()).prop_map(|(at, byte)| Damage::Set(at, byte)),
        1 => any::<usize>().prop_map(Damage::Truncate),
        1 => (any::<usize>(), prop::collection::vec(any::<u8>(), 1..600)).prop_map(|(at, bytes)| Damage::Insert(at, bytes)),
        1 => (any::<usize>(), 1usize..2048).prop_map(|(at, len)| Damage::Zero(at, len)),
    ]
}

/// Damages the backup's bytes; half the damage lands in its entries' headers.
fn apply(fixture: &Fixture, damages: &[Damage]) -> Vec<u8> {
    let mut bytes = fixture.backup.clone();
    let place = |at: usize, len: usize| {
        let headers = &fixture.headers;
        let at = if at.is_multiple_of(2) { headers[(at / 2) % headers.len()] + (at / 7) % 512 } else { at };
        at % len.max(1)
    };
    for damage in damages {
        let len = bytes.len();
        match damage {
            Damage::Set(at, byte) if len > 0 => {
                let at = place(*at, len).min(len - 1);
                bytes[at] = *byte;
            }
            Damage::Truncate(at) => bytes.truncate(at % (len + 1)),
            Damage::Insert(at, new) => {
                let at = place(*at, len + 1).min(len);
                bytes.splice(at..at, new.iter().copied());
            }
            Damage::Zero(at, n) if len > 0 => {
                let at = place(*at, len).min(len - 1);
                let end = (at + n).min(len);
                bytes[at..end].fill(0);
            }
            _ => {}
        }
    }
    bytes
}

/// One entry of a hand-built archive.
#[derive(Debug, Clone)]
struct Entry {
    name: &'static str,
    kind: Kind,
    content: Content,
}

#[derive(Debug, Clone, Copy)]
enum Kind {
    File,
    Dir,
    Symlink(&'static str),
    HardLink(&'static str),
    Fifo,
    PaxPath(&'static str),
    Other(u8),
}

#[derive(Debug, Clone)]
enum Content {
    Manifest,
    Database,
    DatabaseCut(usize),
    Bytes(Vec<u8>),
}

const NAMES: [&str; 20] = [
    MANIFEST,
    MANIFEST,
    DB_FILE,
    DB_FILE,
    "uploads",
    "uploads/",
    "uploads/a.png",
    "uploads/x/y.png",
    "../escape",
    "../../escape",
    "../../../escape",
    ABSOLUTE,
    "./quire.db",
    "uploads/../../escape",
    "index/meta.json",
    "quire.db-wal",
    "quire.lock",
    "",
    ".",
    "uploads/..",
];
/// Stands for an absolute path in the fixture's folder (outside the data directory).
const ABSOLUTE: &str = "/ABSOLUTE";
const TARGETS: [&str; 5] = ["../../escape", ABSOLUTE, "quire.db", "uploads", "../live/quire.db"];

fn entry() -> impl Strategy<Value = Entry> {
    let target = prop::sample::select(TARGETS.to_vec());
    let kind = prop_oneof![
        8 => Just(Kind::File),
        2 => Just(Kind::Dir),
        1 => target.clone().prop_map(Kind::Symlink),
        1 => target.clone().prop_map(Kind::HardLink),
        1 => Just(Kind::Fifo),
        1 => target.prop_map(Kind::PaxPath),
        1 => any::<u8>().prop_map(Kind::Other),
    ];
    let content = prop_oneof![
        2 => Just(Content::Manifest),
        2 => Just(Content::Database),
        1 => any::<usize>().prop_map(Content::DatabaseCut),
        1 => prop::collection::vec(any::<u8>(), 0..300).prop_map(Content::Bytes),
    ];
    (prop::sample::select(NAMES.to_vec()), kind, content).prop_map(|(name, kind, content)| Entry {
        name,
        kind,
        content,
    })
}

/// Writes the entries as a tar, names as given (the tar crate's own checks on names are
/// skipped on purpose: an attacker's archive has none).
fn build(entries: &[Entry], fixture: &Fixture) -> Vec<u8> {
    let mut out = Vec::new();
    let mut block = |header: &Header, data: &[u8]| {
        out.extend_from_slice(header.as_bytes());
        out.extend_from_slice(data);
        out.resize(out.len().div_ceil(512) * 512, 0);
    };
    for entry in entries {
        let data = match &entry.content {
            Content::Manifest => fixture.manifest.clone(),
            Content::Database => fixture.database.clone(),
            Content::DatabaseCut(at) => fixture.database[..at % fixture.database.len()].to_vec(),
            Content::Bytes(bytes) => bytes.clone(),
        };
        let absolute = |name: &str| name.replace(ABSOLUTE, &fixture.root.path().join("absolute").to_string_lossy());
        let mut header = Header::new_gnu();
        let name = absolute(entry.name);
        let name = name.as_bytes();
        header.as_old_mut().name[..name.len()].copy_from_slice(name);
        header.set_mode(0o644);
        let (kind, data) = match entry.kind {
            Kind::File => (EntryType::Regular, data),
            Kind::Dir => (EntryType::Directory, Vec::new()),
            Kind::Symlink(target) | Kind::HardLink(target) => {
                let link = absolute(target);
                let link = link.as_bytes();
                header.as_old_mut().linkname[..link.len()].copy_from_slice(link);
                let kind = if matches!(entry.kind, Kind::Symlink(_)) { EntryType::Symlink } else { EntryType::Link };
                (kind, Vec::new())
            }
            Kind::Fifo => (EntryType::Fifo, Vec::new()),
            Kind::PaxPath(path) => {
                // A PAX header renaming the next entry, then the entry itself.
                let rest = format!(" path={}\n", absolute(path));
                let mut len = rest.len() + 1;
                while len != len.to_string().len() + rest.len() {
                    len = len.to_string().len() + rest.len();
                }
                let record = format!("{len}{rest}");
                let mut pax = Header::new_ustar();
                pax.set_entry_type(EntryType::XHeader);
                pax.set_size(record.len() as u64);
                pax.set_cksum();
                block(&pax, record.as_bytes());
                (EntryType::Regular, data)
            }
            Kind::Other(byte) => (EntryType::new(byte), data),
        };
        header.set_entry_type(kind);
        header.set_size(data.len() as u64);
        header.set_cksum();
        block(&header, &data);
    }
    out.extend_from_slice(&[0; 1024]);
    out
}

/// Restores `archive` into a copy of the live data directory (or a fresh one), and checks
/// where it wrote and what it left; answers whether it restored.
fn check(fixture: &Fixture, archive: &[u8], fresh: bool) -> Result<bool, TestCaseError> {
    // A fresh case folder, and nothing left of an earlier case (so a failure shrinks to its cause).
    for entry in std::fs::read_dir(fixture.root.path()).unwrap().map(Result::unwrap) {
        if !["source", "live", "base.tar"].iter().any(|ours| entry.file_name() == *ours) {
            let path = entry.path();
            let _ = std::fs::remove_dir_all(&path).or_else(|_| std::fs::remove_file(&path));
        }
    }
    let case = fixture.root.path().join("case");
    let data = case.join("data");
    std::fs::create_dir_all(&data).unwrap();
    if fresh {
        drop(DataDir::new(&data).lock().unwrap()); // as a first `serve` or `restore` leaves it
    } else {
        copy_tree(&fixture.live, &data);
    }
    let backup_file = case.join("backup.tar");
    std::fs::write(&backup_file, archive).unwrap();
    let data_before = tree(&data);

    let restored = restore(&DataDir::new(&data), &backup_file, true);

    let ours = ["source", "live", "base.tar", "case/data", "case/backup.tar"];
    let outside: Vec<_> = tree(fixture.root.path())
        .into_iter()
        .filter(|path| path != Path::new("case") && !ours.iter().any(|ours| path.starts_with(ours)))
        .collect();
    prop_assert!(outside.is_empty(), "written outside the data directory: {:?}", outside);
    match &restored {
        Err(_) => {
            prop_assert_eq!(tree(&data), data_before, "a failed restore leaves the data directory as it was");
            if !fresh {
                prop_assert_eq!(
                    std::fs::read(data.join(DB_FILE)).unwrap(),
                    std::fs::read(fixture.live.join(DB_FILE)).unwrap()
                );
                prop_assert_eq!(std::fs::read(data.join(UPLOADS_DIR).join(LIVE_UPLOAD)).unwrap(), b"live bytes");
            }
        }
        Ok(()) => {
            prop_assert!(data.join(UPLOADS_DIR).is_dir(), "a restored data directory has an uploads folder");
            let conn = db::open_connection(&data.join(DB_FILE), false);
            prop_assert!(conn.is_ok(), "the restored database opens");
            let conn = conn.unwrap();
            prop_assert!(db::check_is_quire(&conn, &data).is_ok());
            prop_assert!(check_integrity(&conn).is_ok());
        }
    }
    Ok(restored.is_ok())
}

#[test]
fn damaged_backups_never_panic_escape_or_lose_the_live_data() {
    let fixture = fixture();
    assert!(check(&fixture, &fixture.backup, false).unwrap(), "the undamaged backup restores");
    proptest!(config(), |(damages in prop::collection::vec(damage(), 1..5), fresh in prop::bool::weighted(0.2))| {
        check(&fixture, &apply(&fixture, &damages), fresh)?;
    });
}

#[test]
fn archives_of_evil_entries_never_panic_escape_or_lose_the_live_data() {
    let fixture = fixture();
    let valid = [
        Entry { name: MANIFEST, kind: Kind::File, content: Content::Manifest },
        Entry { name: DB_FILE, kind: Kind::File, content: Content::Database },
    ];
    assert!(check(&fixture, &build(&valid, &fixture), false).unwrap(), "a hand-built valid archive restores");
    let entries = prop_oneof![
        prop::collection::vec(entry(), 0..6),
        // The two entries a backup needs, with evil ones around them.
        (prop::collection::vec(entry(), 0..3), prop::collection::vec(entry(), 0..3))
            .prop_map(move |(before, after)| [before, valid.to_vec(), after].concat()),
    ];
    let restored = std::cell::Cell::new(0);
    proptest!(config(), |(entries in entries, fresh in prop::bool::weighted(0.2))| {
        if check(&fixture, &build(&entries, &fixture), fresh)? {
            restored.set(restored.get() + 1);
        }
    });
    assert!(restored.get() > 0, "some archives restore, so the checks after a restore ran");
}
