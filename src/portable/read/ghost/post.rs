//! One Ghost post or page as a [`Post`]: its status and visibility, dates, tags (internal
//! `#tags` noted, not kept), old address, feature image and body (lexical, else mobiledoc,
//! else HTML or Markdown).

use std::collections::HashMap;

use serde_json::Value;
use url::Url;

use super::body::Body;
use super::types::GhostPost;
use super::{GHOST_URL, date, id};
use crate::domain::content::blocks::Block;
use crate::portable::Problem;
use crate::portable::convert::builder::Builder;
use crate::portable::convert::notes::Notes;
use crate::portable::convert::{Base, html, markdown};
use crate::portable::model::{Kind, Post, State};

pub(super) fn convert(
    post: GhostPost,
    tags: &HashMap<String, Vec<(i64, String, bool)>>,
    meta: &HashMap<String, (String, String)>,
    site: Option<&Url>,
) -> Result<Post, Problem> {
    let source_id = id(&post.id);
    let title = post.title.clone().unwrap_or_default();
    let mut notes = Notes::default();
    let fill = |text: &str| text.replace(GHOST_URL, site.map_or("", |s| s.as_str().trim_end_matches('/')));
    let base = Base::site(site);
    let mut out = Builder::default();
    let body = if let Some(lexical) = post.lexical.as_deref().filter(|s| !s.trim().is_empty()) {
        let doc: Value = serde_json::from_str(&fill(lexical))
            .map_err(|_| Problem::item(&source_id, &title, "Its body (lexical) is not valid JSON: not imported"))?;
        let mut body = Body::new(&base);
        body.lexical(doc.get("root").unwrap_or(&Value::Null), 0);
        body.finish()
    } else if let Some(mobiledoc) = post.mobiledoc.as_deref().filter(|s| !s.trim().is_empty()) {
        let doc: Value = serde_json::from_str(&fill(mobiledoc))
            .map_err(|_| Problem::item(&source_id, &title, "Its body (mobiledoc) is not valid JSON: not imported"))?;
        let mut body = Body::new(&base);
        body.mobiledoc(&doc);
        body.finish()
    } else if let Some(html) = post.html.as_deref().filter(|s| !s.trim().is_empty()) {
        html::to_blocks(&fill(html), &base)
    } else {
        markdown::to_blocks(&fill(post.markdown.as_deref().unwrap_or("")), &base)
    };
    if let Some(src) = post.feature_image.as_deref().filter(|s| !s.is_empty()) {
        let (alt, caption) = meta.get(&source_id).cloned().unwrap_or_default();
        match base.image(&fill(src)) {
            Some(url) => out.push(Block::Image { url, alt, caption: html::plain_text(&caption) }),
            None => notes.add(format!("Its feature image ({src}) could not be located")),
        }
    }
    for block in body.blocks {
        match block {
            Block::Paragraph { text } => out.add_flow(&text),
            other => out.push(other),
        }
    }
    notes.extend(body.notes);
    if post.codeinjection_head.as_deref().is_some_and(|c| !c.trim().is_empty())
        || post.codeinjection_foot.as_deref().is_some_and(|c| !c.trim().is_empty())
    {
        notes.add("Its code injection was not imported: Quire posts run no scripts");
    }
    let visibility = post.visibility.as_deref().unwrap_or("public");
    let status = post.status.as_deref().unwrap_or("draft");
    let state = match status {
        _ if visibility != "public" => {
            notes.add(format!("It was for {visibility} only in Ghost: imported as a draft"));
            State::Draft
        }
        "published" => State::Published,
        "scheduled" => State::Scheduled,
        "sent" => {
            notes.add("It was sent by email only: imported as a draft");
            State::Draft
        }
        _ => State::Draft,
    };
    let mut tag_names = Vec::new();
    for (_, name, internal) in tags.get(&source_id).into_iter().flatten() {
        if *internal {
            notes.add(format!("Its internal tag {name} was not kept"));
        } else if !tag_names.contains(name) {
            tag_names.push(name.clone());
        }
    }
    let page = post.kind.as_deref() == Some("page") || post.page == Value::Bool(true) || post.page == 1;
    let slug = post.slug.clone().unwrap_or_default();
    let converted = out.finish();
    notes.extend(converted.notes);
    Ok(Post {
        source_id,
        kind: if page { Kind::Page } else { Kind::Post },
        title,
        old_paths: if slug.is_empty() { Vec::new() } else { vec![format!("/{slug}/")] },
        slug,
        blocks: converted.blocks,
        state,
        created_at: date(&post.created_at),
        published_at: if state == State::Draft { None } else { date(&post.published_at) },
        updated_at: date(&post.updated_at),
        tags: tag_names,
        page_position: None,
        comments_closed: false,
        unlisted: false,
        revisions: Vec::new(),
        notes: notes.into_lines(),
    })
}
