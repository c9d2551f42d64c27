//! Preview links: the owner gives a draft or scheduled post a secret link for someone to read
//! it before it is public. A post has at most one; a new one replaces it, revoking removes it.
//! They change no public page, so no cache is dropped; they are here because they are writes
//! of a blog's posts, and the post must be checked in the same place as every other write.

use crate::auth::token_hash;
use crate::db::blogs::Blog;
use crate::db::{posts, preview_links};
use crate::domain::blog::preview_token::new_token;
use crate::error::{Error, Result};

use super::{Blogs, post_not_found};

/// A link just created: its token, shown once (only its hash is kept), and when.
#[derive(Debug, Clone)]
pub struct PreviewLink {
    /// The secret part of the URL.
    pub token: String,
    /// Creation time.
    pub created_at: String,
}

impl Blogs {
    /// Gives the unpublished post `short_id` a new preview link, replacing its old one.
    pub async fn create_preview_link(&self, blog: &Blog, short_id: &str) -> Result<PreviewLink> {
        let (blog_id, short_id) = (blog.id, short_id.to_owned());
        let token = new_token();
        let hash = token_hash(&token);
        let created_at = self
            .db
            .write(move |conn| {
                let post = posts::get(conn, blog_id, &short_id)?.ok_or_else(post_not_found)?;
                if post.published_at.is_some() {
                    return Err(Error::invalid("previewLink", "The post is published: share its permalink instead"));
                }
                preview_links::replace(conn, post.id, &hash)
            })
            .await?;
        Ok(PreviewLink { token, created_at })
    }

    /// Revokes the preview link of the post `short_id`, if it has one.
    pub async fn revoke_preview_link(&self, blog: &Blog, short_id: &str) -> Result<()> {
        let (blog_id, short_id) = (blog.id, short_id.to_owned());
        self.db
            .write(move |conn| {
                let post = posts::get(conn, blog_id, &short_id)?.ok_or_else(post_not_found)?;
                preview_links::revoke(conn, post.id)?;
                Ok(())
            })
            .await
    }
}
