//! The real exports under tests/fixtures/import/ (one small blog written by each system, with
//! what a correct import must produce in its `expected.json`): each is read whole and every
//! item compared with what its system says it is.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::open;
use crate::domain::content::blocks::Block;
use crate::portable::Options;
use crate::portable::model::{Kind, Post, State};

fn folder(system: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/import").join(system)
}

/// Reads the system's export (the one file in its folder that is not expected.json or media).
fn read(system: &str, export: &str) -> (Value, Vec<Post>, Vec<String>) {
    let dir = folder(system);
    let expected: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("expected.json")).unwrap()).unwrap();
    let site_url = expected["site_url"].as_str().and_then(|u| url::Url::parse(u).ok());
    let export = open(
        &dir.join(export),
        &Options {
            site_url,
            time_zone: expected["timezone"].as_str().and_then(|z| z.split_whitespace().next()).map(str::to_owned),
            ..Options::default()
        },
    )
    .unwrap_or_else(|err| panic!("{system}: {err}"));
    let mut posts = Vec::new();
    let mut problems = Vec::new();
    for item in export.items {
        match item {
            Ok(post) => posts.push(post),
            Err(problem) => problems.push(format!("{problem:?}")),
        }
    }
    assert!(problems.is_empty(), "{system}: {problems:?}");
    (expected, posts, export.read.notes)
}

/// Compares each expected item with the post read for it; answers the mismatches.
fn compare(system: &str, expected: &Value, posts: &[Post]) -> Vec<String> {
    let mut wrong = Vec::new();
    let items = expected["items"].as_array().unwrap();
    for item in items {
        let id = match (&item["source_id"], &item["file"]) {
            (Value::Number(n), _) => n.to_string(),
            (Value::String(s), _) => s.clone(),
            (_, Value::String(file)) => file.clone(),
            _ => panic!("{system}: an item without id"),
        };
        let Some(post) = posts.iter().find(|p| p.source_id == id || p.source_id.ends_with(&format!("/{id}"))) else {
            wrong.push(format!("{id}: not read"));
            continue;
        };
        let mut check = |what: &str, ok: bool, got: String| {
            if !ok {
                wrong.push(format!("{id}: {what}: expected {}, got {got}", item[what]));
            }
        };
        let kind = if post.kind == Kind::Page { "page" } else { "post" };
        check("kind", item["kind"] == kind, kind.to_owned());
        check("title", item["title"] == post.title.as_str(), post.title.clone());
        check("slug", item["slug"] == post.slug.as_str() || item["slug"].is_null(), post.slug.clone());
        let state = match post.state {
            State::Draft => "draft",
            State::Published => "published",
            State::Scheduled => "scheduled",
        };
        check("state", item["state"] == state, state.to_owned());
        let published = post.published_at.map(|at| at.format(&time::format_description::well_known::Rfc3339).unwrap());
        if item["state"] != "draft" {
            check("published_utc", item["published_utc"].as_str() == published.as_deref(), format!("{published:?}"));
        }
        let want: BTreeSet<String> = ["tags", "categories"]
            .iter()
            .flat_map(|k| item[*k].as_array().cloned().unwrap_or_default())
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect();
        let got: BTreeSet<String> = post.tags.iter().cloned().collect();
        check("tags", want == got, format!("{got:?}"));
        for path in item["old_paths"].as_array().into_iter().flatten() {
            let ok = post.old_paths.iter().any(|p| Some(p.as_str()) == path.as_str());
            check("old_paths", ok, format!("{:?}", post.old_paths));
        }
        for image in item["images"].as_array().into_iter().flatten() {
            let found = post.blocks.iter().any(|b| match b {
                Block::Image { url, alt, caption } => {
                    let place = image["path"].as_str().or(image["file"].as_str()).unwrap_or("");
                    let name = place.rsplit('/').next().unwrap_or(place);
                    url.ends_with(name)
                        && image["alt"] == alt.as_str()
                        && (image["caption"] == caption.as_str() || image["caption"].is_null())
                }
                _ => false,
            });
            check(
                "images",
                found,
                format!("{:?}", post.blocks.iter().filter(|b| matches!(b, Block::Image { .. })).collect::<Vec<_>>()),
            );
        }
    }
    let count = |kind: Kind| posts.iter().filter(|p| p.kind == kind).count();
    let counts = &expected["counts"];
    if counts["posts"].as_u64() != Some(count(Kind::Post) as u64)
        || counts["pages"].as_u64() != Some(count(Kind::Page) as u64)
    {
        wrong.push(format!(
            "counts: expected {counts}, got {} posts and {} pages",
            count(Kind::Post),
            count(Kind::Page)
        ));
    }
    wrong
}

fn assert_fixture(system: &str, export: &str) -> Vec<Post> {
    let (expected, posts, _) = read(system, export);
    let wrong = compare(system, &expected, &posts);
    assert!(wrong.is_empty(), "{system}:\n{}", wrong.join("\n"));
    posts
}

/// The hostile post's scripts and its frame of evil.example never reach a block's text.
fn assert_no_script(posts: &[Post]) {
    for post in posts {
        for block in &post.blocks {
            let text = format!("{block:?}");
            assert!(!text.contains("<script") && !text.contains("onerror="), "{}: {block:?}", post.title);
        }
    }
}

#[test]
fn the_real_wordpress_export_reads_as_wordpress_says() {
    let posts = assert_fixture("wordpress", "export.xml");
    assert_no_script(&posts);
}

#[test]
fn the_real_ghost_export_reads_as_ghost_says() {
    let posts = assert_fixture("ghost", "harbour-notes.ghost.2026-11-24-02-44-41.json");
    assert_no_script(&posts);
}

#[test]
fn the_real_hugo_site_reads_as_hugo_says() {
    assert_no_script(&assert_fixture("hugo", "harbour-notes.zip"));
}

#[test]
fn the_real_jekyll_site_reads_as_jekyll_says() {
    assert_no_script(&assert_fixture("jekyll", "harbour-notes.zip"));
}

#[test]
fn the_obsidian_vault_reads_as_its_conventions_say() {
    assert_no_script(&assert_fixture("obsidian", "Harbour Notes.zip"));
}

#[test]
fn the_writefreely_export_reads_as_its_export_code_says() {
    assert_no_script(&assert_fixture("writefreely", "mira-202611240250.json"));
}

#[test]
fn the_real_bear_blog_export_reads_as_bear_blog_says() {
    assert_no_script(&assert_fixture("bearblog", "data.csv"));
}
