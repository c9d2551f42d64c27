//! Custom domains (migrations 11 and 17): at most one per blog. Several blogs may claim a name,
//! but only one has it verified: the first to prove it, whose proof drops the others' claims.

use rusqlite::{Connection, OptionalExtension, params};

use crate::domain::blog::custom_domain::CustomDomain;
use crate::domain::blog::domain_verification::{After, Before, DomainState};
use crate::domain::content::schedule::{parse_stored, stored};
use crate::error::Error;

/// A blog's custom domain as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DomainRow {
    /// The blog it belongs to.
    pub blog_id: i64,
    /// The A-label name.
    pub name: String,
    /// What the TXT record must carry after `quire-verify=`.
    pub token: String,
    /// Where its verification stands.
    pub state: DomainState,
    /// Why the last check failed, or a hint while waiting.
    pub error: Option<String>,
    /// When it was last checked.
    pub checked_at: Option<String>,
    /// When it is checked next, if ever.
    pub next_check_at: Option<String>,
    /// When it was verified.
    pub verified_at: Option<String>,
    /// When the current wait began.
    pub waiting_since: String,
    /// When a verified name's record was first found missing.
    pub missing_since: Option<String>,
}

impl DomainRow {
    /// The name as a [`CustomDomain`].
    pub fn domain(&self) -> CustomDomain {
        CustomDomain::from_stored(self.name.clone())
    }

    /// What a check starts from.
    pub fn before(&self) -> Before {
        let time = |value: &Option<String>| value.as_deref().and_then(parse_stored);
        Before {
            state: self.state,
            waiting_since: parse_stored(&self.waiting_since).unwrap_or(time::OffsetDateTime::UNIX_EPOCH),
            missing_since: time(&self.missing_since),
            verified_at: time(&self.verified_at),
        }
    }
}

const COLUMNS: &str =
    "blog_id, name, token, state, error, checked_at, next_check_at, verified_at, waiting_since, missing_since";

fn from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<DomainRow> {
    Ok(DomainRow {
        blog_id: row.get(0)?,
        name: row.get(1)?,
        token: row.get(2)?,
        state: DomainState::from_stored(&row.get::<_, String>(3)?),
        error: row.get(4)?,
        checked_at: row.get(5)?,
        next_check_at: row.get(6)?,
        verified_at: row.get(7)?,
        waiting_since: row.get(8)?,
        missing_since: row.get(9)?,
    })
}

/// The blog's custom domain, if it has one.
pub fn get(conn: &Connection, blog_id: i64) -> Result<Option<DomainRow>, Error> {
    Ok(conn
        .prepare_cached(&format!("SELECT {COLUMNS} FROM custom_domains WHERE blog_id = ?1"))?
        .query_row([blog_id], from_row)
        .optional()?)
}

/// The outcome of setting a name.
#[derive(Debug)]
pub enum Set {
    /// The blog's domain row, new or replaced (or unchanged: the same name again).
    Domain {
        /// The row after the write.
        row: DomainRow,
        /// The name it replaced, if it had another.
        replaced: Option<DomainRow>,
    },
    /// Another blog has the name verified.
    Taken,
    /// The blog set `limit` new names in the day before; the next may be set at `next`.
    TooManyChanges {
        /// When the oldest of those changes is a day old (stored form).
        next: String,
    },
}

/// Gives the blog the name `name` with a new token, waiting for DNS from now (replacing its
/// earlier name), unless another blog has it verified. Setting the name it already has changes
/// nothing. At most `per_day` new names in the 24 hours before `now`.
pub fn set(
    conn: &mut Connection,
    blog_id: i64,
    name: &CustomDomain,
    token: &str,
    per_day: u32,
    now: time::OffsetDateTime,
) -> Result<Set, Error> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    if verified_by_another(&tx, blog_id, name.as_str())? {
        return Ok(Set::Taken);
    }
    let replaced = get(&tx, blog_id)?;
    if let Some(same) = replaced.as_ref().filter(|row| row.name == name.as_str()) {
        return Ok(Set::Domain { row: same.clone(), replaced: None });
    }
    let day_ago = stored(now - time::Duration::days(1));
    tx.execute("DELETE FROM custom_domain_changes WHERE changed_at < ?1", [&day_ago])?;
    let (changes, oldest): (u32, Option<String>) = tx
        .prepare_cached("SELECT count(*), min(changed_at) FROM custom_domain_changes WHERE blog_id = ?1")?
        .query_row([blog_id], |r| Ok((r.get(0)?, r.get(1)?)))?;
    if changes >= per_day {
        let next = oldest.as_deref().and_then(parse_stored).map_or(now, |at| at + time::Duration::days(1));
        return Ok(Set::TooManyChanges { next: stored(next) });
    }
    tx.execute(
        "INSERT INTO custom_domain_changes (blog_id, changed_at) VALUES (?1, ?2)",
        params![blog_id, stored(now)],
    )?;
    tx.execute("DELETE FROM custom_domains WHERE blog_id = ?1", [blog_id])?;
    tx.execute(
        "INSERT INTO custom_domains (blog_id, name, token, next_check_at) VALUES (?1, ?2, ?3, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
        params![blog_id, name.as_str(), token],
    )?;
    let row = get(&tx, blog_id)?.ok_or_else(|| anyhow::anyhow!("the domain row vanished in its transaction"))?;
    super::blogs::touch(&tx, blog_id)?;
    tx.commit()?;
    Ok(Set::Domain { row, replaced })
}

/// Removes the blog's custom domain; the row removed, if there was one.
pub fn remove(conn: &mut Connection, blog_id: i64) -> Result<Option<DomainRow>, Error> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let removed = get(&tx, blog_id)?;
    if removed.is_some() {
        tx.execute("DELETE FROM custom_domains WHERE blog_id = ?1", [blog_id])?;
        super::blogs::touch(&tx, blog_id)?;
    }
    tx.commit()?;
    Ok(removed)
}

/// Whether a blog other than `blog_id` has `name` verified.
pub fn verified_by_another(conn: &Connection, blog_id: i64, name: &str) -> Result<bool, Error> {
    Ok(conn
        .prepare_cached("SELECT 1 FROM custom_domains WHERE name = ?1 AND blog_id <> ?2 AND state = 'verified'")?
        .query_row(params![name, blog_id], |_| Ok(()))
        .optional()?
        .is_some())
}

/// Records a check of the name with token `token` at `now`; `None` (and no write) when the
/// blog's domain changed meanwhile (removed, or replaced with a new token). A check that
/// verifies the name drops the other blogs' unverified claims of it (the caller has made sure
/// no other blog has it verified: [`verified_by_another`]).
pub fn record_check(
    conn: &Connection,
    blog_id: i64,
    token: &str,
    after: &After,
    now: time::OffsetDateTime,
) -> Result<Option<DomainRow>, Error> {
    let time = |value: Option<time::OffsetDateTime>| value.map(stored);
    let was_verified = get(conn, blog_id)?.is_some_and(|row| row.state == DomainState::Verified);
    let changed = conn.execute(
        "UPDATE custom_domains SET state = ?3, error = ?4, checked_at = ?5, next_check_at = ?6, verified_at = ?7,
                waiting_since = ?8, missing_since = ?9
         WHERE blog_id = ?1 AND token = ?2",
        params![
            blog_id,
            token,
            after.state.as_str(),
            after.error,
            stored(now),
            time(after.next_check_at),
            time(after.verified_at),
            stored(after.waiting_since),
            time(after.missing_since),
        ],
    )?;
    if changed == 0 {
        return Ok(None);
    }
    if after.state == DomainState::Verified {
        conn.execute(
            "DELETE FROM custom_domains WHERE blog_id <> ?1 AND state <> 'verified'
               AND name = (SELECT name FROM custom_domains WHERE blog_id = ?1)",
            [blog_id],
        )?;
    }
    if was_verified != (after.state == DomainState::Verified) {
        super::blogs::touch(conn, blog_id)?; // its pages' origin changes, and their validators with it
    }
    get(conn, blog_id)
}

/// The domains whose automatic check is due at `now`.
pub fn due(conn: &Connection, now: time::OffsetDateTime) -> Result<Vec<DomainRow>, Error> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM custom_domains WHERE next_check_at IS NOT NULL AND next_check_at <= ?1 ORDER BY next_check_at"
    ))?;
    Ok(stmt.query_map([stored(now)], from_row)?.collect::<rusqlite::Result<_>>()?)
}

/// Drops the unverified claims whose wait began before `cutoff`; returns them.
pub fn expire_claims(conn: &Connection, cutoff: time::OffsetDateTime) -> Result<Vec<DomainRow>, Error> {
    let mut stmt = conn.prepare_cached(&format!(
        "DELETE FROM custom_domains WHERE state <> 'verified' AND waiting_since < ?1 RETURNING {COLUMNS}"
    ))?;
    let expired: Vec<DomainRow> = stmt.query_map([stored(cutoff)], from_row)?.collect::<rusqlite::Result<_>>()?;
    for row in &expired {
        super::blogs::touch(conn, row.blog_id)?;
    }
    Ok(expired)
}

/// When the oldest unverified claim's wait began, if there is one.
pub fn oldest_claim(conn: &Connection) -> Result<Option<String>, Error> {
    Ok(conn
        .prepare_cached("SELECT min(waiting_since) FROM custom_domains WHERE state <> 'verified'")?
        .query_row([], |r| r.get(0))?)
}

/// The earliest automatic check, if any is planned.
pub fn next_due(conn: &Connection) -> Result<Option<String>, Error> {
    Ok(conn.prepare_cached("SELECT min(next_check_at) FROM custom_domains")?.query_row([], |r| r.get(0))?)
}

/// Every blog's subdomain with its verified custom domain, if any (what the server answers on).
pub fn served(conn: &Connection) -> Result<Vec<(String, Option<String>)>, Error> {
    let mut stmt = conn.prepare_cached(
        "SELECT b.subdomain, d.name FROM blogs b LEFT JOIN custom_domains d ON d.blog_id = b.id AND d.state = 'verified'",
    )?;
    Ok(stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<rusqlite::Result<_>>()?)
}

/// The blog's verified custom domain, if any.
pub fn verified_of(conn: &Connection, blog_id: i64) -> Result<Option<String>, Error> {
    Ok(conn
        .prepare_cached("SELECT name FROM custom_domains WHERE blog_id = ?1 AND state = 'verified'")?
        .query_row([blog_id], |r| r.get(0))
        .optional()?)
}
