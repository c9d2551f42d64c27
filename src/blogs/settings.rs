//! Writing a blog's settings: creation, name, description, listing on the landing page, theme, tab icon, time zone, addons, and
//! deleting the whole account.

use super::Blogs;
use super::signups::{self, Signup};
use crate::db::addons::{self, Addon};
use crate::db::blogs::{self, Blog, Created};
use crate::db::jobs;
use crate::db::review;
use crate::db::signups as db_signups;
use crate::domain::blog::ai_crawlers::AiCrawlers;
use crate::domain::blog::subdomain::Subdomain;
use crate::domain::blog::time_zone::TimeZone;
use crate::domain::blog::trust_state::TrustState;
use crate::domain::blog::{blog_description, blog_name};
use crate::error::{Error, Result};

impl Blogs {
    /// Creates the user's one blog on `subdomain`, showing dates in `time_zone`. The instance's
    /// signup rules (`signups.rs`: the mode, an invite code, the email domains, the daily limits)
    /// decide whether it may, and in which trust state it starts; an invite's use and the
    /// creation's log row are written in the creation's transaction, so a refusal spends nothing.
    pub async fn create_blog(
        &self,
        user_id: i64,
        subdomain: Subdomain,
        time_zone: TimeZone,
        signup: Signup,
    ) -> Result<Blog> {
        let admission = signups::admission(&self.public, signup)?;
        let state = match self.public.new_blogs_wait_for_review() {
            true => TrustState::New,
            false => TrustState::Approved,
        };
        let public = self.public.clone();
        self.commit(move |conn, effects| {
            signups::check_before(conn, &public, user_id, admission.address.as_deref())?;
            let mut invite_refused = false;
            let admit = |tx: &_, blog: &Blog| {
                let admitted = signups::admit(tx, &admission, blog.id, blog.subdomain.as_str());
                invite_refused = admitted.is_err();
                admitted
            };
            let ai_crawlers = if public.new_blogs_disallow_ai { AiCrawlers::Disallow } else { AiCrawlers::Allow };
            let settings = (time_zone, ai_crawlers);
            let created = blogs::create_admitted(conn, user_id, &subdomain, settings, state, admit);
            if invite_refused {
                // Counted against the address, after the creation was undone: guessing is limited too.
                db_signups::log(conn, admission.address.as_deref(), false)?;
            }
            let blog = match created? {
                Created::Blog(blog) => blog,
                Created::UserHasOne => return Err(Error::invalid("subdomain", "You already have a blog")),
                Created::Taken => {
                    return Err(Error::invalid("subdomain", "This subdomain is taken (subdomains are never reused)"));
                }
            };
            effects.blog_created(&blog.subdomain);
            effects.state_changed(&blog.subdomain, blog.state);
            effects.key_wanted(blog.id);
            effects.invalidate(&blog.subdomain);
            Ok(blog)
        })
        .await
    }

    /// Renames the blog.
    pub async fn rename(&self, blog: &Blog, raw_name: &str) -> Result<()> {
        let name = blog_name::parse(raw_name).map_err(|message| Error::invalid("name", message))?;
        let (id, subdomain) = (blog.id, blog.subdomain.clone());
        self.commit(move |conn, effects| {
            blogs::rename(conn, id, &name)?;
            effects.invalidate(&subdomain);
            Ok(())
        })
        .await
    }

    /// Sets the blog's description (`raw`, trimmed; '' clears it): its home, feeds and actor
    /// show it, so its cached pages go.
    pub async fn set_description(&self, blog: &Blog, raw: &str) -> Result<()> {
        let description = blog_description::parse(raw).map_err(|message| Error::invalid("description", message))?;
        let (id, subdomain) = (blog.id, blog.subdomain.clone());
        self.commit(move |conn, effects| {
            blogs::set_description(conn, id, &description)?;
            effects.invalidate(&subdomain);
            Ok(())
        })
        .await
    }

    /// Lists the blog on the instance's landing page, or takes it off (read live by
    /// `GET /api/instance`; no page of the blog shows it).
    pub async fn set_listed(&self, blog: &Blog, listed: bool) -> Result<()> {
        let id = blog.id;
        self.commit(move |conn, _| blogs::set_listed(conn, id, listed)).await
    }

    /// Sets whether the blog asks AI crawlers not to use it: its robots.txt and every page change.
    pub async fn set_ai_crawlers(&self, blog: &Blog, ai_crawlers: AiCrawlers) -> Result<()> {
        let (id, subdomain) = (blog.id, blog.subdomain.clone());
        self.commit(move |conn, effects| {
            blogs::set_ai_crawlers(conn, id, ai_crawlers)?;
            effects.invalidate(&subdomain);
            Ok(())
        })
        .await
    }

    /// Chooses the blog's theme.
    pub async fn set_theme(&self, blog: &Blog, theme_id: i64) -> Result<()> {
        let (id, subdomain) = (blog.id, blog.subdomain.clone());
        self.commit(move |conn, effects| {
            if !blogs::set_theme(conn, id, theme_id)? {
                return Err(Error::invalid("themeId", "There is no such theme"));
            }
            effects.invalidate(&subdomain);
            Ok(())
        })
        .await
    }

    /// Chooses the blog's tab icon.
    pub async fn set_favicon(&self, blog: &Blog, favicon_id: i64) -> Result<()> {
        let (id, subdomain) = (blog.id, blog.subdomain.clone());
        self.commit(move |conn, effects| {
            if !blogs::set_favicon(conn, id, favicon_id)? {
                return Err(Error::invalid("faviconId", "There is no such icon"));
            }
            effects.invalidate(&subdomain);
            Ok(())
        })
        .await
    }

    /// Chooses the zone the blog's public dates are shown in (an IANA name, `raw_zone`).
    pub async fn set_time_zone(&self, blog: &Blog, raw_zone: &str) -> Result<()> {
        let zone = TimeZone::parse(raw_zone).map_err(|message| Error::invalid("timeZone", message))?;
        let (id, subdomain) = (blog.id, blog.subdomain.clone());
        self.commit(move |conn, effects| {
            blogs::set_time_zone(conn, id, zone)?;
            effects.invalidate(&subdomain);
            Ok(())
        })
        .await
    }

    /// Installs (`installed`) or uninstalls the addon `raw_id`; doing it twice changes nothing.
    pub async fn set_addon(&self, blog: &Blog, raw_id: &str, installed: bool) -> Result<Addon> {
        let not_found = || Error::not_found("addon", "Addon not found");
        let addon_id: i64 = raw_id.parse().map_err(|_| not_found())?;
        let (blog_id, subdomain) = (blog.id, blog.subdomain.clone());
        self.commit(move |conn, effects| {
            let addon = addons::get(conn, addon_id)?.ok_or_else(not_found)?;
            if installed {
                addons::install(conn, blog_id, addon.id)?;
            } else {
                addons::uninstall(conn, blog_id, addon.id)?;
            }
            effects.invalidate(&subdomain);
            Ok(addon)
        })
        .await
    }

    /// "Delete Account": removes the blog, its posts (and their search entries), images,
    /// installations, jobs and export files, its custom domain, the user, their social
    /// accounts and sessions, and the upload files no one else uses; retires the subdomain for good,
    /// and the federation key (kept until the actor's Delete, queued here, is delivered).
    pub async fn delete_account(&self, blog: &Blog) -> Result<()> {
        self.delete_account_for(blog, None).await
    }

    /// [`Blogs::delete_account`], on behalf of `admin` when an admin deletes the blog: the
    /// record of admin actions gets its line in the deletion's own transaction.
    pub(super) async fn delete_account_for(&self, blog: &Blog, admin: Option<String>) -> Result<()> {
        let blog_id = blog.id;
        if self.db.read(move |conn| crate::db::followers::count(conn, blog_id)).await? > 0 {
            // The actor's Delete is signed with the blog's key: it must exist before it retires.
            self.signing_key(blog_id).await?;
        }
        let doomed = blog.clone();
        self.commit(move |conn, effects| {
            let exports = jobs::files_of_blog(conn, doomed.id)?;
            let outbound = effects.outbound();
            let federate = |tx: &_| {
                if let Some(admin) = &admin {
                    review::record_deletion(tx, admin, doomed.id, &doomed.subdomain)?;
                }
                outbound.account_deleted(tx, doomed.id, &doomed.subdomain)
            };
            let deleted = blogs::delete_account(conn, &doomed, federate)?;
            effects.unindex_blog(deleted.seq, doomed.id);
            effects.remove_uploads(deleted.orphaned_files);
            // A job still running notices that its row is gone and removes its own file.
            effects.remove_job_files(exports);
            effects.key_retired(doomed.id);
            effects.blog_deleted(&doomed.subdomain);
            effects.invalidate(&doomed.subdomain);
            effects.deliveries_queued();
            Ok(())
        })
        .await
    }
}
