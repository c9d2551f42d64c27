//! The settings an import carries (name, theme, icon, time zone, addons, a Quire archive's
//! description, landing page listing and comment settings), applied through the usual setters, each change or refusal in the report;
//! and the confirmed email subscribers a Quire archive carries, added as confirmed (they
//! consented to this blog on its old server).

use super::messages;
use crate::blogs::Blogs;
use crate::db::blogs::{self, Blog};
use crate::db::responses::CommentsMode;
use crate::db::{addons, favicons, themes};
use crate::domain::blog::ai_crawlers::AiCrawlers;
use crate::domain::content::custom_css::rebase_media;
use crate::domain::content::revisions::Trashed;
use crate::error::{Error, Result};
use crate::portable::model::MovedComments;
use crate::portable::model::Settings;
use crate::portable::normalize::lowercase_first;
use crate::portable::report::{Report, SETTINGS_ITEM, TRASH_ITEM};
use crate::portable::write::quire_archive;

impl Blogs {
    /// Adds the confirmed subscribers a Quire archive carries to `blog`, as confirmed, in one
    /// transaction; an address the blog has already stays as it is. The report says how many.
    pub(super) async fn import_subscribers(&self, blog: &Blog, settings: &Settings, report: &mut Report) -> Result<()> {
        let Some(moved) = settings.subscribers.as_ref().filter(|list| !list.is_empty()) else {
            return Ok(());
        };
        let rows: Vec<(String, String, String)> =
            moved.iter().map(|s| (s.email.clone(), s.created_at.clone(), s.confirmed_at.clone())).collect();
        let (blog_id, given) = (blog.id, rows.len());
        let added = self
            .db
            .write(move |conn| {
                let tx = conn.transaction()?;
                let added = crate::db::subscribers::add_confirmed(&tx, blog_id, &rows)?;
                tx.commit()?;
                Ok(added)
            })
            .await?;
        let line = match given - added {
            0 => format!("{added} email subscribers were added, as confirmed"),
            kept => format!("{added} email subscribers were added, as confirmed; {kept} were subscribed already"),
        };
        report.line(SETTINGS_ITEM, line);
        Ok(())
    }

    /// Applies the custom stylesheet a Quire archive carries (issue 32), its images' archive paths
    /// (`images/<name>`) pointed at the owner's uploads here, checked as a save is; a refusal is reported
    /// and the blog's stylesheet left as it is.
    pub(super) async fn import_custom_css(&self, blog: &Blog, css: Option<&str>, report: &mut Report) -> Result<()> {
        let Some(css) = css.filter(|css| !css.is_empty()) else { return Ok(()) };
        let user_id = blog.user_id;
        let owned: std::collections::HashSet<String> =
            self.db.read(move |conn| crate::db::exports::image_names(conn, user_id)).await?.into_iter().collect();
        let prefix = format!("{}{}", self.urls.app_url(), crate::domain::paths::MEDIA_PREFIX);
        let css = rebase_media(css, quire_archive::IMAGES, &prefix, |name| owned.contains(name));
        let done = self.set_custom_css(blog, &css).await;
        settled(done, report, "the custom CSS was applied".to_owned(), "the custom CSS was not applied".to_owned())
    }

    /// Puts the deleted posts a Quire archive's trash carries into the blog's trash, with their
    /// revisions and deletion times (docs/revisions.md); an entry already there (the same
    /// archive imported twice) is not added again.
    pub(super) async fn import_trash(&self, blog: &Blog, trash: Vec<Trashed>, report: &mut Report) -> Result<()> {
        if trash.is_empty() {
            return Ok(());
        }
        let blog_id = blog.id;
        let added = self
            .commit(move |conn, _| {
                let mut added = 0;
                for entry in &trash {
                    added += u64::from(crate::db::trash::put(conn, blog_id, entry)?);
                }
                Ok(added)
            })
            .await?;
        report.line(TRASH_ITEM, format!("{added} deleted posts kept in the trash"));
        Ok(())
    }

    /// Applies the settings the export carries (a Quire archive's name, theme, icon, addons and
    /// time zone; another platform's name at most) through the usual setters, each change in
    /// the report; one the server refuses is reported and left.
    pub(super) async fn apply_settings(&self, blog: &Blog, settings: &Settings, report: &mut Report) -> Result<()> {
        let (blog_id, user_id) = (blog.id, blog.user_id);
        // As it is now (the caller's copy may be older than an earlier import's changes).
        let current = self.db.read(move |conn| blogs::owned(conn, blog_id, user_id)).await?;
        let blog = &current.ok_or_else(|| Error::not_found("blog", "Blog not found"))?;
        if let Some(name) =
            settings.name.as_deref().map(str::trim).filter(|name| !name.is_empty() && *name != blog.name)
        {
            let done = self.rename(blog, name).await;
            let applied = format!("the blog's name is now \"{name}\"");
            let refused = format!("the name \"{name}\" was not applied");
            settled(done, report, applied, refused)?;
        }
        if let Some(description) = settings.description.as_deref().filter(|text| *text != blog.description) {
            let done = self.set_description(blog, description).await;
            let refused = "the description was not applied".to_owned();
            settled(done, report, "the blog's description was applied".to_owned(), refused)?;
        }
        if let Some(listed) = settings.listed.filter(|listed| *listed != blog.listed) {
            let done = self.set_listed(blog, listed).await;
            let applied = match listed {
                true => "the blog is listed on this instance's landing page",
                false => "the blog is not listed on this instance's landing page",
            };
            settled(done, report, applied.to_owned(), "the landing page listing was not applied".to_owned())?;
        }
        if let Some(wanted) = settings.ai_crawlers.as_deref() {
            match AiCrawlers::parse(wanted) {
                Some(ai_crawlers) if ai_crawlers == blog.ai_crawlers => {}
                Some(ai_crawlers) => {
                    let applied = match ai_crawlers {
                        AiCrawlers::Allow => "AI crawlers are allowed, as the archive's blog allowed them",
                        AiCrawlers::Disallow => {
                            "AI crawlers are asked not to use the blog, as the archive's blog asked"
                        }
                    };
                    let refused = "the answer to AI crawlers was not applied".to_owned();
                    settled(self.set_ai_crawlers(blog, ai_crawlers).await, report, applied.to_owned(), refused)?;
                }
                None => report.line(
                    SETTINGS_ITEM,
                    format!("the answer to AI crawlers \"{wanted}\" is not allow or disallow: not applied"),
                ),
            }
        }
        if let Some(slug) = settings.theme.as_deref() {
            let wanted = slug.to_owned();
            match self.db.read(move |conn| themes::id_of_slug(conn, &wanted)).await? {
                Some(id) if id == blog.theme.id => {}
                Some(id) => {
                    let applied = format!("the theme is now {slug}");
                    let refused = format!("the theme {slug} was not applied");
                    settled(self.set_theme(blog, id).await, report, applied, refused)?;
                }
                None => {
                    report.line(SETTINGS_ITEM, format!("the theme \"{slug}\" is not one of this server's: not applied"))
                }
            }
        }
        if let Some(code) = settings.icon.as_deref() {
            let wanted = code.to_owned();
            match self.db.read(move |conn| favicons::id_of_code(conn, &wanted)).await? {
                Some(id) if id == blog.favicon.id => {}
                Some(id) => {
                    let applied = format!("the tab icon is now {code}");
                    let refused = format!("the tab icon {code} was not applied");
                    settled(self.set_favicon(blog, id).await, report, applied, refused)?;
                }
                None => {
                    report.line(
                        SETTINGS_ITEM,
                        format!("the tab icon \"{code}\" is not one of this server's: not applied"),
                    );
                }
            }
        }
        if let Some(zone) = settings.time_zone.as_deref().filter(|zone| *zone != blog.time_zone.name()) {
            let done = self.set_time_zone(blog, zone).await;
            let applied = format!("dates are now shown in {zone}");
            let refused = format!("the time zone \"{zone}\" was not applied");
            settled(done, report, applied, refused)?;
        }
        if let Some(wanted) = &settings.addons {
            let (installed, available) = self
                .db
                .read(move |conn| Ok((addons::list(conn, blog_id, true)?, addons::list(conn, blog_id, false)?)))
                .await?;
            for slug in
                wanted.iter().filter(|slug| !installed.iter().chain(&available).any(|addon| addon.slug == **slug))
            {
                report.line(SETTINGS_ITEM, format!("the addon \"{slug}\" is not one of this server's: not installed"));
            }
            for addon in available.iter().filter(|addon| wanted.contains(&addon.slug)) {
                let done = self.set_addon(blog, &addon.id.to_string(), true).await.map(|_| ());
                let name = &addon.name;
                let refused = format!("the addon {name} was not installed");
                settled(done, report, format!("the addon {name} is installed"), refused)?;
            }
            for addon in installed.iter().filter(|addon| !wanted.contains(&addon.slug)) {
                let done = self.set_addon(blog, &addon.id.to_string(), false).await.map(|_| ());
                let name = &addon.name;
                let refused = format!("the addon {name} was not uninstalled");
                settled(done, report, format!("the addon {name} is uninstalled"), refused)?;
            }
        }
        if let Some(comments) = &settings.comments {
            self.apply_comment_settings(blog, comments, report).await?;
        }
        Ok(())
    }

    /// Applies an archive's comment settings (who may comment, the blocked words) through the
    /// owner's setter; a mode Quire does not know, or words it refuses, are reported and left.
    async fn apply_comment_settings(&self, blog: &Blog, comments: &MovedComments, report: &mut Report) -> Result<()> {
        let current = self.comment_settings(blog.id).await?;
        let mode = match CommentsMode::parse(&comments.mode) {
            Some(mode) if mode == current.mode => None,
            Some(mode) => Some(mode),
            None => {
                let line = format!("comments \"{}\" is not a setting Quire knows: not applied", comments.mode);
                report.line(SETTINGS_ITEM, line);
                None
            }
        };
        let (blog_id, subdomain) = (blog.id, blog.subdomain.as_str());
        if let Some(mode) = mode {
            let done = self.set_comment_settings(blog_id, subdomain, Some(mode), None).await.map(|_| ());
            let applied = format!("comments are now {}", mode.as_str());
            settled(done, report, applied, format!("comments {} was not applied", mode.as_str()))?;
        }
        if comments.blocked_words != current.blocked_words {
            let words = comments.blocked_words.clone();
            let count = words.len();
            let done = self.set_comment_settings(blog_id, subdomain, None, Some(words)).await.map(|_| ());
            let applied = format!("{count} blocked words for comments");
            settled(done, report, applied, "the blocked words for comments were not applied".to_owned())?;
        }
        Ok(())
    }
}

/// Reports a setting applied (`done`), or refused with the setter's message (`failed`); a
/// fault of the server stops the import.
fn settled(result: Result<()>, report: &mut Report, done: String, failed: String) -> Result<()> {
    match result {
        Ok(()) => report.line(SETTINGS_ITEM, done),
        Err(Error::Internal(err)) => return Err(Error::Internal(err)),
        Err(refused) => report.line(SETTINGS_ITEM, format!("{failed}: {}", lowercase_first(&messages(&refused)))),
    }
    Ok(())
}
