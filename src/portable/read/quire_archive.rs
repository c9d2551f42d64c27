//! Reading a Quire archive (docs/archive.md) with the types [`crate::portable::write::quire_archive`] writes it
//! with: `quire-archive.json` first (refused when its `format` is another or its `version`
//! higher than this Quire reads), then each `posts/<shortId>.json` one at a time. Blocks are
//! kept as stored; an image block's `images/<name>` becomes `file:images/<name>`. The blog's
//! comment settings come with the manifest, its comments and webmentions from `responses.json`
//! (checked by [`super::quire_responses`]); each post's revisions with it and the trash's
//! deleted posts from `trash.json` (docs/revisions.md), who saved each left behind.

use std::collections::HashSet;
use std::io::{Read, Seek};

use super::dates;
use super::quire_responses;
use super::safe_zip::SafeZip;
use crate::domain::content::blocks::Block;
use crate::domain::content::revisions::Kept;
use crate::domain::net::email_address::EmailAddress;
use crate::portable::model::{Format, Kind, MovedComments, Post, Read as Header, Settings, State};
use crate::portable::write::quire_archive::{
    ArchivePost, ArchiveSubscribers, ArchiveTrash, MANIFEST, Manifest, RESPONSES, SUBSCRIBERS, TRASH,
};
use crate::portable::{Export, Problem, Unreadable};

/// Largest `posts/<shortId>.json` read.
pub const MAX_POST_BYTES: u64 = 16 * 1024 * 1024;
/// Largest `trash.json` read.
pub const MAX_TRASH_BYTES: u64 = 64 * 1024 * 1024;
/// Largest `subscribers.json` read (about 200,000 subscribers).
pub const MAX_SUBSCRIBERS_BYTES: u64 = 32 * 1024 * 1024;

/// Reads a Quire archive.
pub fn read<R: Read + Seek + Send + 'static>(input: R) -> Result<Export, Unreadable> {
    let mut zip = SafeZip::open(input)?;
    if !zip.contains(MANIFEST) {
        return Err(Unreadable::new("This zip is not a Quire archive: it holds no quire-archive.json"));
    }
    let manifest: Manifest = super::json_of(&zip.read(MANIFEST, 1024 * 1024)?, "This archive's quire-archive.json")?;
    manifest.check().map_err(Unreadable)?;
    let posts: Vec<String> =
        zip.names().iter().filter(|n| n.starts_with("posts/") && n.ends_with(".json")).cloned().collect();
    let blog = manifest.blog;
    let (subscribers, mut notes) = match zip.contains(SUBSCRIBERS) {
        true => subscribers(&mut zip)?,
        false => (None, Vec::new()),
    };
    notes.truncate(20);
    let responses = match zip.contains(RESPONSES) {
        true => {
            let short_ids: HashSet<String> = posts
                .iter()
                .filter_map(|name| name.strip_prefix("posts/")?.strip_suffix(".json"))
                .map(str::to_owned)
                .collect();
            let (kept, mut left_out) =
                quire_responses::read(&zip.read(RESPONSES, quire_responses::MAX_RESPONSES_BYTES)?, &short_ids)?;
            if left_out.len() > 20 {
                let more = left_out.len() - 20;
                left_out.truncate(20);
                left_out.push(format!("{more} more responses of responses.json were left out"));
            }
            notes.extend(left_out);
            Some(kept)
        }
        false => None,
    };
    let trash = match zip.contains(TRASH) {
        true => {
            let list: ArchiveTrash = super::json_of(&zip.read(TRASH, MAX_TRASH_BYTES)?, "This archive's trash.json")?;
            let strip = |r: Kept| Kept { user_id: None, ..r };
            let entries = list.trash.into_iter().map(|mut entry| {
                entry.revisions = entry.revisions.into_iter().map(strip).collect();
                entry
            });
            Some(entries.collect())
        }
        false => None,
    };
    let comments = match (blog.comments_mode, blog.blocked_words) {
        (None, None) => None,
        (mode, words) => Some(MovedComments {
            mode: mode.unwrap_or_else(|| "off".to_owned()),
            blocked_words: words.unwrap_or_default(),
        }),
    };
    let read = Header {
        format: Format::QuireArchive,
        settings: Settings {
            name: Some(blog.name),
            theme: Some(blog.theme),
            icon: Some(blog.icon),
            addons: Some(blog.addons),
            time_zone: Some(blog.time_zone),
            site_url: None,
            subscribers,
            comments,
            responses,
            custom_css: blog.custom_css,
            description: blog.description,
            listed: blog.listed,
            ai_crawlers: blog.ai_crawlers,
            trash,
        },
        expected_items: Some(posts.len() as u64),
        notes,
    };
    let items = posts.into_iter().map(move |name| post(&mut zip, &name));
    Ok(Export { read, items: Box::new(items) })
}

/// The archive's confirmed subscribers whose addresses Quire takes (normalized), and a note for
/// each it does not.
fn subscribers<R: Read + Seek>(
    zip: &mut SafeZip<R>,
) -> Result<(Option<Vec<crate::portable::model::MovedSubscriber>>, Vec<String>), Unreadable> {
    let bytes = zip.read(SUBSCRIBERS, MAX_SUBSCRIBERS_BYTES)?;
    let list: ArchiveSubscribers = super::json_of(&bytes, "This archive's subscribers.json")?;
    let mut notes = Vec::new();
    let kept = list
        .subscribers
        .into_iter()
        .filter_map(|mut subscriber| match EmailAddress::parse(&subscriber.email) {
            Ok(email) => {
                subscriber.email = email.to_string();
                Some(subscriber)
            }
            Err(message) => {
                notes.push(format!("the subscriber {:?} was left out: {message}", subscriber.email));
                None
            }
        })
        .collect();
    Ok((Some(kept), notes))
}

fn post<R: Read + Seek>(zip: &mut SafeZip<R>, name: &str) -> Result<Post, Problem> {
    let bytes = zip.read(name, MAX_POST_BYTES).map_err(|err| Problem::item(name, "", err.0))?;
    let post: ArchivePost = serde_json::from_slice(&bytes)
        .map_err(|err| Problem::item(name, "", format!("It is not a post Quire can read ({err})")))?;
    let children = post.body.get("children").cloned().unwrap_or_default();
    let mut blocks: Vec<Block> = serde_json::from_value(children).map_err(|err| {
        Problem::item(&post.short_id, &post.title, format!("Its body holds a block Quire cannot read ({err})"))
    })?;
    for block in &mut blocks {
        if let Block::Image { url, .. } = block
            && url.starts_with("images/")
            && zip.contains(url)
        {
            *url = format!("file:{url}");
        }
    }
    let published = post.published_at.as_deref().and_then(dates::parse);
    let scheduled = post.scheduled_at.as_deref().and_then(dates::parse);
    let (state, published_at) = match (published, scheduled) {
        (Some(at), _) => (State::Published, Some(at)),
        (None, Some(at)) => (State::Scheduled, Some(at)),
        (None, None) => (State::Draft, None),
    };
    let page = post.kind == "page";
    Ok(Post {
        source_id: post.short_id,
        kind: if page { Kind::Page } else { Kind::Post },
        title: post.title,
        slug: post.page.as_ref().filter(|_| page).map_or(post.slug, |p| p.slug.trim_start_matches('/').to_owned()),
        blocks,
        state,
        created_at: dates::parse(&post.created_at),
        published_at,
        updated_at: dates::parse(&post.updated_at),
        tags: post.tags,
        old_paths: post.old_paths,
        page_position: post.page.map(|p| p.position),
        comments_closed: post.comments_closed,
        unlisted: post.unlisted,
        // Who saved means something on the old server only.
        revisions: post.revisions.into_iter().map(|r| Kept { user_id: None, ..r }).collect(),
        notes: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use serde_json::json;
    use time::macros::datetime;

    use super::*;
    use crate::portable::read::safe_zip::tests::zip_of;

    fn manifest(format: &str, version: u32) -> Vec<u8> {
        json!({
            "format": format, "version": version, "exportedAt": "2026-11-22T05:07:01.123Z", "generator": "Quire 0.1.0",
            "blog": { "subdomain": "alice", "name": "Alice", "theme": "serif", "icon": "1f4dd", "addons": ["reading-time"],
                      "timeZone": "Europe/Paris", "createdAt": "2026-01-01T00:00:00.000Z" },
            "counts": { "posts": 1, "pages": 1, "images": 1 },
        })
        .to_string()
        .into_bytes()
    }

    #[test]
    fn an_archive_gives_back_settings_posts_pages_and_its_images() {
        let post = json!({
            "shortId": "abc12345", "slug": "hello", "title": "Hello", "kind": "post",
            "body": { "type": "root", "children": [
                { "type": "paragraph", "value": { "text": "Hi *there*" } },
                { "type": "image", "value": { "url": "images/0f.png", "alt": "A", "caption": "C" } },
            ]},
            "tags": ["rust"], "createdAt": "2026-01-02T10:00:00.000Z", "updatedAt": "2026-01-03T10:00:00.000Z",
            "publishedAt": "2026-01-02T11:00:00.000Z", "scheduledAt": null, "oldPaths": ["/2015/01/hello/"], "extra": 1,
        });
        let page = json!({
            "shortId": "pag12345", "slug": "about", "title": "About", "kind": "page", "page": { "slug": "/about", "position": 2 },
            "body": { "type": "root", "children": [{ "type": "heading", "value": { "text": "Me" } }] },
            "tags": [], "createdAt": "2026-01-02T10:00:00.000Z", "updatedAt": "2026-01-02T10:00:00.000Z",
            "publishedAt": null, "scheduledAt": null,
        });
        let bytes = zip_of(&[
            ("quire-archive.json", &manifest("quire-archive", 1)),
            ("posts/abc12345.json", post.to_string().as_bytes()),
            ("posts/pag12345.json", page.to_string().as_bytes()),
            ("images/0f.png", b"png"),
        ]);
        let export = read(Cursor::new(bytes)).unwrap();
        assert_eq!(export.read.settings.theme.as_deref(), Some("serif"));
        assert_eq!(export.read.settings.addons, Some(vec!["reading-time".to_owned()]));
        // Written before comments: nothing of them, so an import leaves the blog's as they are.
        assert_eq!((&export.read.settings.comments, &export.read.settings.responses), (&None, &None));
        let posts: Vec<Post> = export.items.map(Result::unwrap).collect();
        assert_eq!(
            posts[0].blocks[1],
            Block::Image { url: "file:images/0f.png".into(), alt: "A".into(), caption: "C".into() }
        );
        assert_eq!((posts[0].state, posts[0].published_at), (State::Published, Some(datetime!(2026-01-02 11:00 UTC))));
        assert_eq!(posts[0].old_paths, ["/2015/01/hello/"]);
        assert!(!posts[0].comments_closed, "open unless the archive says closed");
        assert_eq!(
            (posts[1].kind, posts[1].slug.as_str(), posts[1].page_position, posts[1].state),
            (Kind::Page, "about", Some(2), State::Draft)
        );
    }

    #[test]
    fn comment_settings_closed_posts_and_responses_come_with_the_archive() {
        let mut manifest: serde_json::Value = serde_json::from_slice(&manifest("quire-archive", 1)).unwrap();
        manifest["blog"]["commentsMode"] = json!("trusted");
        manifest["blog"]["blockedWords"] = json!(["casino"]);
        let post = json!({
            "shortId": "abc12345", "slug": "hello", "title": "Hello", "kind": "post",
            "body": { "type": "root", "children": [{ "type": "heading", "value": { "text": "Hello" } }] },
            "tags": [], "createdAt": "2026-01-02T10:00:00.000Z", "updatedAt": "2026-01-02T10:00:00.000Z",
            "publishedAt": "2026-01-02T10:00:00.000Z", "scheduledAt": null, "commentsClosed": true,
        });
        let responses = json!({ "responses": [
            { "post": "abc12345", "kind": "comment", "state": "held", "authorName": "Ann", "text": "Hi",
              "receivedAt": "2026-01-03T10:00:00.000Z" },
            { "post": "gone1234", "kind": "comment", "state": "held", "authorName": "Bo", "text": "Hi",
              "receivedAt": "2026-01-03T10:00:00.000Z" },
        ]});
        let bytes = zip_of(&[
            ("quire-archive.json", manifest.to_string().as_bytes()),
            ("posts/abc12345.json", post.to_string().as_bytes()),
            ("responses.json", responses.to_string().as_bytes()),
        ]);
        let export = read(Cursor::new(bytes)).unwrap();
        let comments = export.read.settings.comments.clone().unwrap();
        assert_eq!((comments.mode.as_str(), comments.blocked_words), ("trusted", vec!["casino".to_owned()]));
        let responses = export.read.settings.responses.clone().unwrap();
        assert_eq!(responses.iter().map(|r| r.author_name.as_str()).collect::<Vec<_>>(), ["Ann"]);
        assert!(export.read.notes[0].contains("\"gone1234\" is not in this archive"), "{:?}", export.read.notes);
        assert!(export.items.map(Result::unwrap).all(|post| post.comments_closed));
    }

    #[test]
    fn other_formats_and_newer_versions_are_refused() {
        let newer = zip_of(&[("quire-archive.json", &manifest("quire-archive", 99))]);
        assert!(read(Cursor::new(newer)).err().unwrap().0.contains("written by a newer Quire"));
        let other = zip_of(&[("quire-archive.json", &manifest("other", 1))]);
        assert!(read(Cursor::new(other)).err().unwrap().0.starts_with("This is not a Quire archive"));
    }
}
