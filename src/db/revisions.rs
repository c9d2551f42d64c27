//! A post's revisions (`post_revisions`, issue 32, docs/revisions.md): the version each save
//! replaced, recorded in the save's transaction, autosaves merged, the newest
//! [`KEEP_NEWEST`] kept and older ones thinned to one a day.

use rusqlite::{Connection, OptionalExtension, params};

use crate::db::posts::Post;
use crate::domain::content::revisions::{AUTOSAVE_MERGE_MINUTES, KEEP_NEWEST, RevisionKind};
pub use crate::domain::content::revisions::{Kept, Version};
use crate::error::Error;

/// The version a post is now.
pub fn version_of(post: &Post) -> Version {
    Version {
        title: post.title.clone(),
        slug: post.slug.clone(),
        body: post.body_json.clone(),
        tags: post.tags.clone(),
        published_at: post.published_at.clone(),
        scheduled_at: post.scheduled_at.clone(),
        unlisted: post.unlisted,
        page: post.page_position.is_some(),
    }
}

/// One revision as the owner's history lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revision {
    /// Row id.
    pub id: i64,
    /// When it was recorded (when the version it holds was replaced).
    pub created_at: String,
    /// Who replaced it: the user's name, or email when they have none ('' once they are gone).
    pub author: String,
    /// The write that replaced it.
    pub kind: RevisionKind,
    /// The version it holds.
    pub version: Version,
}

const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
const SELECT: &str = "SELECT r.id, r.created_at, coalesce(nullif(u.name, ''), u.email, ''), r.kind, r.title, r.slug,
     r.body, r.tags, r.published_at, r.scheduled_at, r.unlisted, r.page
     FROM post_revisions r LEFT JOIN users u ON u.id = r.user_id";

fn from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Revision> {
    let kind: String = row.get(3)?;
    let tags: String = row.get(7)?;
    Ok(Revision {
        id: row.get(0)?,
        created_at: row.get(1)?,
        author: row.get(2)?,
        kind: RevisionKind::parse(&kind),
        version: Version {
            title: row.get(4)?,
            slug: row.get(5)?,
            body: row.get(6)?,
            tags: serde_json::from_str(&tags).unwrap_or_default(),
            published_at: row.get(8)?,
            scheduled_at: row.get(9)?,
            unlisted: row.get(10)?,
            page: row.get(11)?,
        },
    })
}

/// Records `before` as a revision of its post, replaced by `after` through a `kind` write of
/// `user_id`, inside that write's transaction; then thins the post's history. Records nothing
/// when the write changed nothing, or when it is an autosave following the same user's
/// autosave revision of less than [`AUTOSAVE_MERGE_MINUTES`] ago. Answers whether it recorded.
pub fn record(tx: &Connection, before: &Post, after: &Post, user_id: i64, kind: RevisionKind) -> Result<bool, Error> {
    let version = version_of(before);
    if version == version_of(after) {
        return Ok(false);
    }
    if kind == RevisionKind::Autosave {
        let merged: bool = tx
            .prepare_cached(&format!(
                "SELECT coalesce((SELECT kind = 'autosave' AND user_id = ?2
                     AND created_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-{AUTOSAVE_MERGE_MINUTES} minutes')
                 FROM post_revisions WHERE post_id = ?1 ORDER BY created_at DESC, id DESC LIMIT 1), 0)"
            ))?
            .query_row(params![before.id, user_id], |r| r.get(0))?;
        if merged {
            return Ok(false);
        }
    }
    let kept = Kept { kind: kind.as_str().to_owned(), created_at: String::new(), user_id: Some(user_id), version };
    insert(tx, before.id, &kept, true)?;
    thin(tx, before.id)?;
    Ok(true)
}

/// Inserts one revision of `post_id`; `now` stamps it with the current time instead of its own.
fn insert(tx: &Connection, post_id: i64, kept: &Kept, now: bool) -> Result<(), Error> {
    let v = &kept.version;
    let tags = serde_json::to_string(&v.tags).map_err(|err| Error::Internal(err.into()))?;
    tx.prepare_cached(&format!(
        "INSERT INTO post_revisions (post_id, user_id, kind, title, slug, body, tags, published_at, scheduled_at,
             unlisted, page, created_at)
         VALUES (?1, (SELECT id FROM users WHERE id = ?2), ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11,
             CASE WHEN ?12 THEN {NOW} ELSE ?13 END)"
    ))?
    .execute(params![
        post_id,
        kept.user_id,
        RevisionKind::parse(&kept.kind).as_str(),
        v.title,
        v.slug,
        v.body,
        tags,
        v.published_at,
        v.scheduled_at,
        v.unlisted,
        v.page,
        now,
        kept.created_at
    ])?;
    Ok(())
}

/// Puts revisions (from the trash or an archive) back on `post_id` with their own times, then
/// thins its history.
pub fn put_back(tx: &Connection, post_id: i64, kept: &[Kept]) -> Result<(), Error> {
    for revision in kept {
        insert(tx, post_id, revision, false)?;
    }
    thin(tx, post_id)
}

/// Keeps the post's newest [`KEEP_NEWEST`] revisions and, of the older ones, the newest of each
/// (UTC) day.
pub fn thin(conn: &Connection, post_id: i64) -> Result<(), Error> {
    conn.prepare_cached(
        "DELETE FROM post_revisions WHERE id IN (
             SELECT id FROM (
                 SELECT id,
                     row_number() OVER (ORDER BY created_at DESC, id DESC) AS rank,
                     row_number() OVER (PARTITION BY substr(created_at, 1, 10) ORDER BY created_at DESC, id DESC) AS in_day
                 FROM post_revisions WHERE post_id = ?1)
             WHERE rank > ?2 AND in_day > 1)",
    )?
    .execute(params![post_id, KEEP_NEWEST])?;
    Ok(())
}

/// Number of revisions of the post.
pub fn count(conn: &Connection, post_id: i64) -> Result<u64, Error> {
    Ok(conn
        .prepare_cached("SELECT count(*) FROM post_revisions WHERE post_id = ?1")?
        .query_row([post_id], |r| r.get(0))?)
}

/// A page of the post's revisions, newest first.
pub fn page(conn: &Connection, post_id: i64, offset: u64, limit: u32) -> Result<Vec<Revision>, Error> {
    let mut stmt = conn.prepare_cached(&format!(
        "{SELECT} WHERE r.post_id = ?1 ORDER BY r.created_at DESC, r.id DESC LIMIT ?2 OFFSET ?3"
    ))?;
    let rows = stmt.query_map(params![post_id, limit, offset], from_row)?.collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// The revision `id` of the post, if it is one of its.
pub fn get(conn: &Connection, post_id: i64, id: i64) -> Result<Option<Revision>, Error> {
    Ok(conn
        .prepare_cached(&format!("{SELECT} WHERE r.post_id = ?1 AND r.id = ?2"))?
        .query_row(params![post_id, id], from_row)
        .optional()?)
}

/// Every revision of the post, oldest first, as they travel.
pub fn all_kept(conn: &Connection, post_id: i64) -> Result<Vec<Kept>, Error> {
    let mut stmt = conn.prepare_cached(
        "SELECT r.kind, r.created_at, r.user_id, r.title, r.slug, r.body, r.tags, r.published_at, r.scheduled_at,
             r.unlisted, r.page
         FROM post_revisions r WHERE r.post_id = ?1 ORDER BY r.created_at, r.id",
    )?;
    let rows = stmt
        .query_map([post_id], |row| {
            let tags: String = row.get(6)?;
            Ok(Kept {
                kind: row.get(0)?,
                created_at: row.get(1)?,
                user_id: row.get(2)?,
                version: Version {
                    title: row.get(3)?,
                    slug: row.get(4)?,
                    body: row.get(5)?,
                    tags: serde_json::from_str(&tags).unwrap_or_default(),
                    published_at: row.get(7)?,
                    scheduled_at: row.get(8)?,
                    unlisted: row.get(9)?,
                    page: row.get(10)?,
                },
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::test_support::with_blogs;

    fn post(conn: &Connection) -> i64 {
        conn.execute("INSERT INTO posts (blog_id, short_id, slug, title, body) VALUES (1, 'abc', 's', 't', '{}')", [])
            .unwrap();
        conn.last_insert_rowid()
    }

    fn kept(day: &str, n: usize) -> Kept {
        Kept {
            kind: "save".into(),
            created_at: format!("{day}T10:00:{:02}.{:03}Z", n / 1000 % 60, n % 1000),
            user_id: Some(1),
            version: Version {
                title: format!("v{n}"),
                slug: "s".into(),
                body: "{}".into(),
                tags: vec![],
                published_at: None,
                scheduled_at: None,
                unlisted: false,
                page: false,
            },
        }
    }

    #[test]
    fn past_the_newest_hundred_one_revision_a_day_is_kept_the_newest_of_that_day() {
        let conn = with_blogs(&["alice"]);
        let id = post(&conn);
        // Five older days of 30 saves each, then 150 saves today.
        let mut all = Vec::new();
        for (d, day) in ["2026-01-01", "2026-01-02", "2026-01-03", "2026-01-04", "2026-01-05"].iter().enumerate() {
            all.extend((0..30).map(|n| kept(day, d * 1000 + n)));
        }
        all.extend((0..150).map(|n| kept("2026-02-01", 9000 + n)));
        put_back(&conn, id, &all).unwrap();
        assert_eq!(count(&conn, id).unwrap(), 100 + 5, "the newest 100 (all today) and one of each older day");
        let titles: Vec<String> = page(&conn, id, 100, 10).unwrap().into_iter().map(|r| r.version.title).collect();
        assert_eq!(titles, ["v4029", "v3029", "v2029", "v1029", "v29"], "each day's newest, newest day first");
        assert_eq!(page(&conn, id, 0, 1).unwrap()[0].version.title, "v9149");
        // Ten thousand more saves keep the history bounded.
        let more: Vec<Kept> = (0..10_000).map(|n| kept("2026-02-02", 20_000 + n)).collect();
        put_back(&conn, id, &more).unwrap();
        assert_eq!(count(&conn, id).unwrap(), 100 + 6);
    }
}
