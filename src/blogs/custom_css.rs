//! A blog's custom stylesheet (issue 32): checked (`domain::content::custom_css`, then that every
//! image it names is one its owner uploaded here), stored as written, and the blog's pages
//! invalidated, so every page links the new `/custom-{hash}.css` at once.

use super::Blogs;
use crate::db::blogs::Blog;
use crate::db::custom_css as db_css;
use crate::domain::content::custom_css::CustomCss;
use crate::domain::paths;
use crate::error::{Error, Result};

impl Blogs {
    /// The blog's custom CSS ('' for none).
    pub async fn custom_css(&self, blog: &Blog) -> Result<String> {
        let blog_id = blog.id;
        let css = self.db.read(move |conn| db_css::get(conn, blog_id)).await?;
        Ok(css.unwrap_or_default())
    }

    /// Checks `css` as a stylesheet of `blog` without storing it: a 422 on `css` naming the line.
    pub async fn check_custom_css(&self, blog: &Blog, css: &str) -> Result<CustomCss> {
        let checked = CustomCss::parse(css, &self.media_prefix(), self.max_custom_css_bytes())
            .map_err(|refusal| Error::invalid("css", refusal.to_string()))?;
        let (user_id, uses) = (blog.user_id, checked.media().to_vec());
        self.db
            .read(move |conn| {
                for image in uses {
                    let hash = image.name.split_once('.').map_or("", |(hash, _)| hash);
                    if !db_css::owns_image(conn, user_id, hash)? {
                        return Err(Error::invalid(
                            "css",
                            format!("Line {}: `{}` is not one of your uploads", image.line, image.name),
                        ));
                    }
                }
                Ok(())
            })
            .await?;
        Ok(checked)
    }

    /// Checks and stores the blog's custom CSS ('' clears it); its pages change at once.
    pub async fn set_custom_css(&self, blog: &Blog, css: &str) -> Result<()> {
        let checked = self.check_custom_css(blog, css).await?;
        let (id, subdomain) = (blog.id, blog.subdomain.clone());
        self.commit(move |conn, effects| {
            db_css::set(conn, id, checked.as_str())?;
            effects.invalidate(&subdomain);
            Ok(())
        })
        .await
    }

    /// What the URLs of this instance's uploads start with (`http://host/media/`).
    fn media_prefix(&self) -> String {
        format!("{}{}", self.urls.app_url(), paths::MEDIA_PREFIX)
    }

    /// The largest custom stylesheet (`serve --max-custom-css-bytes`).
    fn max_custom_css_bytes(&self) -> usize {
        self.urls.max_custom_css_bytes
    }
}
