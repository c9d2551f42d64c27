use proptest::prelude::*;

use super::*;
use crate::portable::convert::html::tests::assert_allowed;

fn blocks(source: &str) -> Vec<Block> {
    let site = url::Url::parse("https://old.example.com/").unwrap();
    to_blocks(source, &Base::site(Some(&site))).blocks
}

fn para(text: &str) -> Block {
    Block::Paragraph { text: text.into() }
}

#[test]
fn top_level_headings_become_heading_blocks_and_the_rest_keeps_its_markdown() {
    assert_eq!(
        blocks(
            "# Title *here*\n\nSome *text* with `code`\nand a break.\n\n- one\n- two\n\n> quoted\n\nSetext\n------\n\n```rust\nfn x() {}\n```\n"
        ),
        [
            Block::Heading { text: "Title here".into() },
            para("Some *text* with `code`\nand a break.\n\n- one\n- two\n\n> quoted"),
            Block::Heading { text: "Setext".into() },
            para("```rust\nfn x() {}\n```"),
        ]
    );
}

#[test]
fn images_become_image_blocks_lifted_out_of_their_text() {
    let files = |path: &str| (path == "img/a.png").then(|| "file:posts/img/a.png".to_owned());
    let got = to_blocks(
        "![A kite](img/a.png \"Over the hill\")\n\nText ![b](https://e.com/b.png) more.\n",
        &Base::with_files(None, &files),
    );
    assert_eq!(
        got.blocks,
        [
            Block::Image { url: "file:posts/img/a.png".into(), alt: "A kite".into(), caption: "Over the hill".into() },
            para("Text  more."),
            Block::Image { url: "https://e.com/b.png".into(), alt: "b".into(), caption: String::new() },
        ]
    );
    let got = to_blocks("![gone](missing.png)", &Base::none());
    assert_eq!(got.blocks, []);
    assert_eq!(got.notes, ["An image at missing.png could not be located"]);
}

#[test]
fn image_syntax_around_a_players_page_embeds_it_as_obsidian_does() {
    let got = to_blocks(
        "![](https://twitter.com/jack/status/20)\n\n![](https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC)\n\n![](https://www.youtube.com/watch?v=dQw4w9WgXcQ)",
        &Base::none(),
    );
    assert!(matches!(got.blocks[0], Block::Tweet { .. }), "{:?}", got.blocks);
    assert!(matches!(got.blocks[1], Block::Spotify { .. }), "{:?}", got.blocks);
    assert!(matches!(&got.blocks[2], Block::Link { url, .. } if url.contains("dQw4w9WgXcQ")), "{:?}", got.blocks);
    assert_eq!(got.notes, ["A player from youtube.com was kept as a link to it"]);
}

#[test]
fn an_emphasised_line_under_an_image_is_its_caption() {
    let got = to_blocks(
        "![A kite](https://e.com/k.jpg)\n*Over the hill.*\n\n![b](https://e.com/b.jpg)\n\n*Just emphasis.*",
        &Base::none(),
    );
    assert_eq!(
        got.blocks,
        [
            Block::Image { url: "https://e.com/k.jpg".into(), alt: "A kite".into(), caption: "Over the hill.".into() },
            Block::Image { url: "https://e.com/b.jpg".into(), alt: "b".into(), caption: String::new() },
            para("*Just emphasis.*"),
        ]
    );
}

#[test]
fn relative_and_reference_links_become_absolute_inline_links() {
    assert_eq!(
        blocks(
            "See [the post](/2015/01/a/) and [docs][d], <https://x.org>.\n\n[d]: https://docs.example.com \"Docs\"\n\n# Next\n\n[again][d]"
        ),
        [
            para(
                "See [the post](https://old.example.com/2015/01/a/) and [docs](https://docs.example.com/), <https://x.org>."
            ),
            Block::Heading { text: "Next".into() },
            para("[again](https://docs.example.com/)"),
        ]
    );
    let got = to_blocks("[rel](other.html) [js](javascript:alert(1))", &Base::none());
    assert_eq!(got.blocks, [para("rel js")]);
    assert_eq!(got.notes.len(), 1, "{:?}", got.notes);
}

#[test]
fn a_players_url_alone_becomes_its_block() {
    assert_eq!(
        blocks(
            "https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC\n\n<https://twitter.com/jack/status/20>\n\nhttps://example.com/page\n"
        ),
        [
            Block::Spotify { url: "https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC".into() },
            Block::Tweet { url: "https://twitter.com/jack/status/20".into() },
            para("https://example.com/page"),
        ]
    );
}

#[test]
fn raw_html_goes_through_the_html_converter() {
    let got = to_blocks(
        "Intro\n\n<div class=\"note\">\n<p>Inside <b>html</b></p>\n<iframe src=\"https://www.youtube.com/embed/abc\"></iframe>\n</div>\n\n<!--more-->\n\nA<br>B <span>c</span>",
        &Base::none(),
    );
    assert_eq!(
        got.blocks,
        [
            para("Intro"),
            para("Inside **html**"),
            Block::Link {
                url: "https://www.youtube.com/watch?v=abc".into(),
                title: "https://www.youtube.com/watch?v=abc".into()
            },
            para("A\nB c"),
        ]
    );
    assert_eq!(
        got.notes,
        [
            "A player from youtube.com was kept as a link to it",
            "HTML tags inside text were removed (their text was kept)"
        ]
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_markdown_converts_without_panicking_into_allowed_blocks(source in prop::collection::vec(prop_oneof![
        prop::sample::select(vec![
            "# ", "## ", "\n", "\n\n", "- ", "1. ", "> ", "```\n", "    ", "*", "_", "`", "[a](", ")", "[b][r]", "\n[r]: /x\n",
            "![i](", "https://e.com/i.png", "<div>", "</div>", "<br>", "<b>", "<!-- c -->", "https://twitter.com/a/status/1",
            "---", "===", "<", ">", "![[x]]", "&amp;",
        ]).prop_map(str::to_owned),
        "[a-z ]{1,10}",
        any::<String>(),
    ], 0..40).prop_map(|parts| parts.concat())) {
        let site = url::Url::parse("https://old.example.com/").unwrap();
        assert_allowed(&to_blocks(&source, &Base::site(Some(&site))).blocks);
    }
}
