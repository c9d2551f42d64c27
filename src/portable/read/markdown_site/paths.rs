//! Paths inside the zip: what a file's path says (its folder, the folders above it, its stem
//! without a Jekyll date) and how an image written relative to the file, to the site's root,
//! to Hugo's `static/` or by bare name (Obsidian) is found.

use std::collections::{HashMap, HashSet};

use time::OffsetDateTime;

/// Where a file sits in the zip, and what its path says.
pub(super) struct Path {
    /// Its folder (`content/posts`), without a trailing `/`.
    pub(super) dir: String,
    /// The folders above it, lowercased.
    pub(super) folders: Vec<String>,
    /// Its name without extension (and without a Jekyll date).
    pub(super) stem: String,
    /// Its slug: the stem, or a page bundle's folder.
    pub(super) slug: String,
    /// The date in a Jekyll file name.
    pub(super) date: Option<OffsetDateTime>,
}

impl Path {
    pub(super) fn of(name: &str) -> Path {
        let (dir, file) = name.rsplit_once('/').unwrap_or(("", name));
        let folders: Vec<String> = dir.split('/').filter(|p| !p.is_empty()).map(str::to_ascii_lowercase).collect();
        let stem = file.rsplit_once('.').map_or(file, |(stem, _)| stem);
        let (date, stem) = match (stem.get(..10).and_then(crate::portable::read::dates::parse), stem.get(10..11)) {
            (Some(date), Some("-")) => (Some(date), &stem[11..]),
            _ => (None, stem),
        };
        let slug = if stem.eq_ignore_ascii_case("index") { dir.rsplit('/').next().unwrap_or(stem) } else { stem };
        Path { dir: dir.to_owned(), folders, stem: stem.to_owned(), slug: slug.to_owned(), date }
    }

    pub(super) fn in_folder(&self, names: &[&str]) -> bool {
        self.folders.iter().any(|f| names.contains(&f.as_str()))
    }

    /// A Hugo or Zola file right in `content/`: a page, not a section's post.
    pub(super) fn directly_in_content(&self) -> bool {
        let content = self.folders.iter().position(|f| f == "content");
        content.is_some_and(|at| {
            at + 1 == self.folders.len() || (at + 2 == self.folders.len() && self.stem.eq_ignore_ascii_case("index"))
        })
    }
}

/// The zip path of an image written as `src` in a file of folder `dir`, as `file:<path>`.
pub(super) fn find_file(
    src: &str,
    dir: &str,
    site_root: &str,
    names: &HashSet<String>,
    by_file_name: &HashMap<String, String>,
) -> Option<String> {
    let src = src.split(['?', '#']).next().unwrap_or(src);
    let src = percent_decoded(src);
    let mut candidates = Vec::new();
    if let Some(rooted) = src.strip_prefix('/') {
        // The site's root: the folder of its settings file, else the one holding `content/`
        // or `_posts/`, else the zip's root.
        let parts: Vec<&str> = dir.split('/').collect();
        let root = if !site_root.is_empty() {
            site_root.to_owned()
        } else {
            parts
                .iter()
                .position(|p| matches!(*p, "content" | "_posts" | "_drafts" | "_pages"))
                .map_or(String::new(), |at| parts[..at].iter().map(|p| format!("{p}/")).collect())
        };
        candidates.extend(
            [format!("{root}{rooted}"), format!("{root}static/{rooted}"), format!("{root}assets/{rooted}")].map(Some),
        );
    } else {
        candidates.push(normalize(&format!("{dir}/{src}")));
        candidates.push(normalize(&src));
    }
    candidates
        .into_iter()
        .flatten()
        .find(|c| names.contains(c))
        .or_else(|| (!src.contains('/')).then(|| by_file_name.get(&src).cloned()).flatten())
        .map(|path| format!("file:{path}"))
}

/// `a/b/../c` → `a/c`; `None` when it climbs out of the zip.
pub(super) fn normalize(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    Some(parts.join("/"))
}

pub(super) fn percent_decoded(text: &str) -> String {
    if text.contains('%') {
        url::Url::parse(&format!("file:///{text}"))
            .ok()
            .and_then(|u| u.to_file_path().ok())
            .map(|p| p.to_string_lossy().trim_start_matches('/').to_owned())
            .unwrap_or_else(|| text.to_owned())
    } else {
        text.to_owned()
    }
}
