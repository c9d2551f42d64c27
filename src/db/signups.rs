//! Who may sign up (migration 19, docs/public-instance.md): invite codes, their uses, and the
//! log of blog creations the limits count. Codes are stored as their SHA-256 only.

use rusqlite::{Connection, OptionalExtension, params};

use crate::error::Error;

/// A day ago, as the stored timestamps are written.
const A_DAY_AGO: &str = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day')";

/// An invite, as `quire invites list` shows it (never its code).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invite {
    /// Its id.
    pub id: i64,
    /// The code's first characters.
    pub prefix: String,
    /// How many blogs it may create.
    pub max_uses: i64,
    /// How many it created.
    pub uses: i64,
    /// When it stops working (UTC), if ever.
    pub expires_at: Option<String>,
    /// The operator's note.
    pub note: String,
    /// When it was revoked, if it was.
    pub revoked_at: Option<String>,
    /// Whether its expiry is past.
    pub expired: bool,
    /// When it was made (UTC).
    pub created_at: String,
}

impl Invite {
    /// `usable`, `used up`, `expired` or `revoked`.
    pub fn state(&self) -> &'static str {
        if self.revoked_at.is_some() {
            "revoked"
        } else if self.expired {
            "expired"
        } else if self.uses >= self.max_uses {
            "used up"
        } else {
            "usable"
        }
    }
}

const INVITE: &str = "SELECT i.id, i.prefix, i.max_uses, (SELECT count(*) FROM invite_uses u WHERE u.invite_id = i.id),
        i.expires_at, i.note, i.revoked_at,
        i.expires_at IS NOT NULL AND i.expires_at <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), i.created_at
    FROM invites i";

fn invite_from_row(row: &rusqlite::Row) -> rusqlite::Result<Invite> {
    Ok(Invite {
        id: row.get(0)?,
        prefix: row.get(1)?,
        max_uses: row.get(2)?,
        uses: row.get(3)?,
        expires_at: row.get(4)?,
        note: row.get(5)?,
        revoked_at: row.get(6)?,
        expired: row.get(7)?,
        created_at: row.get(8)?,
    })
}

/// Stores a new invite (its code's hash and prefix) that may create `max_uses` blogs, until
/// `expires_in_seconds` from now when given; returns it.
pub fn create_invite(
    conn: &Connection,
    code_hash: &[u8],
    prefix: &str,
    max_uses: u32,
    expires_in_seconds: Option<u64>,
    note: &str,
) -> Result<Invite, Error> {
    let expires = expires_in_seconds.map(|seconds| format!("+{seconds} seconds"));
    conn.execute(
        "INSERT INTO invites (code_hash, prefix, max_uses, expires_at, note)
         VALUES (?1, ?2, ?3, CASE WHEN ?4 IS NULL THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%SZ', 'now', ?4) END, ?5)",
        params![code_hash, prefix, max_uses, expires, note],
    )?;
    let id = conn.last_insert_rowid();
    Ok(conn.prepare_cached(&format!("{INVITE} WHERE i.id = ?1"))?.query_row([id], invite_from_row)?)
}

/// Every invite, newest first.
pub fn list_invites(conn: &Connection) -> Result<Vec<Invite>, Error> {
    let mut stmt = conn.prepare_cached(&format!("{INVITE} ORDER BY i.id DESC"))?;
    let rows = stmt.query_map([], invite_from_row)?.collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// The invite whose code hashes to `code_hash`.
pub fn invite_by_hash(conn: &Connection, code_hash: &[u8]) -> Result<Option<Invite>, Error> {
    Ok(conn
        .prepare_cached(&format!("{INVITE} WHERE i.code_hash = ?1"))?
        .query_row([code_hash], invite_from_row)
        .optional()?)
}

/// The invite `id`.
pub fn invite_by_id(conn: &Connection, id: i64) -> Result<Option<Invite>, Error> {
    Ok(conn.prepare_cached(&format!("{INVITE} WHERE i.id = ?1"))?.query_row([id], invite_from_row).optional()?)
}

/// Revokes the invite `id` (a revoked one stays revoked as it was); false when there is none.
pub fn revoke_invite(conn: &Connection, id: i64) -> Result<bool, Error> {
    let changed = conn.execute(
        "UPDATE invites SET revoked_at = coalesce(revoked_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) WHERE id = ?1",
        [id],
    )?;
    Ok(changed == 1)
}

/// Spends one use of the invite whose code hashes to `code_hash` on the blog just created,
/// when it is usable (not revoked, not expired, not used up); false otherwise. Call it in the
/// transaction that creates the blog, so a refused creation spends nothing.
pub fn spend_invite(conn: &Connection, code_hash: &[u8], blog_id: i64, subdomain: &str) -> Result<bool, Error> {
    let spent = conn.execute(
        "INSERT INTO invite_uses (invite_id, blog_id, subdomain)
         SELECT i.id, ?2, ?3 FROM invites i
         WHERE i.code_hash = ?1 AND i.revoked_at IS NULL
           AND (i.expires_at IS NULL OR i.expires_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
           AND (SELECT count(*) FROM invite_uses u WHERE u.invite_id = i.id) < i.max_uses",
        params![code_hash, blog_id, subdomain],
    )?;
    Ok(spent == 1)
}

/// What the signup log holds for the last day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Recent {
    /// Blogs created across the instance.
    pub instance: u32,
    /// Seconds until the oldest of those is a day old.
    pub instance_wait: u64,
    /// Blogs created and invite codes refused from the address.
    pub address: u32,
    /// Seconds until the oldest of those is a day old.
    pub address_wait: u64,
}

/// Drops the log's rows older than a day, then counts the last day's: the instance's
/// creations, and the creations and refused codes from `address` (none when unknown).
pub fn recent(conn: &Connection, address: Option<&str>) -> Result<Recent, Error> {
    conn.execute(&format!("DELETE FROM signup_log WHERE at <= {A_DAY_AGO}"), [])?;
    // The count, and the seconds (rounded up) until the oldest counted row is a day old.
    let count = |filter: &str, value: &str| -> Result<(u32, u64), Error> {
        Ok(conn
            .prepare_cached(&format!(
                "SELECT count(*), coalesce(CAST((julianday(min(at)) + 1 - julianday('now')) * 86400 AS INTEGER) + 1, 0)
                 FROM signup_log WHERE {filter}"
            ))?
            .query_row([value], |row| Ok((row.get::<_, u32>(0)?, row.get::<_, i64>(1)?.max(0) as u64)))?)
    };
    let (instance, instance_wait) = count("created = 1 AND ?1 = ?1", "")?;
    let (address_count, address_wait) = match address {
        Some(address) => count("address = ?1", address)?,
        None => (0, 0),
    };
    Ok(Recent { instance, instance_wait, address: address_count, address_wait })
}

/// Logs a blog created (`created`) or an invite code refused from `address`.
pub fn log(conn: &Connection, address: Option<&str>, created: bool) -> Result<(), Error> {
    conn.execute("INSERT INTO signup_log (address, created) VALUES (?1, ?2)", params![address, created])?;
    Ok(())
}
