//! Users and the provider accounts they sign in with.

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;
use ts_rs::TS;

use crate::domain::identity::Identity;
use crate::error::Error;

/// A user as the API shows it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, TS)]
#[ts(export_to = "sessions.ts")]
pub struct User {
    /// User id.
    pub id: i64,
    /// E-mail address from the provider.
    pub email: String,
    /// Display name from the provider.
    pub name: String,
}

/// A connected provider account as the API shows it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "social-accounts.ts")]
pub struct SocialAccount {
    /// Account id.
    pub id: i64,
    /// Provider name, e.g. "Google".
    pub provider: String,
    /// E-mail address at the provider.
    pub email: String,
    /// When it was connected.
    pub created_at: String,
}

/// The user a provider identity belongs to.
pub fn find_by_identity(conn: &Connection, identity: &Identity) -> Result<Option<User>, Error> {
    Ok(conn
        .prepare_cached(
            "SELECT u.id, u.email, u.name FROM social_accounts s JOIN users u ON u.id = s.user_id
             WHERE s.issuer = ?1 AND s.subject = ?2",
        )?
        .query_row(params![identity.issuer, identity.subject], |row| {
            Ok(User { id: row.get(0)?, email: row.get(1)?, name: row.get(2)? })
        })
        .optional()?)
}

/// Creates a user with the identity as their first social account.
pub fn create_with_identity(conn: &mut Connection, identity: &Identity, provider: &str) -> Result<User, Error> {
    let tx = conn.transaction()?;
    tx.execute("INSERT INTO users (email, name) VALUES (?1, ?2)", params![identity.email, identity.name])?;
    let id = tx.last_insert_rowid();
    insert_account(&tx, id, identity, provider)?;
    tx.commit()?;
    Ok(User { id, email: identity.email.clone(), name: identity.name.clone() })
}

/// The outcome of connecting a provider account.
pub enum Connect {
    /// Newly connected, or already connected to this user.
    Connected(SocialAccount),
    /// The account belongs to someone else.
    OwnedByAnother,
}

/// Connects `identity` to `user_id` unless another user has it.
pub fn connect(conn: &mut Connection, user_id: i64, identity: &Identity, provider: &str) -> Result<Connect, Error> {
    let tx = conn.transaction()?;
    let owner: Option<(i64, i64)> = tx
        .prepare_cached("SELECT id, user_id FROM social_accounts WHERE issuer = ?1 AND subject = ?2")?
        .query_row(params![identity.issuer, identity.subject], |row| Ok((row.get(0)?, row.get(1)?)))
        .optional()?;
    let account_id = match owner {
        Some((_, owner)) if owner != user_id => return Ok(Connect::OwnedByAnother),
        Some((id, _)) => id,
        None => insert_account(&tx, user_id, identity, provider)?,
    };
    let account = account_by_id(&tx, account_id)?;
    tx.commit()?;
    Ok(Connect::Connected(account))
}

fn insert_account(conn: &Connection, user_id: i64, identity: &Identity, provider: &str) -> Result<i64, Error> {
    conn.execute(
        "INSERT INTO social_accounts (user_id, provider, issuer, subject, email) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![user_id, provider, identity.issuer, identity.subject, identity.email],
    )?;
    Ok(conn.last_insert_rowid())
}

fn account_by_id(conn: &Connection, id: i64) -> Result<SocialAccount, Error> {
    Ok(conn
        .prepare_cached("SELECT id, provider, email, created_at FROM social_accounts WHERE id = ?1")?
        .query_row([id], |row| {
            Ok(SocialAccount { id: row.get(0)?, provider: row.get(1)?, email: row.get(2)?, created_at: row.get(3)? })
        })?)
}

/// A user's connected accounts, oldest first.
pub fn social_accounts(conn: &Connection, user_id: i64) -> Result<Vec<SocialAccount>, Error> {
    let mut stmt = conn
        .prepare_cached("SELECT id, provider, email, created_at FROM social_accounts WHERE user_id = ?1 ORDER BY id")?;
    let accounts = stmt
        .query_map([user_id], |row| {
            Ok(SocialAccount { id: row.get(0)?, provider: row.get(1)?, email: row.get(2)?, created_at: row.get(3)? })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(accounts)
}
