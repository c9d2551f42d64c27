//! Restoring a revision (issue 32, docs/revisions.md): its words go back through the one update
//! path (`Blogs::update_post`), so the version it replaces becomes a revision of kind `restore`
//! and the restore's effects are any update's; the post's state stays what it is now.

use serde_json::Value;

use super::Blogs;
use super::posts::{PostInput, post_not_found};
use crate::db::blogs::Blog;
use crate::db::posts::{self, Post, Updated};
use crate::db::revisions;
use crate::domain::content::visibility::Visibility;
use crate::domain::messages::Messages;
use crate::error::{Error, Result};

impl Blogs {
    /// Puts the words (title, blocks, tags, slug) of the revision `revision_id` of the post
    /// `short_id` back; its state (draft, published, schedule, visibility, page) stays.
    pub async fn restore_revision(&self, blog: &Blog, short_id: &str, revision_id: i64) -> Result<Post> {
        let (blog_id, sid) = (blog.id, short_id.to_owned());
        let (post, revision) = self
            .db
            .read(move |conn| {
                let post = posts::get(conn, blog_id, &sid)?.ok_or_else(post_not_found)?;
                let revision = revisions::get(conn, post.id, revision_id)?.ok_or_else(revision_not_found)?;
                Ok((post, revision))
            })
            .await?;
        let body: Value = serde_json::from_str(&revision.version.body).map_err(|err| Error::Internal(err.into()))?;
        let unpublished = post.published_at.is_none();
        let state = (
            unpublished && post.scheduled_at.is_none(),
            post.scheduled_at.clone().filter(|_| unpublished),
            post.page_position.is_some(),
            Visibility::of(post.unlisted).as_str(),
        );
        let input = PostInput::restoring(body, revision.version.tags, state);
        // Unconditional: nothing is lost (the version it replaces becomes a revision), and an
        // editor still open on that version is refused its next save (docs/edit-conflicts.md).
        match self.update_post(blog, short_id, &input, None).await.map_err(address_refusal_on_slug)? {
            Updated::Saved(post, _) => Ok(post),
            Updated::Stale(_) => Err(Error::Internal(anyhow::anyhow!("an unconditional update was refused as stale"))),
        }
    }
}

/// A page's address refused (taken by another page, or reserved) is a refusal of the restored
/// slug.
pub(super) fn address_refusal_on_slug(err: Error) -> Error {
    match err {
        Error::Invalid(Messages(messages)) => Error::Invalid(Messages(
            messages
                .into_iter()
                .map(|(field, m)| (if field == "page" { "slug".to_owned() } else { field }, m))
                .collect(),
        )),
        other => other,
    }
}

/// The answer for a revision that is not one of the post's.
pub fn revision_not_found() -> Error {
    Error::not_found("revision", "Revision not found")
}
