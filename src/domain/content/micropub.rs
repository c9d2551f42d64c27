//! Micropub requests (W3C Recommendation, issue 37, docs/api.md "Micropub") read into one
//! shape, whichever syntax carried them: form-encoded (`h=entry&content=...&category[]=a`, also
//! the fields of a multipart request) or JSON (`{"type": ["h-entry"], "properties": {...}}`,
//! `{"action": "update", "url", "replace", "add", "delete"}`). Then the properties Quire
//! understands are read into [`Fields`]: what a post is made of. Properties Quire has no place
//! for are ignored, as the specification allows; a property of the wrong shape is refused.
//!
//! The refusals here are the `error_description` of a 400 `invalid_request`.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

/// A post's properties by name, each a list of values (strings, or objects such as
/// `{"html": ...}`, `{"value", "alt"}` or a nested microformats object).
pub type Properties = BTreeMap<String, Vec<Value>>;

/// Photos one request may carry (each one downloaded or uploaded).
pub const MAX_PHOTOS: usize = 10;
/// Values one property may have.
pub const MAX_VALUES: usize = 100;

/// What a request asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// A new post with these properties.
    Create(Properties),
    /// Changes to the post at `url`.
    Update {
        /// The post's URL.
        url: String,
        /// Properties whose values are replaced.
        replace: Properties,
        /// Values added to properties.
        add: Properties,
        /// Properties removed whole.
        delete_properties: Vec<String>,
        /// Values removed from properties.
        delete_values: Properties,
    },
    /// The post at `url` goes to the trash.
    Delete {
        /// The post's URL.
        url: String,
    },
    /// The post at `url` comes back from the trash.
    Undelete {
        /// The post's URL.
        url: String,
    },
}

/// Reads a form-encoded request (or a multipart request's text fields): `h`, `action` and
/// `url` say what to do, `access_token` is the credential (never a property), every other
/// field a property (`name[]` and repeated names adding values).
pub fn from_form(pairs: &[(String, String)]) -> Result<Action, String> {
    let mut properties = Properties::new();
    let (mut kind, mut action, mut url) = (None, None, None);
    for (key, value) in pairs {
        let key = key.strip_suffix("[]").unwrap_or(key);
        match key {
            "access_token" => {}
            "h" => kind = Some(value.as_str()),
            "action" => action = Some(value.as_str()),
            "url" => url = Some(value.clone()),
            _ if key.contains(['[', ']']) => {
                return Err(format!("The field {key} is not understood: send objects as JSON"));
            }
            _ => {
                let values = properties.entry(key.to_owned()).or_default();
                if values.len() >= MAX_VALUES {
                    return Err(format!("The property {key} has more than {MAX_VALUES} values"));
                }
                values.push(Value::String(value.clone()));
            }
        }
    }
    match action {
        None => {
            check_kind(kind.unwrap_or("entry"))?;
            if let Some(url) = url {
                properties.insert("url".to_owned(), vec![Value::String(url)]);
            }
            Ok(Action::Create(properties))
        }
        Some("update") => Err("Send an update as JSON (application/json)".to_owned()),
        Some(other) => url_action(other, url),
    }
}

/// Reads a JSON request.
pub fn from_json(body: &Value) -> Result<Action, String> {
    let Some(object) = body.as_object() else {
        return Err("The body must be a JSON object".to_owned());
    };
    if let Some(action) = object.get("action") {
        let action = action.as_str().ok_or("action must be a string")?;
        let url = match object.get("url") {
            None => None,
            Some(Value::String(url)) => Some(url.clone()),
            Some(_) => return Err("url must be a string".to_owned()),
        };
        if action != "update" {
            return url_action(action, url);
        }
        let url = url.ok_or("An update needs the post's url")?;
        let replace = operation(object, "replace")?;
        let add = operation(object, "add")?;
        let (delete_properties, delete_values) = match object.get("delete") {
            None => (Vec::new(), Properties::new()),
            Some(Value::Array(names)) => {
                let names = names
                    .iter()
                    .map(|name| name.as_str().map(str::to_owned))
                    .collect::<Option<Vec<_>>>()
                    .ok_or("delete must list property names, or map names to the values to remove")?;
                (names, Properties::new())
            }
            Some(Value::Object(map)) => (Vec::new(), properties_of(map, "delete")?),
            Some(_) => return Err("delete must be an array of property names or an object".to_owned()),
        };
        if replace.is_empty() && add.is_empty() && delete_properties.is_empty() && delete_values.is_empty() {
            return Err("An update needs replace, add or delete".to_owned());
        }
        return Ok(Action::Update { url, replace, add, delete_properties, delete_values });
    }
    let kind = match object.get("type") {
        None => "h-entry",
        Some(Value::Array(types)) if types.len() == 1 => types[0].as_str().ok_or("type must list strings")?,
        Some(_) => return Err("type must be a list with one type, [\"h-entry\"]".to_owned()),
    };
    check_kind(kind.strip_prefix("h-").unwrap_or(kind))?;
    let properties = match object.get("properties") {
        Some(Value::Object(map)) => properties_of(map, "properties")?,
        Some(_) => return Err("properties must be an object".to_owned()),
        None => return Err("A new post needs its properties".to_owned()),
    };
    Ok(Action::Create(properties))
}

/// Only h-entry posts are made.
fn check_kind(kind: &str) -> Result<(), String> {
    if kind == "entry" { Ok(()) } else { Err(format!("Quire makes h-entry posts, not h-{kind}")) }
}

/// A delete or undelete of the post at `url`.
fn url_action(action: &str, url: Option<String>) -> Result<Action, String> {
    let url = url.ok_or_else(|| format!("A {action} needs the post's url"))?;
    match action {
        "delete" => Ok(Action::Delete { url }),
        "undelete" => Ok(Action::Undelete { url }),
        other => Err(format!("Unknown action {other:?}: the actions are update, delete and undelete")),
    }
}

/// An update's `replace` or `add`: an object whose every value is an array.
fn operation(object: &Map<String, Value>, name: &str) -> Result<Properties, String> {
    match object.get(name) {
        None => Ok(Properties::new()),
        Some(Value::Object(map)) => properties_of(map, name),
        Some(_) => Err(format!("{name} must be an object of properties")),
    }
}

/// A JSON object of properties, each an array of values.
fn properties_of(map: &Map<String, Value>, context: &str) -> Result<Properties, String> {
    let mut properties = Properties::new();
    for (name, values) in map {
        let Value::Array(values) = values else {
            return Err(format!("{context}.{name} must be an array of values"));
        };
        if values.len() > MAX_VALUES {
            return Err(format!("The property {name} has more than {MAX_VALUES} values"));
        }
        properties.insert(name.clone(), values.clone());
    }
    Ok(properties)
}

/// The text of a post: plain text or Markdown, or HTML (converted as an import's, never
/// stored as it is).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content {
    /// Plain text, read as Markdown.
    Text(String),
    /// HTML.
    Html(String),
}

/// A photo by URL, with its alt text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Photo {
    /// Where it is: this instance's upload, or another site's image to download.
    pub url: String,
    /// What it shows.
    pub alt: String,
}

/// A link the post is about (`bookmark-of`, `like-of`, `repost-of`, `in-reply-to`, or a
/// nested object with a `url`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// Its URL.
    pub url: String,
    /// Its text.
    pub title: String,
}

/// `post-status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// A draft.
    Draft,
    /// Published (or scheduled, with `published` in the future).
    Published,
}

/// What a post is made of, read from its properties.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Fields {
    /// `name`: its title.
    pub name: Option<String>,
    /// `content` (or `summary` when there is no content).
    pub content: Option<Content>,
    /// `photo`.
    pub photos: Vec<Photo>,
    /// Links it is about.
    pub links: Vec<Link>,
    /// `category`: its tags.
    pub categories: Vec<String>,
    /// `post-status`.
    pub status: Option<Status>,
    /// `published`, as sent.
    pub published: Option<String>,
    /// `mp-slug`.
    pub slug: Option<String>,
    /// `visibility`: `public` or `unlisted`.
    pub visibility: Option<String>,
}

/// The one string of a single-valued property, if it has one.
fn single<'a>(properties: &'a Properties, name: &str) -> Result<Option<&'a str>, String> {
    match properties.get(name).map(Vec::as_slice) {
        None | Some([]) => Ok(None),
        Some([Value::String(value)]) => Ok(Some(value.as_str())),
        Some([_]) => Err(format!("{name} must be a string")),
        Some(_) => Err(format!("{name} takes one value")),
    }
}

/// The properties Quire makes a post of.
pub fn fields(properties: &Properties) -> Result<Fields, String> {
    let name = single(properties, "name")?.map(str::trim).filter(|n| !n.is_empty()).map(str::to_owned);
    let content = match properties.get("content").map(Vec::as_slice) {
        None | Some([]) => match single(properties, "summary")? {
            Some(summary) if !summary.trim().is_empty() => Some(Content::Text(summary.to_owned())),
            _ => None,
        },
        Some([value]) => content_of(value)?,
        Some(_) => return Err("content takes one value".to_owned()),
    };
    let mut photos = Vec::new();
    for value in properties.get("photo").into_iter().flatten() {
        photos.push(photo_of(value)?);
    }
    if photos.len() > MAX_PHOTOS {
        return Err(format!("A post can have at most {MAX_PHOTOS} photos from one request"));
    }
    let mut links = Vec::new();
    for property in ["bookmark-of", "like-of", "repost-of", "in-reply-to"] {
        for value in properties.get(property).into_iter().flatten() {
            links.push(link_of(property, value)?);
        }
    }
    for (property, values) in properties {
        if matches!(property.as_str(), "bookmark-of" | "like-of" | "repost-of" | "in-reply-to" | "category") {
            continue;
        }
        // A nested object with an address (Micropub Rocks 204): kept as a link to it.
        for value in values {
            if let Some(link) = nested_link(value) {
                links.push(link);
            }
        }
    }
    let categories = properties
        .get("category")
        .into_iter()
        .flatten()
        // A person tagged (a nested h-card) is no tag.
        .filter_map(|value| value.as_str().map(str::to_owned))
        .collect();
    let status = match single(properties, "post-status")? {
        None => None,
        Some("draft") => Some(Status::Draft),
        Some("published") => Some(Status::Published),
        Some(other) => return Err(format!("post-status {other:?}: it is draft or published")),
    };
    let published = single(properties, "published")?.map(str::to_owned);
    let slug = single(properties, "mp-slug")?.map(str::to_owned);
    let visibility = match single(properties, "visibility")? {
        None => None,
        Some(v @ ("public" | "unlisted")) => Some(v.to_owned()),
        Some(other) => return Err(format!("visibility {other:?}: a Quire post is public or unlisted")),
    };
    Ok(Fields { name, content, photos, links, categories, status, published, slug, visibility })
}

/// `"text"`, `{"html": ...}` or `{"value": ...}`; empty content is none.
fn content_of(value: &Value) -> Result<Option<Content>, String> {
    let content = match value {
        Value::String(text) => Content::Text(text.clone()),
        Value::Object(map) => match (map.get("html"), map.get("value")) {
            (Some(Value::String(html)), _) => Content::Html(html.clone()),
            (None, Some(Value::String(text))) => Content::Text(text.clone()),
            _ => return Err("content must be a string, {\"html\": ...} or {\"value\": ...}".to_owned()),
        },
        _ => return Err("content must be a string, {\"html\": ...} or {\"value\": ...}".to_owned()),
    };
    let empty = match &content {
        Content::Text(text) | Content::Html(text) => text.trim().is_empty(),
    };
    Ok((!empty).then_some(content))
}

/// `"url"` or `{"value": url, "alt": text}`.
fn photo_of(value: &Value) -> Result<Photo, String> {
    match value {
        Value::String(url) => Ok(Photo { url: url.clone(), alt: String::new() }),
        Value::Object(map) => match (map.get("value"), map.get("alt")) {
            (Some(Value::String(url)), None) => Ok(Photo { url: url.clone(), alt: String::new() }),
            (Some(Value::String(url)), Some(Value::String(alt))) => Ok(Photo { url: url.clone(), alt: alt.clone() }),
            _ => Err("photo must be a URL or {\"value\": URL, \"alt\": text}".to_owned()),
        },
        _ => Err("photo must be a URL or {\"value\": URL, \"alt\": text}".to_owned()),
    }
}

/// A URL, or a nested object with one.
fn link_of(property: &str, value: &Value) -> Result<Link, String> {
    match value {
        Value::String(url) => Ok(Link { url: url.clone(), title: String::new() }),
        _ => nested_link(value).ok_or_else(|| format!("{property} must be a URL or an object with a url")),
    }
}

/// The `url` (and `name`) of a nested microformats object.
fn nested_link(value: &Value) -> Option<Link> {
    let properties = value.get("properties")?.as_object()?;
    let first = |name: &str| properties.get(name)?.as_array()?.first()?.as_str().map(str::to_owned);
    Some(Link { url: first("url")?, title: first("name").unwrap_or_default() })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    #[test]
    fn a_form_creates_with_repeated_and_bracketed_values_and_never_keeps_the_token() {
        let form = pairs(&[
            ("h", "entry"),
            ("content", "Hello"),
            ("category[]", "a"),
            ("category[]", "b"),
            ("category", "c"),
            ("access_token", "secret"),
        ]);
        let Action::Create(properties) = from_form(&form).unwrap() else { panic!("not a create") };
        assert_eq!(properties["category"], vec![json!("a"), json!("b"), json!("c")]);
        assert!(!properties.contains_key("access_token"));
        let fields = fields(&properties).unwrap();
        assert_eq!(fields.content, Some(Content::Text("Hello".into())));
        assert_eq!(fields.categories, ["a", "b", "c"]);
        assert!(from_form(&pairs(&[("h", "card"), ("name", "x")])).is_err());
        assert!(from_form(&pairs(&[("action", "update"), ("url", "u")])).is_err());
        assert_eq!(
            from_form(&pairs(&[("action", "delete"), ("url", "https://a.example/p")])).unwrap(),
            Action::Delete { url: "https://a.example/p".into() }
        );
        assert!(from_form(&pairs(&[("action", "delete")])).is_err());
        assert!(from_form(&pairs(&[("action", "explode"), ("url", "u")])).is_err());
    }

    #[test]
    fn json_creates_and_updates_must_use_arrays() {
        let create = json!({"type": ["h-entry"], "properties": {
            "name": ["Title"], "content": [{"html": "<p>Hi</p>"}],
            "photo": [{"value": "https://x.example/a.jpg", "alt": "A cat"}, "https://x.example/b.jpg"],
            "category": ["a", {"type": ["h-card"], "properties": {"name": ["Bob"]}}],
            "checkin": [{"type": ["h-card"], "properties": {"name": ["Cafe"], "url": ["https://cafe.example"]}}]
        }});
        let Action::Create(properties) = from_json(&create).unwrap() else { panic!("not a create") };
        let fields = fields(&properties).unwrap();
        assert_eq!(fields.name.as_deref(), Some("Title"));
        assert_eq!(fields.content, Some(Content::Html("<p>Hi</p>".into())));
        assert_eq!(fields.photos[0], Photo { url: "https://x.example/a.jpg".into(), alt: "A cat".into() });
        assert_eq!(fields.photos[1].alt, "");
        assert_eq!(fields.categories, ["a"]);
        assert_eq!(fields.links, [Link { url: "https://cafe.example".into(), title: "Cafe".into() }]);

        assert!(from_json(&json!({"type": ["h-entry"], "properties": {"content": "not a list"}})).is_err());
        assert!(from_json(&json!({"type": ["h-event"], "properties": {}})).is_err());
        // Micropub Rocks 405: an operation whose values are not arrays.
        assert!(from_json(&json!({"action": "update", "url": "u", "replace": {"content": "x"}})).is_err());
        assert!(from_json(&json!({"action": "update", "url": "u", "replace": ["content"]})).is_err());
        assert!(from_json(&json!({"action": "update", "url": "u"})).is_err());
        let update = json!({"action": "update", "url": "u", "add": {"category": ["c"]}, "delete": ["photo"]});
        assert_eq!(
            from_json(&update).unwrap(),
            Action::Update {
                url: "u".into(),
                replace: Properties::new(),
                add: [("category".to_owned(), vec![json!("c")])].into(),
                delete_properties: vec!["photo".into()],
                delete_values: Properties::new(),
            }
        );
        assert_eq!(
            from_json(&json!({"action": "undelete", "url": "u"})).unwrap(),
            Action::Undelete { url: "u".into() }
        );
    }

    #[test]
    fn fields_refuse_shapes_quire_cannot_keep() {
        let with = |name: &str, values: Value| -> Properties {
            [(name.to_owned(), values.as_array().unwrap().clone())].into()
        };
        assert!(fields(&with("post-status", json!(["hidden"]))).is_err());
        assert!(fields(&with("visibility", json!(["private"]))).is_err());
        assert!(fields(&with("name", json!(["a", "b"]))).is_err());
        assert!(fields(&with("content", json!([{"markup": "x"}]))).is_err());
        assert!(fields(&with("photo", json!([42]))).is_err());
        let many: Vec<Value> = (0..=MAX_PHOTOS).map(|i| json!(format!("https://x.example/{i}.jpg"))).collect();
        assert!(fields(&with("photo", Value::Array(many))).is_err());
        assert_eq!(fields(&with("content", json!(["  "]))).unwrap().content, None);
        assert_eq!(
            fields(&with("summary", json!(["Weighed 70 kg"]))).unwrap().content,
            Some(Content::Text("Weighed 70 kg".into()))
        );
        assert_eq!(fields(&with("post-status", json!(["draft"]))).unwrap().status, Some(Status::Draft));
    }
}
