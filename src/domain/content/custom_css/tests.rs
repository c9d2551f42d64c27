//! The custom CSS checker against each hostile case of issue 32, and stylesheets it must keep.

use super::*;

const MEDIA: &str = "http://quire.test/media/";

fn image() -> String {
    format!("{MEDIA}{}.png", "ab".repeat(32))
}

fn refusal(css: &str) -> Refusal {
    match CustomCss::parse(css, MEDIA, DEFAULT_MAX_BYTES) {
        Err(refusal) => refusal,
        Ok(_) => panic!("accepted: {css}"),
    }
}

fn accepted(css: &str) -> CustomCss {
    CustomCss::parse(css, MEDIA, DEFAULT_MAX_BYTES).unwrap_or_else(|refusal| panic!("{css}: {refusal}"))
}

#[test]
fn an_ordinary_stylesheet_is_kept_exactly_as_written() {
    let css = format!(
        "/* my look */\n:root {{ --accent: #c03; }}\nbody {{ font-family: Georgia, serif; }}\n\
         h1::after {{ content: \"\\201C\"; }}\n@media (max-width: 40em) {{ main {{ padding: 0 1rem; }} }}\n\
         .hero {{ background: url({}) no-repeat; }}\n.a\\:b {{ color: rgb(1 2 3 / 50%); }}\n",
        image()
    );
    let checked = accepted(&css);
    assert_eq!(checked.as_str(), css);
    assert_eq!(checked.media(), [MediaUse { name: format!("{}.png", "ab".repeat(32)), line: 6 }]);
    assert!(CustomCss::parse("", MEDIA, DEFAULT_MAX_BYTES).is_ok(), "an empty stylesheet clears it");
}

#[test]
fn a_tracker_url_is_refused_on_its_line_in_every_spelling() {
    for css in [
        "a {}\nb { background: url(https://tracker.example/pixel) }",
        "a {}\nb { background: url(\"https://tracker.example/pixel\") }",
        "a {}\nb { background: URL('//tracker.example/pixel') }",
        "a {}\nb { background: image-set(\"https://tracker.example/p.png\" 1x) }",
        "a {}\nb { background: -webkit-image-set(url(https://tracker.example/p.png) 1x) }",
        "a {}\n@font-face { src: url(https://tracker.example/f.woff) }",
        "a {}\nb { background: src(\"https://tracker.example/p\") }",
        "a {}\nb { background: url(data:image/png;base64,AAAA) }",
        "a {}\nb { background: url(/media/x.png) }",
    ] {
        let refusal = refusal(css);
        assert_eq!(refusal.line, 2, "{css}: {refusal}");
        assert!(refusal.reason.contains("not one of this blog's images"), "{css}: {refusal}");
    }
    let lookalike = format!("b {{ background: url({MEDIA}../evil.png) }}");
    assert!(refusal(&lookalike).reason.contains("not one of this blog's images"));
    let other_host = format!("b {{ background: url(http://quire.test.evil/media/{}.png) }}", "ab".repeat(32));
    refusal(&other_host);
}

#[test]
fn import_is_refused_however_it_is_written() {
    for css in ["@import url(x.css);", "@IMPORT 'x.css';", "@import \"https://tracker.example/x.css\";"] {
        assert!(refusal(css).reason.contains("@import"), "{css}");
    }
    assert!(refusal("@\\69 mport 'x.css';").reason.contains("escape"));
    assert!(refusal("a{}\n\n@im/**/port 'x';").line == 3);
}

#[test]
fn escapes_that_spell_a_checked_function_are_refused() {
    for css in [
        "a {}\nb { background: \\75 rl(https://tracker.example/p) }",
        "a{}\nb{background:u\\72l(x)}",
        "a{}\nb{background:\\000075rl(x)}",
    ] {
        let refusal = refusal(css);
        assert_eq!(refusal.line, 2, "{css}: {refusal}");
        assert!(refusal.reason.contains("escape"), "{css}: {refusal}");
    }
    assert!(refusal("b { width: e\\78pression(alert(1)) }").reason.contains("escape"));
}

#[test]
fn script_in_css_is_refused() {
    assert!(refusal("b { width: expression(alert(1)) }").reason.contains("expression"));
    assert!(refusal("b { width: EXPRESSION(alert(1)) }").reason.contains("expression"));
    assert!(refusal("b { behavior: url(x.htc) }").reason.contains("behavior"));
    assert!(refusal("b { -ms-behavior: url(x.htc) }").reason.contains("behavior"));
    assert!(refusal("b { -moz-binding: url(x.xml#x) }").reason.contains("-moz-binding"));
    assert!(refusal("b { -MOZ-BINDING: none }").reason.contains("BINDING"));
}

#[test]
fn comments_inside_words_are_refused() {
    for css in ["b { width: exp/**/ression(alert(1)) }", "b { back/* x */ground: red }", "b { background: ur/**/l(x) }"]
    {
        assert!(refusal(css).reason.contains("comment inside a word"), "{css}");
    }
    accepted("b { color: red /* note */; }\n/* a */ /* b */ i { color: blue }");
}

#[test]
fn a_closing_style_tag_is_refused_in_any_case_anywhere() {
    for css in ["a {}\n</style><script>alert(1)</script>", "a {}\nb { content: \"</STYLE>\" }", "a {}\n/* </Style */"] {
        let refusal = refusal(css);
        assert_eq!(refusal.line, 2, "{css}");
        assert!(refusal.reason.contains("</style"), "{css}");
    }
}

#[test]
fn more_than_the_limit_is_refused_naming_the_line_where_it_is_passed() {
    let line = "a { color: red; }\n";
    let css = line.repeat(1_000_000 / line.len() + 1);
    let refusal = refusal(&css);
    assert!(refusal.reason.contains("16 KB"), "{refusal}");
    assert_eq!(refusal.line as usize, DEFAULT_MAX_BYTES / line.len() + 1);
    let exact = "a".repeat(DEFAULT_MAX_BYTES - 3) + "{}\n";
    accepted(&exact);
    assert!(CustomCss::parse(&exact, MEDIA, 1024).is_err(), "the limit is the operator's");
}

#[test]
fn what_the_parser_cannot_read_is_refused() {
    for (css, line) in [
        ("a {\n  color: red;\n", 3),
        ("a { color: red; }\n}", 2),
        ("a { background: url(x y) }", 1),
        ("a {}\nb { content: \"open\n}", 2),
        ("a { width: calc(1px + 2px }", 1),
        ("a { color: red; }\n\0", 2),
    ] {
        assert_eq!(refusal(css).line, line, "{css:?}: {}", refusal(css));
    }
    let deep = "a{".repeat(200) + &"}".repeat(200);
    assert!(refusal(&deep).reason.contains("nest"));
}

#[test]
fn the_content_hash_follows_the_text() {
    assert_eq!(content_hash("a{}").len(), 16);
    assert_eq!(content_hash("a{}"), content_hash("a{}"));
    assert_ne!(content_hash("a{}"), content_hash("b{}"));
}

#[test]
fn upload_urls_of_any_quire_move_to_a_new_place_and_nothing_else_does() {
    let name = format!("{}.png", "ab".repeat(32));
    let css = format!(
        "a {{ background: url(https://old.example/media/{name}) }}\nb {{ background: url(\"http://h:8080/media/{name}\") }}\n\
         c {{ background: url(https://old.example/media/{name}x) }} /* https://old.example/media/ */\n"
    );
    let moved = rebase_media(&css, "/media/", "media/", |n| n == name);
    assert_eq!(
        moved,
        format!(
            "a {{ background: url(media/{name}) }}\nb {{ background: url(\"media/{name}\") }}\n\
             c {{ background: url(https://old.example/media/{name}x) }} /* https://old.example/media/ */\n"
        )
    );
    assert_eq!(rebase_media(&css, "/media/", "media/", |_| false), css, "only the names kept");
    let archived = rebase_media(&css, "/media/", "images/", |_| true);
    assert!(archived.starts_with(&format!("a {{ background: url(images/{name}) }}")), "{archived}");
    let back = rebase_media(&archived, "images/", "http://new.example/media/", |_| true);
    assert!(back.starts_with(&format!("a {{ background: url(http://new.example/media/{name}) }}")), "{back}");
    assert!(back.contains(&format!("url(\"http://new.example/media/{name}\")")), "{back}");
}
