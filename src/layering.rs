//! A test that keeps the layers pointing down (docs/architecture.md):
//!
//! ```text
//! main, lib
//!   admin, app, backup, export,   commands and the server's assembly
//!   import, invites, reindex, blogs_command, doctor, replication
//!     http                        routes, handlers, sessions, CSRF, public pages
//!       blogs                     the one write path
//!         auth, db, search,       sign-in, storage, the search index,
//!         portable, fetch,        other platforms' exports, Quire's export formats, requests to other servers,
//!         tls, mail               HTTPS served by Quire itself (ACME), mail to the SMTP relay
//!           error, config, cli, data_dir, progress
//!             domain              rules and value types
//! ```
//!
//! Every crate-rooted path in a file of one top-level module must name a module of the
//! same layer or a lower one, and the modules must not form a cycle (same-layer edges
//! included). A new top-level module must be given its layer here.
//!
//! The same holds one level down, inside the top-level modules that are split into rooms
//! ([`ROOMS`]): a file of `domain/content/` may name `crate::domain::blog`, never the other way
//! round, and a reader of `portable/read/` may use `portable/convert/`, never the other way round.
//! A new room must be given its layer here too.

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
    ("mail", 2),
    ("media_store", 2),
    ("blogs", 3),
    ("http", 4),
    ("admin", 5),
    ("app", 5),
    ("backup", 5),
    ("blogs_command", 5),
    ("doctor", 5),
    ("export", 5),
    ("import", 5),
    ("invites", 5),
    ("reindex", 5),
    ("replication", 5),
    ("lib", 6),
    ("layering", 6),
];

/// The rooms (second-level modules: a folder or a file) of the top-level modules split into
/// rooms, each with its layer inside its module: a room names only rooms of its layer or lower.
const ROOMS: &[(&str, &[(&str, u8)])] = &[
    (
        "domain",
        &[
            ("identity", 0),
            ("duration", 0),
            ("invite_code", 0),
            ("limits", 0),
            ("messages", 0),
            ("paths", 0),
            ("public_instance", 0),
            ("net", 0),
            ("paging", 1),
            ("blog", 1),
            ("content", 2),
            ("federation", 3),
            ("access", 3),
            ("indieauth", 3),
        ],
    ),
    ("portable", &[("model", 0), ("report", 0), ("normalize", 1), ("convert", 1), ("write", 1), ("read", 2)]),
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
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    module_edges(&src, |text| crate_paths(text, "crate::"))
}

/// The rooms of `src/{top}/`, with the rooms of `top` that each names (by a crate-rooted path).
fn room_edges(top: &str) -> BTreeMap<String, BTreeSet<String>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(top);
    let prefix = format!("crate::{}::", top);
    let is_room = |name: &str| dir.join(name).is_dir() || dir.join(format!("{name}.rs")).is_file();
    let mut edges = module_edges(&dir, |text| {
        // Items of the module's own mod.rs (`crate::portable::Export`) are no room's.
        crate_paths(text, &prefix).into_iter().filter(|name| is_room(name)).collect()
    });
    edges.remove("mod"); // the module's own mod.rs declares and re-exports its rooms
    edges
}

/// Every `.rs` file under `dir` (but `main.rs`) keyed by its first component below `dir`, with
/// the modules `named` finds in its text.
fn module_edges(dir: &Path, named: impl Fn(&str) -> Vec<String>) -> BTreeMap<String, BTreeSet<String>> {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(current) = stack.pop() {
        for entry in std::fs::read_dir(&current).expect("src is readable") {
            let path = entry.expect("src entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|ext| ext != "rs") || path.ends_with("main.rs") {
                continue;
            }
            let relative = path.strip_prefix(dir).expect("under the directory");
            let first = relative.components().next().expect("a component").as_os_str().to_string_lossy();
            let module = first.trim_end_matches(".rs").to_owned();
            let text = std::fs::read_to_string(&path).expect("a source file");
            let named_here = edges.entry(module.clone()).or_default();
            for target in named(&text) {
                if target != module {
                    named_here.insert(target);
                }
            }
        }
    }
    edges
}

/// The modules named right after `prefix` (`crate::`, or `crate::domain::` for its rooms) in
/// `text`, grouped or not.
fn crate_paths(text: &str, prefix: &str) -> Vec<String> {
    let mut found = Vec::new();
    let ident = |s: &str| s.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect::<String>();
    for (at, _) in text.match_indices(prefix) {
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue; // e.g. `quire_crate::`
        }
        let rest = &text[at + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            found.extend(group.split(',').map(|part| ident(part.trim())).filter(|name| !name.is_empty()));
        } else {
            found.push(ident(rest));
        }
        found.retain(|name| !name.is_empty());
    }
    if prefix != "crate::" {
        return found;
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

/// `from (layer n) imports to (layer m)` for every edge that points up.
fn upward(edges: &BTreeMap<String, BTreeSet<String>>, layer: impl Fn(&str) -> u8) -> Vec<String> {
    let mut upward = Vec::new();
    for (from, targets) in edges {
        for to in targets {
            if layer(to) > layer(from) {
                upward.push(format!("{from} (layer {}) imports {to} (layer {})", layer(from), layer(to)));
            }
        }
    }
    upward
}

/// Panics naming the first import cycle among `edges`.
fn assert_no_cycle(edges: &BTreeMap<String, BTreeSet<String>>) {
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
        visit(node, edges, &mut Vec::new(), &mut black);
    }
}

/// The layer of `room` in `top`'s [`ROOMS`].
fn room_layer(top: &str, room: &str) -> u8 {
    let (_, rooms) = ROOMS.iter().find(|(name, _)| *name == top).expect("a module with rooms");
    rooms
        .iter()
        .find(|(name, _)| *name == room)
        .map(|(_, layer)| *layer)
        .unwrap_or_else(|| panic!("room `{top}/{room}` has no layer in src/layering.rs"))
}

#[test]
fn every_import_points_to_the_same_layer_or_a_lower_one() {
    let upward = upward(&edges(), layer);
    assert!(upward.is_empty(), "imports that point up:\n{}", upward.join("\n"));
}

#[test]
fn the_modules_form_no_cycle() {
    assert_no_cycle(&edges());
}

#[test]
fn inside_a_module_with_rooms_every_import_points_to_the_same_layer_or_a_lower_one() {
    for (top, _) in ROOMS {
        let edges = room_edges(top);
        edges.keys().for_each(|room| _ = room_layer(top, room)); // every room has a layer
        let upward = upward(&edges, |room| room_layer(top, room));
        assert!(upward.is_empty(), "imports inside {top}/ that point up:\n{}", upward.join("\n"));
        assert_no_cycle(&edges);
    }
}

#[test]
fn every_room_named_has_a_file_or_folder() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for (top, rooms) in ROOMS {
        for (room, _) in *rooms {
            let dir = src.join(top).join(room);
            assert!(
                dir.is_dir() || dir.with_extension("rs").is_file(),
                "src/{top}/{room} is gone: remove it from ROOMS"
            );
        }
    }
}

#[test]
fn the_checker_sees_grouped_and_plain_paths() {
    let text = "use crate::db::Db;\nuse crate::{http, search::SearchIndex};\nlet x = quire_crate::y;\ncrate::Error::x";
    assert_eq!(crate_paths(text, "crate::"), ["db", "http", "search", "error"]);
    let text = "use crate::domain::blog::Subdomain;\nuse crate::domain::{content::dates, net};\nuse crate::db::x;";
    assert_eq!(crate_paths(text, "crate::domain::"), ["blog", "content", "net"]);
}
