use proptest::prelude::*;

use super::*;

fn html(text: &str) -> String {
    to_html(text).trim_end().to_owned()
}

#[test]
fn each_construct_renders_to_its_tag() {
    assert_eq!(
        html("a *b* _c_ **d** __e__ `f<g>`"),
        "<p>a <em>b</em> <em>c</em> <strong>d</strong> <strong>e</strong> <code>f&lt;g&gt;</code></p>"
    );
    assert_eq!(
        html("see [the docs](https://example.com/a?b=1&c=2) or <https://x.org>"),
        "<p>see <a href=\"https://example.com/a?b=1&amp;c=2\" rel=\"nofollow ugc noopener\">the docs</a> or \
         <a href=\"https://x.org\" rel=\"nofollow ugc noopener\">https://x.org</a></p>"
    );
    assert_eq!(html("[mail](mailto:a@b.c)"), "<p><a href=\"mailto:a@b.c\" rel=\"nofollow ugc noopener\">mail</a></p>");
    assert_eq!(html("- one\n- two"), "<ul><li>one</li><li>two</li></ul>");
    assert_eq!(html("3. three\n4. four"), "<ol start=\"3\"><li>three</li><li>four</li></ol>");
    assert_eq!(html("1. one"), "<ol><li>one</li></ol>");
    assert_eq!(html("> quoted\n> more"), "<blockquote><p>quoted<br>more</p>\n</blockquote>");
    assert_eq!(html("```rust\nfn x() {}\n<b>\n```"), "<pre><code>fn x() {}\n&lt;b&gt;\n</code></pre>");
    assert_eq!(html("    indented"), "<pre><code>indented</code></pre>");
    assert_eq!(html("a\n\n---\n\nb"), "<p>a</p>\n<hr>\n<p>b</p>");
    assert_eq!(html("# Not a section"), "<p><strong>Not a section</strong></p>");
}

#[test]
fn line_breaks_are_kept_as_written() {
    assert_eq!(html("one\ntwo\nthree"), "<p>one<br>two<br>three</p>");
    assert_eq!(html("one\n\ntwo"), "<p>one</p>\n<p>two</p>");
}

#[test]
fn raw_html_is_shown_as_text() {
    assert_eq!(html("<script>alert(1)</script>"), "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>");
    assert_eq!(html("a <img src=x onerror=alert(1)> b"), "<p>a &lt;img src=x onerror=alert(1)&gt; b</p>");
    assert_eq!(html("<div>\n<b>x</b>\n</div>"), "<p>&lt;div&gt;<br>&lt;b&gt;x&lt;/b&gt;<br>&lt;/div&gt;</p>");
    assert_eq!(html("&lt;script&gt; &amp; &#60;"), "<p>&lt;script&gt; &amp; &lt;</p>");
}

#[test]
fn links_to_anything_but_the_web_and_mail_are_text() {
    for bad in [
        "[x](javascript:alert(1))",
        "[x](java&#x73;cript:alert(1))",
        "[x](JavaScript:alert(1))",
        "[x](&#106;avascript:alert(1))",
        "[x](jav\\ascript:alert(1))",
        "[x](data:text/html;base64,PHNjcmlwdD4=)",
        "[x](vbscript:x)",
        "[x](/relative)",
        "[x](<https://e.com/a b>)",
        "[x]( https://e.com/\"onmouseover=x)",
        "<javascript:alert(1)>",
    ] {
        let out = html(bad);
        assert!(!out.contains("<a"), "{bad:?} gave {out}");
        assert!(!out.contains("href"), "{bad:?} gave {out}");
    }
    assert_eq!(html("[x](java&#x73;cript:alert(1))"), "<p>x</p>");
}

#[test]
fn images_in_paragraphs_are_links_and_links_never_nest() {
    assert_eq!(
        html("![a cat](https://e.com/cat.png)"),
        "<p><a href=\"https://e.com/cat.png\" rel=\"nofollow ugc noopener\">a cat</a></p>"
    );
    assert_eq!(html("![x](javascript:alert(1))"), "<p>x</p>");
    let nested = html("[![inner](https://e.com/i.png)](https://e.com/page)");
    assert_eq!(nested.matches("<a ").count(), 1, "{nested}");
    assert_eq!(nested.matches("</a>").count(), 1, "{nested}");
}

#[test]
fn deep_nesting_is_flattened_and_balanced() {
    for text in [
        "> ".repeat(5_000) + "deep",
        "- ".repeat(5_000) + "deep",
        "1. ".repeat(3_000) + "deep",
        "> - ".repeat(2_500) + "deep",
    ] {
        let text = text.clone();
        // A small stack: the renderer and the parser must not recurse per level.
        let out =
            std::thread::Builder::new().stack_size(256 * 1024).spawn(move || to_html(&text)).unwrap().join().unwrap();
        assert!(out.contains("deep"));
        let opened = out.matches("<blockquote>").count() + out.matches("<ul>").count() + out.matches("<ol").count();
        assert!(opened <= MAX_NESTING, "{opened} levels shown");
        for tag in ["blockquote", "ul", "ol", "li", "p"] {
            let opens = out.matches(&format!("<{tag}>")).count() + out.matches(&format!("<{tag} ")).count();
            assert_eq!(opens, out.matches(&format!("</{tag}>")).count(), "<{tag}> balanced");
        }
    }
}

#[test]
fn long_lines_and_unterminated_fences_render_quickly() {
    let started = std::time::Instant::now();
    for text in [
        "x".repeat(100_000),
        "*".repeat(100_000),
        "_a".repeat(50_000),
        "[".repeat(100_000),
        "`".repeat(100_000),
        "<".repeat(100_000),
        "[a](".repeat(25_000),
        "**a".repeat(33_000),
        format!("```\n{}", "code <b>\n".repeat(10_000)),
    ] {
        let out = to_html(&text);
        assert!(!out.contains("<b>"));
        assert!(plain_text(&text).len() <= text.len());
    }
    assert!(started.elapsed() < std::time::Duration::from_secs(10), "took {:?}", started.elapsed());
    assert_eq!(html("```\nnever closed <i>"), "<pre><code>never closed &lt;i&gt;</code></pre>");
}

#[test]
fn plain_text_drops_the_syntax() {
    assert_eq!(plain_text("A **bold** [link](https://e.com) and `code`"), "A bold link and code");
    assert_eq!(plain_text("- one\n- two\n\n> quote"), "one\ntwo\nquote");
    assert_eq!(plain_text("# Title\nline"), "Title\nline");
}

#[test]
fn escaped_plain_text_shows_its_characters() {
    let old = "*not emphasis* and _this_ & &amp; <b>\n# not a heading\n1. not a list\n> not a quote\n- not a list\n    not code\n[not](a link) \\ `x`";
    let escaped = escape_plain(old);
    let out = html(&escaped);
    for tag in ["<em>", "<strong>", "<ol", "<ul>", "<blockquote>", "<pre>", "<code>", "<a "] {
        assert!(!out.contains(tag), "{tag} in {out}");
    }
    let lines: Vec<&str> = old.lines().map(str::trim_start).collect();
    assert_eq!(plain_text(&escaped), lines.join("\n"));
    assert_eq!(escape_plain("Plain words, nothing more."), "Plain words, nothing more.");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Any old plain paragraph, escaped, shows the same text on the same lines and no markup
    /// but paragraphs and line breaks.
    #[test]
    fn escaping_keeps_old_paragraphs_as_they_were(text in "([ \\t\\n#>*_`~=+|!&;\\[\\]()<>\\\\0-9a-z.:-]{0,12}){0,12}") {
        let escaped = escape_plain(&text);
        let out = to_html(&escaped);
        let stripped = out.replace("<p>", "").replace("</p>", "").replace("<br>", "");
        prop_assert!(!stripped.contains('<'), "markup in {:?}", out);
        let want: Vec<&str> = text.lines().map(|l| l.trim()).filter(|l| !l.is_empty()).collect();
        let got_text = plain_text(&escaped);
        let got: Vec<&str> = got_text.lines().map(|l| l.trim()).filter(|l| !l.is_empty()).collect();
        prop_assert_eq!(got, want);
    }

    /// Whatever is written, the output holds only our tags and no script.
    #[test]
    fn any_text_renders_to_allowed_tags(text in "([ \\n#>*_`~=+!&;\\[\\]()<>\\\\0-9a-z.:/\"'-]|javascript:|https://|<script>|&#x73;|onerror=){0,60}") {
        let out = to_html(&text);
        let mut rest = out.as_str();
        while let Some(at) = rest.find('<') {
            rest = &rest[at + 1..];
            let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '/').collect();
            let allowed = ["p", "/p", "br", "em", "/em", "strong", "/strong", "code", "/code", "pre", "/pre", "a", "/a",
                "ul", "/ul", "ol", "/ol", "li", "/li", "blockquote", "/blockquote", "hr"];
            prop_assert!(allowed.contains(&name.as_str()), "<{} in {:?}", name, out);
        }
        for href in out.split("href=\"").skip(1) {
            prop_assert!(href.starts_with("https://") || href.starts_with("http://") || href.starts_with("mailto:"), "{:?}", out);
        }
    }
}
