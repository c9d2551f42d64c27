//! One batch of an import: its items read off the reader and normalized, then those still to
//! import written in one transaction, with their images stored first.

use std::collections::HashSet;
use std::fmt::Display;
use std::sync::Arc;

use time::OffsetDateTime;

use super::images::with_images;
use super::{BATCH_BYTES, Item, Readout, Run, internal};
use crate::blogs::Blogs;
use crate::db::blogs::Blog;
use crate::db::imports::{self, ImportWrite, Outcome};
use crate::db::posts;
use crate::domain::content::blocks::{Block, Body};
use crate::domain::content::schedule::stored;
use crate::domain::limits::MAX_POSTS_PER_BLOG;
use crate::error::Result;
use crate::portable::model::{Format, Kind, Post, Read, State};
use crate::portable::normalize::{self, item_name, source_key};
use crate::portable::report::EXPORT_ITEM;

impl Blogs {
    /// Downloads the batch's images, then writes its items in one transaction.
    pub(super) async fn import_batch(&self, blog: &Blog, batch: Vec<Readout>, run: &mut Run<'_>) -> Result<()> {
        let mut items = Vec::with_capacity(batch.len());
        for read in batch {
            match read {
                Ok(item) if item.post.blocks.is_empty() => {
                    run.report.skip(&item.name, "not imported: it has no title and no content");
                }
                Ok(item) => items.push(item),
                Err(message) => run.report.skip(EXPORT_ITEM, format!("an item could not be read: {message}")),
            }
        }
        // Skipped before their images are fetched: items already imported, and those past a
        // full blog (the write checks both again, in its transaction).
        let (blog_id, keys): (i64, Vec<String>) = (blog.id, items.iter().map(|item| item.key.clone()).collect());
        let (imported, count) = self
            .db
            .read(move |conn| Ok((imports::imported(conn, blog_id, &keys)?, posts::count(conn, blog_id)?)))
            .await?;
        let mut room = MAX_POSTS_PER_BLOG.saturating_sub(count);
        items.retain(|item| {
            if imported.contains(&item.key) {
                run.report.skip(&item.name, "already imported");
                false
            } else if room == 0 {
                run.over_limit += 1;
                false
            } else {
                room -= 1;
                true
            }
        });
        let urls: Vec<String> = {
            let mut seen = HashSet::new();
            items
                .iter()
                .flat_map(|item| item.post.blocks.iter())
                .filter_map(|block| match block {
                    Block::Image { url, .. } if !run.images.contains_key(url) && seen.insert(url) => Some(url.clone()),
                    _ => None,
                })
                .collect()
        };
        self.fetch_images(blog.user_id, urls, run).await?;
        let mut writes = Vec::with_capacity(items.len());
        let mut bodies = Vec::with_capacity(items.len());
        let mut names = Vec::with_capacity(items.len());
        let now = OffsetDateTime::now_utc();
        for mut item in items {
            item.post.blocks = with_images(std::mem::take(&mut item.post.blocks), &run.images, &mut item.changes);
            let value =
                serde_json::to_value(Body::from_blocks(std::mem::take(&mut item.post.blocks))).map_err(internal)?;
            let body = match Body::parse(&value, &self.rules) {
                Ok(body) => body,
                Err(messages) => {
                    let problems: Vec<&str> = messages.0.iter().map(|(_, message)| message.as_str()).collect();
                    run.report.skip(&item.name, format!("not imported: {}", problems.join("; ")));
                    continue;
                }
            };
            let mut write = import_write(&item, &body, run.format, now).map_err(internal)?;
            write.responses = run.responses.remove(&item.post.source_id).unwrap_or_default();
            writes.push(write);
            bodies.push(body);
            names.push((item.name, item.changes));
        }
        if writes.is_empty() {
            return Ok(());
        }
        let (subdomain, terms) = (blog.subdomain.clone(), self.review_terms());
        let carried: Vec<u64> = writes.iter().map(|write| write.responses.len() as u64).collect();
        let outcomes = self
            .commit(move |conn, effects| {
                let (outcomes, seq) = imports::write_batch(conn, blog_id, &writes)?;
                // The review queue's score follows the batch, before the writer is released.
                crate::blogs::review::rescore(conn, blog_id, &terms)?;
                if let Some(seq) = seq {
                    let written = outcomes.iter().zip(&bodies).filter_map(|(outcome, body)| match outcome {
                        Outcome::Written { post, .. } => Some((&**post, body)),
                        _ => None,
                    });
                    effects.index_posts(seq, written);
                }
                if outcomes.iter().any(|outcome| matches!(outcome, Outcome::Written { .. })) {
                    effects.invalidate(&subdomain);
                    effects.schedule_moved();
                }
                Ok(outcomes)
            })
            .await?;
        for ((outcome, (name, mut changes)), carried) in outcomes.into_iter().zip(names).zip(carried) {
            if !matches!(outcome, Outcome::Written { .. }) {
                run.responses_left += carried; // left out with their post
            }
            match outcome {
                Outcome::Written { post, changes: more, redirects, responses } => {
                    run.responses_added += responses;
                    if post.page_position.is_some() {
                        run.report.pages += 1;
                    } else {
                        run.report.posts += 1;
                    }
                    run.report.drafts += u64::from(post.published_at.is_none() && post.scheduled_at.is_none());
                    run.report.scheduled += u64::from(post.scheduled_at.is_some());
                    run.report.redirects += redirects;
                    run.tags.extend(post.tags);
                    changes.extend(more);
                    for change in changes {
                        run.report.line(&name, change);
                    }
                }
                Outcome::AlreadyImported => run.report.skip(&name, "already imported"),
                Outcome::BlogFull => run.over_limit += 1,
            }
        }
        Ok(())
    }
}

/// Reads up to `size` items (fewer once they hold [`BATCH_BYTES`] of text) off the async
/// runtime (a reader parses as it goes) and normalizes them; gives the reader back, with
/// whether it has ended.
pub(super) async fn read_batch<I, E>(mut posts: I, size: usize, read: Arc<Read>) -> Result<(I, Vec<Readout>, bool)>
where
    I: Iterator<Item = std::result::Result<Post, E>> + Send + 'static,
    E: Display + Send + 'static,
{
    tokio::task::spawn_blocking(move || {
        let now = OffsetDateTime::now_utc();
        let mut batch = Vec::with_capacity(size);
        let mut bytes = 0;
        while batch.len() < size && bytes < BATCH_BYTES {
            match posts.next() {
                None => return (posts, batch, true),
                Some(Ok(mut post)) => {
                    let (key, name) = (source_key(&read, &post), item_name(&post));
                    let changes = normalize::normalize(&mut post, now);
                    bytes += post.blocks.iter().map(text_bytes).sum::<usize>();
                    batch.push(Ok(Item { key, name, post, changes }));
                }
                Some(Err(err)) => batch.push(Err(err.to_string())),
            }
        }
        (posts, batch, false)
    })
    .await
    .map_err(internal)
}

/// The bytes of text a block holds.
fn text_bytes(block: &Block) -> usize {
    match block {
        Block::Heading { text } | Block::Paragraph { text } => text.len(),
        Block::Link { url, title } => url.len() + title.len(),
        Block::Image { url, alt, caption } => url.len() + alt.len() + caption.len(),
        Block::Spotify { url } | Block::Tweet { url } => url.len(),
    }
}

/// What the write of one normalized item with its final `body` stores.
fn import_write(item: &Item, body: &Body, format: Format, now: OffsetDateTime) -> serde_json::Result<ImportWrite> {
    let post = &item.post;
    let created = post.created_at.unwrap_or(now);
    let at = post.published_at.unwrap_or(created);
    Ok(ImportWrite {
        source_key: item.key.clone(),
        short_id: (format == Format::QuireArchive).then(|| post.source_id.clone()),
        slug: post.slug.clone(),
        title: body.title(),
        body_json: serde_json::to_string(body)?,
        page: post.kind == Kind::Page,
        page_position: post.page_position,
        tags: post.tags.clone(),
        created_at: stored(created),
        updated_at: stored(post.updated_at.unwrap_or(created)),
        published_at: (post.state == State::Published).then(|| stored(at)),
        scheduled_at: (post.state == State::Scheduled).then(|| stored(at)),
        old_paths: post.old_paths.clone(),
        comments_closed: post.comments_closed,
        // Pages are always public.
        unlisted: post.unlisted && post.page_position.is_none(),
        responses: Vec::new(),
        revisions: post.revisions.clone(),
    })
}
