//! ActivityPub documents Quire sends (issue 16, docs/federation.md): a blog's actor, a post's
//! Article, the Create/Update/Delete that carry them, the outbox and followers collections, the
//! WebFinger answer and NodeInfo. Ids come from `Config::actor_id` and `Config::ap_post_id`: every
//! other id of a blog is under its actor's `/_quire/ap/` ([`blog_ap_url`]). Plain JSON values, the
//! shapes a real Fedify peer accepted (the spike's DESIGN.md §4): no context is ever fetched.

use serde_json::{Value, json};

use crate::domain::content::blocks::{Block, Body};
use crate::domain::content::dates;
use crate::domain::content::html::escape;
use crate::domain::content::image::ImageType;
use crate::domain::content::markdown;
use crate::domain::paths;

/// The ActivityStreams context.
pub const AS_CONTEXT: &str = "https://www.w3.org/ns/activitystreams";

/// The security context (an actor's `publicKey`).
pub const SECURITY_CONTEXT: &str = "https://w3id.org/security/v1";

/// The public collection (`to` of a public post).
pub const PUBLIC: &str = "https://www.w3.org/ns/activitystreams#Public";

/// The media type of ActivityPub documents.
pub const ACTIVITY_JSON: &str = "application/activity+json";

/// The media type of WebFinger answers.
pub const JRD_JSON: &str = "application/jrd+json";

/// Items of one outbox page.
pub const OUTBOX_PAGE_SIZE: u32 = 20;

/// The NodeInfo schema served.
pub const NODEINFO_SCHEMA: &str = "http://nodeinfo.diaspora.software/ns/schema/2.1";

/// The URL of one of a blog's ActivityPub documents (`path`, one of [`paths`]' `AP_*`), on the
/// host of its actor `actor_id` (`http://alice.localhost/_quire/ap/actor`).
pub fn blog_ap_url(actor_id: &str, path: &str) -> String {
    let origin = actor_id.strip_suffix(paths::AP_ACTOR).unwrap_or(actor_id);
    format!("{origin}{path}")
}

/// The key id of the actor's key (`publicKey.id`, a signature's `keyId`).
pub fn key_id(actor_id: &str) -> String {
    format!("{actor_id}#main-key")
}

/// What a blog's actor document says.
#[derive(Debug, Clone)]
pub struct ActorFacts<'a> {
    /// Its id (`Config::actor_id`).
    pub actor_id: &'a str,
    /// The blog's subdomain (`preferredUsername`).
    pub subdomain: &'a str,
    /// The blog's name.
    pub name: &'a str,
    /// The blog's description, plain text ('' for none): the actor's `summary`, escaped.
    pub description: &'a str,
    /// The blog's address, with a trailing slash (custom domain aware).
    pub blog_url: &'a str,
    /// The instance's shared inbox.
    pub shared_inbox: &'a str,
    /// The blog key's SPKI PEM.
    pub public_pem: &'a str,
    /// Whether a Follow waits for the owner's approval.
    pub approve_followers: bool,
}

/// The blog's actor: a `Person`, as WriteFreely and Ghost publish theirs (Mastodon shows a
/// `Service` as a bot).
pub fn actor(facts: &ActorFacts<'_>) -> Value {
    json!({
        "@context": [AS_CONTEXT, SECURITY_CONTEXT],
        "id": facts.actor_id,
        "type": "Person",
        "preferredUsername": facts.subdomain,
        "name": facts.name,
        "summary": match facts.description.is_empty() {
            true => String::new(),
            false => format!("<p>{}</p>", escape(facts.description)),
        },
        "url": facts.blog_url,
        "inbox": blog_ap_url(facts.actor_id, paths::AP_INBOX),
        "outbox": blog_ap_url(facts.actor_id, paths::AP_OUTBOX),
        "followers": blog_ap_url(facts.actor_id, paths::AP_FOLLOWERS),
        "endpoints": {"sharedInbox": facts.shared_inbox},
        "manuallyApprovesFollowers": facts.approve_followers,
        "discoverable": true,
        "publicKey": {"id": key_id(facts.actor_id), "owner": facts.actor_id, "publicKeyPem": facts.public_pem},
    })
}

/// The instance actor (`Config::instance_actor_id`), as Mastodon publishes its own: an
/// `Application` named after the host, whose key signs the fetches no blog makes (the shared
/// inbox's key fetches, for servers that answer only signed fetches). Nobody can follow it.
pub fn instance_actor(actor_id: &str, host: &str, app_url: &str, shared_inbox: &str, public_pem: &str) -> Value {
    json!({
        "@context": [AS_CONTEXT, SECURITY_CONTEXT],
        "id": actor_id,
        "type": "Application",
        "preferredUsername": host,
        "name": host,
        "url": format!("{app_url}/"),
        "inbox": shared_inbox,
        "outbox": shared_inbox,
        "endpoints": {"sharedInbox": shared_inbox},
        "manuallyApprovesFollowers": true,
        "publicKey": {"id": key_id(actor_id), "owner": actor_id, "publicKeyPem": public_pem},
    })
}

/// What a post's Article says.
#[derive(Debug, Clone)]
pub struct ArticleFacts<'a> {
    /// Its id (`Config::ap_post_id`).
    pub id: &'a str,
    /// The blog's actor.
    pub actor_id: &'a str,
    /// The blog's origin (`Config::blog_origin`: the custom domain's when it has one), for the
    /// permalink and the tag pages.
    pub blog_origin: &'a str,
    /// The post's public path (`/{slug}-{shortId}`).
    pub path: &'a str,
    /// Its title.
    pub title: &'a str,
    /// Its body.
    pub body: &'a Body,
    /// Its tags (normalized, as their pages name them).
    pub tags: &'a [String],
    /// When it was published (stored form).
    pub published: &'a str,
    /// When it last changed, if after it was published (stored form).
    pub updated: Option<&'a str>,
}

/// A post as an `Article`: the title as `name`, the body as safe HTML (paragraphs through the
/// one Markdown renderer, everything else escaped), images as `Image` attachments with their
/// alt text as `name`, tags as `Hashtag`s linking to the blog's tag pages, the permalink as `url`.
pub fn article(facts: &ArticleFacts<'_>) -> Value {
    let followers = blog_ap_url(facts.actor_id, paths::AP_FOLLOWERS);
    let tags: Vec<Value> = facts
        .tags
        .iter()
        .map(|tag| json!({"type": "Hashtag", "name": format!("#{tag}"), "href": format!("{}/tags/{tag}", facts.blog_origin)}))
        .collect();
    let attachments: Vec<Value> = facts
        .body
        .children
        .iter()
        .filter_map(|block| match block {
            Block::Image { url, alt, .. } => Some(image_attachment(url, alt)),
            _ => None,
        })
        .collect();
    let mut article = json!({
        "@context": [AS_CONTEXT, {"Hashtag": "as:Hashtag", "sensitive": "as:sensitive"}],
        "id": facts.id,
        "type": "Article",
        "attributedTo": facts.actor_id,
        "name": facts.title,
        "content": content_html(facts.body),
        "mediaType": "text/html",
        "url": format!("{}{}", facts.blog_origin, facts.path),
        "published": dates::iso(facts.published),
        "to": [PUBLIC],
        "cc": [followers],
        "tag": tags,
        "attachment": attachments,
        "sensitive": false,
    });
    if let Some(updated) = facts.updated.filter(|updated| *updated > facts.published) {
        article["updated"] = json!(dates::iso(updated));
    }
    article
}

fn image_attachment(url: &str, alt: &str) -> Value {
    let extension = url.rsplit_once('.').map(|(_, ext)| ext.to_ascii_lowercase());
    let media_type = ImageType::ALL.into_iter().find(|kind| {
        extension.as_deref().is_some_and(|ext| ext == kind.extension() || (ext == "jpeg" && *kind == ImageType::Jpeg))
    });
    let mut image = json!({"type": "Image", "url": url, "name": alt});
    if let Some(kind) = media_type {
        image["mediaType"] = json!(kind.mime());
    }
    image
}

/// The body as the Article's HTML. The first heading is the title (the Article's `name`), as on
/// the post page; images travel as attachments; embeds become links.
pub fn content_html(body: &Body) -> String {
    let mut out = String::new();
    let mut skipped_title = false;
    let link = |out: &mut String, url: &str, text: &str| {
        out.push_str(&format!("<p><a href=\"{}\">{}</a></p>", escape(url), escape(text)));
    };
    for block in &body.children {
        match block {
            Block::Heading { .. } if !skipped_title => skipped_title = true,
            Block::Heading { text } => out.push_str(&format!("<h2>{}</h2>", escape(text))),
            Block::Paragraph { text } => out.push_str(&markdown::to_html(text)),
            Block::Link { url, title } => link(&mut out, url, if title.trim().is_empty() { url } else { title }),
            Block::Image { caption, .. } if !caption.trim().is_empty() => {
                out.push_str(&format!("<p>{}</p>", escape(caption)));
            }
            Block::Image { .. } => {}
            Block::Spotify { url } | Block::Tweet { url } => link(&mut out, url, url),
        }
    }
    out
}

/// `Create` of `object` (an Article) by `actor_id`: id `<object id>/activity`, the object's
/// audience repeated.
pub fn create(actor_id: &str, object: Value) -> Value {
    let id = format!("{}/activity", object["id"].as_str().unwrap_or_default());
    wrap(id, "Create", actor_id, object)
}

/// `Update` of `object` at `at_ms` (unix ms, which makes each update's id new).
pub fn update(actor_id: &str, object: Value, at_ms: i128) -> Value {
    let id = format!("{}/updates/{at_ms}", object["id"].as_str().unwrap_or_default());
    wrap(id, "Update", actor_id, object)
}

fn wrap(id: String, kind: &str, actor_id: &str, mut object: Value) -> Value {
    let context = object.as_object_mut().and_then(|o| o.remove("@context")).unwrap_or_else(|| json!(AS_CONTEXT));
    json!({
        "@context": context,
        "id": id,
        "type": kind,
        "actor": actor_id,
        "published": object["updated"].as_str().or(object["published"].as_str()),
        "to": object["to"].clone(),
        "cc": object["cc"].clone(),
        "object": object,
    })
}

/// A deleted post's `Tombstone`.
pub fn tombstone(object_id: &str) -> Value {
    json!({"id": object_id, "type": "Tombstone", "formerType": "Article"})
}

/// `Delete` of the post `object_id`: a Tombstone, id `<object id>/delete`.
pub fn delete_post(actor_id: &str, object_id: &str) -> Value {
    let followers = blog_ap_url(actor_id, paths::AP_FOLLOWERS);
    json!({
        "@context": AS_CONTEXT,
        "id": format!("{object_id}/delete"),
        "type": "Delete",
        "actor": actor_id,
        "to": [PUBLIC],
        "cc": [followers],
        "object": tombstone(object_id),
    })
}

/// `Delete` of the actor itself (the account deleted), as Mastodon sends it.
pub fn delete_actor(actor_id: &str) -> Value {
    json!({
        "@context": AS_CONTEXT,
        "id": format!("{actor_id}#delete"),
        "type": "Delete",
        "actor": actor_id,
        "to": [PUBLIC],
        "object": actor_id,
    })
}

/// The outbox: `totalItems` and its first page.
pub fn outbox(actor_id: &str, total: u64) -> Value {
    let outbox = blog_ap_url(actor_id, paths::AP_OUTBOX);
    json!({
        "@context": AS_CONTEXT,
        "id": outbox,
        "type": "OrderedCollection",
        "totalItems": total,
        "first": format!("{outbox}?page=1"),
        "last": format!("{outbox}?page={}", total.div_ceil(u64::from(OUTBOX_PAGE_SIZE)).max(1)),
    })
}

/// Page `page` (from 1) of the outbox: `items` (Creates, newest first), `next` when `more`.
pub fn outbox_page(actor_id: &str, page: u64, items: Vec<Value>, more: bool) -> Value {
    let outbox = blog_ap_url(actor_id, paths::AP_OUTBOX);
    let mut doc = json!({
        "@context": AS_CONTEXT,
        "id": format!("{outbox}?page={page}"),
        "type": "OrderedCollectionPage",
        "partOf": outbox,
        "orderedItems": items,
    });
    if more {
        doc["next"] = json!(format!("{outbox}?page={}", page + 1));
    }
    if page > 1 {
        doc["prev"] = json!(format!("{outbox}?page={}", page - 1));
    }
    doc
}

/// The followers collection: its count only (the list is the owner's business).
pub fn followers(actor_id: &str, total: i64) -> Value {
    json!({
        "@context": AS_CONTEXT,
        "id": blog_ap_url(actor_id, paths::AP_FOLLOWERS),
        "type": "OrderedCollection",
        "totalItems": total,
    })
}

/// The WebFinger answer for `acct:{subdomain}@{host}` (`host` is the app host, with its port).
pub fn webfinger(subdomain: &str, host: &str, actor_id: &str, blog_url: &str) -> Value {
    json!({
        "subject": format!("acct:{subdomain}@{host}"),
        "aliases": [actor_id, blog_url],
        "links": [
            {"rel": "self", "type": ACTIVITY_JSON, "href": actor_id},
            {"rel": "http://webfinger.net/rel/profile-page", "type": "text/html", "href": blog_url},
        ],
    })
}

/// NodeInfo's discovery document ([`paths::NODEINFO_LINKS`]): where the NodeInfo document is.
pub fn nodeinfo_links(app_url: &str) -> Value {
    json!({"links": [{"rel": NODEINFO_SCHEMA, "href": format!("{app_url}{}", paths::NODEINFO)}]})
}

/// NodeInfo 2.1 of the instance: `users` blogs, `posts` published posts.
pub fn nodeinfo(version: &str, users: u64, posts: u64, open_registrations: bool) -> Value {
    json!({
        "version": "2.1",
        "software": {"name": "quire", "version": version, "repository": "https://github.com/quire-blog/quire"},
        "protocols": ["activitypub"],
        "services": {"inbound": [], "outbound": []},
        "openRegistrations": open_registrations,
        "usage": {"users": {"total": users, "activeMonth": users, "activeHalfyear": users}, "localPosts": posts},
        "metadata": {},
    })
}

/// A Follow as an Accept or Reject names it: its `id`, type, the `follower` and the `followed`
/// actor, and nothing else of the body received (which may be up to 256 KiB, and is not kept).
/// Mastodon and Fedify match an Accept to their Follow by this id.
pub fn follow_named(id: &str, follower: &str, followed: &str) -> Value {
    json!({"id": id, "type": "Follow", "actor": follower, "object": followed})
}

/// The id of the Accepts of the follower row `follower_row` of `actor_id` (ours), and what they
/// are queued about (`outgoing_activities.object_id`): at most one is queued at a time.
pub fn accept_id(actor_id: &str, follower_row: i64) -> String {
    format!("{actor_id}#accepts/{follower_row}")
}

/// The `Accept` by `actor_id` (ours) of `follow` ([`follow_named`]). `follower_row` makes the
/// Accept's id unique ([`accept_id`]).
pub fn accept(actor_id: &str, follow: &Value, follower_row: i64) -> Value {
    json!({
        "@context": AS_CONTEXT,
        "id": accept_id(actor_id, follower_row),
        "type": "Accept",
        "actor": actor_id,
        "object": follow,
    })
}

/// The `Reject` of a Follow by `actor_id` (ours): the owner refused or removed the follower, so
/// its server stops showing it as following. `follower_row` and `at_ms` (unix ms) make its id
/// unique.
pub fn reject(actor_id: &str, follow: &Value, follower_row: i64, at_ms: i64) -> Value {
    json!({
        "@context": AS_CONTEXT,
        "id": format!("{actor_id}#rejects/{follower_row}-{at_ms}"),
        "type": "Reject",
        "actor": actor_id,
        "object": follow,
    })
}

#[cfg(test)]
mod tests;
