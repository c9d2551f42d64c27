//! The owner's one queue of responses (issue 31, docs/responses.md): fediverse replies
//! (`replies`), comments and webmentions (`responses`) together, held, approved or in spam,
//! newest first, each with the post it answers.

use rusqlite::{Connection, params};

use crate::db::replies;
use crate::db::responses::{self, Response, ResponseState};
use crate::error::Error;

/// One entry of the queue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// `reply` (from the fediverse), `comment` or `webmention`.
    pub kind: String,
    /// Its row id, in `replies` for a reply, else in `responses`.
    pub id: i64,
    /// Where it stands.
    pub state: ResponseState,
    /// The short id of the post it answers.
    pub post_id: String,
    /// That post's title.
    pub post_title: String,
    /// Its author's name.
    pub author_name: String,
    /// A fediverse author's handle (`@bob@peer.example`).
    pub author_handle: Option<String>,
    /// Its author's website or profile, or ''.
    pub author_url: String,
    /// A webmention's source page, a reply's own page.
    pub source_url: Option<String>,
    /// A webmention's title ('' for none).
    pub title: String,
    /// A comment's Markdown; a reply's or webmention's plain text.
    pub text: String,
    /// The owner's reply under a comment ('' for none).
    pub owner_reply: String,
    /// When Quire received it.
    pub received_at: String,
}

impl Entry {
    /// A comment or webmention as the queue shows it, answering the post `(short id, title)`.
    pub fn of_response(response: Response, (post_id, post_title): (String, String)) -> Entry {
        Entry {
            kind: response.kind,
            id: response.id,
            state: response.state,
            post_id,
            post_title,
            author_name: response.author_name,
            author_handle: None,
            author_url: response.author_url,
            source_url: response.source_url,
            title: response.title,
            text: response.text,
            owner_reply: response.owner_reply,
            received_at: response.created_at,
        }
    }

    /// A fediverse reply as the queue shows it.
    pub fn of_reply((reply, post_id, post_title): (replies::Reply, String, String)) -> Entry {
        Entry {
            kind: "reply".to_owned(),
            id: reply.id,
            state: reply.state,
            post_id,
            post_title,
            author_name: reply.author_name,
            author_handle: Some(reply.author_handle),
            author_url: reply.author_url,
            source_url: reply.url,
            title: String::new(),
            text: reply.text,
            owner_reply: String::new(),
            received_at: reply.received_at,
        }
    }
}

/// How many entries of the blog's queue are in `state`.
pub fn count(conn: &Connection, blog_id: i64, state: ResponseState) -> Result<u64, Error> {
    Ok(responses::count_in(conn, blog_id, state)? + replies::count_in(conn, blog_id, state)?)
}

/// One page (`limit` after `offset`) of the blog's queue in `state`, newest first.
pub fn list(
    conn: &Connection,
    blog_id: i64,
    state: ResponseState,
    offset: u64,
    limit: u32,
) -> Result<Vec<Entry>, Error> {
    let mut stmt = conn.prepare_cached(
        "SELECT 'reply', r.id, r.state, p.short_id, p.title, r.author_name, r.author_handle, r.author_url, r.url, '',
                r.text, '', r.received_at
         FROM replies r JOIN posts p ON p.id = r.post_id WHERE p.blog_id = ?1 AND r.state = ?2
         UNION ALL
         SELECT s.kind, s.id, s.state, p.short_id, p.title, s.author_name, NULL, s.author_url, s.source_url, s.title,
                s.text, s.owner_reply, s.created_at
         FROM responses s JOIN posts p ON p.id = s.post_id WHERE s.blog_id = ?1 AND s.state = ?2
         ORDER BY 13 DESC, 2 DESC LIMIT ?3 OFFSET ?4",
    )?;
    let offset = i64::try_from(offset).unwrap_or(i64::MAX);
    let rows = stmt.query_map(params![blog_id, state.as_str(), limit, offset], |r| {
        let state: String = r.get(2)?;
        Ok(Entry {
            kind: r.get(0)?,
            id: r.get(1)?,
            state: ResponseState::parse(&state).unwrap_or(ResponseState::Held),
            post_id: r.get(3)?,
            post_title: r.get(4)?,
            author_name: r.get(5)?,
            author_handle: r.get(6)?,
            author_url: r.get(7)?,
            source_url: r.get(8)?,
            title: r.get(9)?,
            text: r.get(10)?,
            owner_reply: r.get(11)?,
            received_at: r.get(12)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
