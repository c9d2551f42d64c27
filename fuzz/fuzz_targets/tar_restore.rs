//! Any bytes as a backup: `quire::backup::restore --force` over a data directory holding data
//! never panics and never writes outside that directory; when it fails, the directory's
//! database is untouched.
#![no_main]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use quire::backup::restore;
use quire::data_dir::DataDir;
use quire::db::Db;

#[path = "../../src/backup/proptests/files.rs"]
mod files;
use files::{copy_tree, tree};

/// The work folder (under fuzz/target; scripts/fuzz.sh clears it before the next run) and its
/// live data directory.
fn work() -> &'static (PathBuf, PathBuf) {
    static WORK: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    WORK.get_or_init(|| {
        let work = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("target/restore-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&work);
        let live = DataDir::new(work.join("live"));
        drop(live.lock().expect("live data dir"));
        drop(Db::open_and_migrate(&live).expect("live database"));
        rusqlite::Connection::open(live.database())
            .unwrap()
            .execute("INSERT INTO users (email) VALUES ('live@example.com')", [])
            .unwrap();
        std::fs::write(live.upload("live.png"), b"live bytes").unwrap();
        (work, live.root().to_owned())
    })
}

fuzz_target!(|archive: &[u8]| {
    let (work, live) = work();
    let case = work.join("case");
    let _ = std::fs::remove_dir_all(&case);
    let data = case.join("data");
    copy_tree(live, &data);
    let backup = case.join("backup.tar");
    std::fs::write(&backup, archive).unwrap();
    let before = tree(&data);

    let restored = restore(&DataDir::new(&data), &backup, true);

    for path in tree(work) {
        let ours = ["live", "case/data", "case/backup.tar"].iter().any(|ours| path.starts_with(ours));
        assert!(ours || path == Path::new("case"), "written outside the data directory: {path:?}");
    }
    if restored.is_err() {
        assert_eq!(tree(&data), before, "a failed restore leaves the data directory as it was");
        let db = std::fs::read(data.join("quire.db")).unwrap();
        assert_eq!(db, std::fs::read(live.join("quire.db")).unwrap(), "the live database is untouched");
    }
});
