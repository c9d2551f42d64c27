//! The trash (issue 32, docs/revisions.md): a deleted post comes back with its content, state
//! and revisions through the write path (indexed, its blog's pages invalidated), public again
//! at its address when it was published, but never federated, mailed or announced again; or is
//! purged now; the sweep removes what is older than 30 days.

use serde_json::Value;

use super::Blogs;
use super::revisions::address_refusal_on_slug;
use crate::db::blogs::Blog;
use crate::db::posts::{self, Post};
use crate::db::trash;
use crate::domain::content::blocks::Body;
use crate::domain::limits::{self, MAX_POSTS_PER_BLOG};
use crate::error::{Error, Result};

impl Blogs {
    /// Brings the trash entry `trash_id` back as a post of the blog, as it was when deleted.
    pub async fn restore_from_trash(&self, blog: &Blog, trash_id: i64) -> Result<Post> {
        let (blog_id, subdomain, rules) = (blog.id, blog.subdomain.clone(), self.rules.clone());
        self.commit(move |conn, effects| {
            if posts::count(conn, blog_id)? >= MAX_POSTS_PER_BLOG {
                return Err(Error::invalid("blog", limits::too_many_posts()));
            }
            let parse = |kept: &trash::Trashed| {
                let value: Value =
                    serde_json::from_str(&kept.post.version.body).map_err(|err| Error::Internal(err.into()))?;
                Body::parse(&value, &rules).map_err(Error::Invalid)
            };
            let (post, seq, body) = trash::restore(conn, blog_id, trash_id, parse)
                .map_err(address_refusal_on_slug)?
                .ok_or_else(trash_not_found)?;
            effects.index_post(seq, &post, &body);
            effects.invalidate(&subdomain);
            effects.schedule_moved();
            Ok(post)
        })
        .await
    }

    /// Removes the trash entry `trash_id` for good.
    pub async fn purge_from_trash(&self, blog: &Blog, trash_id: i64) -> Result<()> {
        let blog_id = blog.id;
        self.commit(move |conn, _| if trash::purge(conn, blog_id, trash_id)? { Ok(()) } else { Err(trash_not_found()) })
            .await
    }

    /// Removes every trash entry past its 30 days (the job runner's periodic sweep); answers how
    /// many.
    pub async fn sweep_trash(&self) -> Result<usize> {
        self.db.write(|conn| trash::delete_expired(conn)).await
    }
}

/// The answer for a trash entry that is not in the blog's trash.
pub fn trash_not_found() -> Error {
    Error::not_found("trash", "Not in the trash")
}
