//! IndieAuth's authorization codes (`indieauth_codes`, issue 37): stored when the owner approves
//! an app's sign-in, as the SHA-256 of the code; redeemed once within
//! [`crate::domain::indieauth::REQUEST_MINUTES`]; kept a day after, so that a code presented
//! again is recognized and the tokens it gave revoked (OAuth 2.0 Security BCP).

use rusqlite::{Connection, OptionalExtension, Transaction, params};

use crate::domain::indieauth::REQUEST_MINUTES;
use crate::error::Error;

const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/// A code to store.
pub struct NewCode<'a> {
    /// SHA-256 of the code.
    pub hash: &'a [u8],
    /// The blog the owner signed in to the app with.
    pub blog_id: i64,
    /// The app's client id.
    pub client_id: &'a str,
    /// The app's name as the consent screen showed it.
    pub client_name: &'a str,
    /// Where the code was sent.
    pub redirect_uri: &'a str,
    /// PKCE's S256 challenge.
    pub code_challenge: &'a str,
    /// The scopes granted, stored form (empty: sign-in only).
    pub scopes: &'a str,
}

/// A code as its redemption reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Code {
    /// Row id.
    pub id: i64,
    /// The blog.
    pub blog_id: i64,
    /// The app's client id.
    pub client_id: String,
    /// The app's name.
    pub client_name: String,
    /// Where the code was sent.
    pub redirect_uri: String,
    /// PKCE's S256 challenge.
    pub code_challenge: String,
    /// The scopes granted (stored form).
    pub scopes: String,
}

/// What presenting a code found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Redemption {
    /// A fresh code, now marked used.
    Fresh(Code),
    /// A code used already: the tokens it gave are revoked.
    Reused,
    /// No such code, or one past its time.
    Unknown,
}

/// Stores an approved code; old rows (a day past) are swept on the way.
pub fn insert(conn: &Connection, code: &NewCode<'_>) -> Result<i64, Error> {
    conn.execute("DELETE FROM indieauth_codes WHERE created_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day')", [])?;
    Ok(conn
        .prepare_cached(
            "INSERT INTO indieauth_codes (code_hash, blog_id, client_id, client_name, redirect_uri, code_challenge, scopes)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) RETURNING id",
        )?
        .query_row(
            params![
                code.hash,
                code.blog_id,
                code.client_id,
                code.client_name,
                code.redirect_uri,
                code.code_challenge,
                code.scopes
            ],
            |r| r.get(0),
        )?)
}

/// Presents the code with this hash, in the redemption's transaction: a fresh one is marked
/// used; a used one has the tokens it gave deleted.
pub fn redeem(tx: &Transaction<'_>, hash: &[u8]) -> Result<Redemption, Error> {
    let row = tx
        .prepare_cached(&format!(
            "SELECT id, blog_id, client_id, client_name, redirect_uri, code_challenge, scopes, used_at IS NOT NULL,
                    created_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-{REQUEST_MINUTES} minutes')
             FROM indieauth_codes WHERE code_hash = ?1"
        ))?
        .query_row([hash], |r| {
            let code = Code {
                id: r.get(0)?,
                blog_id: r.get(1)?,
                client_id: r.get(2)?,
                client_name: r.get(3)?,
                redirect_uri: r.get(4)?,
                code_challenge: r.get(5)?,
                scopes: r.get(6)?,
            };
            Ok((code, r.get::<_, bool>(7)?, r.get::<_, bool>(8)?))
        })
        .optional()?;
    match row {
        None => Ok(Redemption::Unknown),
        Some((code, true, _)) => {
            tx.execute("DELETE FROM api_tokens WHERE code_id = ?1", [code.id])?;
            Ok(Redemption::Reused)
        }
        Some((_, false, false)) => Ok(Redemption::Unknown),
        Some((code, false, true)) => {
            tx.execute(&format!("UPDATE indieauth_codes SET used_at = {NOW} WHERE id = ?1"), [code.id])?;
            Ok(Redemption::Fresh(code))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::test_support;

    #[test]
    fn a_code_is_redeemed_once_and_a_second_try_revokes_its_tokens() {
        let mut conn = test_support::with_blogs(&["alice"]);
        let new = NewCode {
            hash: b"code",
            blog_id: 1,
            client_id: "https://app.example/",
            client_name: "App",
            redirect_uri: "https://app.example/cb",
            code_challenge: "c",
            scopes: "create",
        };
        let id = insert(&conn, &new).unwrap();
        conn.execute(
            "INSERT INTO api_tokens (blog_id, name, scopes, token_hash, last4, code_id) VALUES (1, 'App', 'create', x'01', 'abcd', ?1)",
            [id],
        )
        .unwrap();
        let tx = conn.transaction().unwrap();
        assert!(matches!(redeem(&tx, b"code").unwrap(), Redemption::Fresh(code) if code.id == id));
        assert_eq!(redeem(&tx, b"code").unwrap(), Redemption::Reused);
        assert_eq!(redeem(&tx, b"other").unwrap(), Redemption::Unknown);
        tx.commit().unwrap();
        assert_eq!(conn.query_row("SELECT count(*) FROM api_tokens", [], |r| r.get::<_, i64>(0)).unwrap(), 0);

        let stale = NewCode { hash: b"stale", ..new };
        let stale_id = insert(&conn, &stale).unwrap();
        conn.execute("UPDATE indieauth_codes SET created_at = '2020-01-01T00:00:00.000Z' WHERE id = ?1", [stale_id])
            .unwrap();
        let tx = conn.transaction().unwrap();
        assert_eq!(redeem(&tx, b"stale").unwrap(), Redemption::Unknown);
    }
}
