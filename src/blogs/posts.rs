//! Writing posts: create, update, delete (each rescoring its blog for the review queue, in its
//! transaction: review.rs).

use serde::Deserialize;
use serde_json::Value;
use time::OffsetDateTime;

use super::Blogs;
use super::effects::Effects;
use super::{review, subscriptions, webmentions};
use crate::db::blogs::Blog;
use crate::db::posts::{self, Post, PostWrite, Updated};
use crate::db::quota_uses::{self, QuotaKind};
use crate::db::{revisions, trash};
use crate::domain::blog::post_address::slug;
use crate::domain::content::blocks::Body;
use crate::domain::content::revisions::RevisionKind;
use crate::domain::content::schedule;
use crate::domain::content::visibility::Visibility;
use crate::domain::content::{post_version, tags};
use crate::domain::limits::{self, MAX_POSTS_PER_BLOG};
use crate::domain::messages::Messages;
use crate::error::{Error, Result};

/// A create or update as the client sends it: `{body: {type: "root", children}, draft, tags,
/// page, publish_at, visibility, announce}`.
#[derive(Debug, Deserialize)]
pub struct PostInput {
    body: Value,
    #[serde(default)]
    draft: bool,
    /// Its tags as typed (checked and normalized by `domain::tags`).
    #[serde(default)]
    tags: Vec<String>,
    /// Whether it is a page (About, Now, ...).
    #[serde(default)]
    page: bool,
    /// With the draft flag off: publish at this RFC 3339 time instead of now.
    #[serde(default)]
    publish_at: Option<String>,
    /// `public` (the default) or `unlisted` (docs/unlisted.md); a page is always public.
    #[serde(default)]
    visibility: Option<String>,
    /// On the save that makes a published unlisted post public: announce it to followers (the
    /// fediverse and email subscribers) as new; without it, it becomes public quietly.
    #[serde(default)]
    announce: bool,
    /// On an update: the version it was based on (or the `If-Match` header); without either it
    /// is saved unchecked (docs/edit-conflicts.md). Read as any JSON so a malformed one is a 422.
    #[serde(default)]
    version: Option<Value>,
    /// The editor's automatic save: merged with the same user's autosave revision of a few
    /// minutes ago (docs/revisions.md).
    #[serde(default)]
    autosave: bool,
    /// Set by a restore, never by a client: the revision it records is of kind `restore`.
    #[serde(skip)]
    restore: bool,
    /// Set by Micropub's `mp-slug`, never by the editor: the slug made of it instead of the
    /// title's.
    #[serde(skip)]
    slug: Option<String>,
}

impl PostInput {
    /// A restore's save of older words (`body`, `tags`) over a post whose state stays: `draft`,
    /// `publish_at` (a schedule), `page` and `visibility` as the post has them now.
    pub(super) fn restoring(body: Value, tags: Vec<String>, state: (bool, Option<String>, bool, &str)) -> PostInput {
        let (draft, publish_at, page, visibility) = state;
        let visibility = Some(visibility.to_owned());
        PostInput {
            body,
            draft,
            tags,
            page,
            publish_at,
            visibility,
            announce: false,
            version: None,
            autosave: false,
            restore: true,
            slug: None,
        }
    }

    /// A post made by an app through Micropub (`blogs/micropub.rs`): its blocks, state, tags
    /// and, from `mp-slug`, its own slug.
    pub(super) fn from_app(body: Value, state: AppPostState, tags: Vec<String>) -> PostInput {
        PostInput {
            body,
            draft: state.draft,
            tags,
            page: state.page,
            publish_at: state.publish_at,
            visibility: state.visibility,
            announce: false,
            version: None,
            autosave: false,
            restore: false,
            slug: state.slug,
        }
    }

    /// The kind of revision this save records.
    fn revision_kind(&self) -> RevisionKind {
        match (self.restore, self.autosave) {
            (true, _) => RevisionKind::Restore,
            (false, true) => RevisionKind::Autosave,
            (false, false) => RevisionKind::Save,
        }
    }
}

/// What an app's post is besides its blocks and tags.
pub(super) struct AppPostState {
    /// Not published.
    pub draft: bool,
    /// Published at this future time (RFC 3339) instead of now.
    pub publish_at: Option<String>,
    /// `public` or `unlisted`.
    pub visibility: Option<String>,
    /// What its slug is made of, instead of its title.
    pub slug: Option<String>,
    /// A page (kept as it is on an update).
    pub page: bool,
}

/// A checked post, ready to store: the parsed body travels with what is written, so it is
/// parsed once per save.
struct Checked {
    body: Body,
    write: PostWrite,
}

impl Blogs {
    /// Creates a post in `blog`; the draft flag off publishes it.
    pub async fn create_post(&self, blog: &Blog, input: &PostInput) -> Result<Post> {
        let Checked { body, write } = self.check(input)?;
        let (blog_id, subdomain, quotas, terms) =
            (blog.id, blog.subdomain.clone(), self.public.quotas, self.review_terms());
        let grace = self.mail_grace();
        self.commit(move |conn, effects| {
            // Counted by the one writer connection, so two saves can't both take the last place.
            if posts::count(conn, blog_id)? >= MAX_POSTS_PER_BLOG {
                return Err(Error::invalid("blog", limits::too_many_posts()));
            }
            // The blog's daily quota (`--max-posts-per-day`), counted by the same connection.
            if quota_uses::used_today(conn, blog_id, QuotaKind::Post)? >= u64::from(quotas.posts_per_day) {
                return Err(Error::RateLimited(Messages::one("blog", quotas.posts_refusal())));
            }
            let outbound = effects.outbound();
            // In the creation's transaction: a post that is not created takes no place in the quota.
            let federate = |tx: &_, post: &_, was_public| {
                quota_uses::record(tx, blog_id, QuotaKind::Post)?;
                outbound.post_written(tx, &subdomain, post, was_public)?;
                subscriptions::post_written(tx, post, was_public, grace)?;
                webmentions::post_written(tx, post, was_public)?;
                review::rescore(tx, blog_id, &terms)
            };
            let (post, seq) = posts::create(conn, blog_id, &write, federate)?;
            saved(effects, &subdomain, seq, &post, &body);
            Ok(post)
        })
        .await
    }

    /// Replaces the blocks of the post `short_id`; publishing sets `publishedAt` once and it
    /// stays. With a version (`if_match`, the raw `If-Match` header, or the input's `version`)
    /// only while the post is still at it: else [`Updated::Stale`] and nothing is written.
    pub async fn update_post(
        &self,
        blog: &Blog,
        short_id: &str,
        input: &PostInput,
        if_match: Option<&str>,
    ) -> Result<Updated> {
        let expected = post_version::expected(if_match, input.version.as_ref()).map_err(Error::Invalid)?;
        let Checked { body, write } = self.check(input)?;
        let (blog_id, subdomain, short_id) = (blog.id, blog.subdomain.clone(), short_id.to_owned());
        let terms = self.review_terms();
        let grace = self.mail_grace();
        let (announce, kind, user_id) = (input.announce, input.revision_kind(), blog.user_id);
        self.commit(move |conn, effects| {
            let before = posts::get(conn, blog_id, &short_id)?;
            // A published unlisted post made public reaches followers only when announced.
            let quiet = !announce && before.as_ref().is_some_and(|p| p.is_unlisted_live());
            let outbound = effects.outbound();
            let federate = |tx: &_, post: &_, was_public| {
                // The version this save replaced, in its transaction (docs/revisions.md).
                if let Some(before) = &before {
                    revisions::record(tx, before, post, user_id, kind)?;
                }
                if !quiet {
                    outbound.post_written(tx, &subdomain, post, was_public)?;
                    subscriptions::post_written(tx, post, was_public, grace)?;
                }
                webmentions::post_written(tx, post, was_public)?;
                review::rescore(tx, blog_id, &terms)
            };
            let updated =
                posts::update(conn, blog_id, &short_id, &write, expected, federate)?.ok_or_else(post_not_found)?;
            if let Updated::Saved(post, seq) = &updated {
                saved(effects, &subdomain, *seq, post, &body);
            }
            Ok(updated)
        })
        .await
    }

    /// Takes the published (or scheduled) post `short_id` back to a draft: its public page,
    /// feeds, sitemap and search drop it, federation sends a `Delete`, the pages it linked to
    /// are told once more. A draft is answered as it is.
    pub async fn unpublish_post(&self, blog: &Blog, short_id: &str) -> Result<Post> {
        let (blog_id, subdomain, short_id) = (blog.id, blog.subdomain.clone(), short_id.to_owned());
        let terms = self.review_terms();
        self.commit(move |conn, effects| {
            let outbound = effects.outbound();
            let federate = |tx: &_, post: &_, was_public| {
                outbound.post_written(tx, &subdomain, post, was_public)?;
                webmentions::post_written(tx, post, was_public)?;
                review::rescore(tx, blog_id, &terms)
            };
            let (post, seq) = posts::unpublish(conn, blog_id, &short_id, federate)?.ok_or_else(post_not_found)?;
            if let Some(seq) = seq {
                effects.index_stored_post(seq, &post);
                effects.invalidate(&subdomain);
                effects.schedule_moved();
                effects.deliveries_queued();
                effects.webmention_queued();
            }
            Ok(post)
        })
        .await
    }

    /// Deletes the post `short_id`; the pages it linked to are told once more (they re-read it,
    /// find it gone and drop its mention).
    pub async fn delete_post(&self, blog: &Blog, short_id: &str) -> Result<()> {
        let (blog_id, subdomain, short_id) = (blog.id, blog.subdomain.clone(), short_id.to_owned());
        let terms = self.review_terms();
        let origin = self.urls.blog_origin(&blog.address());
        self.commit(move |conn, effects| {
            let outbound = effects.outbound();
            let gone = |tx: &_, post: &Post| {
                // Kept in the trash for 30 days with its revisions (docs/revisions.md).
                trash::keep(tx, post)?;
                webmentions::post_deleted(tx, post, &origin)
            };
            let federate = |tx: &_| {
                outbound.post_deleted(tx, blog_id, &subdomain, &short_id)?;
                review::rescore(tx, blog_id, &terms)
            };
            let (row_id, seq) = posts::delete(conn, blog_id, &short_id, gone, federate)?.ok_or_else(post_not_found)?;
            effects.unindex_post(seq, row_id);
            effects.invalidate(&subdomain);
            effects.deliveries_queued();
            effects.webmention_queued();
            Ok(())
        })
        .await
    }

    /// Validates the input against the block rules into what the store writes.
    fn check(&self, input: &PostInput) -> Result<Checked> {
        let publish_at = input
            .publish_at
            .as_deref()
            .map(|raw| schedule::parse_publish_at(raw, OffsetDateTime::now_utc()))
            .transpose()
            .map_err(|message| Messages::one("publishAt", message));
        let mut errors = Messages::default();
        let body = Body::parse(&input.body, &self.rules).map_err(|more| errors.0.extend(more.0)).ok();
        let tags = tags::normalize(&input.tags).map_err(|more| errors.0.extend(more.0)).ok();
        let publish_at = publish_at.map_err(|more| errors.0.extend(more.0)).ok();
        let visibility = match input.visibility.as_deref().map(Visibility::parse).transpose() {
            Ok(visibility) => Some(visibility.unwrap_or_default()),
            Err(message) => {
                errors.0.extend(Messages::one("visibility", message).0);
                None
            }
        };
        let (Some(body), Some(tags), Some(publish_at), Some(visibility)) = (body, tags, publish_at, visibility) else {
            return Err(Error::Invalid(errors));
        };
        let title = body.title();
        let slug = slug(input.slug.as_deref().unwrap_or(&title));
        if let Some(problem) = input.page.then(|| tags::page_slug_problem(&slug)).flatten() {
            return Err(Error::invalid("page", problem));
        }
        let write = PostWrite {
            slug,
            title,
            body_json: serde_json::to_string(&body).map_err(|err| Error::Internal(err.into()))?,
            publish: !input.draft,
            tags,
            page: input.page,
            publish_at,
            // Pages are not affected: always public.
            unlisted: visibility == Visibility::Unlisted && !input.page,
        };
        Ok(Checked { body, write })
    }
}

/// The effects of a saved (created or updated) post beyond its transaction, which also queued
/// what federation calls for: its index entry, its blog's pages, the scheduler (its schedule may
/// have moved) and the delivery worker.
fn saved(effects: &mut Effects, subdomain: &str, seq: i64, post: &Post, body: &Body) {
    effects.index_post(seq, post, body);
    effects.invalidate(subdomain);
    effects.schedule_moved();
    effects.deliveries_queued();
    effects.webmention_queued();
}

/// The answer for a post that is not in the blog.
pub fn post_not_found() -> Error {
    Error::not_found("post", "Post not found")
}
