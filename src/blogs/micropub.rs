//! Micropub's writes and reads of a blog's posts (issue 37, docs/api.md "Micropub"): a request's
//! properties (`domain::content::micropub`) made into the blocks, tags and state of a post, and
//! back (`q=source`). Every write is an ordinary create, update, delete or undelete of
//! `blogs/posts.rs` and `blogs/trash.rs`, so search, the page cache, federation, email,
//! webmentions and the review of new blogs follow as for the owner's own saves.
//!
//! The mapping: `name` is the first block, a heading; `content` (plain text read as Markdown,
//! or HTML through the import's converter, never stored as it is) its paragraphs; each `photo`
//! an image block (another site's photo downloaded through the guarded fetcher and stored as an
//! upload); links the post is about (`bookmark-of`, `like-of`, ...) link blocks; `category` its
//! tags; `post-status` draft or published; `published` in the future a schedule; `mp-slug` its
//! slug; `visibility: unlisted` unlisted.

use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::Blogs;
use super::paste::Pasted;
use super::posts::{AppPostState, PostInput};
use crate::db::blogs::Blog;
use crate::db::posts::{self, Post, Updated};
use crate::db::{pages, trash};
use crate::domain::blog::post_address::split_permalink;
use crate::domain::content::blocks::{Block, Body, Rules};
use crate::domain::content::micropub::{self, Content, Fields, Photo, Properties, Status};
use crate::domain::content::schedule;
use crate::domain::paths::MEDIA_PREFIX;
use crate::error::{Error, Result};
use crate::fetch::Fetcher;
use crate::portable::write::markdown_site::block_markdown;

/// The properties `q=source` answers, in this order.
const SOURCE_PROPERTIES: [&str; 9] =
    ["name", "content", "photo", "category", "post-status", "published", "visibility", "mp-slug", "url"];

/// A refusal of the request itself (Micropub's `invalid_request`).
fn invalid(message: impl Into<String>) -> Error {
    Error::bad_request("micropub", message)
}

/// The answer for a URL that names no post of the blog.
fn no_post(url: &str) -> Error {
    invalid(format!("There is no post of this blog at {url}"))
}

impl Blogs {
    /// Creates a post from a Micropub request's properties; `uploads` are the photos a
    /// multipart request carried, already stored (their `/media/` URLs), placed after the
    /// `photo` URLs. With `drafts_only` (a token with `draft` but not `create`) it is a draft
    /// whatever it asks. Answers the post's URL.
    pub async fn micropub_create(
        &self,
        blog: &Blog,
        properties: &Properties,
        uploads: Vec<Photo>,
        drafts_only: bool,
        fetcher: &Fetcher,
    ) -> Result<String> {
        let mut fields = micropub::fields(properties).map_err(invalid)?;
        fields.photos.extend(uploads);
        let blocks = self.blocks_of(blog.user_id, &fields, fetcher).await?;
        let draft = drafts_only || fields.status == Some(Status::Draft);
        let publish_at = if draft { None } else { future(fields.published.as_deref())? };
        let state = AppPostState { draft, publish_at, visibility: fields.visibility, slug: fields.slug, page: false };
        let input = PostInput::from_app(body_value(blocks)?, state, fields.categories);
        let post = self.create_post(blog, &input).await?;
        Ok(self.post_url(blog, &post))
    }

    /// Applies a Micropub update (`replace`, then `add`, then `delete`) to the post at `url`.
    /// Blocks whose properties the update does not touch stay as they are (an embed stays an
    /// embed); a draft-only token may change drafts only.
    #[allow(clippy::too_many_arguments)]
    pub async fn micropub_update(
        &self,
        blog: &Blog,
        url: &str,
        replace: &Properties,
        add: &Properties,
        delete_properties: &[String],
        delete_values: &Properties,
        fetcher: &Fetcher,
    ) -> Result<String> {
        let post = self.post_at(blog, url).await?;
        let before = source_properties(&post, &self.post_url(blog, &post), &self.rules)?;
        let mut after = before.clone();
        for (name, values) in replace {
            after.insert(name.clone(), values.clone());
        }
        for (name, values) in add {
            let list = after.entry(name.clone()).or_default();
            list.extend(values.iter().cloned());
            if list.len() > micropub::MAX_VALUES {
                return Err(invalid(format!(
                    "The property {name} would have more than {} values",
                    micropub::MAX_VALUES
                )));
            }
        }
        for name in delete_properties {
            after.remove(name);
        }
        for (name, values) in delete_values {
            if let Some(list) = after.get_mut(name) {
                list.retain(|value| !values.contains(value));
                if list.is_empty() {
                    after.remove(name);
                }
            }
        }
        let changed = |name: &str| before.get(name) != after.get(name);
        let fields = micropub::fields(&after).map_err(invalid)?;
        let stored = parse_stored(&post, &self.rules)?;
        // What the update left alone stays as it was: an embed stays an embed, a photo is not
        // downloaded again, and with neither content nor photos changed their order stays.
        let heading_first = matches!(stored.children.first(), Some(Block::Heading { .. }));
        let rest = &stored.children[usize::from(heading_first)..];
        let is_image = |block: &&Block| matches!(block, Block::Image { .. });
        let mut blocks = Vec::new();
        if let Some(name) = &fields.name {
            blocks.push(Block::Heading { text: name.clone() });
        }
        if !changed("content") && !changed("photo") {
            blocks.extend(rest.iter().cloned());
        } else {
            if changed("content") {
                blocks.extend(self.content_blocks(fields.content.as_ref()).await?);
            } else {
                blocks.extend(rest.iter().filter(|b| !is_image(b)).cloned());
            }
            if changed("photo") {
                blocks.extend(self.photo_blocks(blog.user_id, &fields.photos, fetcher).await?);
            } else {
                blocks.extend(rest.iter().filter(is_image).cloned());
            }
        }
        if blocks.is_empty() {
            return Err(invalid("A post needs a name, content or a photo"));
        }
        let was_draft = post.published_at.is_none() && post.scheduled_at.is_none();
        let draft = match fields.status {
            Some(Status::Draft) => true,
            Some(Status::Published) => false,
            None => was_draft,
        };
        let publish_at = match (draft, changed("published")) {
            (true, _) => None,
            (false, true) => future(fields.published.as_deref())?,
            (false, false) => post.scheduled_at.clone().filter(|at| is_future(at)),
        };
        let slug = if changed("mp-slug") { fields.slug.clone() } else { Some(post.slug.clone()) };
        let visibility = Some(fields.visibility.clone().unwrap_or_else(|| "public".to_owned()));
        let page = post.page_position.is_some();
        let state = AppPostState { draft, publish_at, visibility, slug, page };
        let input = PostInput::from_app(body_value(blocks)?, state, fields.categories.clone());
        let saved = match self.update_post(blog, &post.short_id, &input, None).await? {
            Updated::Saved(post, _) | Updated::Stale(post) => post,
        };
        // A published post asked to be a draft again is taken back (an update keeps it published).
        let saved = if draft && !was_draft { self.unpublish_post(blog, &saved.short_id).await? } else { saved };
        Ok(self.post_url(blog, &saved))
    }

    /// Deletes the post at `url` (to the trash, as the editor's Delete does).
    pub async fn micropub_delete(&self, blog: &Blog, url: &str) -> Result<()> {
        let post = self.post_at(blog, url).await?;
        self.delete_post(blog, &post.short_id).await
    }

    /// Brings the post at `url` back from the trash; answers its URL.
    pub async fn micropub_undelete(&self, blog: &Blog, url: &str) -> Result<String> {
        let short_id = self.short_id_in(blog, url)?;
        let blog_id = blog.id;
        let id = self.db.read(move |conn| trash::id_of_post(conn, blog_id, &short_id)).await?;
        let id = id.ok_or_else(|| invalid(format!("The post at {url} is not in the trash")))?;
        let post = self.restore_from_trash(blog, id).await?;
        Ok(self.post_url(blog, &post))
    }

    /// `q=source`: the post at `url` as Micropub properties, all of them or the `wanted` ones.
    pub async fn micropub_source(&self, blog: &Blog, url: &str, wanted: &[String]) -> Result<Value> {
        let post = self.post_at(blog, url).await?;
        let mut properties = source_properties(&post, &self.post_url(blog, &post), &self.rules)?;
        if !wanted.is_empty() {
            properties.retain(|name, _| wanted.contains(name));
            return Ok(json!({ "properties": properties }));
        }
        Ok(json!({ "type": ["h-entry"], "properties": properties }))
    }

    /// The post or page of `blog` at `url` (its permalink or a page's address, on the blog's
    /// own origin).
    async fn post_at(&self, blog: &Blog, url: &str) -> Result<Post> {
        let segment = self.path_in(blog, url)?;
        let blog_id = blog.id;
        let post = self
            .db
            .read(move |conn| {
                if let Some((_, short_id)) = split_permalink(&segment)
                    && let Some(post) = posts::get(conn, blog_id, short_id)?
                {
                    return Ok(Some(post));
                }
                pages::published_page(conn, blog_id, &segment)
            })
            .await?;
        post.ok_or_else(|| no_post(url))
    }

    /// The short id a permalink of `blog` names.
    fn short_id_in(&self, blog: &Blog, url: &str) -> Result<String> {
        let segment = self.path_in(blog, url)?;
        split_permalink(&segment).map(|(_, short_id)| short_id.to_owned()).ok_or_else(|| no_post(url))
    }

    /// The one path segment of `url` on `blog`'s origin; a URL elsewhere (another blog's post)
    /// is refused as forbidden: a token writes to its own blog only.
    fn path_in(&self, blog: &Blog, url: &str) -> Result<String> {
        let origin = self.urls.blog_origin(&blog.address());
        let Some(path) = url.strip_prefix(&origin).filter(|rest| rest.is_empty() || rest.starts_with('/')) else {
            return Err(Error::Forbidden(crate::error::Messages::one(
                "micropub",
                format!("This token writes to {origin} only: {url} is not one of its posts"),
            )));
        };
        let path = path.trim_start_matches('/').split(['?', '#']).next().unwrap_or_default().trim_end_matches('/');
        if path.is_empty() || path.contains('/') {
            return Err(no_post(url));
        }
        Ok(path.to_owned())
    }

    /// The public URL of a post of `blog`.
    pub fn post_url(&self, blog: &Blog, post: &Post) -> String {
        format!("{}{}", self.urls.blog_origin(&blog.address()), post.path())
    }

    /// Where this server's uploads are served (`{app}/media/`).
    fn urls_image_prefix(&self) -> String {
        format!("{}{MEDIA_PREFIX}", self.urls.app_url())
    }

    /// The blocks `fields` make: the name's heading, the content's blocks, each photo's image
    /// (downloaded when it is another site's) and each link's.
    async fn blocks_of(&self, user_id: i64, fields: &Fields, fetcher: &Fetcher) -> Result<Vec<Block>> {
        let mut blocks = Vec::new();
        if let Some(name) = &fields.name {
            blocks.push(Block::Heading { text: name.clone() });
        }
        blocks.extend(self.content_blocks(fields.content.as_ref()).await?);
        blocks.extend(self.photo_blocks(user_id, &fields.photos, fetcher).await?);
        for link in &fields.links {
            if !is_web_url(&link.url) {
                return Err(invalid(format!("{:?} is not an http(s) URL", link.url)));
            }
            blocks.push(Block::Link { url: link.url.clone(), title: link.title.clone() });
        }
        if blocks.is_empty() {
            return Err(invalid("A post needs a name, content or a photo"));
        }
        Ok(blocks)
    }

    /// The content's blocks, through the import's converter (as a paste into the editor is).
    async fn content_blocks(&self, content: Option<&Content>) -> Result<Vec<Block>> {
        let pasted = match content {
            None => return Ok(Vec::new()),
            Some(Content::Text(text)) => Pasted::Markdown(text.clone()),
            Some(Content::Html(html)) => Pasted::Html(html.clone()),
        };
        Ok(self.convert_paste(pasted).await?.blocks)
    }

    /// An image block per photo: this server's uploads as they are, another site's downloaded
    /// through the guarded fetcher (its bytes must be a JPEG, PNG or GIF) and stored.
    async fn photo_blocks(&self, user_id: i64, photos: &[Photo], fetcher: &Fetcher) -> Result<Vec<Block>> {
        let ours = self.urls_image_prefix();
        let mut blocks = Vec::with_capacity(photos.len());
        for photo in photos {
            let url = if photo.url.starts_with(&ours) {
                photo.url.clone()
            } else if is_web_url(&photo.url) {
                let image = fetcher
                    .get_image(&photo.url)
                    .await
                    .map_err(|err| invalid(format!("The photo at {} could not be used: {err}", photo.url)))?;
                let name = self.store_image(user_id, image.bytes).await?;
                format!("{ours}{name}")
            } else {
                return Err(invalid(format!("photo {:?} is not an http(s) URL", photo.url)));
            };
            blocks.push(Block::Image { url, alt: photo.alt.clone(), caption: String::new() });
        }
        Ok(blocks)
    }
}

/// Whether `url` is an http(s) address.
fn is_web_url(url: &str) -> bool {
    url.starts_with("https://") || url.starts_with("http://")
}

/// Blocks as the body the write path checks.
fn body_value(blocks: Vec<Block>) -> Result<Value> {
    serde_json::to_value(Body::from_blocks(blocks)).map_err(|err| Error::Internal(err.into()))
}

/// The stored body of `post`, as the rules it was stored by read it.
fn parse_stored(post: &Post, rules: &Rules) -> Result<Body> {
    let value: Value = serde_json::from_str(&post.body_json).map_err(|err| Error::Internal(err.into()))?;
    Body::parse(&value, rules).map_err(Error::Invalid)
}

/// `published` when it is a time in the future (a schedule); a time now or past is the moment
/// of publication, which Quire sets itself.
fn future(published: Option<&str>) -> Result<Option<String>> {
    let Some(raw) = published else { return Ok(None) };
    let at = OffsetDateTime::parse(raw.trim(), &Rfc3339)
        .map_err(|_| invalid(format!("published {raw:?} is not a date and time such as 2027-01-31T09:00:00Z")))?;
    if at <= OffsetDateTime::now_utc() {
        return Ok(None);
    }
    schedule::parse_publish_at(raw, OffsetDateTime::now_utc())
        .map(Some)
        .map_err(|message| invalid(format!("published: {message}")))
}

/// Whether a stored time is still to come.
fn is_future(stored: &str) -> bool {
    schedule::parse_stored(stored).is_some_and(|at| at > OffsetDateTime::now_utc())
}

/// A post as Micropub properties (`q=source`): `name` its leading heading, `content` the
/// rest of its blocks but the images as Markdown, `photo` its images.
fn source_properties(post: &Post, url: &str, rules: &Rules) -> Result<Properties> {
    let body = parse_stored(post, rules)?;
    let mut properties = Properties::new();
    let mut children = body.children.iter().peekable();
    if let Some(Block::Heading { text }) = children.peek() {
        properties.insert("name".into(), vec![json!(text)]);
        children.next();
    }
    let mut content = Vec::new();
    let mut photos = Vec::new();
    for block in children {
        match block {
            Block::Image { url, alt, .. } if alt.is_empty() => photos.push(json!(url)),
            Block::Image { url, alt, .. } => photos.push(json!({ "value": url, "alt": alt })),
            other => content.push(block_markdown(other, |_| None)),
        }
    }
    if !content.is_empty() {
        properties.insert("content".into(), vec![json!(content.join("\n\n"))]);
    }
    if !photos.is_empty() {
        properties.insert("photo".into(), photos);
    }
    if !post.tags.is_empty() {
        properties.insert("category".into(), post.tags.iter().map(|t| json!(t)).collect());
    }
    let live = post.published_at.is_some() || post.scheduled_at.is_some();
    properties.insert("post-status".into(), vec![json!(if live { "published" } else { "draft" })]);
    if let Some(at) = post.published_at.as_ref().or(post.scheduled_at.as_ref()) {
        properties.insert("published".into(), vec![json!(at)]);
    }
    properties.insert("visibility".into(), vec![json!(if post.unlisted { "unlisted" } else { "public" })]);
    properties.insert("mp-slug".into(), vec![json!(post.slug)]);
    properties.insert("url".into(), vec![json!(url)]);
    debug_assert!(properties.keys().all(|k| SOURCE_PROPERTIES.contains(&k.as_str())));
    Ok(properties)
}
