//! Blocked domains (migration 13, issue 16): the whole instance's (`quire federation block`)
//! and each blog's (Settings → Fediverse). A blocked domain's requests are dropped before any
//! work; blocking `example.social` blocks `a.example.social` too.

use rusqlite::{Connection, params};

use crate::error::Error;

/// Blocks `domain` (already normalized: lowercase A-label) for the blog, or for the whole
/// instance with `None`; false when it was already blocked there.
pub fn add(conn: &Connection, blog_id: Option<i64>, domain: &str) -> Result<bool, Error> {
    Ok(conn
        .execute("INSERT OR IGNORE INTO blocked_domains (blog_id, domain) VALUES (?1, ?2)", params![blog_id, domain])?
        == 1)
}

/// Unblocks `domain` for the blog, or for the whole instance with `None`; false when it was not
/// blocked there.
pub fn remove(conn: &Connection, blog_id: Option<i64>, domain: &str) -> Result<bool, Error> {
    Ok(conn.execute("DELETE FROM blocked_domains WHERE blog_id IS ?1 AND domain = ?2", params![blog_id, domain])? == 1)
}

/// The domains blocked for the blog, or for the whole instance with `None`, sorted.
pub fn list(conn: &Connection, blog_id: Option<i64>) -> Result<Vec<String>, Error> {
    let mut stmt = conn.prepare("SELECT domain FROM blocked_domains WHERE blog_id IS ?1 ORDER BY domain")?;
    let rows = stmt.query_map([blog_id], |row| row.get(0))?.collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// Whether `host` (lowercase, no port) is blocked for the whole instance or, with `Some`, for
/// that blog: it or a domain it is under is listed.
pub fn is_blocked(conn: &Connection, blog_id: Option<i64>, host: &str) -> Result<bool, Error> {
    let mut candidates = vec![host];
    let mut rest = host;
    while let Some((_, parent)) = rest.split_once('.') {
        candidates.push(parent);
        rest = parent;
    }
    let mut stmt = conn.prepare_cached(
        "SELECT EXISTS (SELECT 1 FROM blocked_domains WHERE domain = ?1 AND (blog_id IS NULL OR blog_id = ?2))",
    )?;
    for candidate in candidates {
        if stmt.query_row(params![candidate, blog_id], |row| row.get::<_, bool>(0))? {
            return Ok(true);
        }
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blocked_domain_covers_its_subdomains_and_a_blogs_block_stays_with_that_blog() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE blocked_domains (blog_id INTEGER, domain TEXT NOT NULL,
                 created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')));
             CREATE UNIQUE INDEX blocked_domains_unique ON blocked_domains(coalesce(blog_id, 0), domain);",
        )
        .unwrap();
        assert!(add(&conn, None, "spam.example").unwrap());
        assert!(!add(&conn, None, "spam.example").unwrap(), "blocked once");
        assert!(add(&conn, Some(7), "rude.example").unwrap());
        assert!(is_blocked(&conn, None, "spam.example").unwrap());
        assert!(is_blocked(&conn, Some(7), "a.b.spam.example").unwrap(), "the instance's block covers every blog");
        assert!(!is_blocked(&conn, None, "notspam.example").unwrap(), "a suffix is not a parent domain");
        assert!(is_blocked(&conn, Some(7), "www.rude.example").unwrap());
        assert!(!is_blocked(&conn, Some(8), "rude.example").unwrap(), "another blog's block");
        assert!(!is_blocked(&conn, None, "rude.example").unwrap());
        assert_eq!(list(&conn, Some(7)).unwrap(), ["rude.example"]);
        assert!(!remove(&conn, None, "rude.example").unwrap(), "not blocked for the instance");
        assert!(remove(&conn, Some(7), "rude.example").unwrap());
        assert!(!is_blocked(&conn, Some(7), "rude.example").unwrap());
    }
}
