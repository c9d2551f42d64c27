use time::macros::datetime;

use super::blocks::split_paragraph;
use super::*;
use crate::domain::content::blocks::{MAX_ALT, MAX_BLOCKS};
use crate::portable::model::{Format, Kind, Settings};

const NOW: OffsetDateTime = datetime!(2026-11-24 12:00 UTC);

fn post(title: &str, blocks: Vec<Block>) -> Post {
    Post {
        source_id: "12".into(),
        kind: Kind::Post,
        title: title.into(),
        slug: String::new(),
        blocks,
        state: State::Published,
        created_at: None,
        published_at: Some(datetime!(2015-03-14 09:26 UTC)),
        updated_at: None,
        tags: Vec::new(),
        old_paths: Vec::new(),
        page_position: None,
        comments_closed: false,
        unlisted: false,
        revisions: Vec::new(),
        notes: Vec::new(),
    }
}

fn para(text: &str) -> Block {
    Block::Paragraph { text: text.into() }
}

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

#[test]
fn the_title_becomes_the_first_heading_once() {
    let mut p = post("Hello\n  from the  harbour", vec![para("Text")]);
    assert!(normalize(&mut p, NOW).is_empty());
    assert_eq!(p.blocks, vec![Block::Heading { text: "Hello from the harbour".into() }, para("Text")]);
    assert_eq!(p.slug, "hello-from-the-harbour");
    let mut again = post("Hello from the harbour", p.blocks.clone());
    normalize(&mut again, NOW);
    assert_eq!(again.blocks, p.blocks, "a body that starts with its title keeps one heading");
    // A Quire post may start with a paragraph: its title is then read from the body.
    let note = vec![para("Just a *note*\n\nand more"), Block::Heading { text: "Later".into() }];
    let mut quire = post("Later", note.clone());
    normalize(&mut quire, NOW);
    assert_eq!(quire.blocks, note, "a body that gives its title is kept as it is");
    let mut plain = post("Just a note", vec![para("Just a *note*")]);
    normalize(&mut plain, NOW);
    assert_eq!(plain.blocks, vec![para("Just a *note*")], "as is a paragraph whose plain text is the title");
}

#[test]
fn tags_are_transliterated_merged_and_capped_each_change_said() {
    let mut p = post("T", vec![]);
    p.tags = strings(&["Travel", "Road Trip", "Café", "travel", "#hidden", "road-trip", "!!!", "Écriture"]);
    let lines = normalize(&mut p, NOW);
    assert_eq!(p.tags, strings(&["travel", "road-trip", "cafe", "ecriture"]));
    assert_eq!(
        lines,
        strings(&[
            "the tag \"Road Trip\" became road-trip",
            "the tag \"Café\" became cafe",
            "the internal tag #hidden was left out",
            "the tags \"Road Trip\" and \"road-trip\" were merged into road-trip",
            "the tag \"!!!\" was left out: it has no letter or digit a tag can keep",
            "the tag \"Écriture\" became ecriture",
        ])
    );
    let mut many = post("T", vec![]);
    many.tags = (0..13).map(|n| format!("t{n}")).collect();
    let lines = normalize(&mut many, NOW);
    assert_eq!(many.tags.len(), MAX_TAGS);
    assert_eq!(lines, strings(&["a post has at most 10 tags: t10, t11, t12 left out"]));
}

#[test]
fn slugs_are_kept_when_valid_and_made_otherwise() {
    let cases = [
        ("my-post", "my-post", false),
        ("", "hello-world", false),
        ("Crème Brûlée", "creme-brulee", true),
        ("cr%C3%A8me-br%C3%BBl%C3%A9e", "creme-brulee", true),
        ("日本", "ri-ben", true),
        ("!!!", "hello-world", true),
    ];
    for (given, want, said) in cases {
        let mut p = post("Hello, World", vec![]);
        p.slug = given.into();
        let lines = normalize(&mut p, NOW);
        assert_eq!(p.slug, want, "{given}");
        assert_eq!(!lines.is_empty(), said, "{given}: {lines:?}");
    }
}

#[test]
fn long_paragraphs_split_at_blank_lines_then_hard() {
    let third = "word ".repeat(1900);
    let text = format!("{third}\n\n{third}\n\n{third}");
    let mut p = post("", vec![para(&text)]);
    let lines = normalize(&mut p, NOW);
    assert_eq!(p.blocks, vec![para(&format!("{third}\n\n{third}")), para(&third)], "packed at blank lines");
    assert_eq!(lines, strings(&["a paragraph of 28504 characters was split into 2 (a paragraph holds at most 20000)"]));
    let solid = "x".repeat(MAX_PARAGRAPH * 2 + 5);
    let mut p = post("", vec![para(&solid)]);
    normalize(&mut p, NOW);
    let lengths: Vec<usize> = p
        .blocks
        .iter()
        .map(|b| match b {
            Block::Paragraph { text } => chars(text),
            _ => 0,
        })
        .collect();
    assert_eq!(lengths, vec![MAX_PARAGRAPH, MAX_PARAGRAPH, 5]);
    let words = "word ".repeat(MAX_PARAGRAPH / 4);
    for part in split_paragraph(&words) {
        assert!(chars(&part) <= MAX_PARAGRAPH && part.ends_with("word"), "cut at a space");
    }
}

#[test]
fn too_many_blocks_are_joined_then_cut() {
    let mut p = post("T", (0..MAX_BLOCKS + 50).map(|n| para(&format!("p{n}"))).collect());
    let lines = normalize(&mut p, NOW);
    assert_eq!(p.blocks.len(), MAX_BLOCKS);
    assert_eq!(lines, strings(&["51 paragraphs were joined to their neighbours: a post holds at most 500 blocks"]));
    let links =
        (0..MAX_BLOCKS + 2).map(|n| Block::Link { url: format!("https://e.com/{n}"), title: String::new() }).collect();
    let mut p = post("T", links);
    let lines = normalize(&mut p, NOW);
    assert_eq!(p.blocks.len(), MAX_BLOCKS);
    assert_eq!(lines, strings(&["the last 3 blocks were left out: a post holds at most 500 blocks"]));
}

#[test]
fn bad_embeds_and_links_become_links_or_text_and_limits_cut() {
    let mut p = post(
        "T",
        vec![
            Block::Spotify { url: "https://open.spotify.com/track/1".into() },
            Block::Spotify { url: "spotify:track:1".into() },
            Block::Tweet { url: "https://mobile.twitter.com/jack/status/20".into() },
            Block::Link { url: "javascript:alert(1)".into(), title: "Click".into() },
            Block::Heading { text: "  ".into() },
            Block::Heading { text: "h".repeat(MAX_HEADING + 1) },
            Block::Image { url: "https://e.com/a.png".into(), alt: "a".repeat(MAX_ALT + 9), caption: "c".into() },
        ],
    );
    let lines = normalize(&mut p, NOW);
    assert_eq!(p.blocks[1], Block::Spotify { url: "https://open.spotify.com/track/1".into() });
    assert_eq!(p.blocks[2], para("spotify:track:1"));
    assert_eq!(
        p.blocks[3],
        Block::Link { url: "https://mobile.twitter.com/jack/status/20".into(), title: String::new() }
    );
    assert_eq!(p.blocks[4], para("Click (javascript:alert(1))"));
    assert!(matches!(&p.blocks[5], Block::Paragraph { text } if chars(text) == MAX_HEADING + 1));
    assert!(matches!(&p.blocks[6], Block::Image { alt, .. } if chars(alt) == MAX_ALT));
    assert_eq!(
        lines,
        strings(&[
            "the Spotify embed spotify:track:1 is kept as text: its address should start with https://open.spotify.com/",
            "the tweet embed https://mobile.twitter.com/jack/status/20 is kept as a link: its address should start with https://twitter.com/ or https://x.com/",
            "the link to javascript:alert(1) is kept as text: a link block's address starts with http:// or https:// and has no spaces or quotes",
            "a heading longer than 300 characters became a paragraph",
            "the alt text of image https://e.com/a.png was cut to 1000 characters",
            "1 empty block was left out",
        ])
    );
}

#[test]
fn states_follow_the_dates() {
    let mut scheduled = post("T", vec![]);
    scheduled.state = State::Scheduled;
    scheduled.published_at = Some(datetime!(2030-01-01 09:00 UTC));
    assert!(normalize(&mut scheduled, NOW).is_empty());
    assert_eq!((scheduled.state, scheduled.created_at), (State::Scheduled, Some(NOW)));
    let mut past = post("T", vec![]);
    past.state = State::Scheduled;
    past.published_at = Some(datetime!(2020-01-01 09:00 UTC));
    assert_eq!(
        normalize(&mut past, NOW),
        strings(&["was scheduled for 2020-01-01T09:00:00.000Z, which has passed: published at that time"])
    );
    assert_eq!(past.state, State::Published);
    let mut timeless = post("T", vec![]);
    timeless.state = State::Scheduled;
    timeless.published_at = None;
    normalize(&mut timeless, NOW);
    assert_eq!(timeless.state, State::Draft);
    let mut draft = post("T", vec![]);
    draft.state = State::Draft;
    draft.created_at = Some(datetime!(2020-05-01 08:00 UTC));
    normalize(&mut draft, NOW);
    assert_eq!((draft.published_at, draft.updated_at), (None, Some(datetime!(2020-05-01 08:00 UTC))));
    let mut undated = post("T", vec![]);
    undated.published_at = None;
    assert_eq!(normalize(&mut undated, NOW), strings(&["no publication date: published at the time of the import"]));
    assert_eq!(undated.published_at, Some(NOW));
}

#[test]
fn what_an_item_adds_to_the_report_is_bounded() {
    let mut p = post(&"t".repeat(MAX_HEADING + 5), (0..200).map(|n| Block::Tweet { url: format!("x{n}") }).collect());
    p.tags = (0..1000).map(|n| format!("t{n}")).collect();
    p.old_paths = (0..200).map(|n| format!("/p{n}")).collect();
    let lines = normalize(&mut p, NOW);
    assert_eq!(lines.len(), MAX_ITEM_LINES + 1);
    assert_eq!(lines[0], "the title was cut to 300 characters");
    assert_eq!(lines[MAX_ITEM_LINES], "and 153 more changes like these");
    assert_eq!(p.old_paths.len(), MAX_OLD_PATHS);
    let mut tagged = post("T", vec![]);
    tagged.tags = (0..1000).map(|n| format!("t{n}")).collect();
    let tags = normalize(&mut tagged, NOW);
    assert_eq!(
        tags,
        strings(&[
            "a post has at most 10 tags: t10, t11, t12, t13, t14, t15, t16, t17, t18, t19 and 980 more left out"
        ])
    );
}

#[test]
fn old_paths_become_keys_and_notes_come_first() {
    let mut p = post("T", vec![]);
    p.notes = strings(&["a comment was not imported"]);
    p.old_paths = strings(&["/2015/03/hello/", "/2015/03/hello", "/?p=12", "/", "https://old.example.com/hello"]);
    let lines = normalize(&mut p, NOW);
    assert_eq!(p.old_paths, strings(&["/2015/03/hello", "/?p=12", "/hello"]));
    assert_eq!(
        lines,
        strings(&[
            "a comment was not imported",
            "the old address \"/\" cannot be redirected: it is not a path of an item on the old site",
        ])
    );
}

#[test]
fn source_keys_name_the_system_the_site_and_the_item() {
    let read = |format, site: Option<&str>| Read {
        format,
        settings: Settings { site_url: site.map(str::to_owned), ..Settings::default() },
        expected_items: None,
        notes: Vec::new(),
    };
    let p = post("T", vec![]);
    assert_eq!(
        source_key(&read(Format::WordPress, Some("http://old.example.com/")), &p),
        "wordpress|http://old.example.com|12"
    );
    assert_ne!(
        source_key(&read(Format::WordPress, Some("http://other.example.com")), &p),
        source_key(&read(Format::WordPress, None), &p)
    );
    assert_eq!(source_key(&read(Format::QuireArchive, None), &p), "quire||12");
}
