//! Abuse reports (issue 29): stored from the public report page under per-address and
//! instance-wide limits, listed and settled on the Admin screen.

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use ts_rs::TS;

use crate::domain::blog::abuse_report::{ReportReason, ReportText};
use crate::error::Error;

/// A report to store.
#[derive(Debug, Clone)]
pub struct NewReport {
    /// The reported blog.
    pub blog_id: i64,
    /// The reported post's address, '' for the whole blog.
    pub post_url: String,
    /// The reader's words.
    pub text: ReportText,
    /// The sender's address (IPv4, or IPv6 /64), for the per-address limit.
    pub client_key: String,
}

/// What may be stored.
#[derive(Debug, Clone, Copy)]
pub struct ReportLimits {
    /// Reports one address may send in 24 hours.
    pub per_address: u32,
    /// Open reports at most, for the whole instance.
    pub max_open: u32,
}

/// The outcome of [`add`].
#[derive(Debug, PartialEq, Eq)]
pub enum Added {
    /// Stored, with its id.
    Stored(i64),
    /// The address sent its allowance for today.
    AddressLimit,
    /// The queue holds as many open reports as it may.
    QueueFull,
}

/// Stores `report` unless its address is over its daily allowance or the queue is full. Erases
/// the addresses of reports older than a day on the way.
pub fn add(conn: &mut Connection, report: &NewReport, limits: ReportLimits) -> Result<Added, Error> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    tx.execute(
        "UPDATE reports SET client_key = ''
         WHERE client_key <> '' AND created_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day')",
        [],
    )?;
    let sent: u32 = tx
        .prepare_cached("SELECT count(*) FROM reports WHERE client_key = ?1 AND client_key <> ''")?
        .query_row([&report.client_key], |r| r.get(0))?;
    if sent >= limits.per_address {
        return Ok(Added::AddressLimit);
    }
    let open: u32 =
        tx.prepare_cached("SELECT count(*) FROM reports WHERE state = 'open'")?.query_row([], |r| r.get(0))?;
    if open >= limits.max_open {
        return Ok(Added::QueueFull);
    }
    tx.execute(
        "INSERT INTO reports (blog_id, subdomain, post_url, reason, details, contact_email, client_key)
         SELECT id, subdomain, ?2, ?3, ?4, ?5, ?6 FROM blogs WHERE id = ?1",
        params![
            report.blog_id,
            report.post_url,
            report.text.reason.as_str(),
            report.text.details,
            report.text.contact_email.as_deref().unwrap_or(""),
            report.client_key,
        ],
    )?;
    let id = tx.last_insert_rowid();
    tx.commit()?;
    Ok(Added::Stored(id))
}

/// A stored report, as the Admin screen lists it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "admin.ts")]
pub struct Report {
    /// Its id.
    pub id: i64,
    /// The reported blog's subdomain (kept after the blog is deleted).
    pub subdomain: String,
    /// The blog's trust state now; null when the blog is gone.
    pub blog_state: Option<String>,
    /// The reported post's address ('' for the whole blog).
    pub post_url: String,
    /// Why: `spam`, `phishing`, `illegal`, `harassment` or `other`.
    pub reason: String,
    /// What the report form calls the reason, e.g. "Phishing or malware".
    pub reason_label: String,
    /// The reader's details, as they typed them.
    pub details: String,
    /// Where to answer ('' when not given).
    pub contact_email: String,
    /// `open`, `resolved` or `dismissed`.
    pub state: String,
    /// The admin who settled it (null while open).
    pub handled_by: Option<String>,
    /// When it was settled (RFC 3339, UTC; null while open).
    pub handled_at: Option<String>,
    /// When it was sent (RFC 3339, UTC).
    pub created_at: String,
}

/// How a report is settled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settled {
    /// Acted upon.
    Resolved,
    /// Nothing to do.
    Dismissed,
}

impl Settled {
    /// The settlement an admin's call names: `resolve` or `dismiss`.
    pub fn parse(action: &str) -> Option<Settled> {
        match action {
            "resolve" => Some(Settled::Resolved),
            "dismiss" => Some(Settled::Dismissed),
            _ => None,
        }
    }

    /// The report's state once settled.
    pub fn as_str(self) -> &'static str {
        match self {
            Settled::Resolved => "resolved",
            Settled::Dismissed => "dismissed",
        }
    }

    /// What the record of admin actions calls it.
    fn action(self) -> &'static str {
        match self {
            Settled::Resolved => "resolve-report",
            Settled::Dismissed => "dismiss-report",
        }
    }
}

/// The states a report can be in, as the Admin screen's lists name them.
pub const STATES: [&str; 3] = ["open", "resolved", "dismissed"];

const COLUMNS: &str = "SELECT r.id, r.subdomain, b.state, r.post_url, r.reason, r.details, r.contact_email,
                              r.state, r.handled_by, r.handled_at, r.created_at
                       FROM reports r LEFT JOIN blogs b ON b.id = r.blog_id";

fn report_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Report> {
    let reason = ReportReason::parse(&row.get::<_, String>(4)?).unwrap_or(ReportReason::Other);
    Ok(Report {
        id: row.get(0)?,
        subdomain: row.get(1)?,
        blog_state: row.get(2)?,
        post_url: row.get(3)?,
        reason: reason.as_str().to_owned(),
        reason_label: reason.label().to_owned(),
        details: row.get(5)?,
        contact_email: row.get(6)?,
        state: row.get(7)?,
        handled_by: row.get(8)?,
        handled_at: row.get(9)?,
        created_at: row.get(10)?,
    })
}

/// Reports in `state` (one of [`STATES`]), newest first, `limit` from `offset`, and how many
/// there are in all.
pub fn list(conn: &Connection, state: &str, limit: u64, offset: u64) -> Result<(Vec<Report>, u64), Error> {
    let total: u64 =
        conn.prepare_cached("SELECT count(*) FROM reports WHERE state = ?1")?.query_row([state], |r| r.get(0))?;
    let mut stmt =
        conn.prepare_cached(&format!("{COLUMNS} WHERE r.state = ?1 ORDER BY r.id DESC LIMIT ?2 OFFSET ?3"))?;
    let rows = stmt.query_map(params![state, limit, offset], report_row)?;
    Ok((rows.collect::<rusqlite::Result<_>>()?, total))
}

/// Report `id`, if it exists.
pub fn one(conn: &Connection, id: i64) -> Result<Option<Report>, Error> {
    Ok(conn.prepare_cached(&format!("{COLUMNS} WHERE r.id = ?1"))?.query_row([id], report_row).optional()?)
}

/// The outcome of [`settle`].
#[derive(Debug, PartialEq, Eq)]
pub enum Settle {
    /// Settled; the report as it is now.
    Done(Report),
    /// There is no report `id`.
    Unknown,
    /// It was settled before (the report as it is).
    Already(Report),
}

/// Settles the open report `id` on behalf of `admin`, and records it in the record of admin
/// actions, in one transaction.
pub fn settle(conn: &mut Connection, id: i64, how: Settled, admin: &str) -> Result<Settle, Error> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let Some(report) = one(&tx, id)? else {
        return Ok(Settle::Unknown);
    };
    if report.state != "open" {
        return Ok(Settle::Already(report));
    }
    tx.execute(
        "UPDATE reports SET state = ?2, handled_by = ?3, handled_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ?1",
        params![id, how.as_str(), admin],
    )?;
    tx.execute(
        "INSERT INTO admin_actions (admin, blog_id, subdomain, action, reason)
         SELECT ?2, blog_id, subdomain, ?3, ?4 FROM reports WHERE id = ?1",
        params![id, admin, how.action(), format!("Report #{id} ({})", report.reason_label)],
    )?;
    let report = one(&tx, id)?.expect("the report was read in this transaction");
    tx.commit()?;
    Ok(Settle::Done(report))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::test_support::with_blogs;
    use crate::domain::blog::abuse_report::check;

    fn report(client: &str) -> NewReport {
        NewReport {
            blog_id: 1,
            post_url: String::new(),
            text: check("spam", "<b>buy</b>", "").unwrap(),
            client_key: client.to_owned(),
        }
    }

    const LIMITS: ReportLimits = ReportLimits { per_address: 2, max_open: 3 };

    #[test]
    fn an_address_sends_its_allowance_a_day_and_the_queue_holds_its_cap() {
        let mut conn = with_blogs(&["spammy"]);
        assert!(matches!(add(&mut conn, &report("10.0.0.1"), LIMITS).unwrap(), Added::Stored(_)));
        assert!(matches!(add(&mut conn, &report("10.0.0.1"), LIMITS).unwrap(), Added::Stored(_)));
        assert_eq!(add(&mut conn, &report("10.0.0.1"), LIMITS).unwrap(), Added::AddressLimit);
        assert!(matches!(add(&mut conn, &report("10.0.0.2"), LIMITS).unwrap(), Added::Stored(_)));
        assert_eq!(add(&mut conn, &report("10.0.0.3"), LIMITS).unwrap(), Added::QueueFull);
        // A settled report leaves room; a day later the address's allowance is back and its key erased.
        let (open, total) = list(&conn, "open", 10, 0).unwrap();
        assert_eq!((open.len(), total), (3, 3));
        let first = open[0].id;
        assert!(
            matches!(settle(&mut conn, first, Settled::Dismissed, "ops@example.com").unwrap(), Settle::Done(r) if r.state == "dismissed")
        );
        assert!(
            matches!(settle(&mut conn, first, Settled::Resolved, "ops@example.com").unwrap(), Settle::Already(r) if r.state == "dismissed")
        );
        assert_eq!(settle(&mut conn, 9999, Settled::Resolved, "ops@example.com").unwrap(), Settle::Unknown);
        let recorded: (String, String, String) = conn
            .prepare_cached("SELECT admin, action, reason FROM admin_actions")
            .unwrap()
            .query_row([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap();
        assert_eq!(recorded, ("ops@example.com".into(), "dismiss-report".into(), format!("Report #{first} (Spam)")));
        conn.execute("UPDATE reports SET created_at = '2000-01-01T00:00:00.000Z'", []).unwrap();
        assert!(matches!(add(&mut conn, &report("10.0.0.1"), LIMITS).unwrap(), Added::Stored(_)));
        let keys: i64 = conn
            .prepare_cached("SELECT count(*) FROM reports WHERE client_key = '10.0.0.1'")
            .unwrap()
            .query_row([], |r| r.get(0))
            .unwrap();
        assert_eq!(keys, 1, "the day-old reports' addresses are erased");
    }

    #[test]
    fn a_report_outlives_its_blog_and_names_it() {
        let mut conn = with_blogs(&["gone"]);
        add(&mut conn, &report("10.0.0.1"), LIMITS).unwrap();
        conn.execute("DELETE FROM blogs WHERE id = 1", []).unwrap();
        let (reports, _) = list(&conn, "open", 10, 0).unwrap();
        assert_eq!(reports[0].subdomain, "gone");
        assert_eq!(reports[0].blog_state, None);
        assert_eq!(reports[0].details, "<b>buy</b>");
    }
}
