//! A blog's federation key pair (migration 12, issue 16), and the instance actor's (migration 16,
//! issue 28): kept with the data so that backups carry them and a restore keeps the identities.
//!
//! The key is generated outside any transaction (it takes a while), then [`insert_or_keep`]
//! inserts it only if the blog has no live key yet and answers the row that is there after,
//! so two requests racing to make a blog's first key agree on the same one.

use rusqlite::{Connection, OptionalExtension, params};

use crate::error::Error;

/// A blog's key as stored.
#[derive(Clone, PartialEq, Eq)]
pub struct StoredKey {
    /// The blog.
    pub blog_id: i64,
    /// The private key, PKCS#8 DER.
    pub private_pkcs8: Vec<u8>,
    /// The public key, SPKI PEM.
    pub public_pem: String,
    /// When it was made.
    pub created_at: String,
}

impl std::fmt::Debug for StoredKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoredKey")
            .field("blog_id", &self.blog_id)
            .field("public_pem", &self.public_pem)
            .field("created_at", &self.created_at)
            .finish_non_exhaustive()
    }
}

/// The blog's live (not retired) key, if it has one.
pub fn get(conn: &Connection, blog_id: i64) -> Result<Option<StoredKey>, Error> {
    Ok(conn
        .prepare_cached(
            "SELECT blog_id, private_pkcs8, public_pem, created_at FROM blog_keys
             WHERE blog_id = ?1 AND retired_at IS NULL",
        )?
        .query_row([blog_id], stored_key)
        .optional()?)
}

/// Stores `private_pkcs8`/`public_pem` as the blog's key unless it already has a live one, and
/// answers the blog's key after: the one given, or the one another writer stored first. A
/// retired row under the same id would be replaced, but none can be there: `db::blogs::create`
/// never gives a new blog the id of a deleted one whose key is still kept. `None` when the blog
/// does not exist.
pub fn insert_or_keep(
    conn: &mut Connection,
    blog_id: i64,
    private_pkcs8: &[u8],
    public_pem: &str,
) -> Result<Option<StoredKey>, Error> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    tx.execute(
        "INSERT INTO blog_keys (blog_id, private_pkcs8, public_pem)
             SELECT ?1, ?2, ?3 WHERE EXISTS (SELECT 1 FROM blogs WHERE id = ?1)
         ON CONFLICT (blog_id) DO UPDATE SET
             private_pkcs8 = excluded.private_pkcs8, public_pem = excluded.public_pem,
             created_at = excluded.created_at, retired_at = NULL
         WHERE blog_keys.retired_at IS NOT NULL",
        params![blog_id, private_pkcs8, public_pem],
    )?;
    let key = get(&tx, blog_id)?;
    tx.commit()?;
    Ok(key)
}

/// Deletes the blog's key.
pub fn delete(conn: &Connection, blog_id: i64) -> Result<(), Error> {
    conn.execute("DELETE FROM blog_keys WHERE blog_id = ?1", [blog_id])?;
    Ok(())
}

/// Retires the blog's key, inside the caller's transaction (the account's deletion): it is
/// never handed out for a live blog again, but still signs the actor's queued Delete.
pub fn retire(conn: &Connection, blog_id: i64) -> Result<(), Error> {
    conn.execute(
        &format!("UPDATE blog_keys SET retired_at = {NOW} WHERE blog_id = ?1 AND retired_at IS NULL"),
        [blog_id],
    )?;
    Ok(())
}

/// The blog's key whether live or retired: what signs a queued delivery (the delivery worker's).
pub fn signing(conn: &Connection, blog_id: i64) -> Result<Option<StoredKey>, Error> {
    Ok(conn
        .prepare_cached("SELECT blog_id, private_pkcs8, public_pem, created_at FROM blog_keys WHERE blog_id = ?1")?
        .query_row([blog_id], stored_key)
        .optional()?)
}

/// Whether the blog's key is retired (its account deleted, its actor's Delete maybe still on its way).
pub fn is_retired(conn: &Connection, blog_id: i64) -> Result<bool, Error> {
    Ok(conn
        .prepare_cached("SELECT EXISTS (SELECT 1 FROM blog_keys WHERE blog_id = ?1 AND retired_at IS NOT NULL)")?
        .query_row([blog_id], |r| r.get(0))?)
}

/// Deletes the retired keys no queued delivery needs any more; answers their blogs' ids.
pub fn sweep_retired(conn: &Connection) -> Result<Vec<i64>, Error> {
    let mut stmt = conn.prepare_cached(
        "DELETE FROM blog_keys WHERE retired_at IS NOT NULL AND NOT EXISTS (
             SELECT 1 FROM deliveries d JOIN outgoing_activities a ON a.id = d.activity_id
             WHERE a.blog_id = blog_keys.blog_id)
         RETURNING blog_id",
    )?;
    let swept = stmt.query_map([], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?;
    Ok(swept)
}

/// The instance actor's key (migration 16), if it was made: `blog_id` is 0.
pub fn instance(conn: &Connection) -> Result<Option<StoredKey>, Error> {
    Ok(conn
        .prepare_cached("SELECT 0, private_pkcs8, public_pem, created_at FROM instance_key WHERE id = 1")?
        .query_row([], stored_key)
        .optional()?)
}

/// Stores `private_pkcs8`/`public_pem` as the instance actor's key unless it has one, and
/// answers the one there after (the first stored wins a race, as [`insert_or_keep`]).
pub fn instance_insert_or_keep(
    conn: &mut Connection,
    private_pkcs8: &[u8],
    public_pem: &str,
) -> Result<StoredKey, Error> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    tx.execute(
        "INSERT INTO instance_key (id, private_pkcs8, public_pem) VALUES (1, ?1, ?2) ON CONFLICT (id) DO NOTHING",
        params![private_pkcs8, public_pem],
    )?;
    let key = instance(&tx)?.ok_or_else(|| Error::Internal(anyhow::anyhow!("the instance key was not stored")))?;
    tx.commit()?;
    Ok(key)
}

const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/// A `blog_keys` row read as `blog_id, private_pkcs8, public_pem, created_at`.
fn stored_key(row: &rusqlite::Row<'_>) -> rusqlite::Result<StoredKey> {
    Ok(StoredKey { blog_id: row.get(0)?, private_pkcs8: row.get(1)?, public_pem: row.get(2)?, created_at: row.get(3)? })
}

#[cfg(test)]
mod tests {
    use rusqlite::Connection;

    use super::*;
    use crate::db::test_support;

    fn migrated() -> Connection {
        test_support::with_blogs(&["alice"])
    }

    #[test]
    fn a_new_blog_never_takes_the_id_of_a_deleted_one_whose_key_still_signs() {
        let mut conn = migrated();
        insert_or_keep(&mut conn, 1, b"alice's", "ALICE").unwrap();
        // Alice's account deleted (the highest blog id): her key is kept, retired, for her actor's Delete.
        retire(&conn, 1).unwrap();
        conn.execute("DELETE FROM users WHERE id = 1", []).unwrap();
        conn.execute("INSERT INTO users (email) VALUES ('bob@example.com')", []).unwrap();
        let bob = conn.last_insert_rowid();
        let subdomain = crate::domain::blog::subdomain::Subdomain::parse("bob").unwrap();
        let zone = crate::domain::blog::time_zone::TimeZone::from_stored("UTC");
        let crate::db::blogs::Created::Blog(blog) = crate::db::blogs::create(
            &mut conn,
            bob,
            &subdomain,
            zone,
            crate::domain::blog::trust_state::TrustState::Approved,
        )
        .unwrap() else {
            panic!("bob's blog was not created");
        };
        assert_eq!(blog.id, 2, "not the deleted blog's id 1");
        insert_or_keep(&mut conn, blog.id, b"bob's", "BOB").unwrap();
        assert_eq!(
            signing(&conn, 1).unwrap().unwrap().public_pem,
            "ALICE",
            "alice's Delete is still signed by her key"
        );
    }

    #[test]
    fn the_first_stored_key_wins_and_a_second_writer_gets_it() {
        let mut conn = migrated();
        assert_eq!(get(&conn, 1).unwrap(), None);
        let first = insert_or_keep(&mut conn, 1, b"first", "PEM 1").unwrap().unwrap();
        assert_eq!((first.private_pkcs8.as_slice(), first.public_pem.as_str()), (&b"first"[..], "PEM 1"));
        let second = insert_or_keep(&mut conn, 1, b"second", "PEM 2").unwrap().unwrap();
        assert_eq!(second, first, "the racer that lost gets the winner's key");
        assert_eq!(get(&conn, 1).unwrap(), Some(first));
    }

    #[test]
    fn no_key_is_stored_for_a_missing_blog_and_a_retired_key_is_never_handed_out() {
        let mut conn = migrated();
        assert_eq!(insert_or_keep(&mut conn, 2, b"k", "PEM").unwrap(), None);
        assert_eq!(
            conn.prepare_cached("SELECT count(*) FROM blog_keys")
                .unwrap()
                .query_row([], |r| r.get::<_, i64>(0))
                .unwrap(),
            0
        );
        insert_or_keep(&mut conn, 1, b"old", "OLD").unwrap();
        conn.execute("UPDATE blog_keys SET retired_at = '2026-11-24T10:00:00.000Z'", []).unwrap();
        assert_eq!(get(&conn, 1).unwrap(), None);
        let new = insert_or_keep(&mut conn, 1, b"new", "NEW").unwrap().unwrap();
        assert_eq!(new.public_pem, "NEW");
        delete(&conn, 1).unwrap();
        assert_eq!(get(&conn, 1).unwrap(), None);
    }

    #[test]
    fn a_retired_key_still_signs_until_no_queued_delivery_needs_it() {
        let mut conn = migrated();
        insert_or_keep(&mut conn, 1, b"key", "PEM").unwrap();
        crate::db::deliveries::enqueue(&conn, 1, "actor", "{}", &["https://a.example/inbox".to_owned()]).unwrap();
        retire(&conn, 1).unwrap();
        assert_eq!(get(&conn, 1).unwrap(), None);
        assert!(is_retired(&conn, 1).unwrap());
        assert_eq!(signing(&conn, 1).unwrap().unwrap().public_pem, "PEM");
        assert!(sweep_retired(&conn).unwrap().is_empty(), "a queued delivery needs it");
        conn.execute("DELETE FROM deliveries", []).unwrap();
        assert_eq!(sweep_retired(&conn).unwrap(), vec![1]);
        assert_eq!(signing(&conn, 1).unwrap(), None);
    }
}
