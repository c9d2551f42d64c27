//! Scheduled posts coming due: moving `scheduled_at` to `published_at` (see
//! blogs/schedule.rs, which runs it from the server's timer).

use rusqlite::{Connection, params};

use crate::db::posts::{COLUMNS, Post, bump_seq, from_row};
use crate::error::Error;

/// A post just published, with its blog's subdomain.
pub type Published = (Post, String);

const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/// Publishes every post whose scheduled time has come, at that time, in one transaction (each
/// post's version raised: its editor shows it published now, docs/edit-conflicts.md).
/// Returns them with the subdomains of their blogs and the new change counter (`None` when
/// nothing came due, so nothing was written). `federate` runs in the transaction for each post
/// published that is not a page, with its blog's subdomain.
pub fn publish_due(
    conn: &mut Connection,
    mut federate: impl FnMut(&Connection, &Post, &str) -> Result<(), Error>,
) -> Result<(Vec<Published>, Option<i64>), Error> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let mut posts: Vec<Post> = {
        let mut stmt = tx.prepare_cached(&format!(
            "UPDATE posts SET published_at = scheduled_at, scheduled_at = NULL, updated_at = {NOW}, version = version + 1
             WHERE scheduled_at IS NOT NULL AND scheduled_at <= {NOW} RETURNING {COLUMNS}"
        ))?;
        stmt.query_map([], from_row)?.collect::<rusqlite::Result<_>>()?
    };
    if posts.is_empty() {
        return Ok((Vec::new(), None));
    }
    super::tags::attach(&tx, &mut posts)?; // the index keeps their tags
    let mut with_blogs = Vec::with_capacity(posts.len());
    {
        let mut subdomain = tx.prepare_cached("SELECT subdomain FROM blogs WHERE id = ?1")?;
        for post in posts {
            let name: String = subdomain.query_row(params![post.blog_id], |r| r.get(0))?;
            with_blogs.push((post, name));
        }
    }
    for (post, subdomain) in &with_blogs {
        if post.page_position.is_none() {
            federate(&tx, post, subdomain)?;
        }
    }
    let seq = bump_seq(&tx)?;
    tx.commit()?;
    Ok((with_blogs, Some(seq)))
}

/// The earliest scheduled time of any post, if one is waiting.
pub fn next_due(conn: &Connection) -> Result<Option<String>, Error> {
    Ok(conn
        .prepare_cached("SELECT min(scheduled_at) FROM posts WHERE scheduled_at IS NOT NULL")?
        .query_row([], |r| r.get(0))?)
}
