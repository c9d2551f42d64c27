//! Comments on the write path (issue 31, docs/responses.md "Comments"): a reader's comment, its
//! limits (per client address and per blog a day), the duplicate check, the blog's blocked
//! addresses and words (to Spam, silently), and the trusted commenters whose comments show at
//! once; the owner's comment settings. A comment that shows at once takes the post's cached
//! page with it.

use super::Blogs;
use crate::auth::token_hash;
use crate::db::blogs::Blog;
use crate::db::posts::Post;
use crate::db::public::PublicBlog;
use crate::db::replies;
use crate::db::response_queue::{self, Entry};
use crate::db::responses::{self, CommentSettings, CommentsMode, NewComment, Response, ResponseState};
use crate::domain::blog::trust_state::TrustState;
use crate::domain::content::comment::Comment;
use crate::domain::paging::{Page, PageRequest};
use crate::error::{Error, Result};

/// What became of a comment, as the reader is told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Commented {
    /// Stored, waiting for the owner (or, unknown to the sender, put in Spam): "waits for
    /// approval"; with the token of the secret link that changes or deletes it for a while.
    Held {
        /// The secret link's token.
        edit: String,
    },
    /// Shown at once: the commenter is trusted.
    Shown {
        /// The secret link's token.
        edit: String,
    },
    /// The same text is on the post already: nothing stored, the same answer as held.
    Duplicate,
    /// The client address sent its allowance today.
    AddressLimit,
    /// The blog took its allowance today.
    BlogLimit,
    /// The blog takes no comments now (off, closed, not approved).
    Closed,
}

/// Whether `blog` takes comments on `post` now (approved, comments on, the post published, not
/// a page, not closed).
pub fn takes_comments(blog_state: TrustState, mode: CommentsMode, post: &Post, closed: bool) -> bool {
    blog_state == TrustState::Approved && mode != CommentsMode::Off && post.is_published_post() && !closed
}

/// The most words a blog may block, and the longest.
pub const MAX_BLOCKED_WORDS: usize = 200;
/// The longest blocked word, in characters.
pub const MAX_BLOCKED_WORD: usize = 100;

impl Blogs {
    /// Stores `comment` on `post` of `blog`, from `client_key` with the cookie id `commenter`,
    /// within the limits; answers what the reader is told.
    pub async fn comment(
        &self,
        blog: &PublicBlog,
        post: &Post,
        comment: Comment,
        client_key: String,
        commenter: String,
    ) -> Result<Commented> {
        let limits = self.public.comment_limits;
        let (blog_id, post_id, state, subdomain) = (blog.id, post.id, blog.state, blog.subdomain.clone());
        let post = post.clone();
        self.commit(move |conn, effects| {
            let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let settings = responses::settings(&tx, blog_id)?;
            if !takes_comments(state, settings.mode, &post, responses::post_closed(&tx, post_id)?) {
                return Ok(Commented::Closed);
            }
            let counts = responses::counts_today(&tx, blog_id, &client_key)?;
            if counts.from_client >= limits.per_address {
                return Ok(Commented::AddressLimit);
            }
            if counts.on_blog >= limits.per_blog {
                return Ok(Commented::BlogLimit);
            }
            let text_hash = token_hash(&comment.text);
            if responses::is_duplicate(&tx, post_id, &text_hash)? {
                return Ok(Commented::Duplicate);
            }
            let spam = responses::is_blocked(&tx, blog_id, &client_key)?
                || crate::domain::content::comment::mentions_blocked_word(&comment, &settings.blocked_words);
            let trusted = settings.mode == CommentsMode::Trusted && responses::is_trusted(&tx, blog_id, &commenter)?;
            let state = match (spam, trusted) {
                (true, _) => ResponseState::Spam,
                (false, true) => ResponseState::Approved,
                (false, false) => ResponseState::Held,
            };
            let edit = hex::encode(rand::random::<[u8; 16]>());
            responses::insert_comment(
                &tx,
                &NewComment {
                    blog_id,
                    post_id,
                    state,
                    name: &comment.name,
                    website: &comment.website,
                    text: &comment.text,
                    text_hash: &text_hash,
                    client_key: &client_key,
                    commenter: &commenter,
                    edit_hash: &token_hash(&edit),
                },
            )?;
            tx.commit()?;
            Ok(match state {
                ResponseState::Approved => {
                    effects.invalidate(&subdomain);
                    Commented::Shown { edit }
                }
                _ => Commented::Held { edit },
            })
        })
        .await
    }

    /// One page of the blog's comments and webmentions in `state`, newest first, each with its
    /// post's short id and title; a page past the end is a 400 on `page`.
    pub async fn responses(
        &self,
        blog: &Blog,
        state: ResponseState,
        request: PageRequest,
    ) -> Result<(Page, Vec<Entry>)> {
        let id = blog.id;
        self.db
            .read(move |conn| {
                let page = request.within(response_queue::count(conn, id, state)?).map_err(Error::BadRequest)?;
                Ok((page, response_queue::list(conn, id, state, request.offset(), request.page_size)?))
            })
            .await
    }

    /// Moves the blog's response `response_id` to `state` (approving a comment trusts its
    /// commenter); the post's page changes when it shows or stops showing.
    pub async fn move_response(&self, blog: &Blog, response_id: i64, state: ResponseState) -> Result<Entry> {
        let (id, subdomain) = (blog.id, blog.subdomain.clone());
        self.commit(move |conn, effects| {
            let tx = conn.transaction()?;
            let before = responses::get(&tx, id, response_id)?.ok_or_else(response_not_found)?;
            responses::set_state(&tx, id, response_id, state)?;
            let after = responses::get(&tx, id, response_id)?.ok_or_else(response_not_found)?;
            let found = entry_of(&tx, id, after)?;
            tx.commit()?;
            if (before.state == ResponseState::Approved) != (state == ResponseState::Approved) {
                effects.invalidate(&subdomain);
            }
            Ok(found)
        })
        .await
    }

    /// Sets the owner's reply under the blog's comment `response_id` (Markdown, through the one
    /// renderer; '' removes it). A webmention takes no reply (404).
    pub async fn reply_to_response(&self, blog: &Blog, response_id: i64, text: &str) -> Result<Entry> {
        let reply = owner_reply_of(text)?;
        let (id, subdomain) = (blog.id, blog.subdomain.clone());
        self.commit(move |conn, effects| {
            let tx = conn.transaction()?;
            if !responses::set_owner_reply(&tx, id, response_id, &reply)? {
                return Err(response_not_found());
            }
            let after = responses::get(&tx, id, response_id)?.ok_or_else(response_not_found)?;
            let shown = after.state == ResponseState::Approved;
            let found = entry_of(&tx, id, after)?;
            tx.commit()?;
            if shown {
                effects.invalidate(&subdomain);
            }
            Ok(found)
        })
        .await
    }

    /// Puts the blog's comment `response_id` in Spam and blocks the address it came from: the
    /// address's later comments go to Spam too.
    pub async fn block_response_sender(&self, blog: &Blog, response_id: i64) -> Result<Entry> {
        let (id, subdomain) = (blog.id, blog.subdomain.clone());
        self.commit(move |conn, effects| {
            let tx = conn.transaction()?;
            let before = responses::get(&tx, id, response_id)?.ok_or_else(response_not_found)?;
            if !responses::block_sender(&tx, id, response_id)? {
                return Err(response_not_found());
            }
            let after = responses::get(&tx, id, response_id)?.ok_or_else(response_not_found)?;
            let found = entry_of(&tx, id, after)?;
            tx.commit()?;
            if before.state == ResponseState::Approved {
                effects.invalidate(&subdomain);
            }
            Ok(found)
        })
        .await
    }

    /// Approves, marks as spam (`Some(state)`) or deletes (`None`) each of the blog's comments
    /// and webmentions `ids` and fediverse replies `reply_ids`, in one transaction; ids the blog
    /// does not have are skipped. Answers how many changed.
    pub async fn act_on_responses(
        &self,
        blog: &Blog,
        ids: Vec<i64>,
        reply_ids: Vec<i64>,
        to: Option<ResponseState>,
    ) -> Result<usize> {
        if ids.len() + reply_ids.len() > MAX_BULK {
            return Err(Error::invalid("ids", format!("At most {MAX_BULK} responses at once")));
        }
        let (id, subdomain) = (blog.id, blog.subdomain.clone());
        self.commit(move |conn, effects| {
            let tx = conn.transaction()?;
            let mut changed = 0;
            for response_id in ids {
                changed += usize::from(match to {
                    Some(state) => responses::set_state(&tx, id, response_id, state)?,
                    None => responses::delete(&tx, id, response_id)?,
                });
            }
            for reply_id in reply_ids {
                changed += usize::from(match to {
                    Some(state) => replies::set_state(&tx, id, reply_id, state)?.is_some(),
                    None => replies::delete(&tx, id, reply_id)?.is_some(),
                });
            }
            tx.commit()?;
            if changed > 0 {
                effects.invalidate(&subdomain);
            }
            Ok(changed)
        })
        .await
    }

    /// Deletes the blog's response `response_id`.
    pub async fn delete_response(&self, blog: &Blog, response_id: i64) -> Result<()> {
        let (id, subdomain) = (blog.id, blog.subdomain.clone());
        self.commit(move |conn, effects| {
            let tx = conn.transaction()?;
            let before = responses::get(&tx, id, response_id)?.ok_or_else(response_not_found)?;
            responses::delete(&tx, id, response_id)?;
            tx.commit()?;
            if before.state == ResponseState::Approved {
                effects.invalidate(&subdomain);
            }
            Ok(())
        })
        .await
    }

    /// The blog's comment whose secret link carries `edit`, while the link still works.
    pub async fn comment_by_edit_link(&self, blog_id: i64, edit: &str) -> Result<Option<Response>> {
        let hash = token_hash(edit);
        self.db.read(move |conn| responses::by_edit_hash(conn, blog_id, &hash)).await
    }

    /// Changes (`Some`) or deletes (`None`) the blog's comment whose secret link carries `edit`,
    /// while the link works; false when it no longer does. A changed comment waits for the owner
    /// again (in Spam it stays, and a trusted commenter's shows at once, as a new one would).
    pub async fn edit_comment(
        &self,
        blog: &PublicBlog,
        edit: &str,
        change: Option<Comment>,
        commenter: String,
    ) -> Result<bool> {
        let hash = token_hash(edit);
        let (blog_id, subdomain) = (blog.id, blog.subdomain.clone());
        self.commit(move |conn, effects| {
            let tx = conn.transaction()?;
            let Some(before) = responses::by_edit_hash(&tx, blog_id, &hash)? else { return Ok(false) };
            let shown_after = match change {
                None => {
                    responses::delete(&tx, blog_id, before.id)?;
                    false
                }
                Some(comment) => {
                    let settings = responses::settings(&tx, blog_id)?;
                    let trusted =
                        settings.mode == CommentsMode::Trusted && responses::is_trusted(&tx, blog_id, &commenter)?;
                    let spam = before.state == ResponseState::Spam
                        || crate::domain::content::comment::mentions_blocked_word(&comment, &settings.blocked_words);
                    let state = match (spam, trusted) {
                        (true, _) => ResponseState::Spam,
                        (false, true) => ResponseState::Approved,
                        (false, false) => ResponseState::Held,
                    };
                    let text_hash = token_hash(&comment.text);
                    let changed = NewComment {
                        blog_id,
                        post_id: before.post_id,
                        state,
                        name: &comment.name,
                        website: &comment.website,
                        text: &comment.text,
                        text_hash: &text_hash,
                        client_key: "",
                        commenter: "",
                        edit_hash: &[],
                    };
                    responses::update_comment(&tx, blog_id, before.id, &changed)?;
                    state == ResponseState::Approved
                }
            };
            tx.commit()?;
            if before.state == ResponseState::Approved || shown_after {
                effects.invalidate(&subdomain);
            }
            Ok(true)
        })
        .await
    }

    /// Closes (or opens again) the comments of the blog's post `short_id`; answers whether they
    /// are closed. The post's page drops or shows its form at once.
    pub async fn close_comments(&self, blog: &Blog, short_id: &str, closed: bool) -> Result<bool> {
        let (id, subdomain, short_id) = (blog.id, blog.subdomain.clone(), short_id.to_owned());
        self.commit(move |conn, effects| {
            let post = crate::db::posts::get(conn, id, &short_id)?.ok_or_else(super::post_not_found)?;
            responses::set_post_closed(conn, post.id, closed)?;
            effects.invalidate(&subdomain);
            Ok(closed)
        })
        .await
    }

    /// The blog's comment settings.
    pub async fn comment_settings(&self, blog_id: i64) -> Result<CommentSettings> {
        self.db.read(move |conn| responses::settings(conn, blog_id)).await
    }

    /// Sets who may comment on the blog and its blocked words (None leaves them); the form
    /// comes or goes on its pages.
    pub async fn set_comment_settings(
        &self,
        blog_id: i64,
        subdomain: &str,
        mode: Option<CommentsMode>,
        blocked_words: Option<Vec<String>>,
    ) -> Result<CommentSettings> {
        let words = blocked_words.map(|words| blocked_words_of(&words)).transpose()?;
        let subdomain = subdomain.to_owned();
        self.commit(move |conn, effects| {
            let tx = conn.transaction()?;
            if let Some(mode) = mode {
                responses::set_mode(&tx, blog_id, mode)?;
            }
            if let Some(words) = &words {
                responses::set_blocked_words(&tx, blog_id, words)?;
            }
            let settings = responses::settings(&tx, blog_id)?;
            tx.commit()?;
            effects.invalidate(&subdomain);
            Ok(settings)
        })
        .await
    }
}

/// A response id the blog does not have.
pub fn response_not_found() -> Error {
    Error::not_found("response", "Response not found")
}

/// Each of `found` with its post's short id and title (a response outlives no post: they go
/// together).
fn entry_of(conn: &rusqlite::Connection, blog_id: i64, response: Response) -> Result<Entry> {
    let post = crate::db::posts::by_ids(conn, blog_id, &[response.post_id])?.pop().ok_or_else(response_not_found)?;
    Ok(Entry::of_response(response, (post.short_id, post.title)))
}

/// Responses one bulk action takes at most.
pub const MAX_BULK: usize = 500;

/// The owner's reply, trimmed; past [`crate::domain::content::comment::MAX_TEXT`] characters a
/// 422 on `text`.
fn owner_reply_of(text: &str) -> Result<String> {
    let text = text.trim().replace("\r\n", "\n");
    let max = crate::domain::content::comment::MAX_TEXT;
    if text.chars().count() > max {
        return Err(Error::invalid("text", format!("A reply is at most {max} characters")));
    }
    Ok(text)
}

/// The owner's blocked words, trimmed, lowercased, without blanks and repeats; too many or too
/// long is a 422 on `blockedWords`.
fn blocked_words_of(words: &[String]) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for word in words {
        let word = word.trim().to_lowercase();
        if word.chars().count() > MAX_BLOCKED_WORD {
            return Err(Error::invalid(
                "blockedWords",
                format!("A blocked word is at most {MAX_BLOCKED_WORD} characters"),
            ));
        }
        if !word.is_empty() && !out.contains(&word) {
            out.push(word);
        }
    }
    if out.len() > MAX_BLOCKED_WORDS {
        return Err(Error::invalid("blockedWords", format!("A blog may block at most {MAX_BLOCKED_WORDS} words")));
    }
    Ok(out)
}
