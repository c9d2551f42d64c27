//! What the caps on remote servers refused (migration 15, issue 28): per blog and kind, how
//! many, and the last host refused and when. The owner's Fediverse settings show it.

use rusqlite::{Connection, params};

use crate::domain::federation::remote_limits::Capped;
use crate::error::Error;

/// One kind's refusals for a blog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusals {
    /// What was refused.
    pub kind: Capped,
    /// How many, since the blog began.
    pub count: i64,
    /// The host of the last one.
    pub last_host: String,
    /// When the last one came (stored form).
    pub last_at: String,
}

/// Counts one refusal of `kind` from `host` for the blog.
pub fn record(conn: &Connection, blog_id: i64, kind: Capped, host: &str) -> Result<(), Error> {
    conn.execute(
        "INSERT INTO remote_refusals (blog_id, kind, count, last_host) VALUES (?1, ?2, 1, ?3)
         ON CONFLICT (blog_id, kind) DO UPDATE SET count = count + 1, last_host = excluded.last_host,
             last_at = excluded.last_at",
        params![blog_id, kind.name(), host],
    )?;
    Ok(())
}

/// The blog's refusals, by kind.
pub fn list(conn: &Connection, blog_id: i64) -> Result<Vec<Refusals>, Error> {
    let mut stmt = conn.prepare_cached(
        "SELECT kind, count, last_host, last_at FROM remote_refusals WHERE blog_id = ?1 ORDER BY kind",
    )?;
    let rows: Vec<(String, i64, String, String)> = stmt
        .query_map([blog_id], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows
        .into_iter()
        .filter_map(|(kind, count, last_host, last_at)| {
            Some(Refusals { kind: Capped::parse(&kind)?, count, last_host, last_at })
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::{migrate, test_support};

    #[test]
    fn migration_15_gives_stored_rows_their_actor_host_and_counts_refusals_per_blog_and_kind() {
        let mut conn = test_support::migrated_before(15); // replies without their post
        for (note, actor) in [
            ("n1", "https://Mastodon.Social./users/bob"),
            ("n2", "http://127.0.0.1:8080/users/x"),
            ("n3", "https://[::1]:443/u"),
            ("n4", "https://a.b.example"),
        ] {
            conn.execute(
                "INSERT INTO replies (note_id, post_id, actor_id, author_name, author_handle, author_url, text,
                     published_at, state) VALUES (?1, 1, ?2, 'b', 'b', 'b', 't', 'x', 'held')",
                [note, actor],
            )
            .unwrap();
        }
        migrate::migrate(&mut conn).unwrap();
        let mut stmt = conn.prepare_cached("SELECT actor_id, actor_host FROM replies ORDER BY note_id").unwrap();
        let hosts: Vec<(String, String)> =
            stmt.query_map([], |row| Ok((row.get(0)?, row.get(1)?))).unwrap().map(Result::unwrap).collect();
        for (actor, host) in &hosts {
            let expected = crate::domain::federation::inbound::host_of(actor).unwrap();
            assert_eq!(*host, expected, "the same host as the inbox stores for {actor}");
        }

        conn.execute_batch("INSERT INTO users (id, email) VALUES (1, 'a@example.com');").unwrap();
        conn.execute(
            "INSERT INTO blogs (id, user_id, subdomain, name, theme_id, favicon_id, time_zone)
             VALUES (1, 1, 'alice', 'alice', (SELECT min(id) FROM themes), (SELECT min(id) FROM favicons), 'UTC')",
            [],
        )
        .unwrap();
        record(&conn, 1, Capped::Reply, "a.example").unwrap();
        record(&conn, 1, Capped::Reply, "b.example").unwrap();
        record(&conn, 1, Capped::Reaction, "a.example").unwrap();
        let listed = list(&conn, 1).unwrap();
        let counts: Vec<(Capped, i64, &str)> = listed.iter().map(|r| (r.kind, r.count, r.last_host.as_str())).collect();
        assert_eq!(counts, [(Capped::Reaction, 1, "a.example"), (Capped::Reply, 2, "b.example")]);
    }
}
