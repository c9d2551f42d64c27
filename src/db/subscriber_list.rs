//! The owner's view of a blog's subscribers (issue 30, docs/email.md "The owner's side"): the
//! counts by state, the list a page at a time (searched by address, filtered by state), removing
//! one, every row for the CSV export, and adding the subscribers of another service's export
//! with the day's count for `--max-imported-subscribers-per-day`.

use rusqlite::{Connection, params};

use crate::error::Error;

/// How many of the blog's subscribers are in each state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SubscriberCounts {
    /// Confirmed: get each new post.
    pub confirmed: u64,
    /// Waiting for their confirmation (forgotten after 7 days).
    pub pending: u64,
    /// The relay refused their address for good: no more mail.
    pub bounced: u64,
}

/// The blog's counts.
pub fn counts(conn: &Connection, blog_id: i64) -> Result<SubscriberCounts, Error> {
    let mut stmt = conn.prepare_cached("SELECT state, count(*) FROM subscribers WHERE blog_id = ?1 GROUP BY state")?;
    let mut counts = SubscriberCounts::default();
    let rows = stmt.query_map([blog_id], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))?;
    for row in rows {
        let (state, count) = row?;
        let count = count.max(0) as u64;
        match state.as_str() {
            "confirmed" => counts.confirmed = count,
            "pending" => counts.pending = count,
            _ => counts.bounced = count,
        }
    }
    Ok(counts)
}

/// Which subscribers a page shows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListFilter {
    /// Part of the address, matched without regard to case ('' for all).
    pub query: String,
    /// `pending`, `confirmed` or `bounced`; None for all.
    pub state: Option<&'static str>,
}

/// A subscriber as the owner's list shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedSubscriber {
    /// Row id.
    pub id: i64,
    /// The address.
    pub email: String,
    /// `pending`, `confirmed` or `bounced`.
    pub state: String,
    /// `form` (the blog's form) or `import` (a moved archive or another service's CSV).
    pub source: String,
    /// When they subscribed.
    pub created_at: String,
    /// When they confirmed.
    pub confirmed_at: Option<String>,
    /// When the last post's mail went to them.
    pub last_sent_at: Option<String>,
}

const LISTED: &str = "SELECT id, email, state, source, created_at, confirmed_at, last_sent_at FROM subscribers";
/// The filter's WHERE clause: ?1 the blog, ?2 the LIKE pattern, ?3 the state (or NULL).
const FILTERED: &str = "WHERE blog_id = ?1 AND email LIKE ?2 ESCAPE '\\' AND (?3 IS NULL OR state = ?3)";

fn listed(r: &rusqlite::Row<'_>) -> rusqlite::Result<ListedSubscriber> {
    Ok(ListedSubscriber {
        id: r.get(0)?,
        email: r.get(1)?,
        state: r.get(2)?,
        source: r.get(3)?,
        created_at: r.get(4)?,
        confirmed_at: r.get(5)?,
        last_sent_at: r.get(6)?,
    })
}

/// `%query%` with LIKE's own characters taken literally.
fn pattern(query: &str) -> String {
    let mut out = String::from("%");
    for c in query.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('%');
    out
}

/// How many subscribers `filter` finds.
pub fn count_listed(conn: &Connection, blog_id: i64, filter: &ListFilter) -> Result<u64, Error> {
    let count: i64 = conn
        .prepare_cached(&format!("SELECT count(*) FROM subscribers {FILTERED}"))?
        .query_row(params![blog_id, pattern(&filter.query), filter.state], |r| r.get(0))?;
    Ok(count.max(0) as u64)
}

/// One page of what `filter` finds, newest first.
pub fn list(
    conn: &Connection,
    blog_id: i64,
    filter: &ListFilter,
    offset: u64,
    limit: u32,
) -> Result<Vec<ListedSubscriber>, Error> {
    let mut stmt = conn.prepare_cached(&format!("{LISTED} {FILTERED} ORDER BY id DESC LIMIT ?4 OFFSET ?5"))?;
    let offset = i64::try_from(offset).unwrap_or(i64::MAX);
    let rows = stmt.query_map(params![blog_id, pattern(&filter.query), filter.state, limit, offset], listed)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Every subscriber of the blog, oldest first, for the CSV export.
pub fn all(conn: &Connection, blog_id: i64) -> Result<Vec<ListedSubscriber>, Error> {
    let mut stmt = conn.prepare_cached(&format!("{LISTED} WHERE blog_id = ?1 ORDER BY id"))?;
    let rows = stmt.query_map([blog_id], listed)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Removes the blog's subscriber `id` (their queued mail goes with them); false when the blog
/// has none by that id.
pub fn remove(conn: &Connection, blog_id: i64, id: i64) -> Result<bool, Error> {
    Ok(conn.execute("DELETE FROM subscribers WHERE blog_id = ?1 AND id = ?2", params![blog_id, id])? > 0)
}

/// How many subscribers the blog imported from other services in the last 24 hours.
pub fn imported_today(conn: &Connection, blog_id: i64) -> Result<u64, Error> {
    let count: i64 = conn
        .prepare_cached(
            "SELECT coalesce(sum(added), 0) FROM subscriber_imports
         WHERE blog_id = ?1 AND at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day')",
        )?
        .query_row([blog_id], |r| r.get(0))?;
    Ok(count.max(0) as u64)
}

/// One subscriber of another service's export: the normalized address and when they
/// subscribed there (an RFC 3339 time), if the export said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Imported {
    /// The normalized address.
    pub email: String,
    /// When they subscribed there.
    pub subscribed_at: Option<String>,
}

/// Which of `emails` the blog has already, in any state.
pub fn existing(conn: &Connection, blog_id: i64, emails: &[&str]) -> Result<Vec<bool>, Error> {
    let mut stmt = conn.prepare_cached("SELECT 1 FROM subscribers WHERE blog_id = ?1 AND email = ?2")?;
    emails.iter().map(|email| Ok(stmt.exists(params![blog_id, email])?)).collect()
}

/// Adds `subscribers` as confirmed (the owner vouched that they consented there), each with its
/// own unsubscribe link; an address the blog has already is left as it is. Counts what was
/// added against the day's cap. Answers how many were added. Runs in the caller's transaction.
pub fn add_imported(conn: &Connection, blog_id: i64, subscribers: &[Imported]) -> Result<u64, Error> {
    let mut insert = conn.prepare_cached(
        "INSERT OR IGNORE INTO subscribers
             (blog_id, email, state, unsubscribe_token, source, created_at, confirmed_at)
         VALUES (?1, ?2, 'confirmed', ?3, 'import',
                 coalesce(?4, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
    )?;
    let mut added = 0u64;
    for subscriber in subscribers {
        let token = hex::encode(rand::random::<[u8; 16]>());
        added += insert.execute(params![blog_id, subscriber.email, token, subscriber.subscribed_at])? as u64;
    }
    conn.execute(
        "DELETE FROM subscriber_imports WHERE blog_id = ?1 AND at <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day')",
        [blog_id],
    )?;
    if added > 0 {
        conn.execute(
            "INSERT INTO subscriber_imports (blog_id, added) VALUES (?1, ?2)",
            params![blog_id, added as i64],
        )?;
    }
    Ok(added)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::test_support::with_blogs;

    fn import(conn: &Connection, blog_id: i64, emails: &[&str]) -> u64 {
        let subscribers: Vec<Imported> =
            emails.iter().map(|e| Imported { email: (*e).to_owned(), subscribed_at: None }).collect();
        add_imported(conn, blog_id, &subscribers).unwrap()
    }

    #[test]
    fn the_list_is_searched_filtered_and_paged_within_the_blog() {
        let conn = with_blogs(&["alice", "bob"]);
        assert_eq!(import(&conn, 1, &["ann@example.com", "a_b@example.com", "zoe@elsewhere.org"]), 3);
        assert_eq!(import(&conn, 2, &["ann@example.com"]), 1);
        conn.execute("UPDATE subscribers SET state = 'bounced' WHERE email = 'zoe@elsewhere.org'", []).unwrap();

        let all = ListFilter::default();
        assert_eq!(count_listed(&conn, 1, &all).unwrap(), 3);
        let newest: Vec<String> = list(&conn, 1, &all, 0, 2).unwrap().into_iter().map(|s| s.email).collect();
        assert_eq!(newest, ["zoe@elsewhere.org", "a_b@example.com"]);
        assert_eq!(list(&conn, 1, &all, 2, 2).unwrap()[0].email, "ann@example.com");

        let search = |query: &str, state| ListFilter { query: query.into(), state };
        assert_eq!(count_listed(&conn, 1, &search("EXAMPLE", None)).unwrap(), 2, "case does not matter");
        assert_eq!(count_listed(&conn, 1, &search("_", None)).unwrap(), 1, "LIKE's `_` is a plain underscore");
        assert_eq!(count_listed(&conn, 1, &search("%", None)).unwrap(), 0);
        assert_eq!(count_listed(&conn, 1, &search("", Some("bounced"))).unwrap(), 1);
        assert_eq!(counts(&conn, 1).unwrap(), SubscriberCounts { confirmed: 2, pending: 0, bounced: 1 });

        let bobs = list(&conn, 2, &all, 0, 10).unwrap();
        assert!(!remove(&conn, 1, bobs[0].id).unwrap(), "another blog's subscriber is not removed");
        assert!(remove(&conn, 2, bobs[0].id).unwrap());
        assert_eq!(counts(&conn, 2).unwrap(), SubscriberCounts::default());
    }

    #[test]
    fn an_import_keeps_what_the_blog_has_and_counts_what_it_added_for_a_day() {
        let conn = with_blogs(&["alice"]);
        assert_eq!(import(&conn, 1, &["ann@example.com"]), 1);
        conn.execute("UPDATE subscribers SET state = 'bounced'", []).unwrap();
        assert_eq!(existing(&conn, 1, &["ann@example.com", "new@example.com"]).unwrap(), [true, false]);
        assert_eq!(import(&conn, 1, &["ann@example.com", "new@example.com"]), 1);
        assert_eq!(list(&conn, 1, &ListFilter::default(), 0, 10).unwrap()[1].state, "bounced", "left as it was");
        assert_eq!(imported_today(&conn, 1).unwrap(), 2);
        conn.execute("UPDATE subscriber_imports SET at = '2000-01-01T00:00:00.000Z'", []).unwrap();
        assert_eq!(imported_today(&conn, 1).unwrap(), 0, "a day later the allowance is whole again");
    }
}
