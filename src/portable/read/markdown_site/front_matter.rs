//! Front matter, the settings block at the top of a Markdown file: YAML between `---` lines
//! (Jekyll, Hugo, Obsidian), TOML between `+++` lines (Hugo, Zola) or a JSON object (Hugo).
//! YAML is read from the parser's events into plain values, refusing aliases, so that a
//! billion-laughs document can't expand; every kind is capped in size and depth.

use serde_json::{Map, Value};
use time::OffsetDateTime;
use yaml_rust2::parser::{Event, Parser};
use yaml_rust2::scanner::TScalarStyle;

use crate::domain::blog::time_zone::TimeZone;
use crate::portable::read::dates;

/// Longest front matter read, in bytes.
const MAX_BYTES: usize = 256 * 1024;
/// Deepest nesting of lists and maps in it.
const MAX_DEPTH: usize = 32;

/// The fields of a file's front matter, keys lowercased.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct FrontMatter(Map<String, Value>);

/// The front matter of `text` and the body after it (all of `text` when it has none).
pub(crate) fn split(text: &str) -> Result<(FrontMatter, &str), String> {
    let (fields, body) = if let Some((head, body)) = fenced(text, "---") {
        (yaml(head)?, body)
    } else if let Some((head, body)) = fenced(text, "+++") {
        (toml(head)?, body)
    } else if text.trim_start().starts_with('{') {
        json(text)?
    } else {
        return Ok((FrontMatter::default(), text));
    };
    let fields = fields.into_iter().map(|(k, v)| (k.to_lowercase(), v)).collect();
    Ok((FrontMatter(fields), body))
}

/// A site's settings file (`_config.yml`, `hugo.toml`, `config.toml`): YAML, or TOML when
/// `toml`, read with the same guards as front matter.
pub(crate) fn config(text: &str, toml: bool) -> Result<FrontMatter, String> {
    let fields = if toml { self::toml(text)? } else { yaml(text)? };
    Ok(FrontMatter(fields.into_iter().map(|(k, v)| (k.to_lowercase(), v)).collect()))
}

/// `text` cut at a front matter fenced by `fence` lines: its inside and what follows.
fn fenced<'t>(text: &'t str, fence: &str) -> Option<(&'t str, &'t str)> {
    let rest = text.strip_prefix(fence)?;
    let rest = rest.strip_prefix("\r\n").or_else(|| rest.strip_prefix('\n'))?;
    let mut at = 0;
    for line in rest.split_inclusive('\n') {
        let trimmed = line.trim_end();
        if trimmed == fence || (fence == "---" && trimmed == "...") {
            return Some((&rest[..at], &rest[at + line.len()..]));
        }
        at += line.len();
        if at > MAX_BYTES {
            return None;
        }
    }
    None
}

fn too_long(head: &str) -> Result<(), String> {
    if head.len() > MAX_BYTES { Err(format!("it is over {} KB", MAX_BYTES / 1024)) } else { Ok(()) }
}

fn yaml(head: &str) -> Result<Map<String, Value>, String> {
    enum Open {
        List(Vec<Value>),
        Map(Map<String, Value>, Option<String>),
    }
    fn place(stack: &mut [Open], root: &mut Option<Value>, value: Value) {
        match stack.last_mut() {
            None => *root = Some(value),
            Some(Open::List(items)) => items.push(value),
            Some(Open::Map(map, key)) => match key.take() {
                Some(key) => {
                    map.insert(key, value);
                }
                None => {
                    *key = Some(match value {
                        Value::String(s) => s,
                        other => other.to_string(),
                    })
                }
            },
        }
    }
    too_long(head)?;
    let mut parser = Parser::new_from_str(head);
    let mut stack: Vec<Open> = Vec::new();
    let mut root = None;
    loop {
        let (event, _) = parser.next_token().map_err(|err| format!("its YAML is not valid ({err})"))?;
        match event {
            Event::DocumentEnd | Event::StreamEnd => break,
            Event::Alias(_) => return Err("it uses YAML aliases (*name), which Quire does not read".to_owned()),
            Event::Scalar(text, style, ..) => place(&mut stack, &mut root, scalar(text, style)),
            Event::SequenceStart(..) | Event::MappingStart(..) => {
                if stack.len() >= MAX_DEPTH {
                    return Err("it nests too deeply".to_owned());
                }
                stack.push(if matches!(event, Event::SequenceStart(..)) {
                    Open::List(Vec::new())
                } else {
                    Open::Map(Map::new(), None)
                });
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let value = match stack.pop() {
                    Some(Open::List(items)) => Value::Array(items),
                    Some(Open::Map(map, _)) => Value::Object(map),
                    None => continue,
                };
                place(&mut stack, &mut root, value);
            }
            _ => {}
        }
    }
    match root {
        Some(Value::Object(map)) => Ok(map),
        None | Some(Value::Null) => Ok(Map::new()),
        Some(_) => Err("it is not a list of fields".to_owned()),
    }
}

/// A YAML scalar as a value: plain `true`, `false`, `null` and numbers are typed, the rest text.
fn scalar(text: String, style: TScalarStyle) -> Value {
    if style != TScalarStyle::Plain {
        return Value::String(text);
    }
    match text.as_str() {
        "true" | "True" | "TRUE" => Value::Bool(true),
        "false" | "False" | "FALSE" => Value::Bool(false),
        "" | "~" | "null" | "Null" | "NULL" => Value::Null,
        _ => match text.parse::<i64>() {
            Ok(n) => Value::from(n),
            Err(_) => Value::String(text),
        },
    }
}

fn toml(head: &str) -> Result<Map<String, Value>, String> {
    fn convert(value: toml::Value, depth: usize) -> Value {
        match value {
            toml::Value::String(s) => Value::String(s),
            toml::Value::Integer(n) => Value::from(n),
            toml::Value::Float(f) => Value::from(f),
            toml::Value::Boolean(b) => Value::Bool(b),
            toml::Value::Datetime(at) => Value::String(at.to_string()),
            toml::Value::Array(items) if depth < MAX_DEPTH => {
                Value::Array(items.into_iter().map(|v| convert(v, depth + 1)).collect())
            }
            toml::Value::Table(table) if depth < MAX_DEPTH => {
                Value::Object(table.into_iter().map(|(k, v)| (k, convert(v, depth + 1))).collect())
            }
            _ => Value::Null,
        }
    }
    too_long(head)?;
    let table: toml::Table =
        head.parse().map_err(|err: toml::de::Error| format!("its TOML is not valid ({})", err.message()))?;
    Ok(table.into_iter().map(|(k, v)| (k, convert(v, 0))).collect())
}

fn json(text: &str) -> Result<(Map<String, Value>, &str), String> {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Map<String, Value>>();
    match stream.next() {
        Some(Ok(map)) => {
            let end = stream.byte_offset();
            too_long(&text[..end])?;
            Ok((map, &text[end..]))
        }
        _ => Err("its JSON is not valid".to_owned()),
    }
}

impl FrontMatter {
    fn get(&self, key: &str) -> Option<&Value> {
        self.0.get(key).filter(|v| !v.is_null())
    }

    /// A text field (a number or a date given bare is written as text too).
    pub(crate) fn text(&self, key: &str) -> Option<String> {
        match self.get(key)? {
            Value::String(s) => Some(s.trim().to_owned()).filter(|s| !s.is_empty()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        }
    }

    /// A yes/no field (`true`, or the text `"true"`).
    pub(crate) fn flag(&self, key: &str) -> Option<bool> {
        match self.get(key)? {
            Value::Bool(b) => Some(*b),
            Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
                "true" | "yes" => Some(true),
                "false" | "no" => Some(false),
                _ => None,
            },
            _ => None,
        }
    }

    /// A list field: a list of texts, or one text (Jekyll's `tags: a b` splits at spaces,
    /// `categories: a, b` at commas).
    pub(crate) fn list(&self, key: &str) -> Vec<String> {
        match self.get(key) {
            Some(Value::Array(items)) => items
                .iter()
                .filter_map(|item| match item {
                    Value::String(s) => Some(s.trim().to_owned()),
                    Value::Number(n) => Some(n.to_string()),
                    _ => None,
                })
                .filter(|s| !s.is_empty())
                .collect(),
            Some(Value::String(s)) if s.contains(',') => {
                s.split(',').map(|p| p.trim().to_owned()).filter(|p| !p.is_empty()).collect()
            }
            Some(Value::String(s)) => s.split_whitespace().map(str::to_owned).collect(),
            _ => Vec::new(),
        }
    }

    /// A date field, local times in `zone`.
    pub(crate) fn date(&self, key: &str, zone: Option<&TimeZone>) -> Option<OffsetDateTime> {
        self.text(key).and_then(|text| dates::parse_in(&text, zone))
    }

    /// A table field (Hugo's `[permalinks]`), its keys lowercased.
    pub(crate) fn table(&self, key: &str) -> FrontMatter {
        match self.get(key) {
            Some(Value::Object(map)) => FrontMatter(map.iter().map(|(k, v)| (k.to_lowercase(), v.clone())).collect()),
            _ => FrontMatter::default(),
        }
    }

    /// A field inside a table (`[taxonomies]` in Zola: `taxonomies.tags`).
    pub(crate) fn nested_list(&self, table: &str, key: &str) -> Vec<String> {
        match self.get(table) {
            Some(Value::Object(map)) => FrontMatter(map.clone()).list(key),
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;

    #[test]
    fn yaml_toml_and_json_front_matter_are_read() {
        let (fm, body) = split("---\ntitle: \"Hello: world\"\ndate: 2019-01-02 10:00:00 +0200\ndraft: true\ntags: [rust, \"web dev\"]\ncategories:\n  - Travel\nSlug: hi\n---\n# Body\n").unwrap();
        assert_eq!(body, "# Body\n");
        assert_eq!(fm.text("title").as_deref(), Some("Hello: world"));
        assert_eq!(fm.date("date", None), Some(datetime!(2019-01-02 08:00 UTC)));
        assert_eq!(fm.flag("draft"), Some(true));
        assert_eq!(fm.list("tags"), ["rust", "web dev"]);
        assert_eq!(fm.list("categories"), ["Travel"]);
        assert_eq!(fm.text("slug").as_deref(), Some("hi"), "keys are case-insensitive");

        let (fm, body) =
            split("+++\ntitle = \"T\"\ndate = 2019-01-02T10:00:00Z\n[taxonomies]\ntags = [\"a\"]\n+++\nBody").unwrap();
        assert_eq!(body, "Body");
        assert_eq!(fm.date("date", None), Some(datetime!(2019-01-02 10:00 UTC)));
        assert_eq!(fm.nested_list("taxonomies", "tags"), ["a"]);

        let (fm, body) = split("{\n\"title\": \"J\", \"tags\": [\"x\"]\n}\nBody").unwrap();
        assert_eq!((fm.text("title").as_deref(), body), (Some("J"), "\nBody"));

        let (fm, body) = split("No front matter\n---\n").unwrap();
        assert_eq!((fm, body), (FrontMatter::default(), "No front matter\n---\n"));
        assert_eq!(split("---\ntags: one two\n---\n").unwrap().0.list("tags"), ["one", "two"]);
    }

    #[test]
    fn hostile_yaml_is_refused_not_expanded() {
        let laughs = "---\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n---\n";
        assert_eq!(split(laughs).unwrap_err(), "it uses YAML aliases (*name), which Quire does not read");
        let deep = format!("---\na: {}{}\n---\n", "[".repeat(100), "]".repeat(100));
        assert_eq!(split(&deep).unwrap_err(), "it nests too deeply");
        assert!(split("---\na: [unclosed\n---\n").unwrap_err().starts_with("its YAML is not valid"));
        assert!(split("+++\na = \n+++\n").unwrap_err().starts_with("its TOML is not valid"));
    }
}
