//! The import engine (`Blogs::import`) on a real server: hand-built `model::Post`s (what the
//! readers of other platforms' exports yield) go through the one write path, and what a
//! reader of the blog sees is checked over HTTP: dates, slugs, states, tags and pages kept,
//! images downloaded from a server on 127.0.0.1 (or refused, with nothing sent), old
//! addresses answered with 301s, nothing imported twice, a stopped import completed.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use quire::Config;
use quire::blogs::{ImportOptions, ImportProgress, ImportSource};
use quire::db::blogs::Blog;
use quire::domain::content::blocks::Block;
use quire::domain::limits::MAX_POSTS_PER_BLOG;
use quire::portable::model::{Format, Kind, Post, Read, Settings, State};
use quire::portable::read::files::{ExportFiles, NoFiles};
use quire::portable::report::Report;
use reqwest::Method;
use serde_json::Value;
use time::macros::datetime;

use crate::fetch::{Origin, PNG, Reply};
use crate::helpers::{Browser, TestApp, quire, s, stderr};

/// A server with alice's blog `alice`.
struct Importing {
    app: TestApp,
    alice: Browser,
    blog_id: i64,
    blog: Blog,
}

impl Importing {
    async fn start(adjust: impl FnOnce(&mut Config)) -> Importing {
        let app = TestApp::spawn_with(adjust).await;
        let alice = app.new_browser();
        let blog_id = alice.sign_up_with_blog("alice@example.com", "alice").await;
        let blog = blog_of(&app, blog_id).await;
        Importing { app, alice, blog_id, blog }
    }

    /// Imports `posts` as a WordPress export of http://old.example.com would give them.
    async fn import(&self, posts: Vec<Post>) -> Report {
        self.run(wordpress(), posts, Arc::new(NoFiles), ImportOptions::default(), u64::MAX).await
    }

    /// Imports, telling the import to stop once `stop_after` items are done.
    async fn run(
        &self,
        read: Read,
        posts: Vec<Post>,
        files: Arc<dyn ExportFiles>,
        options: ImportOptions,
        stop_after: u64,
    ) -> Report {
        import_into(&self.app, &self.blog, read, posts, files, options, stop_after).await
    }

    /// A public page of the blog.
    async fn page(&self, path: &str) -> reqwest::Response {
        self.app.get_with_host(&format!("alice.localhost:{}", self.app.port), path).await
    }

    async fn html(&self, path: &str) -> String {
        let resp = self.page(path).await;
        assert_eq!(resp.status(), 200, "{path}");
        resp.text().await.unwrap()
    }

    /// The owner's list of the blog's posts, drafts included, by title.
    async fn posts(&self) -> HashMap<String, Value> {
        let resp = self.alice.get(&format!("/api/my/blogs/{}/posts?page_size=100", self.blog_id)).await;
        assert_eq!(resp.status(), 200);
        let body: Value = resp.json().await.unwrap();
        body["posts"].as_array().unwrap().iter().map(|p| (p["title"].as_str().unwrap().to_owned(), p.clone())).collect()
    }
}

pub(crate) async fn import_into(
    app: &TestApp,
    blog: &Blog,
    read: Read,
    posts: Vec<Post>,
    files: Arc<dyn ExportFiles>,
    options: ImportOptions,
    stop_after: u64,
) -> Report {
    let source = ImportSource { read, posts: posts.into_iter().map(Ok::<Post, String>), files };
    let state = &app.state;
    state
        .blogs
        .import(blog, &state.fetcher, source, options, |progress: ImportProgress| progress.done < stop_after)
        .await
        .expect("the import runs")
}

pub(crate) async fn blog_of(app: &TestApp, blog_id: i64) -> Blog {
    let user_id: i64 = app.db().query_row("SELECT user_id FROM blogs WHERE id = ?1", [blog_id], |r| r.get(0)).unwrap();
    app.state.blogs.owned(user_id, &blog_id.to_string()).await.unwrap()
}

pub(crate) fn wordpress() -> Read {
    Read {
        format: Format::WordPress,
        settings: Settings { site_url: Some("http://old.example.com".into()), ..Settings::default() },
        expected_items: None,
        notes: Vec::new(),
    }
}

/// A published post of 2015 with one paragraph.
pub(crate) fn item(source_id: &str, title: &str) -> Post {
    Post {
        source_id: source_id.into(),
        kind: Kind::Post,
        title: title.into(),
        slug: String::new(),
        blocks: vec![Block::Paragraph { text: format!("Text of {title}.") }],
        state: State::Published,
        created_at: Some(datetime!(2015-03-14 09:00 UTC)),
        published_at: Some(datetime!(2015-03-14 09:26 UTC)),
        updated_at: Some(datetime!(2015-03-15 10:00 UTC)),
        tags: Vec::new(),
        old_paths: Vec::new(),
        page_position: None,
        comments_closed: false,
        unlisted: false,
        revisions: Vec::new(),
        notes: Vec::new(),
    }
}

fn image(url: &str, alt: &str) -> Block {
    Block::Image { url: url.into(), alt: alt.into(), caption: String::new() }
}

fn messages_of(report: &Report, item: &str) -> Vec<String> {
    report.lines.iter().filter(|line| line.item == item).map(|line| line.message.clone()).collect()
}

fn path_of(post: &Value) -> String {
    let permalink = post["permalink"].as_str().unwrap();
    format!("/{}", permalink.splitn(4, '/').nth(3).unwrap())
}

#[tokio::test]
async fn imported_posts_keep_their_dates_slug_state_tags_and_pages() {
    let blog = Importing::start(|_| {}).await;
    let mut hello = item("5", "Hello from the harbour");
    hello.slug = "hello-from-the-harbour".into();
    hello.tags = vec!["Travel".into(), "Road Trip".into(), "Café".into(), "#hidden".into(), "travel".into()];
    let mut draft = item("6", "Half-written: ferry timetables");
    draft.state = State::Draft;
    draft.published_at = None;
    let mut scheduled = item("7", "Postcard from 2030");
    scheduled.state = State::Scheduled;
    scheduled.published_at = Some(datetime!(2030-01-01 09:00 UTC));
    let mut past = item("8", "Was scheduled");
    past.state = State::Scheduled;
    past.published_at = Some(datetime!(2020-06-01 12:00 UTC));
    let mut about = item("9", "About");
    about.kind = Kind::Page;
    about.slug = "about".into();
    about.page_position = Some(0);
    let mut odd = item("10", "Crème brûlée");
    odd.slug = "Crème Brûlée!".into();

    let report = blog.import(vec![hello, draft, scheduled, past, about, odd]).await;
    assert_eq!(
        (report.posts, report.pages, report.drafts, report.scheduled, report.skipped),
        (5, 1, 1, 1, 0),
        "{report:?}"
    );
    assert_eq!(report.tags, 3);
    assert_eq!(
        messages_of(&report, "Hello from the harbour"),
        vec![
            "the tag \"Road Trip\" became road-trip",
            "the tag \"Café\" became cafe",
            "the internal tag #hidden was left out",
        ]
    );
    assert_eq!(messages_of(&report, "Crème brûlée"), vec!["the slug \"Crème Brûlée!\" became creme-brulee"]);
    assert_eq!(
        messages_of(&report, "Was scheduled"),
        vec!["was scheduled for 2020-06-01T12:00:00.000Z, which has passed: published at that time",]
    );

    let posts = blog.posts().await;
    let hello = &posts["Hello from the harbour"];
    assert_eq!(hello["createdAt"], "2015-03-14T09:00:00.000Z");
    assert_eq!(hello["publishedAt"], "2015-03-14T09:26:00.000Z");
    assert_eq!(hello["updatedAt"], "2015-03-15T10:00:00.000Z");
    assert_eq!(hello["tags"], serde_json::json!(["travel", "road-trip", "cafe"]));
    assert_eq!(
        hello["body"]["children"][0],
        serde_json::json!({ "type": "heading", "value": { "text": "Hello from the harbour" } })
    );
    let path = path_of(hello);
    assert!(path.starts_with("/hello-from-the-harbour-"), "{path}");
    let page = blog.html(&path).await;
    assert!(page.contains("Text of Hello from the harbour.") && page.contains("14 March 2015"), "the public post page");
    assert!(blog.html("/tags/road-trip").await.contains("Hello from the harbour"));

    let draft = &posts["Half-written: ferry timetables"];
    assert_eq!((draft["publishedAt"].clone(), draft["scheduledAt"].clone()), (Value::Null, Value::Null));
    assert_eq!(blog.page(&path_of(draft)).await.status(), 404, "a draft is not public");
    let scheduled = &posts["Postcard from 2030"];
    assert_eq!(
        (scheduled["publishedAt"].clone(), scheduled["scheduledAt"].clone()),
        (Value::Null, "2030-01-01T09:00:00.000Z".into())
    );
    assert_eq!(posts["Was scheduled"]["publishedAt"], "2020-06-01T12:00:00.000Z");
    assert_eq!(path_of(&posts["About"]), "/about");
    assert_eq!(posts["About"]["page"], true);
    assert!(blog.html("/about").await.contains("Text of About."));
    assert!(path_of(&posts["Crème brûlée"]).starts_with("/creme-brulee-"));
    assert_eq!(blog.app.count("imported_items"), 6);
}

#[tokio::test]
async fn a_page_whose_address_is_taken_or_reserved_gets_a_free_one() {
    let blog = Importing::start(|_| {}).await;
    let pages: Vec<Post> = [("1", "about"), ("2", "about"), ("3", "search")]
        .into_iter()
        .map(|(id, slug)| {
            let mut page = item(id, &format!("Page {id}"));
            page.kind = Kind::Page;
            page.slug = slug.into();
            page
        })
        .collect();
    let report = blog.import(pages).await;
    assert_eq!(report.pages, 3);
    assert_eq!(messages_of(&report, "Page 2"), vec!["another page has the address /about: this one is at /about-2"]);
    assert_eq!(
        messages_of(&report, "Page 3"),
        vec!["the address /search belongs to the blog itself: the page is at /page-search"]
    );
    assert!(blog.html("/about-2").await.contains("Text of Page 2."));
    assert!(blog.html("/page-search").await.contains("Text of Page 3."));
}

/// A server on 127.0.0.1 with a PNG at /harbour.png, a 404 elsewhere and HTML at /page.html.
async fn image_origin() -> Origin {
    Origin::start(|path| match path {
        "/harbour.png" => Reply::Body("image/png", PNG.to_vec()),
        "/page.html" => Reply::Body("text/html", b"<!doctype html><p>not an image".to_vec()),
        _ => Reply::Status(404),
    })
    .await
}

#[tokio::test]
async fn images_are_downloaded_once_stored_and_shown_on_the_post() {
    let origin = image_origin().await;
    let blog = Importing::start(|config| config.fetch_allow_loopback = true).await;
    let url = origin.url("/harbour.png");
    let mut first = item("1", "Photos");
    first.blocks.push(image(&url, "The harbour at dusk"));
    let mut second = item("2", "More photos");
    second.blocks.push(image(&url, ""));
    let report = blog.import(vec![first, second]).await;
    assert_eq!((report.posts, report.images), (2, 1), "{report:?}");
    assert!(report.lines.is_empty(), "{:?}", report.lines);
    assert_eq!(origin.connections(), 1, "the same URL is fetched once per import");

    let posts = blog.posts().await;
    let stored = posts["Photos"]["body"]["children"][2]["value"]["url"].as_str().unwrap().to_owned();
    assert!(stored.starts_with(&format!("{}/media/", blog.app.url)) && stored.ends_with(".png"), "{stored}");
    assert_eq!(posts["More photos"]["body"]["children"][2]["value"]["url"], stored.as_str());
    let page = blog.html(&path_of(&posts["Photos"])).await;
    assert!(page.contains(&format!("src=\"{stored}\"")) && page.contains("alt=\"The harbour at dusk\""), "{page}");
    let media = blog.app.get(stored.strip_prefix(&blog.app.url).unwrap()).await;
    assert_eq!(media.status(), 200);
    assert_eq!(media.bytes().await.unwrap().as_ref(), PNG);
}

#[tokio::test]
async fn with_loopback_refused_an_image_becomes_a_link_and_no_request_is_sent() {
    let origin = image_origin().await;
    let blog = Importing::start(|_| {}).await;
    let url = origin.url("/harbour.png");
    let mut photos = item("1", "Photos");
    photos.blocks.push(image(&url, "The harbour at dusk"));
    let report = blog.import(vec![photos]).await;
    assert_eq!((report.posts, report.images), (1, 0));
    assert_eq!(
        messages_of(&report, "Photos"),
        vec![format!("image {url} kept as a link: refused: 127.0.0.1 is a loopback address")]
    );
    assert_eq!(origin.connections(), 0, "nothing reached the server");
    let posts = blog.posts().await;
    assert_eq!(
        posts["Photos"]["body"]["children"][2],
        serde_json::json!({ "type": "link", "value": { "url": url, "title": "The harbour at dusk" } })
    );
}

#[tokio::test]
async fn missing_images_and_pages_that_are_not_images_are_reported_and_the_import_goes_on() {
    let origin = image_origin().await;
    let blog = Importing::start(|config| config.fetch_allow_loopback = true).await;
    let (missing, html) = (origin.url("/gone.png"), origin.url("/page.html"));
    let mut post = item("1", "Broken images");
    post.blocks.push(image(&missing, ""));
    post.blocks.push(Block::Image { url: html.clone(), alt: String::new(), caption: "A caption".into() });
    post.blocks.push(image("/relative/x.png", ""));
    let report = blog.import(vec![post, item("2", "Next")]).await;
    assert_eq!((report.posts, report.images), (2, 0));
    assert_eq!(
        messages_of(&report, "Broken images"),
        vec![
            format!("image {missing} kept as a link: the server answered 404"),
            format!("image {html} kept as a link: not an image (text/html)"),
            "image /relative/x.png kept as text: it is neither an http(s) address nor a file of the export".to_owned(),
        ]
    );
    let children = blog.posts().await["Broken images"]["body"]["children"].clone();
    assert_eq!(children[2]["value"], serde_json::json!({ "url": missing, "title": "gone.png" }));
    assert_eq!(children[3]["value"], serde_json::json!({ "url": html, "title": "A caption" }));
    assert_eq!(children[4], serde_json::json!({ "type": "paragraph", "value": { "text": "x.png" } }));
}

#[tokio::test]
async fn past_the_blogs_upload_quota_images_are_kept_as_links_and_no_longer_downloaded() {
    let origin = Origin::start(|path| match path {
        "/a.png" | "/b.png" => Reply::Body("image/png", PNG.to_vec()),
        _ => Reply::Status(404),
    })
    .await;
    let blog = Importing::start(|config| config.fetch_allow_loopback = true).await;
    // Alice has uploaded all but a few bytes of what a blog may (`--upload-quota-mb`, 1 GB).
    let room = quire::domain::public_instance::Quotas::default().upload_bytes as i64 - 10;
    blog.app
        .db()
        .execute(
            "INSERT INTO images (user_id, hash, mime, size) VALUES (?1, 'earlier', 'image/png', ?2)",
            [blog.blog.user_id, room],
        )
        .unwrap();
    let mut first = item("1", "First");
    first.blocks.push(image(&origin.url("/a.png"), "A"));
    let report = blog.import(vec![first]).await;
    let limit = "this blog's uploads are limited to 1 GB, and it uses 1 GB already";
    assert_eq!(messages_of(&report, "First"), vec![format!("image {} kept as a link: {limit}", origin.url("/a.png"))]);
    let mut second = item("2", "Second");
    second.blocks.push(image(&origin.url("/a.png"), "A"));
    let mut third = item("3", "Third");
    third.blocks.push(image(&origin.url("/b.png"), "B"));
    let one_by_one = ImportOptions { batch: 1 };
    let report = blog.run(wordpress(), vec![second, third], Arc::new(NoFiles), one_by_one, u64::MAX).await;
    assert_eq!((report.posts, report.images), (2, 0));
    assert_eq!(messages_of(&report, "Third"), vec![format!("image {} kept as a link: {limit}", origin.url("/b.png"))]);
    assert_eq!(origin.connections(), 2, "an import downloads until it meets the limit, then no more");
}

#[tokio::test]
async fn failed_image_downloads_count_against_the_imports_download_limit() {
    let origin = image_origin().await;
    let blog = Importing::start(|config| {
        config.fetch_allow_loopback = true;
        config.import_limits.max_image_downloads = 3;
    })
    .await;
    let posts: Vec<_> = (1..=6)
        .map(|n| {
            let mut post = item(&n.to_string(), &format!("Dead link {n}"));
            post.blocks.push(image(&origin.url(&format!("/gone-{n}.png")), ""));
            post
        })
        .collect();
    let report = blog.import(posts).await;
    assert_eq!((report.posts, report.images), (6, 0));
    assert_eq!(origin.connections(), 3, "three failed downloads use up the import's three");
    let limit = "this import already downloaded 3 images, the most one import may (the server's \
                 --import-max-image-downloads)";
    assert_eq!(
        messages_of(&report, "Dead link 6"),
        vec![format!("image {} kept as a link: {limit}", origin.url("/gone-6.png"))]
    );
}

/// The files of a zip export, in memory.
struct Zip(HashMap<String, Vec<u8>>);

impl ExportFiles for Zip {
    fn read(&self, path: &str, _max_bytes: usize) -> Result<Vec<u8>, String> {
        self.0.get(path).cloned().ok_or_else(|| "not in the export".to_owned())
    }
}

#[tokio::test]
async fn images_inside_the_export_are_read_through_its_files() {
    let blog = Importing::start(|_| {}).await;
    let files =
        Zip(HashMap::from([("posts/map.png".to_owned(), PNG.to_vec()), ("notes.txt".to_owned(), b"hello".to_vec())]));
    let mut post = item("posts/map.md", "Map");
    post.blocks.push(image("file:posts/map.png", "The coast road"));
    post.blocks.push(image("file:notes.txt", "Notes"));
    post.blocks.push(image("file:posts/gone.png", ""));
    let report = blog.run(wordpress(), vec![post], Arc::new(files), ImportOptions::default(), u64::MAX).await;
    assert_eq!(report.images, 1);
    assert_eq!(
        messages_of(&report, "Map"),
        vec![
            "image file:notes.txt kept as text: only JPEG, PNG and GIF images can be uploaded",
            "image file:posts/gone.png kept as text: not in the export",
        ]
    );
    let children = blog.posts().await["Map"]["body"]["children"].clone();
    assert!(children[2]["value"]["url"].as_str().unwrap().contains("/media/"));
    assert_eq!(children[3], serde_json::json!({ "type": "paragraph", "value": { "text": "Notes" } }));
    assert_eq!(children[4], serde_json::json!({ "type": "paragraph", "value": { "text": "gone.png" } }));
}

#[tokio::test]
async fn importing_the_same_export_twice_adds_nothing() {
    let blog = Importing::start(|_| {}).await;
    let export = || (0..5).map(|n| item(&n.to_string(), &format!("Post {n}"))).collect::<Vec<_>>();
    let first = blog.import(export()).await;
    assert_eq!((first.posts, first.skipped), (5, 0));
    let again = blog.import(export()).await;
    assert_eq!((again.posts, again.skipped), (0, 5));
    assert_eq!(messages_of(&again, "Post 3"), vec!["already imported"]);
    assert_eq!(blog.app.count("posts"), 5);

    // A deleted post can be imported again.
    let short = blog.posts().await["Post 0"]["shortId"].as_str().unwrap().to_owned();
    let resp = blog
        .alice
        .send(Method::DELETE, &format!("/api/my/blogs/{}/posts/{short}", blog.blog_id), serde_json::json!({}))
        .await;
    assert_eq!(resp.status(), 200);
    let report = blog.import(export()).await;
    assert_eq!((report.posts, report.skipped), (1, 4));

    // Another site's items with the same ids are other items.
    let mut other = wordpress();
    other.settings.site_url = Some("http://other.example.com".into());
    let report = blog.run(other, export(), Arc::new(NoFiles), ImportOptions::default(), u64::MAX).await;
    assert_eq!(report.posts, 5);
}

#[tokio::test]
async fn an_import_stopped_midway_completes_without_duplicates_when_run_again() {
    let blog = Importing::start(|_| {}).await;
    let export = || (0..7).map(|n| item(&n.to_string(), &format!("Post {n}"))).collect::<Vec<_>>();
    let batch = ImportOptions { batch: 2 };
    let stopped = blog.run(wordpress(), export(), Arc::new(NoFiles), batch, 4).await;
    assert_eq!(stopped.posts, 4, "two batches of two, then it stopped");
    let last = &stopped.lines.last().unwrap().message;
    assert_eq!(last, "the import stopped before the end of the export: importing it again brings in the rest");
    assert_eq!(blog.app.count("posts"), 4);
    let resumed = blog.run(wordpress(), export(), Arc::new(NoFiles), batch, u64::MAX).await;
    assert_eq!((resumed.posts, resumed.skipped), (3, 4));
    assert_eq!(blog.app.count("posts"), 7);
    assert_eq!(blog.app.count("imported_items"), 7);
    let titles: std::collections::HashSet<String> = blog.posts().await.into_keys().collect();
    assert_eq!(titles.len(), 7, "no title twice: {titles:?}");
}

#[tokio::test]
async fn old_addresses_answer_301_to_the_post_and_real_pages_win() {
    let blog = Importing::start(|_| {}).await;
    let mut hello = item("12", "Hello");
    hello.tags = vec!["travel".into()];
    let old = ["/2015/03/hello/", "/?p=12", "/hello", "/2024/01/crème-brûlée/", "/about/", "/tags/travel"];
    hello.old_paths = old.map(String::from).to_vec();
    let mut about = item("13", "About");
    about.kind = Kind::Page;
    about.slug = "about".into();
    about.old_paths = vec!["/?page_id=13".into()];
    let mut draft = item("14", "Secret");
    draft.state = State::Draft;
    draft.old_paths = vec!["/?p=14".into(), "/secret/".into()];
    let report = blog.import(vec![hello, about, draft]).await;
    assert_eq!(report.redirects, 9);
    let target = path_of(&blog.posts().await["Hello"]);
    for old in [
        "/2015/03/hello/",
        "/2015/03/hello",
        "/?p=12",
        "/?utm_source=feed&p=12",
        "/hello",
        "/hello/",
        "/2024/01/cr%C3%A8me-br%C3%BBl%C3%A9e/",
        "/2024/01/cr%c3%a8me-br%c3%bbl%c3%a9e",
    ] {
        let resp = blog.page(old).await;
        assert_eq!(resp.status(), 301, "{old}");
        assert_eq!(resp.headers()["location"], target.as_str(), "{old}");
    }
    let resp = blog.page("/?page_id=13").await;
    assert_eq!((resp.status().as_u16(), resp.headers()["location"].to_str().unwrap()), (301, "/about"));
    // What the blog answers itself wins over an old address.
    assert!(blog.html("/about").await.contains("Text of About."));
    assert!(blog.html("/tags/travel").await.contains("Hello"));
    assert!(blog.html("/?p=99").await.contains("Hello"), "an unknown ?p= is the index page");
    // A draft's old addresses lead nowhere (they would tell its address).
    assert_eq!(blog.page("/secret").await.status(), 404);
    assert!(blog.html("/?p=14").await.contains("Hello"));

    // Deleting the post takes its old addresses with it.
    let short = target.rsplit('-').next().unwrap();
    let resp = blog
        .alice
        .send(Method::DELETE, &format!("/api/my/blogs/{}/posts/{short}", blog.blog_id), serde_json::json!({}))
        .await;
    assert_eq!(resp.status(), 200);
    assert_eq!(blog.page("/2015/03/hello/").await.status(), 404);
    assert_eq!(blog.app.count("redirects"), 3);
}

#[tokio::test]
async fn an_archive_export_carries_the_old_addresses_and_they_import_again() {
    let blog = Importing::start(|_| {}).await;
    let mut hello = item("12", "Hello");
    hello.old_paths = vec!["/2015/03/hello/".into(), "/?p=12".into(), "/cr%c3%a8me/".into()];
    blog.import(vec![hello]).await;
    let short = blog.posts().await["Hello"]["shortId"].as_str().unwrap().to_owned();
    let (_, zip) = crate::exports::exported(&blog.alice, blog.blog_id, "archive").await;
    let old = zip.json(&format!("posts/{short}.json"))["oldPaths"].clone();
    assert_eq!(old, serde_json::json!(["/2015/03/hello", "/?p=12", "/cr%C3%A8me"]));

    // As a reader of the archive hands them back, into another blog: the same addresses.
    let bob = blog.app.new_browser();
    let bob_blog = blog_of(&blog.app, bob.sign_up_with_blog("bob@example.com", "bob").await).await;
    let mut again = item(&short, "Hello");
    again.old_paths = serde_json::from_value(old).unwrap();
    let report = import_into(
        &blog.app,
        &bob_blog,
        wordpress(),
        vec![again],
        Arc::new(NoFiles),
        ImportOptions::default(),
        u64::MAX,
    )
    .await;
    assert_eq!((report.redirects, report.lines.len()), (3, 0), "{:?}", report.lines);
    let resp = blog.app.get_with_host(&format!("bob.localhost:{}", blog.app.port), "/crème/").await;
    assert_eq!(resp.status(), 301);
}

#[tokio::test]
async fn a_quire_archive_keeps_its_settings_and_free_short_ids() {
    let blog = Importing::start(|_| {}).await;
    let archive = || Read {
        format: Format::QuireArchive,
        settings: Settings {
            name: Some("Harbour Notes".into()),
            theme: Some("serif".into()),
            icon: Some("2693".into()),
            addons: Some(vec!["reading-time".into(), "search-box".into(), "no-such-addon".into()]),
            time_zone: Some("Europe/Paris".into()),
            site_url: None,
            subscribers: None,
            comments: None,
            responses: None,
            // Refused as a save would be (issue 32): reported, and the blog keeps its own.
            custom_css: Some("a {}\n@import url(https://tracker.example/x.css);".into()),
            description: Some("Boats & <tides>".into()),
            listed: Some(true),
            ai_crawlers: Some("disallow".into()),
            trash: None,
        },
        expected_items: Some(1),
        notes: vec!["2 comments were not imported".into()],
    };
    let mut post = item("abcd2345", "Kept id");
    post.slug = "kept-id".into();
    let report = blog.run(archive(), vec![post.clone()], Arc::new(NoFiles), ImportOptions::default(), u64::MAX).await;
    assert_eq!(messages_of(&report, "The export"), vec!["2 comments were not imported"]);
    assert_eq!(
        messages_of(&report, "Blog settings"),
        vec![
            "the blog's name is now \"Harbour Notes\"",
            "the blog's description was applied",
            "the blog is listed on this instance's landing page",
            "AI crawlers are asked not to use the blog, as the archive's blog asked",
            "the theme is now serif",
            "the tab icon is now 2693",
            "dates are now shown in Europe/Paris",
            "the addon \"no-such-addon\" is not one of this server's: not installed",
            "the addon Reading time is installed",
            "the addon Search box is installed",
            "the custom CSS was not applied: line 2: `@import` is not allowed",
        ]
    );
    let css: String =
        blog.app.db().query_row("SELECT custom_css FROM blogs WHERE id = ?1", [blog.blog_id], |r| r.get(0)).unwrap();
    assert_eq!(css, "", "nothing stored");
    let shown: Value = blog.alice.get(&format!("/api/my/blogs/{}", blog.blog_id)).await.json().await.unwrap();
    assert_eq!(shown["blog"]["name"], "Harbour Notes");
    assert_eq!(
        (shown["blog"]["description"].as_str(), shown["blog"]["listed"].as_bool()),
        (Some("Boats & <tides>"), Some(true))
    );
    assert_eq!(shown["blog"]["aiCrawlers"], "disallow");
    assert!(blog.html("/kept-id-abcd2345").await.contains("Text of Kept id."));
    let again = blog.run(archive(), vec![post.clone()], Arc::new(NoFiles), ImportOptions::default(), u64::MAX).await;
    assert_eq!(
        messages_of(&again, "Blog settings"),
        vec![
            "the addon \"no-such-addon\" is not one of this server's: not installed",
            "the custom CSS was not applied: line 2: `@import` is not allowed",
        ],
        "applying the same settings again changes nothing"
    );

    // Into another blog the short id is taken: a new one, and the old permalink redirects.
    let bob = blog.app.new_browser();
    let bob_blog = blog_of(&blog.app, bob.sign_up_with_blog("bob@example.com", "bob").await).await;
    let report =
        import_into(&blog.app, &bob_blog, archive(), vec![post], Arc::new(NoFiles), ImportOptions::default(), u64::MAX)
            .await;
    assert_eq!((report.posts, report.redirects), (1, 1));
    let resp = blog.app.get_with_host(&format!("bob.localhost:{}", blog.app.port), "/kept-id-abcd2345").await;
    assert_eq!(resp.status(), 301);
    let location = resp.headers()["location"].to_str().unwrap().to_owned();
    assert!(location.starts_with("/kept-id-") && location != "/kept-id-abcd2345", "{location}");
}

#[tokio::test]
async fn a_full_blog_stops_the_import_with_a_clear_line_and_keeps_what_was_written() {
    let blog = Importing::start(|_| {}).await;
    {
        // Fill the blog to two posts short of the limit, straight into the database.
        let mut conn = blog.app.db();
        let tx = conn.transaction().unwrap();
        let sql = "INSERT INTO posts (blog_id, short_id, slug, title, body) VALUES (?1, ?2, 'filler', 'Filler', '{}')";
        let mut insert = tx.prepare(sql).unwrap();
        for n in 0..MAX_POSTS_PER_BLOG - 2 {
            insert.execute(rusqlite::params![blog.blog_id, format!("f{n:07}")]).unwrap();
        }
        drop(insert);
        tx.commit().unwrap();
    }
    let export = (0..250).map(|n| item(&n.to_string(), &format!("Post {n}"))).collect();
    let report = blog.import(export).await;
    assert_eq!((report.posts, report.skipped), (2, 248));
    assert_eq!(
        messages_of(&report, "The export"),
        vec!["248 items were not imported: a blog can have at most 10000 posts"]
    );
    assert_eq!(blog.app.count("posts"), MAX_POSTS_PER_BLOG as i64);
}

#[tokio::test]
async fn deleting_the_account_removes_what_imports_stored() {
    let blog = Importing::start(|_| {}).await;
    let mut post = item("1", "Hello");
    post.old_paths = vec!["/hello/".into()];
    blog.import(vec![post]).await;
    assert_eq!((blog.app.count("imported_items"), blog.app.count("redirects")), (1, 1));
    let resp = blog.alice.send(Method::DELETE, &format!("/api/my/blogs/{}", blog.blog_id), serde_json::json!({})).await;
    assert_eq!(resp.status(), 200);
    assert_eq!((blog.app.count("imported_items"), blog.app.count("redirects")), (0, 0));
}

#[tokio::test]
async fn a_backup_carries_what_imports_stored_and_its_restore_answers_the_old_addresses() {
    let origin = image_origin().await;
    let blog = Importing::start(|config| config.fetch_allow_loopback = true).await;
    let mut post = item("1", "Photos");
    post.blocks.push(image(&origin.url("/harbour.png"), "The harbour"));
    post.old_paths = vec!["/2015/03/photos/".into()];
    blog.import(vec![post.clone()]).await;
    let target = path_of(&blog.posts().await["Photos"]);
    let (user_id, blog_id) = (blog.blog.user_id, blog.blog_id);
    let dir = blog.app.stop().await;

    let archive = dir.path().with_extension("tar");
    let out = quire(&["backup", "--data-dir", s(dir.path()), s(&archive)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let restored = Arc::new(tempfile::tempdir().unwrap());
    let out = quire(&["restore", "--data-dir", s(restored.path()), s(&archive)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let _ = std::fs::remove_file(&archive);

    let app = TestApp::spawn_in(restored, |config| config.fetch_allow_loopback = true).await;
    let resp = app.get_with_host(&format!("alice.localhost:{}", app.port), "/2015/03/photos").await;
    assert_eq!((resp.status().as_u16(), resp.headers()["location"].to_str().unwrap()), (301, target.as_str()));
    let page = app.get_with_host(&format!("alice.localhost:{}", app.port), &target).await.text().await.unwrap();
    let name =
        page.split("/media/").nth(1).and_then(|rest| rest.split('"').next()).expect("the image on the page").to_owned();
    assert_eq!(app.get(&format!("/media/{name}")).await.bytes().await.unwrap().as_ref(), PNG);
    let restored_blog = blog_of(&app, blog_id).await;
    assert_eq!(restored_blog.user_id, user_id);
    let again = import_into(
        &app,
        &restored_blog,
        wordpress(),
        vec![post],
        Arc::new(NoFiles),
        ImportOptions::default(),
        u64::MAX,
    )
    .await;
    assert_eq!((again.posts, again.skipped), (0, 1), "the restored blog remembers what was imported");
}

/// Post `n` of a generated export: five paragraphs, two tags (one of twenty, and one they all
/// share), two old addresses.
fn generated(n: u32) -> Post {
    let mut post = item(&n.to_string(), &format!("Post number {n}"));
    post.blocks =
        (0..5).map(|p| Block::Paragraph { text: format!("Paragraph {p} of post {n}, with **some** words.") }).collect();
    post.tags = vec![format!("Tag {}", n % 20), "Imported".into()];
    post.old_paths = vec![format!("/?p={n}"), format!("/2015/03/post-number-{n}/")];
    post
}

/// Imports `count` generated posts (made as a reader would, one at a time) on a task of its
/// own, as a background job runs it (so the import's future is Send); returns the report, the
/// time taken and how often progress was told.
async fn timed_import(blog: &Importing, count: u32) -> (Report, std::time::Duration, u64) {
    let calls = Arc::new(AtomicU64::new(0));
    let counted = calls.clone();
    let (state, target) = (blog.app.state.clone(), blog.blog.clone());
    let started = Instant::now();
    let report = tokio::spawn(async move {
        let files: Arc<dyn ExportFiles> = Arc::new(NoFiles);
        let source =
            ImportSource { read: wordpress(), posts: (0..count).map(|n| Ok::<Post, String>(generated(n))), files };
        let progress = move |_| counted.fetch_add(1, Ordering::SeqCst) < u64::MAX;
        state.blogs.import(&target, &state.fetcher, source, ImportOptions::default(), progress).await
    })
    .await
    .unwrap()
    .unwrap();
    let took = started.elapsed();
    println!(
        "imported {count} posts in {:.2} s: {:.0} posts/s",
        took.as_secs_f64(),
        f64::from(count) / took.as_secs_f64()
    );
    (report, took, calls.load(Ordering::SeqCst))
}

#[tokio::test]
async fn two_thousand_posts_import_in_batches_at_a_measured_speed() {
    let blog = Importing::start(|_| {}).await;
    let count: u32 = 2_000;
    let (report, took, calls) = timed_import(&blog, count).await;
    assert_eq!((report.posts, report.tags, report.redirects), (u64::from(count), 21, 2 * u64::from(count)));
    assert_eq!(calls, u64::from(count).div_ceil(quire::blogs::BATCH as u64), "progress after each batch");
    assert!(took.as_secs() < 120, "{took:?}");
    assert_eq!(blog.alice.search_titles(blog.blog_id, "number 1234").await, vec!["Post number 1234"]);
    assert_eq!(blog.page("/?p=1999").await.status(), 301);
}

/// A figure of this test process (server and test together) from `/proc/self/status`, in MB.
fn memory_mb(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let kib: u64 = status
        .lines()
        .find_map(|line| line.strip_prefix(field))
        .unwrap()
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .unwrap();
    kib / 1024
}

/// `cargo test --test api ten_thousand -- --ignored --nocapture`: a full blog's worth, with
/// the process's resident memory before and after, and its peak.
#[tokio::test]
#[ignore = "a measurement: about 15 s in a debug build"]
async fn ten_thousand_posts_import_with_bounded_memory() {
    let blog = Importing::start(|_| {}).await;
    let before = memory_mb("VmRSS:");
    let (report, _, _) = timed_import(&blog, 10_000).await;
    assert_eq!((report.posts, report.skipped), (10_000, 0));
    println!("RSS {before} MB before, {} MB after, peak {} MB", memory_mb("VmRSS:"), memory_mb("VmHWM:"));
}
