use std::io::Cursor;

use time::macros::datetime;

use super::*;
use crate::domain::content::blocks::Block;
use crate::portable::Problem;
use crate::portable::model::{Kind, Post, State};
use crate::portable::read::safe_zip::tests::zip_of;

fn read_zip(files: &[(&str, &str)]) -> (Header, Vec<Result<Post, Problem>>) {
    let files: Vec<(&str, &[u8])> = files.iter().map(|(n, t)| (*n, t.as_bytes())).collect();
    let export = read(Cursor::new(zip_of(&files)), &Options::default()).unwrap();
    (export.read, export.items.collect())
}

fn posts(files: &[(&str, &str)]) -> Vec<Post> {
    read_zip(files).1.into_iter().map(Result::unwrap).collect()
}

#[test]
fn a_hugo_site_gives_posts_pages_tags_old_paths_and_images_from_the_zip() {
    let post = "+++\ntitle = \"Road trip\"\ndate = 2019-03-01T10:00:00Z\nlastmod = 2019-04-01T10:00:00Z\ntags = [\"travel\"]\ncategories = [\"Life\"]\naliases = [\"/old/road-trip/\"]\n+++\n\
        Intro with a [link](/posts/other/).\n\n![Map](map.png)\n\n{{< youtube dQw4w9WgXcQ >}}\n\n{{< figure src=\"/images/car.jpg\" caption=\"Our car\" >}}\n\n{{< unknown thing >}}\n";
    let got = posts(&[
        ("site/content/posts/road-trip/index.md", post),
        ("site/content/posts/road-trip/map.png", "png"),
        ("site/static/images/car.jpg", "jpg"),
        ("site/content/about.md", "---\ntitle: About\ndate: 2019-01-01\n---\nMe.\n"),
        ("site/content/posts/_index.md", "---\ntitle: Posts\n---\n"),
        ("site/archetypes/default.md", "---\ntitle: x\n---\n"),
        ("site/README.md", "# Site"),
    ]);
    assert_eq!(got.len(), 2);
    let trip = &got[0];
    assert_eq!(
        (trip.title.as_str(), trip.slug.as_str(), trip.kind, trip.state),
        ("Road trip", "road-trip", Kind::Post, State::Published)
    );
    assert_eq!(trip.source_id, "site/content/posts/road-trip/index.md");
    assert_eq!(trip.published_at, Some(datetime!(2019-03-01 10:00 UTC)));
    assert_eq!(trip.updated_at, Some(datetime!(2019-04-01 10:00 UTC)));
    assert_eq!(trip.tags, ["travel", "Life"]);
    assert_eq!(trip.old_paths, ["/old/road-trip/", "/posts/road-trip/"]);
    assert_eq!(
        trip.blocks,
        [
            Block::Paragraph { text: "Intro with a link.".into() },
            Block::Image {
                url: "file:site/content/posts/road-trip/map.png".into(),
                alt: "Map".into(),
                caption: String::new()
            },
            Block::Link {
                url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ".into(),
                title: "https://www.youtube.com/watch?v=dQw4w9WgXcQ".into()
            },
            Block::Image {
                url: "file:site/static/images/car.jpg".into(),
                alt: String::new(),
                caption: "Our car".into()
            },
        ]
    );
    assert!(trip.notes.contains(&"A Hugo shortcode (unknown) was removed".to_owned()), "{:?}", trip.notes);
    assert_eq!(got[1].kind, Kind::Page);
    assert_eq!(got[1].slug, "about");
}

#[test]
fn jekyll_names_give_dates_and_slugs_and_drafts_stay_drafts() {
    let got = posts(&[
        ("site/_config.yml", "title: Site\ntimezone: Europe/Paris\npermalink: /:year/:month/:title/\n"),
        (
            "site/_posts/2015-01-12-hello-world.md",
            "---\nlayout: post\ntitle: Hello\ncategories: news\ndate: 2015-01-12 00:30:00\n---\n{% highlight ruby %}\nputs 1\n{% endhighlight %}\n",
        ),
        ("site/_drafts/unfinished.md", "---\ntitle: Later\n---\nSoon.\n"),
        ("site/_posts/2015-02-01-hidden.md", "---\ntitle: Hidden\npublished: false\n---\nx\n"),
        ("site/about.md", "---\nlayout: default\ntitle: About\npermalink: /about/\n---\nMe.\n"),
        ("site/_posts/2999-01-01-future.md", "---\ntitle: Future\n---\nx\n"),
        ("site/index.md", "---\nlayout: home\n---\n"),
    ]);
    let summary: Vec<(&str, &str, State, Kind)> =
        got.iter().map(|p| (p.title.as_str(), p.slug.as_str(), p.state, p.kind)).collect();
    assert_eq!(
        summary,
        [
            ("Hello", "hello-world", State::Published, Kind::Post),
            ("Later", "unfinished", State::Draft, Kind::Post),
            ("Hidden", "hidden", State::Draft, Kind::Post),
            ("About", "about", State::Published, Kind::Page),
            ("Future", "future", State::Scheduled, Kind::Post),
        ]
    );
    assert_eq!(got[0].published_at, Some(datetime!(2015-01-11 23:30 UTC)), "local times are in the site's zone");
    assert_eq!(got[0].old_paths, ["/2015/01/hello-world/"], "the site's permalink, with the local date");
    assert_eq!(got[0].blocks, [Block::Paragraph { text: "```ruby\nputs 1\n```".into() }]);
    assert_eq!(got[3].old_paths, ["/about/"]);
}

#[test]
fn an_obsidian_note_without_a_date_is_a_draft_and_its_links_are_read() {
    let got = posts(&[
        (
            "Vault/notes/Half-written - idea.md",
            "Just a note with [[Other Note|a link]] and ![[diagram.png|A diagram]]\n*The plan.*\n",
        ),
        ("Vault/attachments/diagram.png", "png"),
    ]);
    assert_eq!((got[0].title.as_str(), got[0].state, got[0].kind), ("Half-written - idea", State::Draft, Kind::Post));
    assert_eq!(got[0].notes, ["It has no date: imported as a draft"]);
    assert_eq!(
        got[0].blocks,
        [
            Block::Paragraph { text: "Just a note with a link and \n*The plan.*".into() },
            Block::Image {
                url: "file:Vault/attachments/diagram.png".into(),
                alt: "A diagram".into(),
                caption: String::new()
            },
        ]
    );
}

#[test]
fn broken_files_are_skipped_alone_and_zips_without_markdown_refused() {
    let (_, items) =
        read_zip(&[("a.md", "---\ntitle: [unclosed\n---\nx"), ("b.md", "---\ntitle: B\ndate: 2020-01-01\n---\nfine")]);
    assert!(
        matches!(&items[0], Err(Problem::Item { source_id, message, .. }) if source_id == "a.md" && message.starts_with("Its front matter could not be read"))
    );
    assert_eq!(items[1].as_ref().unwrap().title, "B");
    let err = read(Cursor::new(zip_of(&[("a.txt", b"x")])), &Options::default()).err().unwrap();
    assert!(err.0.starts_with("This zip holds no Markdown"), "{err}");
    let err = read(Cursor::new(zip_of(&[("../../etc/x.md", b"x")])), &Options::default()).err().unwrap();
    assert!(err.0.contains("climbs out"), "{err}");
}
