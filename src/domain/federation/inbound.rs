//! Activities a blog's inbox receives (issue 16, docs/federation-inbox.md), read from their JSON
//! into [`Inbound`], and the remote actor and key documents the inbox fetches to verify them.
//! No I/O here. Whatever a remote server sends gets an answer (a value or an [`Invalid`]) and
//! never a panic: every field is checked for its type, ids must be absolute http(s) URLs, and
//! lists are read only so far.
//!
//! Read: `Follow`, `Undo` (of a Follow, Like or Announce, embedded or named by its id), `Like`,
//! `Announce`, `Create` of a `Note`, `Delete` (of a Note, a Tombstone or the actor itself) and
//! `Update` of the actor. Any other type is [`Inbound::Ignored`] (answered 202, nothing done).
//!
//! Beside `parse` (an activity into [`Inbound`]): `key_document` and `actor` read the remote key
//! and actor documents the inbox fetches, and `ours` tells whether an id is one of our actors' or
//! posts' URLs (on a subdomain or a verified custom domain).

use serde_json::Value;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use time::macros::format_description;

/// The longest id (a URL) accepted.
pub const MAX_ID: usize = 2048;

/// Items of a list (`type`, `publicKey`, `url`) looked at; the rest are skipped.
const MAX_LIST_ITEMS: usize = 16;

/// Why an activity or a fetched document is refused (a 400 for an activity, a 401 for the key
/// documents), with the reason in words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Invalid(pub String);

fn invalid(reason: impl Into<String>) -> Invalid {
    Invalid(reason.into())
}

/// An activity, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inbound {
    /// `actor` asks to follow `object` (one of our actors).
    Follow { id: String, actor: String, object: String },
    /// `actor` takes back an earlier activity.
    Undo { id: String, actor: String, undone: Undone },
    /// `actor` likes `object`.
    Like { id: String, actor: String, object: String },
    /// `actor` boosts `object`.
    Announce { id: String, actor: String, object: String },
    /// `actor` wrote a Note.
    Create { id: String, actor: String, note: Note },
    /// `actor` deleted `object` (a Note's id, or its own id when the account is gone).
    Delete { id: String, actor: String, object: String },
    /// `actor` changed its profile (its cached document is fetched again).
    UpdateActor { id: String, actor: String },
    /// Anything else: answered and dropped.
    Ignored { kind: String },
}

/// What an `Undo` takes back: `kind` when the object was embedded, `None` when only its id was
/// given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Undone {
    /// The undone activity's type.
    pub kind: Option<UndoneKind>,
    /// The undone activity's id.
    pub id: String,
    /// The undone activity's object, when it was embedded (the followed actor of a Follow).
    pub object: Option<String>,
}

/// The activities an `Undo` may take back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UndoneKind {
    /// A Follow.
    Follow,
    /// A Like.
    Like,
    /// An Announce.
    Announce,
}

/// A Note, as a reply needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// Its id.
    pub id: String,
    /// Its author.
    pub attributed_to: String,
    /// What it answers, if anything.
    pub in_reply_to: Option<String>,
    /// Its HTML (`content`, or the first of `contentMap`).
    pub content: String,
    /// Its page, if it has one.
    pub url: Option<String>,
    /// When it was written, in the stored form (`2026-11-24T10:00:00.000Z`), if it says.
    pub published: Option<String>,
}

impl Inbound {
    /// The activity's actor (`None` for [`Inbound::Ignored`]).
    pub fn actor(&self) -> Option<&str> {
        match self {
            Inbound::Follow { actor, .. }
            | Inbound::Undo { actor, .. }
            | Inbound::Like { actor, .. }
            | Inbound::Announce { actor, .. }
            | Inbound::Create { actor, .. }
            | Inbound::Delete { actor, .. }
            | Inbound::UpdateActor { actor, .. } => Some(actor),
            Inbound::Ignored { .. } => None,
        }
    }
}

/// Reads an activity. A type Quire does not act on is [`Inbound::Ignored`] before anything else
/// is checked; one it acts on must have the fields it needs, with the right types.
pub fn parse(activity: &Value) -> Result<Inbound, Invalid> {
    if !activity.is_object() {
        return Err(invalid("the activity is not a JSON object"));
    }
    let kind = type_of(activity).ok_or_else(|| invalid("the activity has no type"))?;
    let known = ["Follow", "Undo", "Like", "Announce", "Create", "Delete", "Update"];
    if !known.contains(&kind.as_str()) {
        return Ok(Inbound::Ignored { kind });
    }
    let id = id_field(activity, "id")?;
    let actor = reference(activity, "actor")?;
    let object = activity.get("object").ok_or_else(|| invalid("the activity has no object"))?;
    Ok(match kind.as_str() {
        "Follow" => Inbound::Follow { id, actor, object: reference(activity, "object")? },
        "Like" => Inbound::Like { id, actor, object: reference(activity, "object")? },
        "Announce" => Inbound::Announce { id, actor, object: reference(activity, "object")? },
        "Undo" => {
            let undone = undone(object, &actor)?;
            Inbound::Undo { id, actor, undone }
        }
        "Create" => match type_of(object).as_deref() {
            Some("Note") => Inbound::Create { id, actor, note: note(object)? },
            _ => Inbound::Ignored {
                kind: format!("Create of {}", type_of(object).unwrap_or_else(|| "a link".to_owned())),
            },
        },
        "Delete" => Inbound::Delete { id, actor, object: reference(activity, "object")? },
        _ => {
            let is_actor = type_of(object).is_some_and(|t| ACTOR_TYPES.contains(&t.as_str()));
            if is_actor && reference(activity, "object")? == actor {
                Inbound::UpdateActor { id, actor }
            } else {
                Inbound::Ignored { kind: "Update".to_owned() }
            }
        }
    })
}

/// The types an actor document may have.
const ACTOR_TYPES: [&str; 5] = ["Person", "Service", "Application", "Group", "Organization"];

fn undone(object: &Value, actor: &str) -> Result<Undone, Invalid> {
    if let Value::String(id) = object {
        return Ok(Undone { kind: None, id: checked_id(id, "object")?, object: None });
    }
    if !object.is_object() {
        return Err(invalid("the Undo's object is neither an id nor an object"));
    }
    let kind = match type_of(object).as_deref() {
        Some("Follow") => UndoneKind::Follow,
        Some("Like") => UndoneKind::Like,
        Some("Announce") => UndoneKind::Announce,
        _ => return Err(invalid("an Undo must take back a Follow, a Like or an Announce")),
    };
    if object.get("actor").is_some() && reference(object, "actor")? != actor {
        return Err(invalid("an Undo may only take back its own actor's activity"));
    }
    let undone_object = match object.get("object") {
        Some(_) => Some(reference(object, "object")?),
        None => None,
    };
    Ok(Undone { kind: Some(kind), id: id_field(object, "id")?, object: undone_object })
}

fn note(object: &Value) -> Result<Note, Invalid> {
    let content = match object.get("content") {
        Some(Value::String(html)) => html.clone(),
        Some(Value::Null) | None => match object.get("contentMap") {
            Some(Value::Object(map)) => map.values().find_map(Value::as_str).unwrap_or_default().to_owned(),
            _ => String::new(),
        },
        Some(_) => return Err(invalid("the Note's content is not a string")),
    };
    let in_reply_to = match object.get("inReplyTo") {
        None | Some(Value::Null) => None,
        Some(_) => Some(reference(object, "inReplyTo")?),
    };
    Ok(Note {
        id: id_field(object, "id")?,
        attributed_to: reference(object, "attributedTo")?,
        in_reply_to,
        content,
        url: link(object.get("url")),
        published: object.get("published").and_then(Value::as_str).and_then(stored_time),
    })
}

/// The `type` of a JSON-LD node: a string, or the first string of a list.
fn type_of(node: &Value) -> Option<String> {
    match node.get("type")? {
        Value::String(kind) => Some(kind.clone()),
        Value::Array(kinds) => kinds.iter().take(MAX_LIST_ITEMS).find_map(Value::as_str).map(str::to_owned),
        _ => None,
    }
}

/// A field that must hold an id (a string).
fn id_field(node: &Value, field: &str) -> Result<String, Invalid> {
    match node.get(field) {
        Some(Value::String(id)) => checked_id(id, field),
        Some(_) => Err(invalid(format!("{field} is not a string"))),
        None => Err(invalid(format!("{field} is missing"))),
    }
}

/// A field that names something: its id as a string, or an object with an `id`.
fn reference(node: &Value, field: &str) -> Result<String, Invalid> {
    match node.get(field) {
        Some(Value::String(id)) => checked_id(id, field),
        Some(Value::Object(object)) => match object.get("id") {
            Some(Value::String(id)) => checked_id(id, field),
            _ => Err(invalid(format!("{field} is an object without an id"))),
        },
        Some(_) => Err(invalid(format!("{field} is neither an id nor an object with an id"))),
        None => Err(invalid(format!("{field} is missing"))),
    }
}

/// An id must be an absolute http(s) URL with a host, of reasonable length.
fn checked_id(id: &str, field: &str) -> Result<String, Invalid> {
    if id.len() > MAX_ID {
        return Err(invalid(format!("{field} is longer than {MAX_ID} characters")));
    }
    match url::Url::parse(id) {
        Ok(url) if matches!(url.scheme(), "http" | "https") && url.host_str().is_some_and(|h| !h.is_empty()) => {
            Ok(id.to_owned())
        }
        _ => Err(invalid(format!("{field} is not an absolute http(s) URL"))),
    }
}

/// The URL of a `url` field: a string, a Link (`href`), or the first of a list of those; `None`
/// when it is none of these or not an http(s) URL.
fn link(value: Option<&Value>) -> Option<String> {
    let href = match value? {
        Value::String(url) => url.as_str(),
        Value::Object(link) => link.get("href")?.as_str()?,
        Value::Array(links) => return links.iter().take(MAX_LIST_ITEMS).find_map(|l| link(Some(l))),
        _ => return None,
    };
    checked_id(href, "url").ok()
}

/// An RFC 3339 time in the stored form (UTC, milliseconds, `Z`).
fn stored_time(rfc3339: &str) -> Option<String> {
    let utc = OffsetDateTime::parse(rfc3339, &Rfc3339).ok()?.to_offset(time::UtcOffset::UTC);
    utc.format(format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z")).ok()
}

/// A remote actor, from its document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Actor {
    /// Its id.
    pub id: String,
    /// Its personal inbox.
    pub inbox: String,
    /// Its server's shared inbox.
    pub shared_inbox: Option<String>,
    /// `@bob@example.social` (the host with its port, if it has one).
    pub handle: String,
    /// Its display name (its `preferredUsername` when it has none).
    pub name: String,
    /// Its profile page.
    pub url: Option<String>,
    /// Its keys, as (key id, PEM, owner).
    pub keys: Vec<PublicKey>,
}

/// A public key an actor or key document publishes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicKey {
    /// The key's id (the `keyId` that names it).
    pub id: String,
    /// Its owner (an actor id).
    pub owner: String,
    /// The PEM.
    pub pem: String,
}

/// What a `keyId`'s document is: the actor itself, or a key document naming its owner (which
/// is then fetched).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyDocument {
    /// An actor with the key.
    Actor(Actor),
    /// A bare key.
    Key(PublicKey),
}

/// Reads the document fetched for `key_id`: an actor with `publicKey` (an object or a list)
/// holding that key, or the key document itself. The key's id must be `key_id`.
pub fn key_document(doc: &Value, key_id: &str) -> Result<KeyDocument, Invalid> {
    if doc.get("publicKey").is_some() {
        let actor = actor(doc)?;
        if !actor.keys.iter().any(|key| key.id == key_id) {
            return Err(invalid("the actor does not publish the key the signature names"));
        }
        return Ok(KeyDocument::Actor(actor));
    }
    let key = public_key(doc, None)?;
    if key.id != key_id {
        return Err(invalid("the key document's id is not the signature's keyId"));
    }
    Ok(KeyDocument::Key(key))
}

/// Reads an actor document: its id, inbox, shared inbox, names, page and keys.
pub fn actor(doc: &Value) -> Result<Actor, Invalid> {
    if !doc.is_object() {
        return Err(invalid("the actor document is not a JSON object"));
    }
    if !type_of(doc).is_some_and(|t| ACTOR_TYPES.contains(&t.as_str())) {
        return Err(invalid("the document is not an actor"));
    }
    let id = id_field(doc, "id")?;
    let inbox = id_field(doc, "inbox")?;
    let shared_inbox = doc.get("endpoints").and_then(|e| e.get("sharedInbox")).and_then(Value::as_str);
    let shared_inbox = shared_inbox.and_then(|s| checked_id(s, "sharedInbox").ok());
    let username = doc.get("preferredUsername").and_then(Value::as_str).map(str::trim).filter(|u| !u.is_empty());
    let parsed = url::Url::parse(&id).map_err(|_| invalid("the actor's id is not a URL"))?;
    let username = username.map(str::to_owned).unwrap_or_else(|| {
        parsed.path_segments().and_then(|mut s| s.rfind(|p| !p.is_empty())).unwrap_or("unknown").to_owned()
    });
    let host = match parsed.port() {
        Some(port) => format!("{}:{port}", parsed.host_str().unwrap_or_default()),
        None => parsed.host_str().unwrap_or_default().to_owned(),
    };
    let name = doc.get("name").and_then(Value::as_str).map(str::trim).filter(|n| !n.is_empty());
    let keys = match doc.get("publicKey") {
        Some(Value::Array(keys)) => {
            keys.iter().take(MAX_LIST_ITEMS).filter_map(|k| public_key(k, Some(&id)).ok()).collect()
        }
        Some(key) => public_key(key, Some(&id)).into_iter().collect(),
        None => Vec::new(),
    };
    Ok(Actor {
        handle: format!("@{}@{host}", clip(&username, 100)),
        name: clip(name.unwrap_or(&username), 200),
        url: link(doc.get("url")),
        shared_inbox,
        inbox,
        keys,
        id,
    })
}

/// A key object: `id`, `owner` (the actor's id when it is inside the actor and says none), and
/// `publicKeyPem`.
fn public_key(key: &Value, actor_id: Option<&str>) -> Result<PublicKey, Invalid> {
    let id = id_field(key, "id")?;
    let owner = match (key.get("owner"), actor_id) {
        (Some(_), _) => reference(key, "owner")?,
        (None, Some(actor_id)) => actor_id.to_owned(),
        (None, None) => return Err(invalid("the key document names no owner")),
    };
    let pem = match key.get("publicKeyPem") {
        Some(Value::String(pem)) if pem.len() <= 16 * 1024 => pem.clone(),
        _ => return Err(invalid("the key has no publicKeyPem")),
    };
    Ok(PublicKey { id, owner, pem })
}

/// The first `max` characters of `text`.
fn clip(text: &str, max: usize) -> String {
    text.chars().take(max).collect()
}

/// The `host[:port]` of an id, lowercase: what blocked domains and rate limits are keyed on
/// ([`host_of`] gives it without the port).
pub fn authority_of(id: &str) -> Option<String> {
    let url = url::Url::parse(id).ok()?;
    let host = url.host_str()?.to_ascii_lowercase();
    Some(match url.port() {
        Some(port) => format!("{host}:{port}"),
        None => host,
    })
}

/// The host of an id, lowercase, without port or trailing dot (what `blocked_domains` holds).
pub fn host_of(id: &str) -> Option<String> {
    let url = url::Url::parse(id).ok()?;
    let host = url.host_str()?.trim_end_matches('.').to_ascii_lowercase();
    Some(host.trim_start_matches('[').trim_end_matches(']').to_owned())
}

/// Whether two URLs have the same origin (scheme, host, port).
pub fn same_origin(a: &str, b: &str) -> bool {
    match (url::Url::parse(a), url::Url::parse(b)) {
        (Ok(a), Ok(b)) => a.origin() == b.origin(),
        _ => false,
    }
}

/// What one of our URLs names, as the inbox matches objects (a Follow's, a Like's, a reply's
/// `inReplyTo`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ours {
    /// A blog's actor (`{scheme}://alice.{host}/_quire/ap/actor`).
    Actor { subdomain: String },
    /// A post, by its object id (`/_quire/ap/posts/{short_id}`) or its permalink
    /// (`/{slug}-{short_id}` on the blog's subdomain or custom domain).
    Post { subdomain: String, short_id: String },
}

/// What `id` names among our URLs: `scheme` and `app_host` (`localhost:8080`) are the
/// server's, `custom_domain` answers the blog of a verified custom domain (lowercase name).
pub fn ours(id: &str, scheme: &str, app_host: &str, custom_domain: impl Fn(&str) -> Option<String>) -> Option<Ours> {
    let url = url::Url::parse(id).ok()?;
    if url.scheme() != scheme || url.query().is_some() {
        return None;
    }
    let host = url.host_str()?.to_ascii_lowercase();
    let (app_name, app_port) = match app_host.rsplit_once(':') {
        Some((name, port)) => (name, port.parse::<u16>().ok()),
        None => (app_host, None),
    };
    if url.port() != app_port {
        return None;
    }
    let subdomain = match host.strip_suffix(app_name).and_then(|rest| rest.strip_suffix('.')) {
        Some(label) if !label.is_empty() && label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') => {
            Some(label.to_owned())
        }
        _ => None,
    };
    let path = url.path();
    if let Some(subdomain) = &subdomain {
        if path == crate::domain::paths::AP_ACTOR {
            return Some(Ours::Actor { subdomain: subdomain.clone() });
        }
        if let Some(short_id) = path
            .strip_prefix(crate::domain::paths::AP_POSTS_PREFIX)
            .filter(|s| crate::domain::blog::post_address::is_short_id(s))
        {
            return Some(Ours::Post { subdomain: subdomain.clone(), short_id: short_id.to_owned() });
        }
    }
    let subdomain = subdomain.or_else(|| custom_domain(&host))?;
    let (_, short_id) = path.strip_prefix('/')?.rsplit_once('-')?;
    crate::domain::blog::post_address::is_short_id(short_id)
        .then(|| Ours::Post { subdomain, short_id: short_id.to_owned() })
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod proptests;
