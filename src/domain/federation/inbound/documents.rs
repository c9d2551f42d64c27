//! The remote actor and key documents the inbox fetches to verify an activity's signature.

use serde_json::Value;

use super::{ACTOR_TYPES, Invalid, MAX_LIST_ITEMS, checked_id, id_field, invalid, link, reference, type_of};

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
