//! File-tree helpers of the restore checks, shared by the property tests and the `tar_restore`
//! fuzz target (`fuzz/` includes this file by its path).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Every path under `dir`, relative to it.
pub fn tree(dir: &Path) -> BTreeSet<PathBuf> {
    let mut found = BTreeSet::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(next) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&next) else { continue };
        for entry in entries.map(Result::unwrap) {
            let path = entry.path();
            found.insert(path.strip_prefix(dir).unwrap().to_owned());
            if entry.file_type().unwrap().is_dir() {
                stack.push(path);
            }
        }
    }
    found
}

/// Copies the files and folders under `from` into `to`.
pub fn copy_tree(from: &Path, to: &Path) {
    for relative in tree(from) {
        let (source, dest) = (from.join(&relative), to.join(&relative));
        if source.is_dir() {
            std::fs::create_dir_all(dest).unwrap();
        } else {
            std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
            std::fs::copy(source, dest).unwrap();
        }
    }
}
