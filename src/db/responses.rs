//! Comments and webmentions (issue 31, docs/responses.md): stored held for the owner (or as
//! spam), approved into the post's page; the blog's comment settings, its trusted commenters and
//! blocked addresses; what the comment form's limits count.

use rusqlite::{Connection, OptionalExtension, params};

use crate::error::Error;

const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/// Who may comment on a blog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommentsMode {
    /// No comment form (the default).
    Off,
    /// Every comment waits for the owner.
    Held,
    /// Held, but for commenters the owner approved before.
    Trusted,
}

impl CommentsMode {
    /// The stored and API name.
    pub fn as_str(self) -> &'static str {
        match self {
            CommentsMode::Off => "off",
            CommentsMode::Held => "held",
            CommentsMode::Trusted => "trusted",
        }
    }

    /// The mode named `raw`.
    pub fn parse(raw: &str) -> Option<CommentsMode> {
        [CommentsMode::Off, CommentsMode::Held, CommentsMode::Trusted].into_iter().find(|m| m.as_str() == raw)
    }
}

/// Where a response stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResponseState {
    /// Waiting for the owner.
    Held,
    /// Shown under its post.
    Approved,
    /// Kept out of sight (the owner's call, or a blocked word or address).
    Spam,
}

impl ResponseState {
    /// The stored and API name.
    pub fn as_str(self) -> &'static str {
        match self {
            ResponseState::Held => "held",
            ResponseState::Approved => "approved",
            ResponseState::Spam => "spam",
        }
    }

    /// The state named `raw`.
    pub fn parse(raw: &str) -> Option<ResponseState> {
        [ResponseState::Held, ResponseState::Approved, ResponseState::Spam].into_iter().find(|s| s.as_str() == raw)
    }
}

/// A blog's comment settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommentSettings {
    /// Who may comment.
    pub mode: CommentsMode,
    /// Words that send a comment to Spam, lowercase.
    pub blocked_words: Vec<String>,
}

/// The blog's comment settings.
pub fn settings(conn: &Connection, blog_id: i64) -> Result<CommentSettings, Error> {
    let (mode, words): (String, String) = conn
        .prepare_cached("SELECT comments_mode, blocked_words FROM blogs WHERE id = ?1")?
        .query_row([blog_id], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(CommentSettings {
        mode: CommentsMode::parse(&mode).unwrap_or(CommentsMode::Off),
        blocked_words: serde_json::from_str(&words).unwrap_or_default(),
    })
}

/// Sets who may comment on the blog.
pub fn set_mode(conn: &Connection, blog_id: i64, mode: CommentsMode) -> Result<(), Error> {
    conn.execute("UPDATE blogs SET comments_mode = ?2 WHERE id = ?1", params![blog_id, mode.as_str()])?;
    Ok(())
}

/// Sets the blog's blocked words (lowercase, as given).
pub fn set_blocked_words(conn: &Connection, blog_id: i64, words: &[String]) -> Result<(), Error> {
    let words = serde_json::to_string(words).map_err(|err| Error::Internal(err.into()))?;
    conn.execute("UPDATE blogs SET blocked_words = ?2 WHERE id = ?1", params![blog_id, words])?;
    Ok(())
}

/// Whether the post's comments are closed.
pub fn post_closed(conn: &Connection, post_id: i64) -> Result<bool, Error> {
    Ok(conn
        .prepare_cached("SELECT comments_closed FROM posts WHERE id = ?1")?
        .query_row([post_id], |r| r.get(0))
        .optional()?
        .unwrap_or(true))
}

/// Opens or closes the post's comments.
pub fn set_post_closed(conn: &Connection, post_id: i64, closed: bool) -> Result<(), Error> {
    conn.execute("UPDATE posts SET comments_closed = ?2 WHERE id = ?1", params![post_id, closed])?;
    Ok(())
}

/// A comment to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewComment<'a> {
    /// The blog.
    pub blog_id: i64,
    /// The post it answers.
    pub post_id: i64,
    /// Where it goes first.
    pub state: ResponseState,
    /// The commenter's name.
    pub name: &'a str,
    /// Their website, or ''.
    pub website: &'a str,
    /// The Markdown text.
    pub text: &'a str,
    /// The SHA-256 of the text, for the duplicate check.
    pub text_hash: &'a [u8],
    /// The commenter's address key.
    pub client_key: &'a str,
    /// The id of the commenter's cookie.
    pub commenter: &'a str,
    /// The SHA-256 of the secret edit link's token.
    pub edit_hash: &'a [u8],
}

/// Stores a comment; answers its id.
pub fn insert_comment(conn: &Connection, comment: &NewComment<'_>) -> Result<i64, Error> {
    conn.execute(
        "INSERT INTO responses (blog_id, post_id, kind, state, author_name, author_url, text, text_hash,
                                client_key, commenter, edit_hash)
         VALUES (?1, ?2, 'comment', ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        params![
            comment.blog_id,
            comment.post_id,
            comment.state.as_str(),
            comment.name,
            comment.website,
            comment.text,
            comment.text_hash,
            comment.client_key,
            comment.commenter,
            comment.edit_hash,
        ],
    )?;
    Ok(conn.last_insert_rowid())
}

/// What the comment form's limits count, over the last 24 hours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommentCounts {
    /// Comments from the client address, on any blog.
    pub from_client: u32,
    /// Comments on the blog, from anyone.
    pub on_blog: u32,
}

/// The counts the form's limits read.
pub fn counts_today(conn: &Connection, blog_id: i64, client_key: &str) -> Result<CommentCounts, Error> {
    let day = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day')";
    let from_client: u32 = conn
        .prepare_cached(&format!(
            "SELECT count(*) FROM responses WHERE kind = 'comment' AND client_key = ?1 AND created_at > {day}"
        ))?
        .query_row([client_key], |r| r.get(0))?;
    let on_blog: u32 = conn
        .prepare_cached(&format!(
            "SELECT count(*) FROM responses WHERE blog_id = ?1 AND kind = 'comment' AND created_at > {day}"
        ))?
        .query_row([blog_id], |r| r.get(0))?;
    Ok(CommentCounts { from_client, on_blog })
}

/// Whether the post has a comment with this text already.
pub fn is_duplicate(conn: &Connection, post_id: i64, text_hash: &[u8]) -> Result<bool, Error> {
    Ok(conn
        .prepare_cached("SELECT 1 FROM responses WHERE post_id = ?1 AND kind = 'comment' AND text_hash = ?2")?
        .exists(params![post_id, text_hash])?)
}

/// Whether the blog blocked comments from `client_key`.
pub fn is_blocked(conn: &Connection, blog_id: i64, client_key: &str) -> Result<bool, Error> {
    Ok(conn
        .prepare_cached("SELECT 1 FROM blocked_commenters WHERE blog_id = ?1 AND client_key = ?2")?
        .exists(params![blog_id, client_key])?)
}

/// Whether the owner approved a comment of `commenter` before.
pub fn is_trusted(conn: &Connection, blog_id: i64, commenter: &str) -> Result<bool, Error> {
    Ok(!commenter.is_empty()
        && conn
            .prepare_cached("SELECT 1 FROM trusted_commenters WHERE blog_id = ?1 AND commenter = ?2")?
            .exists(params![blog_id, commenter])?)
}

/// A comment or webmention as the queue and the post's page show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// Row id.
    pub id: i64,
    /// The post it answers (row id).
    pub post_id: i64,
    /// `comment` or `webmention`.
    pub kind: String,
    /// Where it stands.
    pub state: ResponseState,
    /// Its author's name.
    pub author_name: String,
    /// Its author's website, or ''.
    pub author_url: String,
    /// A webmention's source page.
    pub source_url: Option<String>,
    /// A webmention's title ('' for none).
    pub title: String,
    /// A comment's Markdown, a webmention's excerpt.
    pub text: String,
    /// The owner's reply ('' for none).
    pub owner_reply: String,
    /// When it came.
    pub created_at: String,
}

const COLUMNS: &str =
    "id, post_id, kind, state, author_name, author_url, source_url, title, text, owner_reply, created_at";

fn response(r: &rusqlite::Row<'_>) -> rusqlite::Result<Response> {
    let state: String = r.get(3)?;
    Ok(Response {
        id: r.get(0)?,
        post_id: r.get(1)?,
        kind: r.get(2)?,
        state: ResponseState::parse(&state).unwrap_or(ResponseState::Held),
        author_name: r.get(4)?,
        author_url: r.get(5)?,
        source_url: r.get(6)?,
        title: r.get(7)?,
        text: r.get(8)?,
        owner_reply: r.get(9)?,
        created_at: r.get(10)?,
    })
}

/// The blog's response `id`.
pub fn get(conn: &Connection, blog_id: i64, id: i64) -> Result<Option<Response>, Error> {
    Ok(conn
        .prepare_cached(&format!("SELECT {COLUMNS} FROM responses WHERE blog_id = ?1 AND id = ?2"))?
        .query_row(params![blog_id, id], response)
        .optional()?)
}

/// The post's approved responses, oldest first.
pub fn approved_for_post(conn: &Connection, post_id: i64) -> Result<Vec<Response>, Error> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM responses WHERE post_id = ?1 AND state = 'approved' ORDER BY id"
    ))?;
    let rows = stmt.query_map([post_id], response)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// How many of the blog's responses are in `state`.
pub fn count_in(conn: &Connection, blog_id: i64, state: ResponseState) -> Result<u64, Error> {
    let count: i64 = conn
        .prepare_cached("SELECT count(*) FROM responses WHERE blog_id = ?1 AND state = ?2")?
        .query_row(params![blog_id, state.as_str()], |r| r.get(0))?;
    Ok(count.max(0) as u64)
}

/// One page of the blog's responses in `state`, newest first.
pub fn list(
    conn: &Connection,
    blog_id: i64,
    state: ResponseState,
    offset: u64,
    limit: u32,
) -> Result<Vec<Response>, Error> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM responses WHERE blog_id = ?1 AND state = ?2 ORDER BY id DESC LIMIT ?3 OFFSET ?4"
    ))?;
    let offset = i64::try_from(offset).unwrap_or(i64::MAX);
    let rows = stmt.query_map(params![blog_id, state.as_str(), limit, offset], response)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Moves the blog's response `id` to `state`; approving a comment trusts its commenter. False
/// when the blog has no such response.
pub fn set_state(conn: &Connection, blog_id: i64, id: i64, state: ResponseState) -> Result<bool, Error> {
    let changed = conn.execute(
        &format!("UPDATE responses SET state = ?3, updated_at = {NOW} WHERE blog_id = ?1 AND id = ?2"),
        params![blog_id, id, state.as_str()],
    )?;
    if changed > 0 && state == ResponseState::Approved {
        conn.execute(
            "INSERT OR IGNORE INTO trusted_commenters (blog_id, commenter)
             SELECT blog_id, commenter FROM responses WHERE id = ?1 AND kind = 'comment' AND commenter <> ''",
            [id],
        )?;
    }
    Ok(changed > 0)
}

/// Sets the owner's reply to the blog's comment `id` ('' removes it); false when the blog has
/// no such comment.
pub fn set_owner_reply(conn: &Connection, blog_id: i64, id: i64, reply: &str) -> Result<bool, Error> {
    Ok(conn.execute(
        &format!(
            "UPDATE responses SET owner_reply = ?3, updated_at = {NOW} WHERE blog_id = ?1 AND id = ?2 AND kind = 'comment'"
        ),
        params![blog_id, id, reply],
    )? > 0)
}

/// Blocks the address the blog's comment `id` came from (its later comments go to Spam) and
/// puts the comment in Spam; false when the blog has no such comment.
pub fn block_sender(conn: &Connection, blog_id: i64, id: i64) -> Result<bool, Error> {
    conn.execute(
        "INSERT OR IGNORE INTO blocked_commenters (blog_id, client_key)
         SELECT blog_id, client_key FROM responses
         WHERE blog_id = ?1 AND id = ?2 AND kind = 'comment' AND client_key NOT IN ('', 'unknown')",
        params![blog_id, id],
    )?;
    Ok(conn.execute(
        &format!("UPDATE responses SET state = 'spam', updated_at = {NOW} WHERE blog_id = ?1 AND id = ?2 AND kind = 'comment'"),
        params![blog_id, id],
    )? > 0)
}

/// The count of each of the posts' (row ids) comments and webmentions, held or approved.
pub fn counts_of(conn: &Connection, post_ids: &[i64]) -> Result<std::collections::HashMap<i64, i64>, Error> {
    let ids = serde_json::to_string(post_ids).map_err(|err| Error::Internal(err.into()))?;
    let mut stmt = conn.prepare_cached(
        "SELECT post_id, count(*) FROM responses
         WHERE post_id IN (SELECT value FROM json_each(?1)) AND state <> 'spam' GROUP BY post_id",
    )?;
    let rows = stmt.query_map([ids], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// How long a commenter's secret link may change or delete their comment.
pub const EDIT_MINUTES: u32 = 15;

/// The blog's comment whose secret link's token hashes to `edit_hash`, if it was sent less than
/// [`EDIT_MINUTES`] ago.
pub fn by_edit_hash(conn: &Connection, blog_id: i64, edit_hash: &[u8]) -> Result<Option<Response>, Error> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM responses WHERE blog_id = ?1 AND edit_hash = ?2 AND kind = 'comment'
                   AND created_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-{EDIT_MINUTES} minutes')"
        ))?
        .query_row(params![blog_id, edit_hash], response)
        .optional()?)
}

/// Changes the words of the blog's comment `id`, back to `state`.
pub fn update_comment(conn: &Connection, blog_id: i64, id: i64, comment: &NewComment<'_>) -> Result<bool, Error> {
    Ok(conn.execute(
        &format!(
            "UPDATE responses SET author_name = ?3, author_url = ?4, text = ?5, text_hash = ?6, state = ?7,
                    updated_at = {NOW}
             WHERE blog_id = ?1 AND id = ?2 AND kind = 'comment'"
        ),
        params![blog_id, id, comment.name, comment.website, comment.text, comment.text_hash, comment.state.as_str()],
    )? > 0)
}

/// Deletes the blog's response `id`; false when there is none.
pub fn delete(conn: &Connection, blog_id: i64, id: i64) -> Result<bool, Error> {
    Ok(conn.execute("DELETE FROM responses WHERE blog_id = ?1 AND id = ?2", params![blog_id, id])? > 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::test_support::with_blogs;

    fn comment(conn: &Connection, post_id: i64, client: &str, commenter: &str, text: &str) -> i64 {
        let edit: [u8; 4] = rand::random();
        insert_comment(
            conn,
            &NewComment {
                blog_id: 1,
                post_id,
                state: ResponseState::Held,
                name: "Ann",
                website: "",
                text,
                text_hash: text.as_bytes(),
                client_key: client,
                commenter,
                edit_hash: &edit,
            },
        )
        .unwrap()
    }

    #[test]
    fn a_comment_is_held_counted_approved_and_trusts_its_commenter() {
        let conn = with_blogs(&["alice", "bob"]);
        conn.execute(
            "INSERT INTO posts (blog_id, short_id, slug, title, body) VALUES (1, 'abcdefgh', 's', 't', '{}')",
            [],
        )
        .unwrap();
        let post = conn.last_insert_rowid();
        assert_eq!(settings(&conn, 1).unwrap(), CommentSettings { mode: CommentsMode::Off, blocked_words: vec![] });
        set_mode(&conn, 1, CommentsMode::Trusted).unwrap();
        set_blocked_words(&conn, 1, &["casino".to_owned()]).unwrap();
        assert_eq!(settings(&conn, 1).unwrap().blocked_words, ["casino"]);

        let id = comment(&conn, post, "10.0.0.1", "c1", "First!");
        comment(&conn, post, "10.0.0.1", "", "Second");
        assert_eq!(counts_today(&conn, 1, "10.0.0.1").unwrap(), CommentCounts { from_client: 2, on_blog: 2 });
        assert_eq!(counts_today(&conn, 2, "10.0.0.2").unwrap(), CommentCounts { from_client: 0, on_blog: 0 });
        assert!(is_duplicate(&conn, post, b"First!").unwrap());
        assert!(approved_for_post(&conn, post).unwrap().is_empty(), "held comments are not shown");
        assert_eq!(count_in(&conn, 1, ResponseState::Held).unwrap(), 2);

        assert!(!is_trusted(&conn, 1, "c1").unwrap());
        assert!(!set_state(&conn, 2, id, ResponseState::Approved).unwrap(), "another blog's comment");
        assert!(set_state(&conn, 1, id, ResponseState::Approved).unwrap());
        assert!(is_trusted(&conn, 1, "c1").unwrap() && !is_trusted(&conn, 2, "c1").unwrap());
        assert!(!is_trusted(&conn, 1, "").unwrap(), "no cookie, no trust");
        assert_eq!(approved_for_post(&conn, post).unwrap()[0].text, "First!");
        assert_eq!(list(&conn, 1, ResponseState::Held, 0, 10).unwrap()[0].text, "Second");
        assert!(delete(&conn, 1, id).unwrap() && !delete(&conn, 1, id).unwrap());
    }
}
