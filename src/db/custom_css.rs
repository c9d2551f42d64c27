//! A blog's custom stylesheet (issue 32): one column of `blogs`, '' for none.

use rusqlite::{Connection, OptionalExtension, params};

use crate::error::Error;

/// The blog's custom CSS ('' for none), `None` when there is no such blog.
pub fn get(conn: &Connection, blog_id: i64) -> Result<Option<String>, Error> {
    Ok(conn
        .prepare_cached("SELECT custom_css FROM blogs WHERE id = ?1")?
        .query_row([blog_id], |r| r.get(0))
        .optional()?)
}

/// Stores the blog's custom CSS ('' clears it), and marks its settings changed.
pub fn set(conn: &Connection, blog_id: i64, css: &str) -> Result<(), Error> {
    conn.execute(
        "UPDATE blogs SET custom_css = ?2, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?1",
        params![blog_id, css],
    )?;
    Ok(())
}

/// Whether `user_id` uploaded the image file with this hash.
pub fn owns_image(conn: &Connection, user_id: i64, hash: &str) -> Result<bool, Error> {
    Ok(conn
        .prepare_cached("SELECT EXISTS (SELECT 1 FROM images WHERE user_id = ?1 AND hash = ?2)")?
        .query_row(params![user_id, hash], |r| r.get(0))?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::test_support::*;

    #[test]
    fn a_blog_starts_without_custom_css_and_keeps_what_is_stored() {
        let conn = with_blogs(&["alice"]);
        assert_eq!(get(&conn, 1).unwrap().as_deref(), Some(""));
        set(&conn, 1, "a { color: red }\n").unwrap();
        assert_eq!(get(&conn, 1).unwrap().as_deref(), Some("a { color: red }\n"));
        assert_eq!(get(&conn, 100).unwrap(), None);
        let hash = "ab".repeat(32);
        assert!(!owns_image(&conn, 1, &hash).unwrap());
        conn.execute("INSERT INTO images (user_id, hash, mime, size) VALUES (1, ?1, 'image/png', 3)", [&hash]).unwrap();
        assert!(owns_image(&conn, 1, &hash).unwrap());
    }
}
