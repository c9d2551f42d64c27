//! What the storage's unit tests share: an in-memory database with every migration applied, and
//! blogs in it (tests of one table family add their own rows on top).

use rusqlite::{Connection, params};

use crate::db::migrate;

/// An empty database at the newest schema, foreign keys enforced as [`crate::db::Db`] does.
pub fn migrated() -> Connection {
    let mut conn = Connection::open_in_memory().unwrap();
    conn.pragma_update(None, "foreign_keys", true).unwrap();
    migrate::migrate(&mut conn).unwrap();
    conn
}

/// A database at the schema of the migrations before `version` (to test what `version` does to
/// rows stored before it), foreign keys off (rows may lack their blog or post).
pub fn migrated_before(version: i64) -> Connection {
    let mut conn = Connection::open_in_memory().unwrap();
    for m in migrate::MIGRATIONS.iter().filter(|m| m.version < version) {
        let tx = conn.transaction().unwrap();
        tx.execute_batch(m.sql).unwrap();
        if let Some(seed) = m.seed {
            seed(&tx).unwrap();
        }
        tx.pragma_update(None, "user_version", m.version).unwrap();
        tx.commit().unwrap();
    }
    conn.pragma_update(None, "foreign_keys", false).unwrap();
    conn
}

/// [`migrated`] with one blog per subdomain, named as its subdomain, each owned by a user of its
/// own (`{subdomain}@example.com`): the first blog and user have id 1, the next 2, ...
pub fn with_blogs(subdomains: &[&str]) -> Connection {
    let conn = migrated();
    for subdomain in subdomains {
        conn.execute("INSERT INTO users (email) VALUES (?1)", params![format!("{subdomain}@example.com")]).unwrap();
        conn.execute(
            "INSERT INTO blogs (user_id, subdomain, name, theme_id, favicon_id, time_zone)
             VALUES (last_insert_rowid(), ?1, ?1, (SELECT min(id) FROM themes), (SELECT min(id) FROM favicons), 'UTC')",
            params![subdomain],
        )
        .unwrap();
    }
    conn
}
