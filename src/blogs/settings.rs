//! Writing a blog's settings: creation, name, theme, tab icon, time zone, addons, and
//! deleting the whole account.

use super::{Blogs, index};
use crate::db::addons::{self, Addon};
use crate::db::blogs::{self, Blog, Created};
use crate::db::jobs;
use crate::domain::blog::blog_name;
use crate::domain::blog::subdomain::Subdomain;
use crate::domain::blog::time_zone::TimeZone;
use crate::error::{Error, Result};

impl Blogs {
    /// Creates the user's one blog on `subdomain`, showing dates in `time_zone`.
    pub async fn create_blog(&self, user_id: i64, subdomain: Subdomain, time_zone: TimeZone) -> Result<Blog> {
        let blog = self
            .db
            .write(move |conn| match blogs::create(conn, user_id, &subdomain, time_zone)? {
                Created::Blog(blog) => Ok(blog),
                Created::UserHasOne => Err(Error::invalid("subdomain", "You already have a blog")),
                Created::Taken => {
                    Err(Error::invalid("subdomain", "This subdomain is taken (subdomains are never reused)"))
                }
            })
            .await?;
        self.pages.invalidate(&blog.subdomain);
        self.served.blog_created(&blog.subdomain);
        Ok(blog)
    }

    /// Renames the blog.
    pub async fn rename(&self, blog: &Blog, raw_name: &str) -> Result<()> {
        let name = blog_name::parse(raw_name).map_err(|message| Error::invalid("name", message))?;
        let id = blog.id;
        self.db.write(move |conn| blogs::rename(conn, id, &name)).await?;
        self.pages.invalidate(&blog.subdomain);
        Ok(())
    }

    /// Chooses the blog's theme.
    pub async fn set_theme(&self, blog: &Blog, theme_id: i64) -> Result<()> {
        let id = blog.id;
        if !self.db.write(move |conn| blogs::set_theme(conn, id, theme_id)).await? {
            return Err(Error::invalid("themeId", "There is no such theme"));
        }
        self.pages.invalidate(&blog.subdomain);
        Ok(())
    }

    /// Chooses the blog's tab icon.
    pub async fn set_favicon(&self, blog: &Blog, favicon_id: i64) -> Result<()> {
        let id = blog.id;
        if !self.db.write(move |conn| blogs::set_favicon(conn, id, favicon_id)).await? {
            return Err(Error::invalid("faviconId", "There is no such icon"));
        }
        self.pages.invalidate(&blog.subdomain);
        Ok(())
    }

    /// Chooses the zone the blog's public dates are shown in (an IANA name, `raw_zone`).
    pub async fn set_time_zone(&self, blog: &Blog, raw_zone: &str) -> Result<()> {
        let zone = TimeZone::parse(raw_zone).map_err(|message| Error::invalid("timeZone", message))?;
        let id = blog.id;
        self.db.write(move |conn| blogs::set_time_zone(conn, id, zone)).await?;
        self.pages.invalidate(&blog.subdomain);
        Ok(())
    }

    /// Installs (`installed`) or uninstalls the addon `raw_id`; doing it twice changes nothing.
    pub async fn set_addon(&self, blog: &Blog, raw_id: &str, installed: bool) -> Result<Addon> {
        let not_found = || Error::not_found("addon", "Addon not found");
        let addon_id: i64 = raw_id.parse().map_err(|_| not_found())?;
        let blog_id = blog.id;
        let addon = self
            .db
            .write(move |conn| {
                let addon = addons::get(conn, addon_id)?.ok_or_else(not_found)?;
                if installed {
                    addons::install(conn, blog_id, addon.id)?;
                } else {
                    addons::uninstall(conn, blog_id, addon.id)?;
                }
                Ok(addon)
            })
            .await?;
        self.pages.invalidate(&blog.subdomain);
        Ok(addon)
    }

    /// "Delete Account": removes the blog, its posts (and their search entries), images,
    /// installations, jobs and export files, its custom domain, the user, their social
    /// accounts and sessions, and the upload files no one else uses; retires the subdomain for good,
    /// and the federation key (kept until the actor's Delete, queued here, is delivered).
    pub async fn delete_account(&self, blog: &Blog) -> Result<()> {
        let blog_id = blog.id;
        if self.db.read(move |conn| crate::db::followers::count(conn, blog_id)).await? > 0 {
            // The actor's Delete is signed with the blog's key: it must exist before it retires.
            self.signing_key(blog_id).await?;
        }
        let (search, data_dir, doomed) = (self.search.clone(), self.data_dir.clone(), blog.clone());
        let outbound = self.outbound.clone();
        let exports = self
            .db
            .write(move |conn| {
                let exports = jobs::files_of_blog(conn, doomed.id)?;
                let federate = |tx: &_| outbound.account_deleted(tx, doomed.id, &doomed.subdomain);
                let deleted = blogs::delete_account(conn, &doomed, federate)?;
                index::remove_blog(&search, doomed.id, deleted.seq); // in the writer's closure: see create_post
                for file in deleted.orphaned_files {
                    if let Err(err) = std::fs::remove_file(data_dir.upload(&file)) {
                        tracing::warn!(%file, error = %err, "could not remove an upload of a deleted account");
                    }
                }
                Ok(exports)
            })
            .await?;
        // A job still running notices that its row is gone and removes its own file.
        for file in exports {
            self.remove_job_file(&file);
        }
        self.keys.remove(&blog.id);
        self.pages.invalidate(&blog.subdomain);
        self.served.blog_deleted(&blog.subdomain);
        self.deliveries_queued();
        Ok(())
    }
}
