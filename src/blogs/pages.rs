//! The order of a blog's pages in its navigation.

use super::Blogs;
use crate::db::blogs::Blog;
use crate::db::pages::{self, PageEntry};
use crate::error::Result;

impl Blogs {
    /// Puts the blog's pages in the order of `short_ids` (each of its pages once).
    pub async fn reorder_pages(&self, blog: &Blog, short_ids: Vec<String>) -> Result<Vec<PageEntry>> {
        let blog_id = blog.id;
        let pages = self.db.write(move |conn| pages::reorder(conn, blog_id, &short_ids)).await?;
        self.pages.invalidate(&blog.subdomain);
        Ok(pages)
    }
}
