//! API tokens (`api_tokens`, issue 37): each lets an app write to one blog with its scopes
//! (`domain::access`). Stored as the SHA-256 of the token and its last 4 characters; a revoked
//! token's row is deleted; an expired one stays listed, and is refused.

use rusqlite::{Connection, OptionalExtension, params};

use crate::domain::access::Scopes;
use crate::error::Error;

const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/// A token as its blog's list shows it (never the token itself).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiToken {
    /// Row id.
    pub id: i64,
    /// The blog it writes to.
    pub blog_id: i64,
    /// What its owner called it (or the app's name, for one issued through IndieAuth).
    pub name: String,
    /// What it may do.
    pub scopes: Scopes,
    /// Its last 4 characters.
    pub last4: String,
    /// The IndieAuth `client_id` of the app it was issued to; none for one made in Settings.
    pub client_id: Option<String>,
    /// When it was made.
    pub created_at: String,
    /// When it stops working; none: never.
    pub expires_at: Option<String>,
    /// When it was last used.
    pub last_used_at: Option<String>,
}

/// A token to store.
pub struct NewToken<'a> {
    /// The blog it writes to.
    pub blog_id: i64,
    /// Its name.
    pub name: &'a str,
    /// Its scopes.
    pub scopes: &'a Scopes,
    /// SHA-256 of the token.
    pub hash: &'a [u8],
    /// Its last 4 characters.
    pub last4: &'a str,
    /// The app it is issued to through IndieAuth.
    pub client_id: Option<&'a str>,
    /// When it stops working (stored time).
    pub expires_at: Option<&'a str>,
    /// The IndieAuth code it was issued for.
    pub code_id: Option<i64>,
}

const COLUMNS: &str = "id, blog_id, name, scopes, last4, client_id, created_at, expires_at, last_used_at";

fn from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<ApiToken> {
    Ok(ApiToken {
        id: row.get(0)?,
        blog_id: row.get(1)?,
        name: row.get(2)?,
        scopes: Scopes::from_stored(&row.get::<_, String>(3)?),
        last4: row.get(4)?,
        client_id: row.get(5)?,
        created_at: row.get(6)?,
        expires_at: row.get(7)?,
        last_used_at: row.get(8)?,
    })
}

/// Stores a new token.
pub fn insert(conn: &Connection, token: &NewToken<'_>) -> Result<ApiToken, Error> {
    Ok(conn
        .prepare_cached(&format!(
            "INSERT INTO api_tokens (blog_id, name, scopes, token_hash, last4, client_id, expires_at, code_id)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) RETURNING {COLUMNS}"
        ))?
        .query_row(
            params![
                token.blog_id,
                token.name,
                token.scopes.stored(),
                token.hash,
                token.last4,
                token.client_id,
                token.expires_at,
                token.code_id
            ],
            from_row,
        )?)
}

/// How many tokens the blog has.
pub fn count(conn: &Connection, blog_id: i64) -> Result<u64, Error> {
    Ok(conn.prepare_cached("SELECT COUNT(*) FROM api_tokens WHERE blog_id = ?1")?.query_row([blog_id], |r| r.get(0))?)
}

/// The blog's tokens, newest first.
pub fn list(conn: &Connection, blog_id: i64) -> Result<Vec<ApiToken>, Error> {
    let mut stmt =
        conn.prepare_cached(&format!("SELECT {COLUMNS} FROM api_tokens WHERE blog_id = ?1 ORDER BY id DESC"))?;
    let rows = stmt.query_map([blog_id], from_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Deletes the blog's token `id`; `false` when the blog has no such token.
pub fn revoke(conn: &Connection, blog_id: i64, id: i64) -> Result<bool, Error> {
    Ok(conn.execute("DELETE FROM api_tokens WHERE blog_id = ?1 AND id = ?2", params![blog_id, id])? > 0)
}

/// Deletes the token with this hash, whichever blog it writes to; `false` when there is none.
pub fn revoke_by_hash(conn: &Connection, hash: &[u8]) -> Result<bool, Error> {
    Ok(conn.execute("DELETE FROM api_tokens WHERE token_hash = ?1", [hash])? > 0)
}

/// The token with this hash, unless it has expired.
pub fn live_by_hash(conn: &Connection, hash: &[u8]) -> Result<Option<ApiToken>, Error> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM api_tokens WHERE token_hash = ?1 AND (expires_at IS NULL OR expires_at > {NOW})"
        ))?
        .query_row([hash], from_row)
        .optional()?)
}

/// Records a use of the token `id` now.
pub fn touch(conn: &Connection, id: i64) -> Result<(), Error> {
    conn.prepare_cached(&format!("UPDATE api_tokens SET last_used_at = {NOW} WHERE id = ?1"))?.execute([id])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::test_support;

    #[test]
    fn a_token_is_found_by_its_hash_until_it_expires_or_is_revoked() {
        let conn = test_support::with_blogs(&["alice"]);
        let blog_id = 1;
        let scopes = Scopes::from_names(["create", "media"]).unwrap();
        let new = |hash: &'static [u8], expires_at| NewToken {
            blog_id,
            name: "iA Writer",
            scopes: &scopes,
            hash,
            last4: "abcd",
            client_id: None,
            expires_at,
            code_id: None,
        };
        let live = insert(&conn, &new(b"live", None)).unwrap();
        insert(&conn, &new(b"expired", Some("2020-01-01T00:00:00.000Z"))).unwrap();
        assert_eq!(live_by_hash(&conn, b"live").unwrap().unwrap().scopes, scopes);
        assert_eq!(live_by_hash(&conn, b"expired").unwrap(), None);
        assert_eq!(live_by_hash(&conn, b"other").unwrap(), None);
        assert_eq!(list(&conn, blog_id).unwrap().len(), 2);
        touch(&conn, live.id).unwrap();
        assert!(list(&conn, blog_id).unwrap().iter().any(|t| t.id == live.id && t.last_used_at.is_some()));
        assert!(!revoke(&conn, blog_id + 1, live.id).unwrap());
        assert!(revoke(&conn, blog_id, live.id).unwrap());
        assert_eq!(live_by_hash(&conn, b"live").unwrap(), None);
        assert_eq!(count(&conn, blog_id).unwrap(), 1);
    }
}
