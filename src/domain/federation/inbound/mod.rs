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
//!
//! This file reads activities; `documents` reads actor and key documents, `ours` tells whose
//! an id is.

use serde_json::Value;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use time::macros::format_description;

mod documents;
mod ours;

pub use documents::{Actor, KeyDocument, PublicKey, actor, key_document};
pub use ours::{Ours, authority_of, host_of, ours, registrable_domain_of, same_origin};

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
        "Like" => {
            Inbound::Like { id: on_actors_server(id, &actor, "Like")?, actor, object: reference(activity, "object")? }
        }
        "Announce" => Inbound::Announce {
            id: on_actors_server(id, &actor, "Announce")?,
            actor,
            object: reference(activity, "object")?,
        },
        "Undo" => {
            let undone = undone(object, &actor)?;
            Inbound::Undo { id, actor, undone }
        }
        "Create" => match type_of(object).as_deref() {
            Some("Note") => {
                let id = on_actors_server(id, &actor, "Create")?;
                let note = note(object)?;
                on_actors_server(note.id.clone(), &actor, "Note")?;
                Inbound::Create { id, actor, note }
            }
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

/// `id` when it is on the host of `actor` (another port of the same host included): a server
/// speaks only for its own Likes, Announces and Notes, so a reaction or a reply it relays with
/// someone else's id cannot take that id's place (and be undone or deleted in its name).
fn on_actors_server(id: String, actor: &str, what: &str) -> Result<String, Invalid> {
    match (host_of(&id), host_of(actor)) {
        (Some(id_host), Some(actor_host)) if id_host == actor_host => Ok(id),
        _ => Err(invalid(format!("the {what}'s id must be on its actor's server"))),
    }
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

/// An id must be an absolute http(s) URL with a host, of reasonable length, written as one:
/// `https://` or `http://` first. The URL parser repairs `https:/+peer.example/...` into
/// `https://+peer.example/...`; such an id would be kept as written, and compared and stored
/// unlike what its server names (found by fuzzing, scripts/fuzz.sh inbound).
fn checked_id(id: &str, field: &str) -> Result<String, Invalid> {
    if id.len() > MAX_ID {
        return Err(invalid(format!("{field} is longer than {MAX_ID} characters")));
    }
    if !(id.starts_with("https://") || id.starts_with("http://")) {
        return Err(invalid(format!("{field} is not an absolute http(s) URL")));
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

#[cfg(test)]
mod tests;

#[cfg(test)]
mod proptests;
