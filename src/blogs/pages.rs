//! The order of a blog's pages in its navigation.

use super::Blogs;
use crate::db::blogs::Blog;
use crate::db::pages::{self, PageEntry};
use crate::error::Result;

impl Blogs {
    /// Puts the blog's pages in the order of `short_ids` (each of its pages once).
    pub async fn reorder_pages(&self, blog: &Blog, short_ids: Vec<String>) -> Result<Vec<PageEntry>> {
        let (blog_id, subdomain) = (blog.id, blog.subdomain.clone());
        self.commit(move |conn, effects| {
            let pages = pages::reorder(conn, blog_id, &short_ids)?;
            effects.invalidate(&subdomain);
            Ok(pages)
        })
        .await
    }
}
