//! What exports read: a blog's settings as an archive carries them, its posts in creation order
//! a page at a time (never the whole blog at once), the images its owner uploaded, and its
//! posts' comments and webmentions.

use rusqlite::{Connection, OptionalExtension, params};

use crate::db::posts::{COLUMNS, Post, from_row};
use crate::domain::content::image::ImageType;
use crate::error::Error;
use crate::portable::model::MovedResponse;
use crate::portable::write::quire_archive::ArchiveBlog;

/// A blog's settings as an archive carries them, with the ids that find the rest.
#[derive(Debug, Clone, PartialEq)]
pub struct BlogSettings {
    /// Blog id.
    pub id: i64,
    /// Its owner.
    pub user_id: i64,
    /// Its settings, by the names that mean the same on any Quire.
    pub settings: ArchiveBlog,
}

/// The settings of the blog on `subdomain`.
pub fn blog_settings(conn: &Connection, subdomain: &str) -> Result<Option<BlogSettings>, Error> {
    let found = conn
        .prepare_cached(
            "SELECT b.id, b.user_id, b.subdomain, b.name, t.slug, f.code, b.time_zone, b.created_at,
                    b.comments_mode, b.blocked_words, b.custom_css, b.description, b.listed, b.ai_crawlers
             FROM blogs b JOIN themes t ON t.id = b.theme_id JOIN favicons f ON f.id = b.favicon_id WHERE b.subdomain = ?1")?.query_row(
            [subdomain],
            |r| {
                let settings = ArchiveBlog {
                    subdomain: r.get(2)?,
                    name: r.get(3)?,
                    theme: r.get(4)?,
                    icon: r.get(5)?,
                    addons: Vec::new(),
                    time_zone: r.get(6)?,
                    created_at: r.get(7)?,
                    comments_mode: Some(r.get(8)?),
                    blocked_words: Some(serde_json::from_str(&r.get::<_, String>(9)?).unwrap_or_default()),
                    custom_css: Some(r.get::<_, String>(10)?).filter(|css| !css.is_empty()),
                    description: Some(r.get::<_, String>(11)?).filter(|text| !text.is_empty()),
                    listed: Some(r.get(12)?),
                    ai_crawlers: Some(r.get(13)?),
                };
                Ok(BlogSettings { id: r.get(0)?, user_id: r.get(1)?, settings })
            },
        )
        .optional()?;
    let Some(mut blog) = found else { return Ok(None) };
    blog.settings.addons = super::addons::installed_slugs(conn, blog.id)?;
    Ok(Some(blog))
}

/// The subdomain of blog `blog_id`.
pub fn subdomain_of(conn: &Connection, blog_id: i64) -> Result<Option<String>, Error> {
    Ok(conn
        .prepare_cached("SELECT subdomain FROM blogs WHERE id = ?1")?
        .query_row([blog_id], |r| r.get(0))
        .optional()?)
}

/// How many posts and how many pages the blog has, drafts included.
pub fn counts(conn: &Connection, blog_id: i64) -> Result<(u64, u64), Error> {
    Ok(conn
        .prepare_cached(
            "SELECT count(*), (SELECT count(*) FROM post_pages WHERE blog_id = ?1) FROM posts WHERE blog_id = ?1",
        )?
        .query_row([blog_id], |r| Ok((r.get::<_, u64>(0)? - r.get::<_, u64>(1)?, r.get(1)?)))?)
}

/// Where a walk through a blog's posts in creation order stands: the last post it read.
pub type After = Option<(String, i64)>;

/// The next `limit` posts and pages of the blog after `after`, in creation order (oldest
/// first), with their tags and page places. A post written meanwhile is read in its new form;
/// none is read twice.
pub fn posts_after(conn: &Connection, blog_id: i64, after: &After, limit: u32) -> Result<Vec<Post>, Error> {
    let (created, id) = after.clone().unwrap_or_default();
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM posts WHERE blog_id = ?1 AND (?2 = 0 OR created_at > ?3 OR (created_at = ?3 AND id > ?2))
         ORDER BY created_at, id LIMIT ?4"
    ))?;
    let mut posts: Vec<Post> =
        stmt.query_map(params![blog_id, id, created, limit], from_row)?.collect::<rusqlite::Result<_>>()?;
    super::tags::attach(conn, &mut posts)?;
    Ok(posts)
}

/// The stored names (`<hash>.<ext>`, as under `/media/`) of every image `user_id` uploaded, in
/// the order of their names (not of their uploads, which an import of the blog elsewhere does
/// not repeat: so an archive and the archive of its import list them alike).
pub fn image_names(conn: &Connection, user_id: i64) -> Result<Vec<String>, Error> {
    let mut stmt = conn.prepare_cached("SELECT hash, mime FROM images WHERE user_id = ?1 ORDER BY hash, mime")?;
    let rows = stmt.query_map([user_id], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?;
    let mut names = Vec::new();
    for row in rows {
        let (hash, mime) = row?;
        if let Some(kind) = ImageType::from_mime(&mime) {
            names.push(format!("{hash}.{}", kind.extension()));
        }
    }
    Ok(names)
}

/// Every comment, webmention and fediverse reply of the blog's posts as an archive carries them
/// (all states), each tied to its post's short id: post by post in the posts' order, within a
/// post the comments and webmentions oldest first, then the replies oldest first (the order an
/// import adds them in, so a re-export gives the same file).
pub fn responses_for_archive(conn: &Connection, blog_id: i64) -> Result<Vec<MovedResponse>, Error> {
    let mut stmt = conn.prepare_cached(
        "SELECT p.short_id, r.kind, r.state, r.author_name, r.author_url, r.source_url, r.title, r.text,
                r.owner_reply, r.created_at, NULL, NULL, NULL, NULL, p.created_at AS post_at, p.id AS post, 0 AS part,
                r.id AS n
         FROM responses r JOIN posts p ON p.id = r.post_id WHERE r.blog_id = ?1
         UNION ALL
         SELECT p.short_id, 'reply', f.state, f.author_name, f.author_url, f.url, '', f.text, '', f.received_at,
                f.author_handle, f.note_id, f.actor_id, f.published_at, p.created_at, p.id, 1, f.id
         FROM replies f JOIN posts p ON p.id = f.post_id WHERE p.blog_id = ?1
         ORDER BY post_at, post, part, n",
    )?;
    let rows = stmt.query_map([blog_id], |r| {
        Ok(MovedResponse {
            post: r.get(0)?,
            kind: r.get(1)?,
            state: r.get(2)?,
            author_name: r.get(3)?,
            author_url: r.get(4)?,
            source_url: r.get(5)?,
            title: r.get(6)?,
            text: r.get(7)?,
            owner_reply: r.get(8)?,
            received_at: r.get(9)?,
            author_handle: r.get(10)?,
            note_id: r.get(11)?,
            actor_id: r.get(12)?,
            published_at: r.get(13)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
