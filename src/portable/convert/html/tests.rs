use proptest::prelude::*;

use super::*;
use crate::domain::content::blocks::Block;
use crate::domain::content::markdown;

fn blocks(html: &str) -> Vec<Block> {
    to_blocks(html, &Base::none()).blocks
}

fn converted(html: &str) -> Converted {
    let site = url::Url::parse("https://old.example.com/blog/").unwrap();
    to_blocks(html, &Base::site(Some(&site)))
}

fn para(text: &str) -> Block {
    Block::Paragraph { text: text.into() }
}

fn heading(text: &str) -> Block {
    Block::Heading { text: text.into() }
}

fn image(url: &str, alt: &str, caption: &str) -> Block {
    Block::Image { url: url.into(), alt: alt.into(), caption: caption.into() }
}

#[test]
fn headings_become_heading_blocks_and_text_between_them_paragraphs() {
    assert_eq!(
        blocks(
            "<h1>Title <em>here</em></h1><p>One <b>bold</b> and <i>soft</i>.</p><p>Two</p><h3>  Next\n part </h3><p>Three</p>"
        ),
        [heading("Title here"), para("One **bold** and *soft*.\n\nTwo"), heading("Next part"), para("Three")]
    );
}

#[test]
fn links_emphasis_and_code_are_kept_and_markdown_characters_escaped() {
    let got = converted(
        r#"<p>See <a href="/2015/01/other/">the *other* post</a>, <code>a_b`c</code> and 2*3_4 [x] &lt;b&gt; &amp;amp;</p>"#,
    );
    assert_eq!(
        got.blocks,
        [para(
            "See [the \\*other\\* post](https://old.example.com/2015/01/other/), ``a_b`c`` and 2\\*3\\_4 \\[x\\] \\<b> \\&amp;"
        )]
    );
    let html = markdown::to_html(match &got.blocks[0] {
        Block::Paragraph { text } => text,
        _ => unreachable!(),
    });
    assert!(html.contains("<a href=\"https://old.example.com/2015/01/other/\""), "{html}");
    assert!(html.contains("2*3_4 [x] &lt;b&gt; &amp;amp;"), "{html}");
}

#[test]
fn text_that_would_start_markdown_blocks_is_escaped() {
    assert_eq!(
        blocks("<p># not a heading<br>- not a list<br>1. not a list<br>&gt; not a quote<br>===</p>"),
        [para("\\# not a heading\n\\- not a list\n1\\. not a list\n\\> not a quote\n\\===")]
    );
    let text = match &blocks("<p># a<br>- b<br>2015. c<br>+ d</p>")[0] {
        Block::Paragraph { text } => text.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(markdown::to_html(&text).trim(), "<p># a<br>- b<br>2015. c<br>+ d</p>");
}

#[test]
fn line_breaks_are_kept_and_white_space_collapses() {
    assert_eq!(
        blocks("<p>one<br>two <br/>\n three</p><p>  spaced   \n out  </p>"),
        [para("one\ntwo\nthree\n\nspaced out")]
    );
    assert_eq!(blocks("<p>a<em> b </em>c</p>"), [para("a *b* c")]);
    assert_eq!(blocks("<p>&nbsp;</p><p> </p>"), []);
}

#[test]
fn lists_nest_and_quotes_and_code_keep_their_shape() {
    assert_eq!(
        blocks(
            "<ul><li>one</li><li>two<ul><li>deep <b>x</b></li></ul></li></ul><ol start=\"3\"><li>three</li><li><p>four</p><p>more</p></li></ol>"
        ),
        [para("- one\n- two\n  - deep **x**\n\n3) three\n\n4) four\n\n   more")]
    );
    assert_eq!(
        blocks(
            "<blockquote><p>quoted</p><p>twice</p></blockquote><pre class=\"wp-block-code\"><code class=\"language-rust\">fn x() {\n  `y`\n}\n</code></pre><hr>"
        ),
        [para("> quoted\n>\n> twice\n\n```rust\nfn x() {\n  `y`\n}\n```\n\n---")]
    );
}

#[test]
fn nested_list_markdown_renders_as_lists() {
    let text = match &blocks("<ul><li>one<ul><li>two<ol><li>three</li></ol></li></ul></li></ul>")[0] {
        Block::Paragraph { text } => text.clone(),
        other => panic!("{other:?}"),
    };
    let html = markdown::to_html(&text);
    assert_eq!(html.matches("<ul>").count(), 2, "{html}");
    assert_eq!(html.matches("<ol>").count(), 1, "{html}");
}

#[test]
fn images_become_image_blocks_with_alt_caption_and_resolved_url() {
    let got = converted(
        "<p>Before <a href=\"/wp-content/big.jpg\"><img src=\"/wp-content/small.jpg\" alt=\"A kite\"></a> after</p>\
         <figure class=\"wp-block-image\"><img src=\"pic.png\" alt=\"\"><figcaption>Over <b>the</b> hill</figcaption></figure>",
    );
    assert_eq!(
        got.blocks,
        [
            para("Before after"),
            image("https://old.example.com/wp-content/small.jpg", "A kite", ""),
            image("https://old.example.com/blog/pic.png", "", "Over the hill"),
        ]
    );
    assert!(got.notes.is_empty(), "{:?}", got.notes);
}

#[test]
fn lazy_loaded_images_use_their_real_address_once() {
    let got = blocks(
        "<img src=\"data:image/gif;base64,R0lGOD\" data-src=\"https://e.com/a.jpg\" alt=\"x\">\
         <noscript><img src=\"https://e.com/a.jpg\" alt=\"x\"></noscript>",
    );
    assert_eq!(got, [image("https://e.com/a.jpg", "x", "")]);
}

#[test]
fn images_that_cannot_be_located_are_reported() {
    let got = to_blocks("<p><img src=\"data:image/png;base64,AAAA\"><img src=\"relative.png\"></p>", &Base::none());
    assert_eq!(got.blocks, []);
    assert_eq!(
        got.notes,
        [
            "An image written into the HTML itself (a data: address) was not kept",
            "An image at relative.png could not be located",
        ]
    );
}

#[test]
fn spotify_and_tweets_get_their_blocks_and_other_players_links() {
    let got = converted(
        "<iframe src=\"https://open.spotify.com/embed/track/4uLU6hMCjMI75M1A2tKUQC\" width=300></iframe>\
         <blockquote class=\"twitter-tweet\"><p lang=\"en\">Hello</p>&mdash; Jack (@jack) \
         <a href=\"https://twitter.com/jack/status/20?ref_src=twsrc%5Etfw\">March 21, 2006</a></blockquote>\
         <script async src=\"https://platform.twitter.com/widgets.js\" charset=\"utf-8\"></script>\
         <iframe title=\"A talk\" src=\"https://www.youtube.com/embed/dQw4w9WgXcQ?feature=oembed\"></iframe>",
    );
    assert_eq!(
        got.blocks,
        [
            Block::Spotify { url: "https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC".into() },
            Block::Tweet { url: "https://twitter.com/jack/status/20".into() },
            Block::Link { url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ".into(), title: "A talk".into() },
        ]
    );
    assert_eq!(got.notes, ["A player from youtube.com was kept as a link to it"]);
}

#[test]
fn a_players_url_alone_in_a_paragraph_becomes_its_block() {
    let got = blocks(
        "<p>https://twitter.com/jack/status/20</p>\
         <figure class=\"wp-block-embed is-provider-spotify\"><div class=\"wp-block-embed__wrapper\">\n\
         https://open.spotify.com/album/1DFixLWuPkv3KT3TnV35m3\n</div></figure>\
         <p><a href=\"https://vimeo.com/76979871\">https://vimeo.com/76979871</a></p>\
         <p>https://example.com/just-a-page</p>",
    );
    assert_eq!(
        got,
        [
            Block::Tweet { url: "https://twitter.com/jack/status/20".into() },
            Block::Spotify { url: "https://open.spotify.com/album/1DFixLWuPkv3KT3TnV35m3".into() },
            Block::Link { url: "https://vimeo.com/76979871".into(), title: "https://vimeo.com/76979871".into() },
            para("https://example.com/just-a-page"),
        ]
    );
}

#[test]
fn scripts_styles_forms_and_event_handlers_are_dropped_with_notes() {
    let got = blocks(
        "<p onclick=\"steal()\" style=\"color:red\">Safe <b onmouseover=\"x()\">text</b></p>\
         <script>document.write('<p>hi</p>')</script><style>p{}</style>\
         <img src=\"https://e.com/a.png\" onerror=\"alert(1)\">\
         <form action=\"/subscribe\"><input type=\"email\"><button>Join</button></form>\
         <a href=\"javascript:alert(1)\">click</a>",
    );
    assert_eq!(got, [para("Safe **text**"), image("https://e.com/a.png", "", ""), para("click")]);
    let notes = to_blocks("<p>a</p><script>x()</script><form><input></form><script>y()</script>", &Base::none()).notes;
    assert_eq!(
        notes,
        ["A script was removed: Quire posts run no scripts (2 times)", "A form was removed: Quire posts have no forms"]
    );
}

#[test]
fn links_quire_cannot_keep_are_text_and_reported() {
    let got = to_blocks(
        "<p><a href=\"ftp://files.example.com/a\">files</a> and <a href=\"relative/page\">page</a> and <a href=\"#fn1\">1</a></p>",
        &Base::none(),
    );
    assert_eq!(got.blocks, [para("files and page and 1")]);
    assert_eq!(
        got.notes,
        [
            "2 links were kept as plain text: Quire links only to http, https and mailto addresses (ftp://files.example.com/a, relative/page)"
        ]
    );
}

#[test]
fn tables_are_kept_as_lines_of_text() {
    let got = blocks(
        "<table><caption>Scores</caption><thead><tr><th>Name</th><th>Score</th></tr></thead><tbody><tr><td>Ann</td><td>*9*</td></tr></tbody></table>",
    );
    assert_eq!(got, [para("*Scores*\nName | Score\nAnn | \\*9\\*")]);
}

#[test]
fn neighbouring_lists_stay_apart() {
    let text = match &blocks("<ul><li>a</li></ul><ul><li>b</li></ul>")[0] {
        Block::Paragraph { text } => text.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(markdown::to_html(&text).matches("<ul>").count(), 2, "{text}");
}

#[test]
fn long_text_is_split_into_paragraph_blocks_under_the_limit() {
    let html = "<p>word </p>".to_string() + &format!("<p>{}</p>", "x".repeat(15_000)).repeat(3);
    let got = blocks(&html);
    assert_eq!(got.len(), 3);
    for block in got {
        let Block::Paragraph { text } = block else { panic!() };
        assert!(text.chars().count() <= crate::domain::content::blocks::MAX_PARAGRAPH);
    }
}

#[test]
fn deep_nesting_is_read_as_text_without_overflowing_the_stack() {
    let depth = 2_000;
    let html =
        format!("{}deep{}", "<div><blockquote><ul><li>".repeat(depth), "</li></ul></blockquote></div>".repeat(depth));
    let got = std::thread::Builder::new().stack_size(1 << 21).spawn(move || blocks(&html)).unwrap().join().unwrap();
    assert_eq!(got.len(), 1);
    let html = format!("{}x", "<b><i>".repeat(2_000));
    assert!(
        !std::thread::Builder::new()
            .stack_size(1 << 21)
            .spawn(move || blocks(&html))
            .unwrap()
            .join()
            .unwrap()
            .is_empty()
    );
    let started = std::time::Instant::now();
    let html =
        format!("<p>a</p>{}deep &amp; <b>on</b>{}", "<div><span>".repeat(100_000), "</span></div>".repeat(100_000));
    let got = to_blocks(&html, &Base::none());
    assert_eq!(got.blocks, [para("a\n\ndeep & on")]);
    assert_eq!(got.notes, ["The HTML was nested too deeply to read: only its text was kept"]);
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
}

#[test]
fn plain_text_decodes_entities_and_drops_tags() {
    assert_eq!(plain_text("Fish &amp; <em>chips</em>\n &#8211; good"), "Fish & chips – good");
    assert_eq!(plain_text("  plain  "), "plain");
}

/// What a reader may produce: blocks the editor and the renderer accept.
pub(crate) fn assert_allowed(blocks: &[Block]) {
    for block in blocks {
        match block {
            Block::Heading { text } => assert!(!text.trim().is_empty() && !text.contains('\n'), "{block:?}"),
            Block::Paragraph { text } => {
                assert!(!text.trim().is_empty(), "{block:?}");
                let _ = markdown::to_html(text);
            }
            Block::Link { url, .. } => assert!(url.starts_with("http://") || url.starts_with("https://"), "{block:?}"),
            Block::Image { url, .. } => {
                assert!(
                    url.starts_with("http://") || url.starts_with("https://") || url.starts_with("file:"),
                    "{block:?}"
                )
            }
            Block::Spotify { url } => {
                assert!(crate::domain::content::reader_view::spotify_embed(url).is_some(), "{block:?}")
            }
            Block::Tweet { url } => {
                assert!(url.starts_with("https://twitter.com/") || url.starts_with("https://x.com/"), "{block:?}")
            }
        }
        let rules = crate::domain::content::blocks::Rules { image_prefix: "file:".into() };
        if let Some(problem) = block.problem(&rules) {
            assert!(
                matches!(block, Block::Image { url, .. } if url.starts_with("http")) || problem.contains("at most"),
                "{block:?}: {problem}"
            );
        }
    }
}

fn html_soup() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        prop::sample::select(vec![
            "<p>",
            "</p>",
            "<h2>",
            "</h2>",
            "<ul>",
            "<li>",
            "</ul>",
            "<ol start=\"5\">",
            "</ol>",
            "<blockquote>",
            "</blockquote>",
            "<pre>",
            "</pre>",
            "<code>",
            "</code>",
            "<a href=\"https://e.com/x\">",
            "<a href=\"/rel\">",
            "</a>",
            "<img src=\"https://e.com/i.png\" alt=\"a\">",
            "<img src=\"x\">",
            "<figure>",
            "<figcaption>",
            "</figure>",
            "<iframe src=\"https://www.youtube.com/embed/abc\"></iframe>",
            "<br>",
            "<hr>",
            "<em>",
            "</em>",
            "<b>",
            "</b>",
            "<table><tr><td>",
            "</td><td>",
            "</table>",
            "<script>",
            "</script>",
            "<div>",
            "</div>",
            "*",
            "_",
            "#",
            "-",
            "1.",
            "`",
            "\n",
            "\n\n",
            "   ",
            "&amp;",
            "&lt;",
            "[",
            "]",
            "https://twitter.com/a/status/1",
        ])
        .prop_map(str::to_owned),
        "[a-zA-Z0-9 ]{1,12}",
        any::<String>(),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_html_converts_without_panicking_into_allowed_blocks(html in html_soup()) {
        let site = url::Url::parse("https://old.example.com/").unwrap();
        let got = to_blocks(&html, &Base::site(Some(&site)));
        assert_allowed(&got.blocks);
    }
}
