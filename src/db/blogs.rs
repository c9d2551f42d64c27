//! Blogs: one per user, on a subdomain that is never handed out twice.

use rusqlite::{Connection, OptionalExtension, params};

use crate::db::favicons::Favicon;
use crate::db::themes::Theme;
use crate::domain::blog::address::BlogAddress;
use crate::domain::blog::ai_crawlers::AiCrawlers;
use crate::domain::blog::subdomain::Subdomain;
use crate::domain::blog::time_zone::TimeZone;
use crate::domain::blog::trust_state::TrustState;
use crate::error::Error;

/// The icon of a new blog: 📝.
pub const DEFAULT_FAVICON_CODE: &str = "1f4dd";

/// A blog row with its theme and favicon.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blog {
    /// Blog id.
    pub id: i64,
    /// Owner.
    pub user_id: i64,
    /// Subdomain.
    pub subdomain: String,
    /// Display name.
    pub name: String,
    /// Chosen theme.
    pub theme: Theme,
    /// Chosen tab icon.
    pub favicon: Favicon,
    /// The zone its public dates are shown in.
    pub time_zone: TimeZone,
    /// Its verified custom domain, if any.
    pub domain: Option<String>,
    /// Its standing on the instance (new, approved, silenced, suspended).
    pub state: TrustState,
    /// What the admin told the owner with the last silence or suspension ('' when nothing).
    pub state_reason: String,
    /// One paragraph of plain text under its name ('' for none; issue 33).
    pub description: String,
    /// Whether its owner lists it on the instance's landing page (issue 33).
    pub listed: bool,
    /// Whether it asks AI crawlers not to use it (issue 35).
    pub ai_crawlers: AiCrawlers,
}

impl Blog {
    /// Where it answers (its origin: `Config::blog_origin`).
    pub fn address(&self) -> BlogAddress {
        BlogAddress { subdomain: self.subdomain.clone(), domain: self.domain.clone() }
    }
}

const SELECT: &str = "SELECT b.id, b.user_id, b.subdomain, b.name, t.id, t.name, f.id, f.code, b.time_zone, d.name,
           b.state, b.state_reason, b.description, b.listed, b.ai_crawlers
    FROM blogs b JOIN themes t ON t.id = b.theme_id JOIN favicons f ON f.id = b.favicon_id
    LEFT JOIN custom_domains d ON d.blog_id = b.id AND d.state = 'verified'";

fn from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Blog> {
    Ok(Blog {
        id: row.get(0)?,
        user_id: row.get(1)?,
        subdomain: row.get(2)?,
        name: row.get(3)?,
        theme: Theme { id: row.get(4)?, name: row.get(5)? },
        favicon: Favicon { id: row.get(6)?, code: row.get(7)? },
        time_zone: TimeZone::from_stored(&row.get::<_, String>(8)?),
        domain: row.get(9)?,
        state: TrustState::from_stored(&row.get::<_, String>(10)?),
        state_reason: row.get(11)?,
        description: row.get(12)?,
        listed: row.get(13)?,
        ai_crawlers: AiCrawlers::from_stored(&row.get::<_, String>(14)?),
    })
}

/// The blog `blog_id` if `user_id` owns it.
pub fn owned(conn: &Connection, blog_id: i64, user_id: i64) -> Result<Option<Blog>, Error> {
    Ok(conn
        .prepare_cached(&format!("{SELECT} WHERE b.id = ?1 AND b.user_id = ?2"))?
        .query_row(params![blog_id, user_id], from_row)
        .optional()?)
}

/// The blog `blog_id`, whoever owns it (for the work a blog's owner started: its jobs).
pub fn by_id(conn: &Connection, blog_id: i64) -> Result<Option<Blog>, Error> {
    Ok(conn.prepare_cached(&format!("{SELECT} WHERE b.id = ?1"))?.query_row([blog_id], from_row).optional()?)
}

/// Every blog's subdomain (the names a server that serves HTTPS itself may get certificates for).
pub fn subdomains(conn: &Connection) -> Result<Vec<String>, Error> {
    let mut stmt = conn.prepare_cached("SELECT subdomain FROM blogs")?;
    let rows = stmt.query_map([], |row| row.get(0))?;
    Ok(rows.collect::<Result<Vec<String>, _>>()?)
}

/// The user's blog, if they have one.
pub fn of_user(conn: &Connection, user_id: i64) -> Result<Option<Blog>, Error> {
    Ok(conn.prepare_cached(&format!("{SELECT} WHERE b.user_id = ?1"))?.query_row([user_id], from_row).optional()?)
}

/// The id of the user's blog, if they have one.
pub fn id_of_user(conn: &Connection, user_id: i64) -> Result<Option<i64>, Error> {
    Ok(conn
        .prepare_cached("SELECT id FROM blogs WHERE user_id = ?1")?
        .query_row([user_id], |row| row.get(0))
        .optional()?)
}

/// The outcome of creating a blog.
pub enum Created {
    /// The new blog.
    Blog(Blog),
    /// The user has a blog already.
    UserHasOne,
    /// The subdomain is in use or retired.
    Taken,
}

/// Creates the user's one blog on `subdomain`, named after it, with the first theme, showing
/// dates in `time_zone`, in trust state `state`.
pub fn create(
    conn: &mut Connection,
    user_id: i64,
    subdomain: &Subdomain,
    time_zone: TimeZone,
    state: TrustState,
) -> Result<Created, Error> {
    create_admitted(conn, user_id, subdomain, (time_zone, AiCrawlers::Allow), state, |_, _| Ok(()))
}

/// [`create`] (with its answer to AI crawlers), with `admit` run in the same transaction on the new blog before it commits:
/// its error undoes the creation and everything `admit` wrote (the signup rules: invites,
/// limits).
pub fn create_admitted(
    conn: &mut Connection,
    user_id: i64,
    subdomain: &Subdomain,
    (time_zone, ai_crawlers): (TimeZone, AiCrawlers),
    state: TrustState,
    admit: impl FnOnce(&Connection, &Blog) -> Result<(), Error>,
) -> Result<Created, Error> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    if id_of_user(&tx, user_id)?.is_some() {
        return Ok(Created::UserHasOne);
    }
    let taken: bool = tx
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM blogs WHERE subdomain = ?1)
             OR EXISTS (SELECT 1 FROM retired_subdomains WHERE subdomain = ?1)",
        )?
        .query_row([subdomain.as_str()], |row| row.get(0))?;
    if taken {
        return Ok(Created::Taken);
    }
    // The id is past every id a deleted account's federation still uses (its retired key, its
    // actor's queued Delete), so a new blog never signs with, or is taken for, a deleted one.
    tx.execute(
        "INSERT INTO blogs (id, user_id, subdomain, name, theme_id, favicon_id, time_zone, state, ai_crawlers)
         VALUES (1 + max(coalesce((SELECT max(id) FROM blogs), 0),
                         coalesce((SELECT max(blog_id) FROM blog_keys), 0),
                         coalesce((SELECT max(blog_id) FROM outgoing_activities), 0)),
                 ?1, ?2, ?2,
                 (SELECT id FROM themes ORDER BY position, id LIMIT 1),
                 COALESCE((SELECT id FROM favicons WHERE code = ?3), (SELECT min(id) FROM favicons)),
                 ?4, ?5, ?6)",
        params![
            user_id,
            subdomain.as_str(),
            DEFAULT_FAVICON_CODE,
            time_zone.name(),
            state.as_str(),
            ai_crawlers.as_str()
        ],
    )?;
    let blog =
        tx.prepare_cached(&format!("{SELECT} WHERE b.id = ?1"))?.query_row([tx.last_insert_rowid()], from_row)?;
    admit(&tx, &blog)?;
    tx.commit()?;
    Ok(Created::Blog(blog))
}

/// Whether `subdomain` was a deleted account's (retired for good).
pub fn is_retired(conn: &Connection, subdomain: &str) -> Result<bool, Error> {
    Ok(conn
        .prepare_cached("SELECT EXISTS (SELECT 1 FROM retired_subdomains WHERE subdomain = ?1)")?
        .query_row([subdomain], |r| r.get(0))?)
}

/// Marks the blog changed (its public pages' validators change with it).
pub fn touch(conn: &Connection, blog_id: i64) -> Result<(), Error> {
    conn.execute("UPDATE blogs SET updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?1", [blog_id])?;
    Ok(())
}

/// Renames a blog.
pub fn rename(conn: &Connection, blog_id: i64, name: &str) -> Result<(), Error> {
    conn.execute("UPDATE blogs SET name = ?2 WHERE id = ?1", params![blog_id, name])?;
    touch(conn, blog_id)
}

/// Sets the blog's description ('' for none).
pub fn set_description(conn: &Connection, blog_id: i64, description: &str) -> Result<(), Error> {
    conn.execute("UPDATE blogs SET description = ?2 WHERE id = ?1", params![blog_id, description])?;
    touch(conn, blog_id)
}

/// Sets whether the blog asks AI crawlers not to use it.
pub fn set_ai_crawlers(conn: &Connection, blog_id: i64, ai_crawlers: AiCrawlers) -> Result<(), Error> {
    conn.execute("UPDATE blogs SET ai_crawlers = ?2 WHERE id = ?1", params![blog_id, ai_crawlers.as_str()])?;
    touch(conn, blog_id)
}

/// Lists the blog on the instance's landing page, or not.
pub fn set_listed(conn: &Connection, blog_id: i64, listed: bool) -> Result<(), Error> {
    conn.execute("UPDATE blogs SET listed = ?2 WHERE id = ?1", params![blog_id, listed])?;
    Ok(())
}

/// Sets the theme; false when there is no such theme.
pub fn set_theme(conn: &Connection, blog_id: i64, theme_id: i64) -> Result<bool, Error> {
    let changed = conn.execute(
        "UPDATE blogs SET theme_id = ?2 WHERE id = ?1 AND EXISTS (SELECT 1 FROM themes WHERE id = ?2)",
        params![blog_id, theme_id],
    )?;
    if changed > 0 {
        touch(conn, blog_id)?;
    }
    Ok(changed > 0)
}

/// Sets the tab icon; false when there is no such favicon.
pub fn set_favicon(conn: &Connection, blog_id: i64, favicon_id: i64) -> Result<bool, Error> {
    let changed = conn.execute(
        "UPDATE blogs SET favicon_id = ?2 WHERE id = ?1 AND EXISTS (SELECT 1 FROM favicons WHERE id = ?2)",
        params![blog_id, favicon_id],
    )?;
    if changed > 0 {
        touch(conn, blog_id)?;
    }
    Ok(changed > 0)
}

/// Sets the zone the blog's public dates are shown in.
pub fn set_time_zone(conn: &Connection, blog_id: i64, time_zone: TimeZone) -> Result<(), Error> {
    conn.execute("UPDATE blogs SET time_zone = ?2 WHERE id = ?1", params![blog_id, time_zone.name()])?;
    touch(conn, blog_id)
}

/// Puts the blog in `state`, with `reason` for its owner, and records who did it (`admin`: an
/// admin's email, or "command line") in `admin_actions` under `action`. Clears a review flag;
/// a suspension remembers the state it replaces. False when there is no such blog.
pub fn set_state(
    conn: &Connection,
    blog_id: i64,
    state: TrustState,
    reason: &str,
    admin: &str,
    action: &str,
) -> Result<bool, Error> {
    let changed = conn.execute(
        "UPDATE blogs SET state = ?2, state_reason = ?3, flagged_at = NULL,
                state_before_suspension = CASE WHEN ?2 = 'suspended' AND state <> 'suspended' THEN state
                                               WHEN ?2 = 'suspended' THEN state_before_suspension END,
                state_changed_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ?1",
        params![blog_id, state.as_str(), reason],
    )?;
    if changed == 0 {
        return Ok(false);
    }
    record_admin_action(conn, admin, blog_id, action, reason)?;
    touch(conn, blog_id)?;
    Ok(true)
}

/// Every blog that is not `approved`, with its trust state (what `ServedNames` keeps).
pub fn states(conn: &Connection) -> Result<Vec<(String, TrustState)>, Error> {
    let mut stmt = conn.prepare_cached("SELECT subdomain, state FROM blogs WHERE state <> 'approved'")?;
    let rows =
        stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, TrustState::from_stored(&r.get::<_, String>(1)?))))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The state a suspended blog had before its suspension (None when it is not suspended).
pub fn state_before_suspension(conn: &Connection, blog_id: i64) -> Result<Option<TrustState>, Error> {
    let raw: Option<Option<String>> = conn
        .prepare_cached("SELECT state_before_suspension FROM blogs WHERE id = ?1")?
        .query_row([blog_id], |r| r.get(0))
        .optional()?;
    Ok(raw.flatten().map(|raw| TrustState::from_stored(&raw)))
}

/// The blog on `subdomain`, whoever owns it (for admins).
pub fn by_subdomain(conn: &Connection, subdomain: &str) -> Result<Option<Blog>, Error> {
    Ok(conn.prepare_cached(&format!("{SELECT} WHERE b.subdomain = ?1"))?.query_row([subdomain], from_row).optional()?)
}

/// Records an admin's action on the blog `blog_id` (kept after the blog is deleted).
pub fn record_admin_action(
    conn: &Connection,
    admin: &str,
    blog_id: i64,
    action: &str,
    reason: &str,
) -> Result<(), Error> {
    conn.execute(
        "INSERT INTO admin_actions (admin, blog_id, subdomain, action, reason)
         SELECT ?1, id, subdomain, ?3, ?4 FROM blogs WHERE id = ?2",
        params![admin, blog_id, action, reason],
    )?;
    Ok(())
}

/// What deleting an account leaves for the caller to clean outside the database.
#[derive(Debug, Default)]
pub struct Deleted {
    /// The post change counter after the deletion (for the search index).
    pub seq: i64,
    /// Upload files (`<hash>.<ext>`) no other user references any more.
    pub orphaned_files: Vec<String>,
}

/// "Delete Account": in one transaction, retires the subdomain for good and removes the user,
/// which cascades to their social accounts, sessions, blog, posts, page views,
/// installations and image records; retires the blog's federation key. `federate` runs first in
/// the same transaction, while the blog's followers are still there (it queues the actor's Delete).
pub fn delete_account(
    conn: &mut Connection,
    blog: &Blog,
    federate: impl FnOnce(&Connection) -> Result<(), Error>,
) -> Result<Deleted, Error> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    federate(&tx)?;
    tx.execute("INSERT OR IGNORE INTO retired_subdomains (subdomain) VALUES (?1)", [&blog.subdomain])?;
    let images: Vec<(String, String)> = {
        let mut stmt = tx.prepare_cached("SELECT hash, mime FROM images WHERE user_id = ?1")?;
        stmt.query_map([blog.user_id], |row| Ok((row.get(0)?, row.get(1)?)))?.collect::<rusqlite::Result<_>>()?
    };
    // The key is kept, retired, while the actor's Delete (queued by the caller, before this) needs it.
    super::federation_keys::retire(&tx, blog.id)?;
    tx.execute("DELETE FROM users WHERE id = ?1", [blog.user_id])?;
    let mut orphaned_files = Vec::new();
    for (hash, mime) in images {
        let still_used: bool = tx
            .prepare_cached("SELECT EXISTS (SELECT 1 FROM images WHERE hash = ?1)")?
            .query_row([&hash], |r| r.get(0))?;
        let ext = crate::domain::content::image::ImageType::from_mime(&mime).map(|t| t.extension());
        if let (false, Some(ext)) = (still_used, ext) {
            orphaned_files.push(format!("{hash}.{ext}"));
        }
    }
    let seq = super::posts::bump_seq(&tx)?;
    tx.commit()?;
    Ok(Deleted { seq, orphaned_files })
}
