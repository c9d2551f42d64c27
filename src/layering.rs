//! A test that keeps the layers pointing down (docs/architecture.md):
//!
//! ```text
//! main, lib
//!   admin, app, backup, export,   commands and the server's assembly
//!   import, reindex
//!     http                        routes, handlers, sessions, CSRF, public pages
//!       blogs                     the one write path
//!         auth, db, search,       sign-in, storage, the search index,
//!         portable, fetch,        other platforms' exports, Quire's export formats, requests to other servers,
//!         tls                     HTTPS served by Quire itself (ACME)
//!           error, config, cli, data_dir, progress
//!             domain              rules and value types
//! ```
//!
//! Every crate-rooted path in a file of one top-level module must name a module of the
//! same layer or a lower one, and the modules must not form a cycle (same-layer edges
//! included). A new top-level module must be given its layer here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const LAYERS: &[(&str, u8)] = &[
    ("domain", 0),
    ("error", 1),
    ("config", 1),
    ("cli", 1),
    ("data_dir", 1),
    ("progress", 1),
    ("auth", 2),
    ("db", 2),
    ("search", 2),
    ("portable", 2),
    ("fetch", 2),
    ("tls", 2),
    ("blogs", 3),
    ("http", 4),
    ("admin", 5),
    ("app", 5),
    ("backup", 5),
    ("export", 5),
    ("import", 5),
    ("reindex", 5),
    ("lib", 6),
    ("layering", 6),
];

fn layer(module: &str) -> u8 {
    LAYERS
        .iter()
        .find(|(name, _)| *name == module)
        .map(|(_, layer)| *layer)
        .unwrap_or_else(|| panic!("module `{module}` has no layer in src/layering.rs"))
}

/// The top-level module of every file under `src/`, with the top-level modules it names.
fn edges() -> BTreeMap<String, BTreeSet<String>> {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("src is readable") {
            let path = entry.expect("src entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|ext| ext != "rs") || path.ends_with("main.rs") {
                continue;
            }
            let relative = path.strip_prefix(&src).expect("under src");
            let first = relative.components().next().expect("a component").as_os_str().to_string_lossy();
            let module = first.trim_end_matches(".rs").to_owned();
            let text = std::fs::read_to_string(&path).expect("a source file");
            let named = edges.entry(module.clone()).or_default();
            for target in crate_paths(&text) {
                if target != module {
                    named.insert(target);
                }
            }
        }
    }
    edges
}

/// The top-level modules named by the crate-rooted paths in `text`, grouped or not.
fn crate_paths(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let ident = |s: &str| s.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect::<String>();
    for (at, _) in text.match_indices("crate::") {
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue; // e.g. `quire_crate::`
        }
        let rest = &text[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            found.extend(group.split(',').map(|part| ident(part.trim())).filter(|name| !name.is_empty()));
        } else {
            found.push(ident(rest));
        }
        found.retain(|name| !name.is_empty());
    }
    // `crate::Error` and friends are re-exports at the root; they name the module they come from.
    found
        .into_iter()
        .map(|name| match name.as_str() {
            "Error" | "Result" => "error".to_owned(),
            "Config" => "config".to_owned(),
            "App" => "app".to_owned(),
            _ => name,
        })
        .collect()
}

#[test]
fn every_import_points_to_the_same_layer_or_a_lower_one() {
    let mut upward = Vec::new();
    for (from, targets) in edges() {
        for to in targets {
            if layer(&to) > layer(&from) {
                upward.push(format!("{from} (layer {}) imports {to} (layer {})", layer(&from), layer(&to)));
            }
        }
    }
    assert!(upward.is_empty(), "imports that point up:\n{}", upward.join("\n"));
}

#[test]
fn the_modules_form_no_cycle() {
    let edges = edges();
    // Depth-first search with colours: a grey node met again closes a cycle.
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        grey: &mut Vec<String>,
        black: &mut BTreeSet<String>,
    ) {
        if black.contains(node) {
            return;
        }
        if let Some(start) = grey.iter().position(|n| n == node) {
            let mut cycle = grey[start..].to_vec();
            cycle.push(node.to_owned());
            panic!("import cycle: {}", cycle.join(" -> "));
        }
        grey.push(node.to_owned());
        for next in edges.get(node).into_iter().flatten() {
            visit(next, edges, grey, black);
        }
        grey.pop();
        black.insert(node.to_owned());
    }
    let mut black = BTreeSet::new();
    for node in edges.keys() {
        visit(node, &edges, &mut Vec::new(), &mut black);
    }
}

#[test]
fn the_checker_sees_grouped_and_plain_paths() {
    let text = "use crate::db::Db;\nuse crate::{http, search::SearchIndex};\nlet x = quire_crate::y;\ncrate::Error::x";
    assert_eq!(crate_paths(text), ["db", "http", "search", "error"]);
}
