//! What public blog pages read: a blog by subdomain with its settings, and its published posts.

use rusqlite::{Connection, OptionalExtension, params};

use crate::db::pages::{self, NavLink};
use crate::db::posts::{COLUMNS, Post, from_row};
use crate::db::tags;
use crate::domain::blog::address::BlogAddress;
use crate::domain::blog::ai_crawlers::AiCrawlers;
use crate::domain::blog::time_zone::TimeZone;
use crate::domain::blog::trust_state::TrustState;
use crate::error::Error;

/// A blog as its public pages need it.
#[derive(Debug, Clone)]
pub struct PublicBlog {
    /// Blog id.
    pub id: i64,
    /// Subdomain.
    pub subdomain: String,
    /// Display name.
    pub name: String,
    /// One paragraph of plain text under its name ('' for none).
    pub description: String,
    /// Theme slug (`default`, `serif`, ...).
    pub theme: String,
    /// The tab icon's emoji.
    pub favicon: String,
    /// The tab icon's code (lowercase hex code points joined by `-`).
    pub favicon_code: String,
    /// The zone its dates are shown in.
    pub time_zone: TimeZone,
    /// Slugs of the installed addons.
    pub addons: Vec<String>,
    /// Last settings change.
    pub updated_at: String,
    /// Newest `updated_at` of its published posts, if any.
    pub posts_updated_at: Option<String>,
    /// Its published pages, in navigation order.
    pub pages: Vec<NavLink>,
    /// Where it answers: its subdomain, and its verified custom domain.
    pub address: BlogAddress,
    /// Its trust state: a blog that is not listed is `noindex` and out of its sitemap.
    pub state: TrustState,
    /// Whether its owner lets it send its posts by email (issue 30).
    pub email_enabled: bool,
    /// Who may comment on its posts (issue 31).
    pub comments_mode: super::responses::CommentsMode,
    /// Its custom stylesheet, '' for none (issue 32).
    pub custom_css: String,
    /// Whether it asks AI crawlers not to use it (issue 35).
    pub ai_crawlers: AiCrawlers,
}

impl PublicBlog {
    /// What it says of itself to search engines, link previews and feed readers: its
    /// description, else "Posts from {name}".
    pub fn summary(&self) -> String {
        match self.description.is_empty() {
            true => format!("Posts from {}", self.name),
            false => self.description.clone(),
        }
    }

    /// Whether the addon with this slug is installed.
    pub fn has(&self, addon: &str) -> bool {
        self.addons.iter().any(|a| a == addon)
    }
}

/// The blog on `subdomain`, if there is one.
pub fn blog(conn: &Connection, subdomain: &str) -> Result<Option<PublicBlog>, Error> {
    let found = conn
        .prepare_cached(
            "SELECT b.id, b.subdomain, b.name, t.slug, f.emoji, b.updated_at,
                    (SELECT max(updated_at) FROM posts p WHERE p.blog_id = b.id AND p.published_at IS NOT NULL),
                    f.code,
                    b.time_zone, d.name, b.state, b.email_enabled, b.comments_mode, b.custom_css, b.description,
                    b.ai_crawlers
             FROM blogs b JOIN themes t ON t.id = b.theme_id JOIN favicons f ON f.id = b.favicon_id
             LEFT JOIN custom_domains d ON d.blog_id = b.id AND d.state = 'verified'
             WHERE b.subdomain = ?1",
        )?
        .query_row([subdomain], |row| {
            Ok(PublicBlog {
                id: row.get(0)?,
                subdomain: row.get(1)?,
                name: row.get(2)?,
                description: row.get(14)?,
                theme: row.get(3)?,
                favicon: row.get(4)?,
                favicon_code: row.get(7)?,
                time_zone: TimeZone::from_stored(&row.get::<_, String>(8)?),
                addons: Vec::new(),
                updated_at: row.get(5)?,
                posts_updated_at: row.get(6)?,
                pages: Vec::new(),
                address: BlogAddress { subdomain: row.get(1)?, domain: row.get(9)? },
                state: TrustState::from_stored(&row.get::<_, String>(10)?),
                email_enabled: row.get(11)?,
                comments_mode: super::responses::CommentsMode::parse(&row.get::<_, String>(12)?)
                    .unwrap_or(super::responses::CommentsMode::Off),
                custom_css: row.get(13)?,
                ai_crawlers: AiCrawlers::from_stored(&row.get::<_, String>(15)?),
            })
        })
        .optional()?;
    let Some(mut blog) = found else { return Ok(None) };
    blog.addons = super::addons::installed_slugs(conn, blog.id)?;
    blog.pages = pages::nav(conn, blog.id)?;
    Ok(Some(blog))
}

/// Posts that are not pages (pages are in the navigation, not the index and feeds).
const NOT_PAGE: &str = "NOT EXISTS (SELECT 1 FROM post_pages pp WHERE pp.post_id = posts.id)";

/// Posts in the public lists: published and not unlisted (an unlisted post is reachable by its
/// permalink only: docs/unlisted.md).
const LISTED: &str = "published_at IS NOT NULL AND NOT unlisted";

/// Number of published posts (pages and unlisted posts left out).
pub fn count_published(conn: &Connection, blog_id: i64) -> Result<u64, Error> {
    Ok(conn
        .prepare_cached(&format!("SELECT count(*) FROM posts WHERE blog_id = ?1 AND {LISTED} AND {NOT_PAGE}"))?
        .query_row([blog_id], |r| r.get(0))?)
}

/// The instance's approved blogs and their listed published posts (pages left out), for NodeInfo: a
/// blog waiting for review, silenced or suspended is not counted, as it is in no instance-wide
/// list and not federated.
pub fn instance_counts(conn: &Connection) -> Result<(u64, u64), Error> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT (SELECT count(*) FROM blogs WHERE state = 'approved'),
                    (SELECT count(*) FROM posts JOIN blogs b ON b.id = posts.blog_id
                     WHERE b.state = 'approved' AND {LISTED} AND {NOT_PAGE})"
        ))?
        .query_row([], |r| Ok((r.get(0)?, r.get(1)?)))?)
}

/// Published posts (pages and unlisted posts left out), newest first.
pub fn published(conn: &Connection, blog_id: i64, offset: u64, limit: u32) -> Result<Vec<Post>, Error> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM posts WHERE blog_id = ?1 AND {LISTED} AND {NOT_PAGE}
         ORDER BY published_at DESC, id DESC LIMIT ?2 OFFSET ?3"
    ))?;
    let mut posts: Vec<Post> =
        stmt.query_map(params![blog_id, limit, offset], from_row)?.collect::<rusqlite::Result<_>>()?;
    tags::attach(conn, &mut posts)?;
    Ok(posts)
}

/// What a sitemap prints of a post.
#[derive(Debug, Clone)]
pub struct SitemapPost {
    /// URL slug.
    pub slug: String,
    /// Public id.
    pub short_id: String,
    /// Last change.
    pub updated_at: String,
    /// Whether it is a page (at `/{slug}`).
    pub page: bool,
}

/// The newest `limit` published posts' slugs, short ids and change times, for the sitemap
/// (their bodies are never read; unlisted posts left out).
pub fn sitemap_entries(conn: &Connection, blog_id: i64, limit: u64) -> Result<Vec<SitemapPost>, Error> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT slug, short_id, updated_at, EXISTS (SELECT 1 FROM post_pages pp WHERE pp.post_id = posts.id) FROM posts WHERE blog_id = ?1 AND {LISTED}
         ORDER BY published_at DESC, id DESC LIMIT ?2",
    ))?;
    let posts = stmt
        .query_map(params![blog_id, limit as i64], |row| {
            Ok(SitemapPost { slug: row.get(0)?, short_id: row.get(1)?, updated_at: row.get(2)?, page: row.get(3)? })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(posts)
}

/// A published post by short id (an unlisted one too: its permalink answers).
pub fn published_post(conn: &Connection, blog_id: i64, short_id: &str) -> Result<Option<Post>, Error> {
    let post = conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM posts WHERE blog_id = ?1 AND short_id = ?2 AND published_at IS NOT NULL"
        ))?
        .query_row(params![blog_id, short_id], from_row)
        .optional()?;
    tags::attached(conn, post)
}

/// Published posts with these row ids, in that order (unlisted posts left out: public search).
pub fn published_by_ids(conn: &Connection, blog_id: i64, ids: &[i64]) -> Result<Vec<Post>, Error> {
    let mut stmt =
        conn.prepare_cached(&format!("SELECT {COLUMNS} FROM posts WHERE id = ?1 AND blog_id = ?2 AND {LISTED}"))?;
    let mut posts = Vec::with_capacity(ids.len());
    for id in ids {
        if let Some(post) = stmt.query_row(params![id, blog_id], from_row).optional()? {
            posts.push(post);
        }
    }
    tags::attach(conn, &mut posts)?;
    Ok(posts)
}

/// Adds `views` to a post's count for `day` (YYYY-MM-DD).
pub fn add_views(conn: &Connection, post_id: i64, day: &str, views: u64) -> Result<(), Error> {
    conn.execute(
        "INSERT INTO page_views (post_id, day, views) SELECT ?1, ?2, ?3 WHERE EXISTS (SELECT 1 FROM posts WHERE id = ?1)
         ON CONFLICT (post_id, day) DO UPDATE SET views = views + excluded.views",
        params![post_id, day, views as i64],
    )?;
    Ok(())
}
