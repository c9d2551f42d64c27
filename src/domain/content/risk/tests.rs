use super::*;

/// A spam post as they arrive on open instances: a keyword heading, two thin sentences, and
/// rows of links to a few commercial hosts (affiliate and casino pages).
fn spam_post() -> Body {
    let mut children = vec![
        Block::Heading { text: "Best Online Casino Bonus 2026".into() },
        Block::Paragraph {
            text: "Looking for the best casino bonus? Claim yours today at [Lucky Spin Casino](https://www.luckyspin-casino.example/bonus?ref=881) and [Mega Slots](https://megaslots.example/free-spins).".into(),
        },
    ];
    for i in 0..12 {
        children.push(Block::Link {
            url: format!("https://www.luckyspin-casino.example/offer/{i}?ref=881"),
            title: "Free spins no deposit".into(),
        });
        children.push(Block::Link { url: format!("https://megaslots.example/go/{i}"), title: "Slots".into() });
    }
    children.push(Block::Paragraph {
        text: "Cheap [replica watches](http://watches-outlet.example/) and more. Casino casino!".into(),
    });
    children.push(Block::Link { url: "https://watches-outlet.example/sale".into(), title: String::new() });
    Body::from_blocks(children)
}

/// An ordinary post: a few paragraphs of someone's week, one link in the text and one link block.
fn ordinary_post() -> Body {
    Body::from_blocks(vec![
        Block::Heading { text: "A week of sourdough".into() },
        Block::Paragraph {
            text: "I finally got my starter going again after the summer. It took four days of feeding \
                   twice a day before it doubled reliably, and the first loaf was dense but edible. \
                   The second one, baked on Sunday, had the open crumb I was hoping for."
                .into(),
        },
        Block::Paragraph {
            text:
                "Most of what I know comes from [this guide](https://www.theperfectloaf.example/beginners-sourdough/), \
                   which explains the float test far better than I could. Next week I want to try a rye \
                   loaf, which everyone tells me behaves nothing like wheat. We will see how that goes, \
                   and whether the kitchen survives it."
                    .into(),
        },
        Block::Link {
            url: "https://en.wikipedia.example/wiki/Sourdough".into(),
            title: "Sourdough on Wikipedia".into(),
        },
    ])
}

fn terms() -> Vec<String> {
    vec!["casino".into(), "replica watches".into(), "viagra".into()]
}

#[test]
fn a_spam_post_scores_high_and_says_why() {
    let facts = PostFacts::of(&spam_post(), &terms());
    assert_eq!(facts.link_hosts.len(), 28);
    assert!(facts.is_mostly_links(), "{facts:?}");
    let risk = assess(&[facts]);
    assert!(risk.score >= 80, "{risk:?}");
    assert_eq!(
        risk.explanation,
        "28 links to 3 hosts in 1 post; 1 of 1 post mostly links; 'casino' ×5, 'replica watches' ×1"
    );
    assert_eq!(
        risk.hosts,
        [
            ("luckyspin-casino.example".to_owned(), 13),
            ("megaslots.example".to_owned(), 13),
            ("watches-outlet.example".to_owned(), 2)
        ]
    );
}

#[test]
fn an_ordinary_post_scores_low() {
    let facts = PostFacts::of(&ordinary_post(), &terms());
    assert_eq!(facts.link_hosts, ["theperfectloaf.example", "en.wikipedia.example"]);
    assert!(facts.terms.is_empty());
    let risk = assess(&[facts]);
    assert!(risk.score <= 10, "{risk:?}");
    assert_eq!(risk.explanation, "2 links to 2 hosts in 1 post");
}

#[test]
fn spam_among_ordinary_posts_still_ranks_above_ordinary_posts_alone() {
    let ordinary = PostFacts::of(&ordinary_post(), &terms());
    let mixed = assess(&[ordinary.clone(), PostFacts::of(&spam_post(), &terms())]);
    let clean = assess(&[ordinary.clone(), ordinary]);
    assert!(mixed.score > clean.score + 30, "{mixed:?} {clean:?}");
    assert!(mixed.explanation.starts_with("30 links to 5 hosts in 2 posts; 1 of 2 posts mostly links"), "{mixed:?}");
}

#[test]
fn terms_match_whole_words_only() {
    let body = Body::from_blocks(vec![Block::Paragraph { text: "Casinos and casinopolis, but one Casino.".into() }]);
    let facts = PostFacts::of(&body, &terms());
    assert_eq!(facts.terms.get("casino"), Some(&1));
    let body = Body::from_blocks(vec![Block::Paragraph { text: "replica and watches; replica watches".into() }]);
    assert_eq!(PostFacts::of(&body, &terms()).terms.get("replica watches"), Some(&1));
}

#[test]
fn a_blog_without_posts_scores_zero() {
    let risk = assess(&[]);
    assert_eq!((risk.score, risk.explanation.as_str()), (0, "No published posts yet"));
}

#[test]
fn hosts_are_read_from_http_links_only_without_www() {
    assert_eq!(link_host("https://WWW.Shop.Example/x").as_deref(), Some("shop.example"));
    assert_eq!(link_host("mailto:someone@example.com"), None);
    assert_eq!(link_host("/relative"), None);
    assert_eq!(link_host("ftp://files.example/"), None);
}

#[test]
fn an_approved_blog_is_flagged_from_five_new_hosts() {
    let hosts = |names: &[&str]| names.iter().map(|n| (n.to_string(), 1)).collect::<Vec<_>>();
    let baseline = hosts(&["a.example", "b.example"]);
    assert!(!flags_approved(&hosts(&["a.example", "b.example", "c", "d", "e", "f"]), &baseline));
    assert!(flags_approved(&hosts(&["a.example", "c", "d", "e", "f", "g"]), &baseline));
    assert_eq!(new_hosts(&baseline, &baseline), 0);
}
