//! The review queue's storage (issue 29, docs/public-instance.md "Admins and the review
//! queue"): blogs' risk scores and link hosts, the queue and the search admins read, and the
//! record of admin actions. The command line's requests to a running server are
//! `admin_requests.rs`'s.

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use ts_rs::TS;

use crate::domain::blog::trust_state::TrustState;
use crate::domain::content::risk::{RECHECK_DAYS, Risk};
use crate::error::Error;

/// One outbound link host of a blog's posts and how many links go there.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, TS)]
#[ts(export_to = "admin.ts")]
pub struct LinkHost {
    /// The host, without `www.`.
    pub host: String,
    /// Links to it in the blog's published posts.
    pub links: u32,
}

/// A blog as an admin sees it in the queue, the search and its detail.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "admin.ts")]
pub struct AdminBlog {
    /// Blog id.
    pub id: i64,
    /// Its subdomain.
    pub subdomain: String,
    /// Its name.
    pub name: String,
    /// The owner's sign-in email.
    pub owner_email: String,
    /// `new`, `approved`, `silenced` or `suspended`.
    pub state: String,
    /// What the admin told the owner with the last silence or suspension ('' when nothing).
    pub state_reason: String,
    /// When it was created (RFC 3339, UTC).
    pub created_at: String,
    /// When an approved blog went back to the review queue (null when it is not flagged).
    pub flagged_at: Option<String>,
    /// Its published posts and pages.
    pub post_count: i64,
    /// 0 (nothing like spam) to 100.
    pub risk_score: u32,
    /// What the score is made of, e.g. "41 links to 3 hosts in 2 posts; 'casino' ×3".
    pub risk_explanation: String,
    /// The outbound link hosts of its posts, most frequent first.
    pub link_hosts: Vec<LinkHost>,
    /// What it sends by email (issue 30).
    pub mail: AdminMail,
}

/// A blog's email sending, as an admin sees it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "admin.ts")]
pub struct AdminMail {
    /// Its confirmed subscribers.
    pub subscribers: i64,
    /// Messages it sent today (UTC).
    pub sent_today: i64,
    /// Messages it sent that bounced (a 5xx for the address), over all its posts.
    pub bounced: i64,
    /// When its sending was paused for bounces (null while it sends).
    pub paused_at: Option<String>,
}

/// One entry of the record of admin actions.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, TS)]
#[ts(export_to = "admin.ts")]
pub struct AdminAction {
    /// Row id.
    pub id: i64,
    /// The admin's email, or "command line".
    pub admin: String,
    /// The blog's subdomain (kept after a deletion).
    pub subdomain: String,
    /// `approve`, `silence`, `suspend`, `unsuspend` or `delete`.
    pub action: String,
    /// The reason given ('' when none).
    pub reason: String,
    /// When (RFC 3339, UTC).
    pub at: String,
}

/// The order of the review queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueueOrder {
    /// Newest first (a flagged blog by when it was flagged).
    Newest,
    /// Highest risk score first, then newest.
    Risk,
}

/// What the search over all blogs filters by.
#[derive(Debug, Clone, Default)]
pub struct BlogFilter {
    /// Part of the subdomain, name or owner email (case-insensitive); empty: any.
    pub text: String,
    /// Only blogs in this state.
    pub state: Option<TrustState>,
    /// Only blogs created at or after this time (RFC 3339, UTC).
    pub since: Option<String>,
}

const SELECT: &str = "SELECT b.id, b.subdomain, b.name, u.email, b.state, b.state_reason, b.created_at, b.flagged_at,
        (SELECT COUNT(*) FROM posts p WHERE p.blog_id = b.id AND p.published_at IS NOT NULL),
        b.risk_score, b.risk_explanation, b.link_hosts,
        (SELECT COUNT(*) FROM subscribers s WHERE s.blog_id = b.id AND s.state = 'confirmed'),
        COALESCE((SELECT sent FROM mail_sent_daily d WHERE d.blog_id = b.id AND d.day = strftime('%Y-%m-%d', 'now')), 0),
        (SELECT COALESCE(SUM(bounced_count), 0) FROM mail_contents c WHERE c.blog_id = b.id),
        b.mail_paused_at
    FROM blogs b JOIN users u ON u.id = b.user_id";

const IN_QUEUE: &str = "(b.state = 'new' OR (b.state = 'approved' AND b.flagged_at IS NOT NULL))";

fn from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<AdminBlog> {
    Ok(AdminBlog {
        id: row.get(0)?,
        subdomain: row.get(1)?,
        name: row.get(2)?,
        owner_email: row.get(3)?,
        state: row.get(4)?,
        state_reason: row.get(5)?,
        created_at: row.get(6)?,
        flagged_at: row.get(7)?,
        post_count: row.get(8)?,
        risk_score: row.get(9)?,
        risk_explanation: row.get(10)?,
        link_hosts: parse_hosts(&row.get::<_, String>(11)?)
            .into_iter()
            .map(|(host, links)| LinkHost { host, links })
            .collect(),
        mail: AdminMail {
            subscribers: row.get(12)?,
            sent_today: row.get(13)?,
            bounced: row.get(14)?,
            paused_at: row.get(15)?,
        },
    })
}

/// One page of the review queue (blogs `new`, and approved ones flagged back), with the
/// queue's length.
pub fn queue(conn: &Connection, order: QueueOrder, offset: u64, limit: u32) -> Result<(u64, Vec<AdminBlog>), Error> {
    let total: u64 =
        conn.prepare_cached(&format!("SELECT COUNT(*) FROM blogs b WHERE {IN_QUEUE}"))?.query_row([], |r| r.get(0))?;
    let newest = "COALESCE(b.flagged_at, b.created_at) DESC, b.id DESC";
    let order = match order {
        QueueOrder::Newest => newest.to_owned(),
        QueueOrder::Risk => format!("b.risk_score DESC, {newest}"),
    };
    let mut stmt = conn.prepare_cached(&format!("{SELECT} WHERE {IN_QUEUE} ORDER BY {order} LIMIT ?1 OFFSET ?2"))?;
    let rows = stmt.query_map(params![limit, offset as i64], from_row)?;
    Ok((total, rows.collect::<Result<_, _>>()?))
}

/// One page of every blog matching `filter`, newest first, with the number of matches.
pub fn search(conn: &Connection, filter: &BlogFilter, offset: u64, limit: u32) -> Result<(u64, Vec<AdminBlog>), Error> {
    let pattern = format!("%{}%", filter.text.trim().replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_"));
    let state = filter.state.map(TrustState::as_str);
    let filter_sql = "(b.subdomain LIKE ?1 ESCAPE '\\' OR b.name LIKE ?1 ESCAPE '\\' OR u.email LIKE ?1 ESCAPE '\\')
        AND (?2 IS NULL OR b.state = ?2) AND (?3 IS NULL OR b.created_at >= ?3)";
    let total: u64 = conn
        .prepare_cached(&format!("SELECT COUNT(*) FROM blogs b JOIN users u ON u.id = b.user_id WHERE {filter_sql}"))?
        .query_row(params![pattern, state, filter.since], |r| r.get(0))?;
    let mut stmt = conn.prepare_cached(&format!(
        "{SELECT} WHERE {filter_sql} ORDER BY b.created_at DESC, b.id DESC LIMIT ?4 OFFSET ?5"
    ))?;
    let rows = stmt.query_map(params![pattern, state, filter.since, limit, offset as i64], from_row)?;
    Ok((total, rows.collect::<Result<_, _>>()?))
}

/// The blog on `subdomain` as an admin sees it.
pub fn blog(conn: &Connection, subdomain: &str) -> Result<Option<AdminBlog>, Error> {
    Ok(conn.prepare_cached(&format!("{SELECT} WHERE b.subdomain = ?1"))?.query_row([subdomain], from_row).optional()?)
}

/// One page of the record of admin actions, newest first, with its length.
pub fn actions(conn: &Connection, offset: u64, limit: u32) -> Result<(u64, Vec<AdminAction>), Error> {
    let total: u64 = conn.prepare_cached("SELECT COUNT(*) FROM admin_actions")?.query_row([], |r| r.get(0))?;
    let mut stmt = conn.prepare_cached(
        "SELECT id, admin, subdomain, action, reason, at FROM admin_actions ORDER BY id DESC LIMIT ?1 OFFSET ?2",
    )?;
    let rows = stmt.query_map(params![limit, offset as i64], |row| {
        Ok(AdminAction {
            id: row.get(0)?,
            admin: row.get(1)?,
            subdomain: row.get(2)?,
            action: row.get(3)?,
            reason: row.get(4)?,
            at: row.get(5)?,
        })
    })?;
    Ok((total, rows.collect::<Result<_, _>>()?))
}

/// Records an admin's deletion of the blog that was on `subdomain` (after it is gone).
pub fn record_deletion(conn: &Connection, admin: &str, blog_id: i64, subdomain: &str) -> Result<(), Error> {
    conn.execute(
        "INSERT INTO admin_actions (admin, blog_id, subdomain, action) VALUES (?1, ?2, ?3, 'delete')",
        params![admin, blog_id, subdomain],
    )?;
    Ok(())
}

/// What rescoring a blog needs to know of it.
#[derive(Debug, Clone)]
pub struct ScoreFacts {
    /// Its state.
    pub state: TrustState,
    /// Whether it is in its first [`RECHECK_DAYS`].
    pub recent: bool,
    /// Whether it is flagged back into the queue already.
    pub flagged: bool,
    /// The hosts its posts linked to when it was last approved.
    pub approved_hosts: Vec<(String, u32)>,
}

/// The blog's [`ScoreFacts`], None when there is no such blog.
pub fn score_facts(conn: &Connection, blog_id: i64) -> Result<Option<ScoreFacts>, Error> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT state, created_at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-{RECHECK_DAYS} days'),
                        flagged_at IS NOT NULL, approved_link_hosts
                 FROM blogs WHERE id = ?1"
        ))?
        .query_row([blog_id], |row| {
            Ok(ScoreFacts {
                state: TrustState::from_stored(&row.get::<_, String>(0)?),
                recent: row.get(1)?,
                flagged: row.get(2)?,
                approved_hosts: parse_hosts(&row.get::<_, String>(3)?),
            })
        })
        .optional()?)
}

/// The stored bodies of the blog's newest `limit` published posts and pages.
pub fn published_bodies(conn: &Connection, blog_id: i64, limit: usize) -> Result<Vec<String>, Error> {
    let mut stmt = conn.prepare_cached(
        "SELECT body FROM posts WHERE blog_id = ?1 AND published_at IS NOT NULL
         ORDER BY published_at DESC, id DESC LIMIT ?2",
    )?;
    let rows = stmt.query_map(params![blog_id, limit as i64], |row| row.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Stores the blog's score and link hosts; `flag` sends it back to the review queue.
pub fn store_risk(conn: &Connection, blog_id: i64, risk: &Risk, flag: bool) -> Result<(), Error> {
    let hosts = serde_json::to_string(&risk.hosts).map_err(|err| Error::Internal(err.into()))?;
    conn.execute(
        "UPDATE blogs SET risk_score = ?2, risk_explanation = ?3, link_hosts = ?4,
                flagged_at = CASE WHEN ?5 THEN strftime('%Y-%m-%dT%H:%M:%fZ', 'now') ELSE flagged_at END
         WHERE id = ?1",
        params![blog_id, risk.score, risk.explanation, hosts, flag],
    )?;
    Ok(())
}

/// A stored host list (`[["host", count], ...]`); anything unreadable is an empty list.
fn parse_hosts(raw: &str) -> Vec<(String, u32)> {
    serde_json::from_str(raw).unwrap_or_default()
}
