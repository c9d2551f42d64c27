//! Sessions (only the token's hash is stored).

use rusqlite::{Connection, OptionalExtension, params};

use crate::db::users::User;
use crate::error::Error;

/// How long a session lives without use.
pub const IDLE_LIFETIME: &str = "+30 days";

const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/// A live session and its user.
#[derive(Debug, Clone)]
pub struct Session {
    /// Session id.
    pub id: i64,
    /// Whose session it is.
    pub user: User,
}

/// Stores a new session for `user_id` under the hash of its token.
pub fn create(conn: &Connection, user_id: i64, token_hash: &[u8]) -> Result<i64, Error> {
    conn.execute(
        &format!(
            "INSERT INTO sessions (user_id, token_hash, expires_at)
             VALUES (?1, ?2, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '{IDLE_LIFETIME}'))"
        ),
        params![user_id, token_hash],
    )?;
    Ok(conn.last_insert_rowid())
}

/// The unexpired session with this token hash, and whether its expiry should slide forward
/// (last used over an hour ago).
pub fn find(conn: &Connection, token_hash: &[u8]) -> Result<Option<(Session, bool)>, Error> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT s.id, u.id, u.email, u.name,
                        s.last_seen_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 hour')
                 FROM sessions s JOIN users u ON u.id = s.user_id
                 WHERE s.token_hash = ?1 AND s.expires_at > {NOW}"
        ))?
        .query_row([token_hash], |row| {
            let user = User { id: row.get(1)?, email: row.get(2)?, name: row.get(3)? };
            Ok((Session { id: row.get(0)?, user }, row.get::<_, bool>(4)?))
        })
        .optional()?)
}

/// Slides a session's expiry forward from now.
pub fn touch(conn: &Connection, id: i64) -> Result<(), Error> {
    conn.execute(
        &format!(
            "UPDATE sessions SET last_seen_at = {NOW},
                 expires_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '{IDLE_LIFETIME}') WHERE id = ?1"
        ),
        [id],
    )?;
    Ok(())
}

/// Ends the session with this token hash, if any.
pub fn delete(conn: &Connection, token_hash: &[u8]) -> Result<(), Error> {
    conn.execute("DELETE FROM sessions WHERE token_hash = ?1", [token_hash])?;
    Ok(())
}
