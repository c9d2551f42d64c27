//! What a blog's daily quotas count (issue 29): one row per post created or import started,
//! kept for a day (`quota_uses`, migration 20).

use rusqlite::{Connection, params};

use crate::error::Error;

/// What a daily quota counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuotaKind {
    /// A post created (`--max-posts-per-day`).
    Post,
    /// An import started (`--max-imports-per-day`).
    Import,
}

impl QuotaKind {
    fn as_str(self) -> &'static str {
        match self {
            QuotaKind::Post => "post",
            QuotaKind::Import => "import",
        }
    }
}

/// How many of `kind` the blog used in the last 24 hours.
pub fn used_today(conn: &Connection, blog_id: i64, kind: QuotaKind) -> Result<u64, Error> {
    let used: i64 = conn
        .prepare_cached(
            "SELECT count(*) FROM quota_uses
         WHERE blog_id = ?1 AND kind = ?2 AND at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day')",
        )?
        .query_row(params![blog_id, kind.as_str()], |r| r.get(0))?;
    Ok(used as u64)
}

/// Counts one use of `kind` by the blog now, and forgets its uses older than a day.
pub fn record(conn: &Connection, blog_id: i64, kind: QuotaKind) -> Result<(), Error> {
    conn.execute(
        "DELETE FROM quota_uses WHERE blog_id = ?1 AND at <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day')",
        [blog_id],
    )?;
    conn.execute("INSERT INTO quota_uses (blog_id, kind) VALUES (?1, ?2)", params![blog_id, kind.as_str()])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::test_support;

    #[test]
    fn uses_are_counted_per_blog_and_kind_for_a_day() {
        let conn = test_support::with_blogs(&["alice"]);
        record(&conn, 1, QuotaKind::Post).unwrap();
        record(&conn, 1, QuotaKind::Post).unwrap();
        record(&conn, 1, QuotaKind::Import).unwrap();
        assert_eq!(used_today(&conn, 1, QuotaKind::Post).unwrap(), 2);
        assert_eq!(used_today(&conn, 1, QuotaKind::Import).unwrap(), 1);
        conn.execute("UPDATE quota_uses SET at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-25 hours')", []).unwrap();
        assert_eq!(used_today(&conn, 1, QuotaKind::Post).unwrap(), 0);
        record(&conn, 1, QuotaKind::Post).unwrap();
        let rows: i64 =
            conn.prepare_cached("SELECT count(*) FROM quota_uses").unwrap().query_row([], |r| r.get(0)).unwrap();
        assert_eq!(rows, 1, "uses older than a day are forgotten");
    }
}
